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
from oracle.games.mindbug.replay.selfplay import selfplay_lines
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


def _renamed(lines: list[dict], name) -> list[dict]:
    """The same game, each card of its setup written by `name(design)`."""
    cards = lines[1]["cards"]
    for cid, n in cards.items():
        cards[cid] = name(lookup(n))
    return lines


def test_a_deal_in_french_names_or_slugs_reads_as_the_same_deal():
    # The deal's composition is checked by the names as written when each is
    # its design's own (deck.check_composition); other spellings take the
    # test by the designs' names, with the same outcome.
    plain = verify(game(), keep_going=False)
    assert plain.verdict == "conforms" and plain.decisions > 0
    for name in (lambda d: d.french, lambda d: d.slug, lambda d: d.name.upper()):
        rep = verify(_renamed(game(), name), keep_going=False)
        assert (rep.verdict, rep.decisions) == (plain.verdict, plain.decisions), [f.message for f in rep.findings]


def test_a_deal_with_a_card_too_many_is_refused_alike_whatever_its_spelling():
    def one_too_many(lines):
        cards = lines[1]["cards"]
        twice = next(n for n in cards.values() if list(cards.values()).count(n) == 2)
        once = next(c for c, n in cards.items() if list(cards.values()).count(n) == 1)
        cards[once] = twice
        return lines

    english = verify(one_too_many(game()), keep_going=False)
    french = verify(_renamed(one_too_many(game()), lambda d: d.french), keep_going=False)
    assert english.verdict == french.verdict == "violates"
    assert english.findings[0].message == french.findings[0].message
    assert "too many" in english.findings[0].message and "missing" in english.findings[0].message


def test_a_deck_short_of_a_card_is_refused_by_the_names_as_written():
    from oracle.games.mindbug.cards import full_set
    from oracle.games.mindbug.engine.errors import SetupError
    from oracle.games.mindbug.engine.deck import check_composition, resolve_cards

    names = full_set()
    cards = {i: n for i, n in enumerate(names[1:], 1)}          # every card but the first
    defs = resolve_cards(cards)
    try:
        check_composition(defs, written=cards.values())
    except SetupError as e:
        assert f"missing: {names[0]}" in e.message
    else:
        raise AssertionError("a deck short of a card passed the composition check")
    check_composition(resolve_cards(dict(enumerate(names, 1))), written=names)   # the whole deck passes


def test_revealed_cards_left_out_of_the_unused_pile_are_named_as_revealed():
    lines = game()
    setup = lines[1]
    revealed = sorted({c for pair in setup["reveals"] for c in pair})
    setup["unused"] = [c for c in setup["unused"] if c not in revealed]
    rep = verify(lines, keep_going=False)
    f = rep.findings[0]
    assert (f.code, f.line, f.clauses) == ("BAD_SETUP", 2, ["setup.deal"])
    assert f"cards dealt nowhere: {revealed}" in f.message
    assert f"revealed {revealed}" in f.message and "`unused` lists it" in f.message


def test_life_cards_outside_the_english_first_edition_are_noted_as_not_read():
    for edition, noted in (("fr-first", True), ("en-first", False)):
        lines = game(edition)
        setup = lines[1]
        revealed = {c for pair in setup["reveals"] for c in pair}
        spare = [c for c in setup["unused"] if c not in revealed]
        setup["life_cards"] = [spare[:3], spare[3:6]]
        rep = verify(lines, keep_going=False)
        said = [n for n in rep.notes if "life_cards" in n]
        assert bool(said) == noted, (edition, rep.notes)
        if noted:
            assert said[0].startswith("line 2: ") and "fr-first" in said[0] and "life.cards" in said[0]


def test_a_whole_set_dealt_but_not_named_in_sets_is_named_in_the_finding():
    lines = [json.loads(x) for x in selfplay_lines(1, 11, "en-revised", sets=("first-contact", "new-servants"))]
    del lines[0]["sets"]
    f = verify(lines, keep_going=False).findings[0]
    assert (f.code, f.line, f.clauses) == ("BAD_SETUP", 2, ["setup.components"])
    assert f.message.endswith("(every card of new-servants: the game line's sets names it)")


def test_a_game_aborted_after_a_broken_deal_is_counted_alike_with_and_without_keep_going():
    # A deal that breaks the setup rules and leaves a game to play: plainly
    # verification stops at the deal, with --keep-going it plays it as dealt;
    # both count the game the implementation aborted.
    lines = game()[:12]
    setup = lines[1]
    setup["decks"][0].append(setup["unused"].pop())        # 11 cards in player 0's draw pile
    lines.append({"t": "end", "winner": None, "reason": "aborted"})
    seen = []
    for keep_going in (False, True):
        rep = verify(lines, keep_going)
        assert rep.findings[0].line == 2 and rep.findings[0].clauses == ["setup.deal"]
        tally = Tally()
        tally.add(rep)
        seen.append((rep.aborted, tally.aborted, rep.decisions > 0))
    assert seen == [(True, 1, False), (True, 1, True)]
    # A game line alone that is no game at all counts nothing.
    assert not verify([lines[0]], False).aborted
