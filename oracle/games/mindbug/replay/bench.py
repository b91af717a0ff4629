"""What `mb-oracle bench` plays of Mindbug: the corpora its instruction
count verifies (each edition, First Contact with and without New Servants)
and their self-played lines (oracle.replay.bench, oracle.replay.counting)."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import DEFAULT_SETS, check_sets
from .selfplay import selfplay_lines

# (edition, card sets) of each counted corpus, in the order of the table.
CORPORA = tuple((e, s) for s in ("first-contact", "first-contact,new-servants")
                for e in ("en-first", "fr-first", "fr-revised", "en-revised"))


def lines(edition: str, sets: str | None, games: int, seed: int, claims: str) -> Iterator[bytes]:
    """Random self-play of `games` games in `edition` with the card sets
    `sets` ("SET,SET"; None: the default ones)."""
    return selfplay_lines(games, seed, edition, "random", claims,
                          sets=DEFAULT_SETS if sets is None else check_sets(sets.split(",")))
