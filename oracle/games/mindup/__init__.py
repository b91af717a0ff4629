"""Mind Up!'s entry in the game registry (oracle.games): its name, replay
format, editions, readings and clause catalogue, and where its engine,
verifier, self-play and annotation live (imported when used).

The game: 3 to 6 players choose a card at the same time and in secret, then
all are revealed; the k-th lowest card played takes the k-th card of the
central line, which goes on the player's Score cards; three rounds, a new
Score order each round, bonus and malus bubbles, and an optional variant of
14 bonus objectives. Layout: cards (data), readings and clauses (the
catalogue spec/mind-up/clauses.yaml), engine/ (the rules), replay/ (the
mu-replay/1 format, the verifier, self-play, annotate).
"""

from __future__ import annotations

NAME = "mind-up"
TITLE = "Mind Up!"
FORMAT = "mu-replay/1"
EDITIONS: tuple[str, ...] = ("fr",)
EDITION_TITLES = {"fr": "French rulebook (Catch Up Games, 2023)"}
RULEBOOKS = {"fr": "mindup-rules-fr.txt"}

EDITIONS_LISTING = "oracle.games.mindup.listing:editions_listing"
VERIFY = "oracle.games.mindup.replay.verifier:verify_game"
CONSISTENCY = "oracle.games.mindup.replay.verifier:consistency"
SELFPLAY = "oracle.games.mindup.replay.selfplay:selfplay_lines"
ANNOTATE = "oracle.games.mindup.replay.annotate:annotate_game"
SCHEMA = "oracle.games.mindup.replay.format:replay_schema"
HUNT = "oracle.games.mindup.hunt.command:hunt_game"
SERVE = "oracle.games.mindup.harness.serve:handle"
PERFT = "oracle.games.mindup.harness.commands:perft"
CONFORM = "oracle.games.mindup.harness.commands:conform"
RPC_RESPONSE = "oracle.games.mindup.harness.protocol:Response"
HARNESS_SCHEMA = "oracle.games.mindup.harness.schemas:harness_schema"
FUZZ = "oracle.games.mindup.fuzz.targets"              # a module: SHARES, targets(...)
FUZZ_WORDS = "oracle.games.mindup.fuzz.words:WORDS"
FUZZ_LEGAL = "oracle.games.mindup.fuzz.strategies:legal_step"


def load_catalogue():
    from .clauses import load_catalogue as load
    return load()


def editions() -> tuple[str, ...]:
    return EDITIONS


def all_readings():
    from .readings import READINGS
    return READINGS
