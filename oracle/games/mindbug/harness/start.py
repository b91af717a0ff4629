"""Where a harness game of Mindbug starts: a deal (a replay `setup` line),
the deal of a seed, the first game of a replay log, or a scenario's
position. Its error and the scenario loader are both games'
(oracle.harness.start)."""

from __future__ import annotations

import random

import msgspec

from ....games import DEFAULT, GAMES, game_of
from ....harness.start import StartError, load_scenario
from ....replay.limits import MAX_LINE_BYTES, decode_line
from ....replay.reader import BOM, READ_ERRORS, open_log
from ....term import visible
from ..cards import DEFAULT_SETS, UnknownSet, check_sets
from ..engine import Game, SetupError
from ..engine.deck import resolve_cards
from ..readings import with_readings
from ..replay import format as fmt
from ..replay.selfplay import deal_problem, random_deal
from . import protocol as pr


def seeded_deal(seed: int, edition: str, sets=DEFAULT_SETS) -> dict:
    """The deal of a seed, as a setup line: the one `mb-oracle selfplay`
    deals for that seed (from the deck of `sets`), and the fixed deals of
    spec/perft.md. StartError when the deck of `sets` is too small to deal."""
    problem = deal_problem(sets, edition)
    if problem is not None:
        raise StartError(problem)
    return random_deal(random.Random(seed), edition, sets)


def deal_sets(setup: dict) -> tuple[str, ...]:
    """The card sets a whole deal is dealt from: those of its cards, in
    database order (a harness deal is always the whole deck of its sets)."""
    from ..cards import CARDS, UnknownCard, lookup

    found = set()
    for name in setup["cards"].values():
        d = CARDS.get(name)
        if d is None:
            try:
                d = lookup(name)
            except UnknownCard:
                continue
        found.add(d.card_set)
    try:
        return check_sets(found) if found else DEFAULT_SETS
    except UnknownSet:
        return DEFAULT_SETS


def start_sets(spec, edition: str | None = None) -> tuple[str, ...]:
    """The card sets a `--sets a,b` option (or a list) names, checked: each
    one known (setup.sets) and, with `edition`, dealt by that edition (the
    later sets only in en-revised, setup.sets.later); StartError says why."""
    from ..cards import full_set, lookup
    from ..editions import profile
    from ..engine.deck import check_mechanics

    names = [x.strip() for x in spec.split(",") if x.strip()] if isinstance(spec, str) else list(spec)
    try:
        sets = check_sets(names)
    except UnknownSet as e:
        raise StartError(str(e)) from None
    if edition is not None:
        try:
            check_mechanics(profile(edition), {i: lookup(n) for i, n in enumerate(full_set(sets))})
        except SetupError as e:
            raise StartError(f"{e.code} [{e.clause}] {e.message}") from None
    return sets


_setup_decoder = msgspec.json.Decoder(fmt.SetupLine)


def check_setup(setup, where: str = "setup") -> dict:
    """A setup line (a dict) checked against mb-replay/1; StartError names the field."""
    if not isinstance(setup, dict):
        raise StartError(f"{where}: a setup line is a JSON object")
    try:
        line = _setup_decoder.decode(msgspec.json.encode({**setup, "t": "setup"}))
    except msgspec.ValidationError as e:
        raise StartError(f"{where}: {e}") from None
    out = msgspec.to_builtins(line)
    out["cards"] = {int(k): v for k, v in out["cards"].items()}
    return out


def setup_line(setup: dict) -> fmt.SetupLine:
    """A checked setup (a dict) as the mb-replay/1 struct."""
    return _setup_decoder.decode(msgspec.json.encode({**setup, "t": "setup"}))


def game_from_setup(edition: str, setup: dict, readings: dict | None = None, sets=DEFAULT_SETS) -> Game:
    """A game from a checked setup line, dealt from the deck of `sets`;
    raises SetupError for a deal the rules refuse."""
    return Game.deal(with_readings(edition, readings), setup["cards"], setup["decks"], setup["unused"],
                     setup.get("first"), setup.get("reveals") or (), setup.get("life_cards"), sets=sets,
                     set_aside=setup.get("set_aside"))


