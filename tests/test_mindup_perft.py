"""`mb-oracle perft --game mind-up`: the counts of spec/perft.md (a step is
a turn, one joint choice of every player), recomputed; a rules change that
alters a hand's size changes them."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.cli import main
from oracle.games.mindup.cards import colour
from oracle.games.mindup.engine import Game
from oracle.games.mindup.replay.selfplay import selfplay_lines

ROOT = Path(__file__).resolve().parents[1]


def _table() -> list[tuple[str, int, list[int | None]]]:
    text = (ROOT / "spec" / "perft.md").read_text().split("## Mind Up!")[1]
    out = []
    for row in re.findall(r"^\| (seed \d+|scenarios/\S+) \| (\d) \|(.*)\|$", text, re.M):
        start, players, counts = row
        out.append((start, int(players), [int(c) if c.strip() else None for c in counts.split("|")]))
    return out


def _count(start: str, players: int, depth: int) -> int:
    if start.startswith("seed"):
        args = ["--seed", start.split()[1], "--players", str(players)]
    else:
        path, sid = start.split("#")
        args = ["--scenario", str(ROOT / path), "--id", sid]
    res = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--depth", str(depth), "--format", "json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)["count"]


def test_the_table_holds_every_player_count():
    assert {p for s, p, _ in _table() if s.startswith("seed")} == {3, 4, 5, 6}


def _cheap(counts, depth) -> bool:
    """Recomputed when the tree has at most 5000 inner turns (the others take seconds to a minute)."""
    return depth == 1 or (counts[depth - 2] is not None and counts[depth - 2] <= 5000)


@pytest.mark.parametrize("start,players,counts", _table())
def test_counts_match_spec(start, players, counts):
    checked = 0
    for depth, want in enumerate(counts, 1):
        if want is not None and _cheap(counts, depth):
            assert _count(start, players, depth) == want, (start, depth)
            checked += 1
    assert checked


def test_divide_adds_up_and_names_turns():
    res = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--seed", "1", "--players", "3", "--depth", "2",
                                    "--divide", "--format", "json"])
    data = json.loads(res.output)
    assert len(data["divide"]) == 343 and sum(d["count"] for d in data["divide"]) == data["count"] == 74088
    assert all(d["turn"]["t"] == "turn" and len(d["turn"]["cards"]) == 3 for d in data["divide"])


def test_a_card_left_out_of_the_options_changes_the_count(monkeypatch):
    real = Game.legal
    monkeypatch.setattr(Game, "legal", lambda self, p: real(self, p)[:-1] if len(real(self, p)) > 7 else real(self, p))
    path = "scenarios/mind-up/rounds.yaml#mind-up.round.last-card-goes-to-the-columns"
    assert _count(path, 3, 1) == 8 and _count(path, 3, 2) == 8 * 7 ** 3


def test_usage_errors(tmp_path):
    r = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--depth", "1"])
    assert r.exit_code == 2 and "exactly one start" in r.output
    r = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--depth", "1", "--seed", "1", "--edition", "fr-first"])
    assert r.exit_code == 2 and "Mindbug's" in r.output
    r = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--depth", "1", "--seed", "1", "--sets", "beyond-eternity"])
    assert r.exit_code == 2 and "--sets are Mindbug's" in r.output
    r = CliRunner().invoke(main, ["perft", "--depth", "1", "--seed", "1", "--players", "3"])
    assert r.exit_code == 2 and "--players" in r.output
    r = CliRunner().invoke(main, ["perft", "--game", "go", "--depth", "1", "--seed", "1"])
    assert r.exit_code == 2 and "unknown game" in r.output
    r = CliRunner().invoke(main, ["perft", "--game", "mind-up", "--depth", "1", "--seed", "1", "--players", "3",
                                  "--show-deal"])
    assert sorted(json.loads(r.output)["deck"]) == list(range(1, 61))
    log = tmp_path / "mu.jsonl"
    log.write_bytes(b"".join(x + b"\n" for x in selfplay_lines(1, 1, 3, "random", 0)))
    r = CliRunner().invoke(main, ["perft", "--log", str(log), "--depth", "1"])
    assert r.exit_code == 2 and "a game of mind-up" in r.output and "--game mind-up" in r.output
    r = CliRunner().invoke(main, ["perft", "--scenario", str(ROOT / "scenarios/mind-up/turns.yaml"), "--id",
                                  "mind-up.turn.lowest-card-takes-the-first-line-card", "--depth", "1"])
    assert r.exit_code == 2 and "a ruling of mind-up" in r.output and "perft --game mind-up" in r.output
    assert "service" not in r.output


def _brute(hands, line, scored, pile, rnd, depth) -> int:
    """The sequences of exactly `depth` turns, counted by playing every one
    out on a model of the rules written here from the rulebook alone: each
    player lays a card from hand; the k-th lowest takes the k-th line card;
    the played cards are the new line; when every hand holds one card it goes
    on the Score cards and the round ends; rounds 2 and 3 start from the
    scored cards taken back and one pile card each (in seat order); the game
    has three rounds."""
    if depth == 0:
        return 1
    n = len(hands)
    total = 0
    for cards in itertools.product(*hands):
        ranked = sorted(range(n), key=lambda p: cards[p])
        new_hands = [[c for c in h if c != cards[p]] for p, h in enumerate(hands)]
        new_scored = [list(s) for s in scored]
        for k, p in enumerate(ranked):
            new_scored[p].append(line[k])
        new_line = sorted(cards)
        new_rnd, new_pile = rnd, list(pile)
        if all(len(h) == 1 for h in new_hands):
            for p in range(n):
                new_scored[p].append(new_hands[p].pop())
            if rnd == 3:
                total += 1 if depth == 1 else 0
                continue
            new_hands = [new_scored[p] + [new_pile[p]] for p in range(n)]
            new_scored, new_pile, new_rnd = [[] for _ in range(n)], new_pile[n:], rnd + 1
        total += _brute(new_hands, new_line, new_scored, new_pile, new_rnd, depth - 1)
    return total


@pytest.mark.parametrize("rnd,depth", [(1, 1), (1, 2), (1, 3), (2, 2), (3, 1), (3, 2), (3, 3)])
def test_counts_across_a_round_end_match_a_brute_force_count(rnd, depth):
    """From three turns before a round ends (3 players, 3 cards in hand, the
    rest of the round's cards on the Score cards), the engine's perft counts
    what every turn played out on a model of the rules gives: the last card
    is no turn, the next round's hands are a size larger, the game ends."""
    from oracle.games.mindup.engine.position import position
    from oracle.games.mindup.harness import perft as pf

    cards = iter(range(1, 61))
    hands = [[next(cards) for _ in range(3)] for _ in range(3)]
    line = [next(cards) for _ in range(3)]
    won = 7 + rnd - 1 - 3                     # the round's cards not in hand
    scored = [[next(cards) for _ in range(won)] for _ in range(3)]
    pile = list(cards)
    columns = []
    for s in scored:                          # each colour on its own Score card, from the left
        by = {}
        for c in s:
            by.setdefault(colour(c), []).append(c)
        columns.append(list(by.values()))
    g = position(hands, line, columns, [1, 2, 3, 4, 5], round=rnd, pile=pile, scores=[[0, 0, 0]] * (rnd - 1))
    want = _brute(hands, sorted(line), scored, pile, rnd, depth)
    assert pf.count(g, depth, pf.orders(1)) == want
