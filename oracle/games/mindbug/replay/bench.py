"""What `mb-oracle bench` plays of Mindbug: the corpora its instruction
count verifies (each edition, First Contact with and without New Servants),
their self-played lines, the targets of issue 45 for them, and the broken
games on which --keep-going is counted against plain verify
(oracle.replay.bench, oracle.replay.counting, tests/bench_keep_going.py)."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from ..cards import DEFAULT_SETS, check_sets
from .selfplay import selfplay_lines

# (edition, card sets) of each counted corpus, in the order of the table.
CORPORA = tuple((e, s) for s in ("first-contact", "first-contact,new-servants")
                for e in ("en-first", "fr-first", "fr-revised", "en-revised"))

# The most instructions a decision verify may cost on a corpus, compiled.
TARGETS = {("en-revised", "first-contact"): 20_000, ("en-revised", "first-contact,new-servants"): 24_000}

# What the broken games are, in the words of the bench's output.
BROKEN = "en-revised, a card of each deal left out, a life added on every third state claim"


def lines(edition: str, sets: str | None, games: int, seed: int, claims: str) -> Iterator[bytes]:
    """Random self-play of `games` games in `edition` with the card sets
    `sets` ("SET,SET"; None: the default ones)."""
    return selfplay_lines(games, seed, edition, "random", claims,
                          sets=DEFAULT_SETS if sets is None else check_sets(sets.split(",")))


def broken(games: int, seed: int = 1, every: int = 3) -> Iterator[bytes]:
    """`games` self-played games (en-revised, a state claim each turn), each
    broken all along: its deal leaves a card out (BAD_SETUP, which plain
    verify stops at and --keep-going plays past) and every `every`-th state
    claim adds a life to player 0 (a divergence, then a resumption at the
    next claim)."""
    claims = 0
    for raw in selfplay_lines(games, seed, "en-revised", "random", "turn"):
        line = msgspec.json.decode(raw)
        if line["t"] == "game":
            claims = 0
        elif line["t"] == "setup":
            line["unused"] = line["unused"][:-1]        # a card dealt nowhere
        elif line["t"] == "state":
            claims += 1
            if claims % every == 0:
                line["life"] = [line["life"][0] + 1, line["life"][1]]
        yield msgspec.json.encode(line)
