"""The games the oracle knows: a registry of game name -> the module that
holds the game's entry, imported only when the game is used.

A game is a package: its rules engine, its clause catalogue, its editions and
readings, its cards, its replay vocabulary. Its entry module (the value
below) defines, without importing its engine:

- NAME, TITLE: the game's name in logs (`"game"` field of a game line) and
  for people;
- FORMAT: the format id of its replay logs;
- EDITIONS: its rules editions; READINGS: where the rules are silent, the
  team's reading and its alternatives (oracle.reading_type.Reading);
- load_catalogue(): its clause catalogue;
- and where its parts live, as "module:attribute" strings imported when
  used (oracle.games.attribute), among them what every game gives the
  shared replay machinery (oracle.replay), which calls them alike:
  - VERIFY: verify_game(raw, edition, keep_going, readings, basis, *,
    strict, check_invariants) -> GameReport, the report of one game;
  - CONSISTENCY: consistency(raw, readings, report) -> (editions,
    combinations), what --which-editions says of a game;
  - ANNOTATE: annotate_game(raw, out, err, edition) -> exit status, one
    game written in canonical form;
  - SAMPLES: build(out_dir) -> manifest entries, its samples of the corpus
    in replays/ written (`python -m oracle.replay.samples replays/`);
  - SELFPLAY, SCHEMA: self-played games, the JSON Schema of its lines;
    DECODER: the msgspec decoder of its lines (`bench`'s decode floor);
  - BENCH: a module with CORPORA ((edition, card sets) of each corpus
    `bench` counts; Mind Up!'s edition column is its name) and
    lines(edition, sets, games, seed, claims), their self-played lines;
  - SELFPLAY_OPTIONS: selfplay_options(edition, bot, claims,
    check_invariants, readings, sets_spec, cards_file, players, objectives)
    -> the keyword arguments of its SELFPLAY for `mb-oracle selfplay`'s
    options (`readings()` parses the --reading options), a bad one
    click.BadParameter; INVARIANT_BROKEN (Mindbug): what its self-play
    raises at a broken invariant (exit 1);
  and what the other commands hand it:
  - EDITION_IDS: its editions' ids, the choices of the shared --edition
    options (the default game's);
  - EDITIONS_LISTING: editions_listing() -> (JSON document, lines), what
    `mb-oracle editions --game` lists of it;
  - CARDS_LISTING: cards_listing(names, set_names, list_sets, cards_file)
    -> (JSON document, lines), what `mb-oracle cards --game` lists (a bad
    name or an option it does not take: click.UsageError);
  - HUNT: hunt_game(budget, seed, out, force, fmt, **options) -> exit
    status, `mb-oracle hunt` for the game (every game's options by name,
    those it does not take refused); HUNT_JOBS: the most processes of
    `hunt -j` (the default game's bound the option);
  - FUZZ: a module with SHARES (target -> share of the budget) and
    targets(...), `mb-oracle fuzz --game`; FUZZ_LEGAL: legal_step(game,
    k) -> the k-th legal step of an open game of the service as a replay
    line (None: it has none), for the fuzzed service sessions;
    FUZZ_WORDS: a dict of the words hostile values are drawn from (names,
    editions, line_types, clauses, keywords, step_keys, step_words); the
    default game's serve every game's targets, so that a seed draws the
    same values whichever game is fuzzed;
  - PERFT, CONFORM: the `perft` and `conform` verbs' work for the game
    (perft takes every game's options by name, refusing those it does not
    take); CONFORM_OPTIONS: conform_options(players, editions, scenarios,
    readings, expect, sets) -> the Settings fields it fills, or a usage
    error for an option it does not take;
  - ENGINE_REPLY: the decoder of its adapter's reply lines that no other
    names (the reply to hello among them), for the engine client;
  - HARNESS_SCHEMA: harness_schema(which), the JSON Schemas of its service
    and adapter messages;
  - SERVE: a module, its requests to `serve`: read(service, raw, data) ->
    request (the request of a line about one of its games), answer(service,
    request) -> response line (the default game's also reads a `hello`, a
    `new` naming no game and the card files of `serve --cards`:
    card_file_problems(path)); RPC_RESPONSE: the type of its responses.
  - SCENARIOS: the module of its scenario vocabulary (the mb-scenario/1
    documents whose `game` names it), which oracle.scenarios calls alike:
    EDITIONS, the editions a scenario may name (`--edition`); Scenario,
    the struct of a document (its part of `mb-oracle schema scenario`);
    load_document(data, name, loc, folders, card_files) -> (scenario, [])
    or (None, [ScenarioError]), a scenario being an object with id, file,
    line, game and editions(); run(scenario, edition, sets) -> Result.
    The default game's also reads `mb-oracle scenarios --sets` and
    `--cards`: check_sets(names) (raises UnknownSet), load_card_file(path)
    (raises CardFileError).
  - BOARD: a module, its board on the HTML report (oracle.report):
    game_steps(raw, edition, keep_going, readings, strict) -> (GameReport
    without basis, steps), a game's steps (oracle.report.steps);
    shown_game(raw, edition, keep_going) -> (GameReport with its basis,
    steps), for `mb-oracle show`; scenario_steps(sc, edition) -> steps
    with "at", or None, a failing scenario's; page_data() -> dict, what a
    page drawing its boards carries once (its cards' data); card_names(),
    the names the page's card filter offers; SCRIPT, the path of its part
    of the page's script (JavaScript drawing its boards).
  - ID_PREFIX: what its clause and reading ids start with ("mu" for Mind
    Up!; the default game's, "", takes the ids no other game claims);
  - PARSE_READING: parse_reading("CLAUSE=CHOICE") -> (clause, choice),
    raising a ValueError that names a bad one, for a `--reading` of the game;
  - CLAUSES: the module of its clause catalogue (load_catalogue(),
    render_markdown(only), EDITIONS, FULL_VIEW_CITED), `mb-oracle clauses`;
  - CARDS_FILE (Mindbug): declared(path), `--cards FILE` loaded and
    registered, a bad file a usage error (exit 2); CARD_SCHEMA: the JSON
    Schema of its card files (`mb-oracle schema cards`).

Adding a game is one new folder under oracle/games/ and one line here.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

DEFAULT = "mindbug"

# game name -> the module of its entry
GAMES: dict[str, str] = {
    "mindbug": "oracle.games.mindbug",
    "mind-up": "oracle.games.mindup",
}


# format id -> game, for a game line that names its format and not its game
# (a mu-replay/1 line is a game of Mind Up! with or without `"game": "mind-up"`)
FORMATS: dict[str, str] = {
    "mb-replay/1": "mindbug",
    "mu-replay/1": "mind-up",
}


class UnknownGame(ValueError):
    """A game name the registry does not know; the message names the known ones."""


def names() -> tuple[str, ...]:
    return tuple(GAMES)


def check(name: str) -> str:
    if name not in GAMES:
        import difflib

        near = difflib.get_close_matches(str(name), list(GAMES), n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise UnknownGame(f"unknown game {name!r}{hint} (known: {', '.join(GAMES)})")
    return name


def entry(name: str) -> ModuleType:
    """The entry module of a game (imported on first use)."""
    return importlib.import_module(GAMES[check(name)])


def attribute(name: str, what: str):
    """A part of a game, by the name its entry gives it ("module:attribute"):
    e.g. attribute("mind-up", "VERIFY") is its verify_game."""
    module, attr = getattr(entry(name), what).split(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=None)
def _named():
    """The decoder of a game line's `game` field, made on first use: the
    registry is imported by every command, msgspec only by those that read."""
    import msgspec

    class _Named(msgspec.Struct):
        game: object = DEFAULT

    return msgspec.json.Decoder(_Named)


def game_of(head: bytes) -> object:
    """The game a game line names (its `game` field; without one, the game
    whose format it names, else Mindbug). A Mindbug game line holds the
    text "game" once (its type), so it costs a few byte searches and no
    parse; any other value is returned as written (the caller reports a
    game the registry does not know)."""
    if head.count(b'"game"') < 2:
        return _game_of_format(head)
    import msgspec

    try:
        return _named().decode(head).game
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        # A broken line (cut short, a bad escape): a known game it names
        # plainly, whose verifier words the problem; else Mindbug's does.
        import re

        named = re.search(rb'"game"\s*:\s*"([a-z-]{1,40})"', head)
        game = named.group(1).decode() if named else None
        return game if game in GAMES else DEFAULT


def _game_of_format(head: bytes) -> str:
    """The game of the format a game line without `game` names: Mindbug
    unless its `format` is another game's."""
    for name, game in FORMATS.items():
        if game != DEFAULT and name.encode() in head:
            import re

            if re.search(rb'"format"\s*:\s*"' + re.escape(name.encode()) + rb'"', head):
                return game
    return DEFAULT
