"""Mindbug: its entry in the game registry, and the package of its rules.

The package holds the reference engine (`engine`), the cards of every set and
their abilities (`cards`), the rulebook editions (`editions`) and the team's
readings (`readings`, `beyond_readings`), its clause catalogue (`clauses`),
what `editions` and `cards` list of it (`listing`), its replay vocabulary
(`replay`: the mb-replay/1 format, the verifier, self-play, annotate, its
samples of replays/ and the corpora `bench` counts), its
hunts (`hunt`: the rules read as constraints, the search, the hunts of
declared cards and of the later sets), its fuzz targets (`fuzz`), its
harness (`harness`: its service and protocol structs, starts, perft,
conform's campaign, lockstep, shrinking, root causes, the protocols'
schemas), its scenario vocabulary (`scenarios`: the structs of a
scenario, its loader and runner) and its board on the HTML report
(`board`).

This module is imported with every module of the package: it imports nothing
at load, so the registry costs a game nothing until it is used."""

from __future__ import annotations

NAME = "mindbug"
TITLE = "Mindbug"
FORMAT = "mb-replay/1"

# Where each part lives ("module:attribute"), imported when used.
EDITION_IDS = "oracle.games.mindbug.editions:EDITIONS"
EDITIONS_LISTING = "oracle.games.mindbug.listing:editions_listing"
CARDS_LISTING = "oracle.games.mindbug.listing:cards_listing"
VERIFY = "oracle.games.mindbug.replay.verify:verify_game"
CONSISTENCY = "oracle.games.mindbug.replay.verify:consistency"
SELFPLAY = "oracle.games.mindbug.replay.selfplay:selfplay_lines"
SELFPLAY_OPTIONS = "oracle.games.mindbug.replay.selfplay:selfplay_options"
INVARIANT_BROKEN = "oracle.games.mindbug.replay.selfplay:InvariantBroken"
CARD_SCHEMA = "oracle.games.mindbug.cards.declared:card_schema"
SCHEMA = "oracle.games.mindbug.replay.format:replay_schema"
DECODER = "oracle.games.mindbug.replay.format:decoder"
BENCH = "oracle.games.mindbug.replay.bench"             # a module: CORPORA, TARGETS, lines(...), broken(...)
ANNOTATE = "oracle.games.mindbug.replay.annotate:annotate_game"
SAMPLES = "oracle.games.mindbug.replay.samples:build"
HUNT = "oracle.games.mindbug.hunt.command:hunt_game"
HUNT_JOBS = "oracle.games.mindbug.hunt.budget:SHARES"
FUZZ = "oracle.games.mindbug.fuzz.targets"              # a module: SHARES, targets(...)
FUZZ_WORDS = "oracle.games.mindbug.fuzz.words:WORDS"
FUZZ_LEGAL = "oracle.games.mindbug.fuzz.rpc_strategies:legal_step"
PERFT = "oracle.games.mindbug.harness.commands:perft"
CONFORM = "oracle.games.mindbug.harness.conform:campaign"
CONFORM_OPTIONS = "oracle.games.mindbug.harness.commands:conform_options"
ENGINE_REPLY = "oracle.games.mindbug.harness.engine_protocol:reply_decoder"
HARNESS_SCHEMA = "oracle.games.mindbug.harness.schemas:harness_schema"
ID_PREFIX = ""                                          # its clause and reading ids have none: the default game's
PARSE_READING = "oracle.games.mindbug.readings:parse"
CARDS_FILE = "oracle.games.mindbug.cards.compiled:declared"
CLAUSES = "oracle.games.mindbug.clauses"                # a module: load_catalogue(), render_markdown(only), ...
SCENARIOS = "oracle.games.mindbug.scenarios"           # a module: Scenario, load_document, run, ...
SERVE = "oracle.games.mindbug.harness.serve"        # a module: read(...), answer(...)
RPC_RESPONSE = "oracle.games.mindbug.harness.protocol:Response"
BOARD = "oracle.games.mindbug.board"                    # a module: game_steps, shown_game, scenario_steps, ...
BOARD_EDIT = "oracle.games.mindbug.board.edit"          # a module: hello, board, pending, expectations, ruling, ...


def load_catalogue():
    from .clauses import load_catalogue as load
    return load()


def all_readings():
    from .readings import READINGS
    return READINGS
