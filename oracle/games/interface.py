"""What a game gives the core: the parts of its entry module, by name.

The core (every package outside oracle/games) reaches a game only through
its entry module (oracle.games.entry); the entry names each part it gives
as a "module:attribute" string (or a module), imported when a command uses
it (oracle.games.attribute). PARTS below is that interface, written once:
every game gives the parts marked `every`; a part marked `default` is read
only from the default game (what `--cards` and `mb-oracle schema cards`
load, say), and one marked `optional` only where a game has it.
`tests/test_games_interface.py` checks each game's entry against it.

This module imports nothing at load.
"""

from __future__ import annotations

from typing import NamedTuple


class Part(NamedTuple):
    name: str
    who: str        # "every" game gives it, the "default" game's is read, "optional"
    what: str       # what it is, and who calls it


PARTS: tuple[Part, ...] = (
    # who the game is
    Part("NAME", "every", "its name in logs (a game line's `game`) and on the command line (`--game`), a string"),
    Part("TITLE", "every", "its name for people, a string"),
    Part("FORMAT", "every", "the format id of its replay logs, a string"),
    Part("ID_PREFIX", "every", 'what its clause and reading ids start with, a string ("mu" for Mind Up!; the '
         'default game\'s, "", takes the ids no other game claims)'),
    Part("load_catalogue", "every", "load_catalogue() -> {clause id: Clause}, its clause catalogue"),
    Part("all_readings", "every", "all_readings() -> its readings (oracle.reading_type.Reading): where the "
         "rules are silent, the team's reading and its alternatives"),
    Part("EDITION_IDS", "every", "its editions' ids, the choices of the shared --edition options"),
    Part("EDITIONS_LISTING", "every", "editions_listing() -> (JSON document, lines), what `mb-oracle editions "
         "--game` lists of it"),
    Part("CARDS_LISTING", "every", "cards_listing(names, set_names, list_sets, cards_file) -> (JSON document, "
         "lines), what `mb-oracle cards --game` lists (a bad name or an option it does not take: "
         "click.UsageError)"),
    Part("CLAUSES", "every", "the module of its clause catalogue (load_catalogue(), render_markdown(only), "
         "EDITIONS, FULL_VIEW_CITED), for `mb-oracle clauses`"),
    Part("PARSE_READING", "every", 'parse("CLAUSE=CHOICE") -> (clause, choice), raising a ValueError that names '
         "a bad one, for a `--reading` of the game"),
    # its replay logs (oracle.replay calls these alike for every game)
    Part("VERIFY", "every", "verify_game(raw, edition, keep_going, readings, basis, *, strict, check_invariants) "
         "-> GameReport, the report of one game"),
    Part("CONSISTENCY", "every", "consistency(raw, readings, report) -> (editions, combinations), what "
         "--which-editions says of a game"),
    Part("ANNOTATE", "every", "annotate_game(raw, out, err, edition) -> exit status, one game written in "
         "canonical form"),
    Part("SCHEMA", "every", "replay_schema() -> the JSON Schema of its log lines"),
    Part("DECODER", "every", "the msgspec decoder of its lines (`bench`'s decode floor)"),
    Part("SELFPLAY", "every", "selfplay_lines(games, seed, ...) -> its self-played games' lines"),
    Part("SELFPLAY_OPTIONS", "every", "selfplay_options(edition, bot, claims, check_invariants, readings, "
         "sets_spec, cards_file, players, objectives) -> the keyword arguments of its SELFPLAY for `mb-oracle "
         "selfplay`'s options (edition, players and objectives None where the command line leaves them out), "
         "a bad one click.BadParameter, one of another game given click.UsageError"),
    Part("SAMPLES", "every", "build(out_dir) -> manifest entries, its samples in replays/ written "
         "(`python -m oracle.replay.samples replays/`)"),
    Part("BENCH", "every", "a module: CORPORA, the (edition, card sets) of each corpus `bench` counts, "
         "lines(edition, sets, games, seed, claims), their self-played lines, and TARGETS, the most instructions "
         "a decision of verify each may cost; the default game's also broken(games, seed), games that break "
         "the rules all along, and BROKEN, their words, on which --keep-going is counted against plain verify"),
    # its rulings (oracle.scenarios) and its board (oracle.report)
    Part("SCENARIOS", "every", "the module of its scenario vocabulary: EDITIONS, the editions a scenario may "
         "name; Scenario, the struct of a document (its part of `mb-oracle schema scenario`); "
         "load_document(data, name, loc, folders, card_files) -> (scenario, []) or (None, [ScenarioError]); "
         "run(scenario, edition, sets) -> Result. The default game's also reads `scenarios --sets` and "
         "`--cards`: check_sets(names), load_card_file(path)"),
    Part("BOARD", "every", "a module, its board on the HTML report: game_steps(raw, edition, keep_going, "
         "readings, strict) -> (GameReport, steps); shown_game(raw, edition, keep_going) -> (GameReport with its "
         "basis, steps), for `show`; scenario_steps(sc, edition) -> a failing scenario's steps, or None; "
         "page_data() -> what a page drawing its boards carries once; card_names(), the names the page's card "
         "filter offers; SCRIPT, the path of its part of the page's script"),
    Part("BOARD_EDIT", "every", "a module, its part of the board in the browser (`mb-oracle board`, "
         "oracle.board): SCRIPT, the path of its part of the page's script; DEFAULT_EDITION; hello(card_files), "
         "what the page may set up; cards(sets, card_files); size_problem(document); complete(document), a "
         "position made a scenario the loader reads; note(game, decision), words(game, decision), event(view), "
         "pending(game), refusal(view), board(game): the game as the page draws it, by card name; "
         "expectations(session), the tickable items; ruling(document, top, session, refused, expect), the "
         "ruling as an mb-scenario/1 mapping; decisions(session, apply), a scenario's steps as the service's decision "
         "lines; log_position(raw, step), a game of a replay log at a turn's start "
         "as a document"),
    # the other commands
    Part("HUNT", "every", "hunt_game(budget, seed, out, force, fmt, **options) -> exit status, `mb-oracle hunt` "
         "for the game (every game's options by name, those it does not take refused)"),
    Part("HUNT_JOBS", "every", "the most processes `hunt -j` may use for it, a number (the default game's "
         "bounds the option)"),
    Part("FUZZ", "every", "a module: SHARES (target -> share of the budget) and targets(...), `mb-oracle fuzz "
         "--game`"),
    Part("FUZZ_LEGAL", "every", "legal_step(game, k) -> the k-th legal step of an open game of the service as "
         "a replay line (None: it has none), for the fuzzed service sessions"),
    Part("FUZZ_WORDS", "every", "a dict of the words hostile values are drawn from (names, editions, "
         "line_types, clauses, keywords, step_keys, step_words); the default game's serve every game's "
         "targets, so that a seed draws the same values whichever game is fuzzed"),
    Part("PERFT", "every", "the `perft` verb's work for the game (every game's options by name, those it does "
         "not take refused)"),
    Part("CONFORM", "every", "the `conform` verb's campaign for the game"),
    Part("CONFORM_OPTIONS", "every", "conform_options(players, editions, scenarios, readings, expect, sets) -> "
         "the Settings fields it fills, or a usage error for an option it does not take"),
    Part("ENGINE_REPLY", "every", "the decoder of its adapter's reply lines (the reply to hello among them), "
         "for the engine client"),
    Part("HARNESS_SCHEMA", "every", "harness_schema(which) -> the JSON Schemas of its service and adapter "
         "messages"),
    Part("SERVE", "every", "a module, its requests to `serve`: read(service, raw, data) -> the request of a "
         "line about one of its games; answer(service, request) -> response line. The default game's also "
         "reads a `hello`, a `new` naming no game and the card files of `serve --cards`: "
         "card_file_problems(path). open_document(service, scenario, edition) -> the reply line of a game "
         "started from a scenario already read, as its scenario start does (the board's position)"),
    Part("RPC_RESPONSE", "every", "the type of its responses to `serve`"),
    # what only some games have
    Part("INVARIANT_BROKEN", "optional", "what its self-play raises at a broken invariant of its engine "
         "(`selfplay --check-invariants`: exit 1)"),
    Part("CARDS_FILE", "default", "declared(path): `--cards FILE` loaded and registered, a bad file a usage "
         "error (exit 2)"),
    Part("CARD_SCHEMA", "default", "card_schema() -> the JSON Schema of its card files (`mb-oracle schema "
         "cards`)"),
)

BY_NAME: dict[str, Part] = {p.name: p for p in PARTS}


def missing(entry, default: bool) -> list[str]:
    """The parts `entry` should give and does not (`default`: it is the default game's)."""
    wanted = ("every", "default") if default else ("every",)
    return [p.name for p in PARTS if p.who in wanted and not hasattr(entry, p.name)]


def unknown(entry) -> list[str]:
    """The parts `entry` names (a "module:attribute" string or a module's name
    in the package) under a name this table does not know: a part the core
    would read without the interface saying so."""
    return sorted(n for n, v in vars(entry).items()
                  if n.isupper() and isinstance(v, str) and v.startswith("oracle.") and n not in BY_NAME)
