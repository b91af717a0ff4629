"""Broken deals under --keep-going: a deal whose tie for the first player
was shuffled back into the draw piles is played as dealt like any other
broken deal, every setup finding is kept, and a game the implementation
aborted is counted as aborted whether or not verification reached its end."""

from __future__ import annotations

import io
import json

from oracle.games.mindbug.cards import lookup
from oracle.replay.outcome import Tally
from oracle.replay.reader import split_games
from oracle.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game


def game(edition: str = "en-revised") -> list[dict]:
    return [json.loads(x) for x in selfplay_lines(1, 11, edition)]


def verify(lines: list[dict], keep_going: bool):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r, keep_going=keep_going) for r in split_games(io.BytesIO(data), "deal.jsonl")][0]


def broken(lines: list[dict]) -> list[dict]:
    """The same game, its deal broken twice: a tied pair revealed first and
    one of its cards dealt again at the bottom of player 0's draw pile, and a
    third copy of a card in the unused pile."""
    setup = lines[1]
    cards = setup["cards"]
    revealed = {c for pair in setup["reveals"] for c in pair}
    spare = [c for c in setup["unused"] if c not in revealed]
    power = {c: lookup(cards[str(c)]).power for c in spare}
    x, y = next((a, b) for a in spare for b in spare if a < b and power[a] == power[b])
    bottom = setup["decks"][0][-1]
    setup["decks"][0][-1] = x
    setup["unused"][setup["unused"].index(x)] = bottom
    setup["reveals"] = [[x, y]] + setup["reveals"]
    other = next(c for c in spare if c not in (x, y) and cards[str(c)] != cards[str(x)])
    twice = next(n for n in cards.values() if list(cards.values()).count(n) == 2)
    cards[str(other)] = twice
    return lines


def test_a_tie_dealt_again_is_played_as_dealt_and_every_setup_finding_is_kept():
    lines = broken(game())
    rep = verify(lines, keep_going=True)
    setup = [f for f in rep.findings if f.line == 2]
    clauses = sorted(c for f in setup for c in f.clauses)
    assert clauses == ["setup.components", "setup.first-player"], [(f.code, f.message) for f in setup]
    assert any("too many" in f.message for f in setup)
    assert rep.decisions > 0 and rep.verdict == "violates"
    assert any("played as dealt" in n for n in rep.notes)
    # Without --keep-going the first setup finding stops the game.
    alone = verify(lines, keep_going=False)
    assert alone.decisions == 0 and alone.findings[0].line == 2


def test_an_aborted_game_is_counted_alike_with_and_without_keep_going():
    lines = game()
    # A claim that breaks the rules early on, and an end line saying the implementation stopped.
    first_state = next(i for i, x in enumerate(lines) if x["t"] == "state")
    lines[first_state]["life"] = [1, 1]
    lines[-1] = {"t": "end", "winner": None, "reason": "aborted"}
    counts = []
    for keep_going in (False, True):
        rep = verify(lines, keep_going)
        assert rep.verdict == "violates"
        tally = Tally()
        tally.add(rep)
        counts.append((rep.aborted, tally.aborted))
    assert counts == [(True, 1), (True, 1)]