def game_from_position(edition, pos: pr.Position) -> Game:
    """A game from a protocol position; raises SetupError."""
    defs = resolve_cards(pos.cards)
    zones = {(z, p): getattr(pos, z)[p] for z in ("deck", "hand", "play", "discard") for p in (0, 1)}
    placed = [c for cards in zones.values() for c in cards] + pos.out + \
        ([] if pos.unused is msgspec.UNSET else pos.unused)
    unknown = sorted(set(placed) - set(defs))
    if unknown:
        raise SetupError("BAD_POSITION", "setup.components", f"card ids placed but not in cards: {unknown}")
    kw = {} if pos.unused is msgspec.UNSET else {"unused": pos.unused}
    if pos.octonite is not msgspec.UNSET:
        # later.octonite: the engine's own checks (setup.place_octonite) judge the
        # counters: creatures in play only, and only in an edition with the later sets.
        kw["octonite"] = tuple(sorted(pos.octonite.items()))
    return Game.position(edition, zones, defs, active=pos.active, life=tuple(pos.life), mindbugs=tuple(pos.mindbugs),
                         exhausted=pos.exhausted, out=pos.out, turn=pos.turn, **kw)


def log_start(path: str) -> tuple[str | None, dict, dict, tuple[str, ...], str]:
    """(edition, readings, setup line, card sets, `FILE:LINE` of the setup
    line) of the first game of a replay log; a set no card file of this run
    declared is a StartError."""
    head, setup = None, None
    try:
        # gzip data read decompressed, as verify reads it (oracle.replay.reader).
        with open_log(path) as f:
            # Lines read within the replay limits: a line past MAX_LINE_BYTES
            # (or a file that never ends a line) is never held whole.
            for n, raw in enumerate(iter(lambda: f.readline(MAX_LINE_BYTES + 1), b""), 1):
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    # only the line's first bytes were read: how long it is, nobody counted
                    raise StartError(f"{visible(path)}:{n}: the line is longer than {MAX_LINE_BYTES} bytes, "
                                     "the limit (MAX_LINE_BYTES)")
                if n == 1 and raw.startswith(BOM):
                    raw = raw[len(BOM):]               # a UTF-8 byte order mark, as verify takes it
                if not raw.strip():
                    continue
                try:
                    line = decode_line(fmt.decoder, raw.rstrip(b"\r\n"))
                except (msgspec.DecodeError, msgspec.ValidationError) as e:
                    other = game_of(raw)
                    if other != DEFAULT and other in GAMES:
                        raise StartError(f"{visible(path)}:{n}: a game of {other}: --log starts Mindbug's perft; "
                                         f"perft --game {other} starts from --seed or --scenario") from None
                    raise StartError(f"{visible(path)}:{n}: {e}") from None
                if isinstance(line, fmt.GameLine):
                    if head is not None:
                        break
                    head = line
                elif isinstance(line, fmt.SetupLine):
                    if head is None:
                        raise StartError(f"{visible(path)}:{n}: a setup line before any game line")
                    where = f"{visible(path)}:{n}"
                    setup = check_setup(msgspec.to_builtins(line), where)
                    break
    except READ_ERRORS as e:      # unreadable, or corrupt gzip data
        raise StartError(f"{visible(path)}: {getattr(e, 'strerror', None) or e}") from None
    if setup is None:
        raise StartError(f"{visible(path)}: no game line followed by a setup line")
    edition = None if head.edition is msgspec.UNSET else head.edition
    readings = {} if head.readings is msgspec.UNSET else dict(head.readings)
    try:
        sets = check_sets(tuple(head.sets))                    # setup.sets
    except UnknownSet as e:
        raise StartError(f"{visible(path)}: field sets: {e} (a set declared in a card file needs --cards "
                         "FILE)") from None
    return edition, readings, setup, sets, where


def scenario_game(path: str, scenario_id: str, edition: str, folders=None, card_files=(),
                  not_ours: str = "this service plays Mindbug") -> Game:
    """The game a scenario file starts from, in `edition` (`folders`, `card_files`, `not_ours`: see
    load_scenario)."""
    sc = load_scenario(path, scenario_id, "mindbug", not_ours, folders, card_files)
    try:
        return scenario_start(sc, edition)
    except SetupError as e:
        raise StartError(f"{visible(path)}: scenario {scenario_id}: {e.code} [{e.clause}] {e.message}") from None


def scenario_start(sc, edition: str) -> Game:
    """The game a scenario already read starts from (a file's, or the
    board's position held in memory), in `edition`; raises SetupError."""
    from ..scenarios.runner import build

    return build(sc, edition)
