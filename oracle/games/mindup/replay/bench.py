"""What `mb-oracle bench` plays of Mind Up!: the corpus its instruction
count verifies, its self-played lines and the target of issue 45 for it
(oracle.replay.counting)."""

from __future__ import annotations

from collections.abc import Iterator

from .selfplay import selfplay_lines

# (the game, in the edition column, and its players and objectives) of the counted corpus.
CORPORA = (("mind-up", "4 players, 2 objectives"),)

# The most instructions a decision verify may cost on a corpus, compiled.
TARGETS = {("mind-up", "4 players, 2 objectives"): 60_000}


def lines(edition: str, sets: str | None, games: int, seed: int, claims: str) -> Iterator[bytes]:
    """Random self-play of `games` games of the corpus written (in `sets`)
    "N players, K objectives" (None: 4 players, without objectives)."""
    players, objectives = (4, 0) if sets is None else (int(part.split()[0]) for part in sets.split(","))
    return selfplay_lines(games, seed, players=players, objectives=objectives, claims=claims)
