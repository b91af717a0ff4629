"""Mindbug: its entry in the game registry, and the package of its rules.

The package holds the reference engine (`engine`), the cards of every set and
their abilities (`cards`), the rulebook editions (`editions`) and the team's
readings (`readings`, `beyond_readings`), its replay vocabulary
(`replay`: the mb-replay/1 format, the verifier, self-play, annotate), its
hunts (`hunt`: the rules read as constraints, the search, the hunts of
declared cards and of the later sets), its fuzz targets (`fuzz`) and most
of its harness (`harness`: starts, perft, conform's campaign, lockstep,
shrinking, root causes, the protocols' schemas). Its service and protocol
structs, its scenario runner and its board still live in the shared
packages (oracle.harness, oracle.scenarios, oracle.report), which hold both
the shared machinery and Mindbug's part of it.

This module is imported with every module of the package: it imports nothing
at load, so the registry costs a game nothing until it is used."""

from __future__ import annotations

NAME = "mindbug"
TITLE = "Mindbug"
FORMAT = "mb-replay/1"
EDITIONS: tuple[str, ...] = ("en-first", "fr-first", "fr-revised", "en-revised")

# Where each part lives ("module:attribute"), imported when used.
EDITIONS_LISTING = "oracle.games.mindbug.listing:editions_listing"
VERIFY = "oracle.games.mindbug.replay.verify:verify_game"
CONSISTENCY = "oracle.games.mindbug.replay.verify:consistency"
SELFPLAY = "oracle.games.mindbug.replay.selfplay:selfplay_lines"
SCHEMA = "oracle.games.mindbug.replay.format:replay_schema"
ANNOTATE = "oracle.games.mindbug.replay.annotate:annotate_game"
HUNT = "oracle.games.mindbug.hunt.command:hunt_game"
FUZZ = "oracle.games.mindbug.fuzz.targets"              # a module: SHARES, targets(...)
FUZZ_WORDS = "oracle.games.mindbug.fuzz.words:WORDS"
FUZZ_LEGAL = "oracle.games.mindbug.fuzz.rpc_strategies:legal_step"
PERFT = "oracle.games.mindbug.harness.commands:perft"
CONFORM = "oracle.games.mindbug.harness.conform:campaign"
HARNESS_SCHEMA = "oracle.games.mindbug.harness.schemas:harness_schema"


def load_catalogue():
    from ...clauses import load_catalogue as load
    return load()


def editions() -> tuple[str, ...]:
    from .editions import EDITIONS
    return tuple(EDITIONS)


def all_readings():
    from .readings import READINGS
    return READINGS
