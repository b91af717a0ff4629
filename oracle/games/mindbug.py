"""Mindbug's entry in the game registry: a thin pointer at the modules that
hold it today (oracle.engine, oracle.replay, oracle.clauses, oracle.editions,
oracle.readings). Nothing here is imported by Mindbug's own code paths."""

from __future__ import annotations

NAME = "mindbug"
TITLE = "Mindbug"
FORMAT = "mb-replay/1"

# Where each part lives ("module:attribute"), imported when used.
VERIFY = "oracle.replay.verify:verify_game"
SELFPLAY = "oracle.replay.selfplay:selfplay_lines"
SCHEMA = "oracle.replay.format:replay_schema"


def load_catalogue():
    from ..clauses import load_catalogue as load
    return load()


def editions() -> tuple[str, ...]:
    from ..editions import EDITIONS
    return tuple(EDITIONS)


def all_readings():
    from ..readings import READINGS
    return READINGS
