"""Mind Up!'s entry in the game registry (oracle.games): its name, replay
format, editions, readings and clause catalogue, and where its engine,
verifier, self-play and annotation live (imported when used).

The game: 3 to 6 players choose a card at the same time and in secret, then
all are revealed; the k-th lowest card played takes the k-th card of the
central line, which goes on the player's Score cards; three rounds, a new
Score order each round, bonus and malus bubbles, and an optional variant of
14 bonus objectives. Layout: cards (data), readings and clauses (the
catalogue spec/mind-up/clauses.yaml), listing (what `editions` and `cards`
list of it), engine/ (the rules), replay/ (the mu-replay/1 format, the
verifier, self-play, annotate, its samples of replays/ and the corpus
`bench` counts), scenarios/ (its
rulings as mb-scenario/1 documents: their structs, loader and runner),
board (its board on the HTML report).
"""

from __future__ import annotations

NAME = "mind-up"
TITLE = "Mind Up!"
FORMAT = "mu-replay/1"
EDITIONS: tuple[str, ...] = ("fr",)
EDITION_TITLES = {"fr": "French rulebook (Catch Up Games, 2023)"}
RULEBOOKS = {"fr": "mindup-rules-fr.txt"}

EDITION_IDS = "oracle.games.mindup:EDITIONS"
EDITIONS_LISTING = "oracle.games.mindup.listing:editions_listing"
CARDS_LISTING = "oracle.games.mindup.listing:cards_listing"
VERIFY = "oracle.games.mindup.replay.verifier:verify_game"
CONSISTENCY = "oracle.games.mindup.replay.verifier:consistency"
SELFPLAY = "oracle.games.mindup.replay.selfplay:selfplay_lines"
SELFPLAY_OPTIONS = "oracle.games.mindup.replay.selfplay:selfplay_options"
ANNOTATE = "oracle.games.mindup.replay.annotate:annotate_game"
SAMPLES = "oracle.games.mindup.replay.samples:build"
SCHEMA = "oracle.games.mindup.replay.format:replay_schema"
DECODER = "oracle.games.mindup.replay.format:decoder"
BENCH = "oracle.games.mindup.replay.bench"             # a module: CORPORA, TARGETS, lines(...)
HUNT = "oracle.games.mindup.hunt.command:hunt_game"
HUNT_JOBS = "oracle.games.mindup.hunt.command:JOBS"
SERVE = "oracle.games.mindup.harness.serve"         # a module: read(...), answer(...)
PERFT = "oracle.games.mindup.harness.commands:perft"
CONFORM = "oracle.games.mindup.harness.commands:conform"
CONFORM_OPTIONS = "oracle.games.mindup.harness.commands:conform_options"
ENGINE_REPLY = "oracle.harness.engine_protocol:hello_decoder"      # its lockstep names the decoder of the others
RPC_RESPONSE = "oracle.games.mindup.harness.protocol:Response"
HARNESS_SCHEMA = "oracle.games.mindup.harness.schemas:harness_schema"
FUZZ = "oracle.games.mindup.fuzz.targets"              # a module: SHARES, targets(...)
FUZZ_WORDS = "oracle.games.mindup.fuzz.words:WORDS"
FUZZ_LEGAL = "oracle.games.mindup.fuzz.strategies:legal_step"
ID_PREFIX = "mu"
PARSE_READING = "oracle.games.mindup.readings:parse"
CLAUSES = "oracle.games.mindup.clauses"                # a module: load_catalogue(), render_markdown(only), ...
SCENARIOS = "oracle.games.mindup.scenarios"            # a module: Scenario, load_document, run
BOARD = "oracle.games.mindup.board"                     # a module: game_steps, shown_game, scenario_steps, ...
BOARD_EDIT = "oracle.games.mindup.board_edit"           # a module: hello, board, pending, expectations, ruling, ...


def load_catalogue():
    from .clauses import load_catalogue as load
    return load()


def all_readings():
    from .readings import READINGS
    return READINGS
