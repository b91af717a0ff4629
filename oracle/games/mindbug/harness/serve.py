"""Mindbug's games in `mb-oracle serve` (mb-oracle-rpc/1, see spec/rpc.md):
`hello`, a `new` that names no other game, and every request on a game it
opened. The shared service (oracle.harness.serve) reads the line, checks its
size and text, keeps the games and their handles, and words every error;
this module reads and answers in Mindbug's terms
(oracle.games.mindbug.harness.protocol).
"""

from __future__ import annotations

import msgspec

from .... import games
from ....harness import protocol as rpc
from ....harness.serve import RequestError, bad_request
from ....harness.start import StartError
from ..cards import SETS
from ..editions import EDITIONS
from ..engine import Game, SetupError
from ..readings import READINGS, UnknownReading, check as check_readings, with_readings
from ..replay.narrate import faces
from ....replay.limits import json_error
from . import protocol as pr
from .start import (check_setup, game_from_position, game_from_setup, scenario_game, scenario_start, seeded_deal,
                    setup_line, start_sets)
from .views import decision_of, event_views, line_of, octonite_view, over_view, pending_view, state_line

_enc = msgspec.json.Encoder()


class _Open:
    __slots__ = ("game", "events", "start")
    rules = "mindbug"           # the game of the registry (oracle.games) this game is of

    def __init__(self, game: Game, events: list, start: dict):
        self.game = game
        self.events = events        # every event since the game started
        self.start = start          # the evolved creatures' faces when it started (narrate.faces)


def card_file_problems(path: str) -> list[str]:
    """What keeps a card file of `serve --cards` from being read (mb-cards/1):
    every problem, one a line, the last one the summary; none when it reads."""
    from ..cards.compiled import load_file
    from ..cards.declared import CardFileError

    try:
        load_file(path)
    except CardFileError as e:
        return str(e).splitlines()
    return []


def read(service, raw: bytes, data) -> pr.Request:
    """One request line as a Mindbug request; RequestError for a bad one."""
    try:
        return pr.request_decoder.decode(raw)
    except msgspec.ValidationError as e:
        raise bad_request(str(e), raw, _VALUES, _struct_at, _octonite_words) from None
    except msgspec.DecodeError as e:
        raise RequestError("BAD_JSON", f"the request is not a JSON object: {json_error(raw, e)}") from None


def answer(service, req: pr.Request) -> bytes:
    """The response line to a Mindbug request; RequestError for one that cannot be carried out."""
    return _enc.encode(globals()["_" + req.__struct_config__.tag](service, req))


def _hello(service, req: rpc.Hello) -> rpc.HelloReply:
    return rpc.HelloReply(id=req.id, editions=list(EDITIONS), sets=_sets(service),
                          readings={r.clause: list(r.names()) for r in READINGS}, ops=list(rpc.OPS),
                          games=list(games.names()))


def _sets(service) -> list[str]:
    """The card sets this service deals: the shipped sets (the later ones
    included) and those of the card files it was started with; never
    another set the process happens to know (the same reply in every
    process)."""
    from ..cards.compiled import load_file
    from ..cards.declared import CardFileError

    out = [s for s, card_set in SETS.items() if card_set.later or s in ("first-contact", "new-servants")]
    for f in service.card_files:
        try:
            sid = load_file(f).set.id      # loaded once, when the service started (`serve --cards`)
        except (CardFileError, OSError):
            continue
        if sid not in out:
            out.append(sid)
    return out


def _new(service, req: pr.New) -> pr.NewReply:
    starts = [k for k in ("setup", "seed", "position", "scenario") if getattr(req, k) is not msgspec.UNSET]
    if len(starts) != 1:
        raise RequestError("BAD_REQUEST", "give exactly one of setup, seed, position or scenario"
                           + (f" (got {', '.join(starts)})" if starts else ""), "$")
    try:
        sets = start_sets(req.sets)                        # setup.sets
    except StartError as e:
        raise RequestError("UNSUPPORTED_SET", f"{e}; the sets this service deals are in hello's reply",
                           "$.sets") from None
    if len(service.games) >= rpc.MAX_GAMES:
        raise RequestError("TOO_MANY_GAMES", f"{rpc.MAX_GAMES} games are open; close some first")
    try:
        readings = check_readings(req.readings)
    except UnknownReading as e:
        raise RequestError("BAD_REQUEST", str(e), "$.readings") from None
    edition = with_readings(req.edition, readings)
    setup = None
    try:
        if req.seed is not msgspec.UNSET:
            setup = check_setup(seeded_deal(req.seed, req.edition, sets))
        elif req.setup is not msgspec.UNSET:
            setup = check_setup(req.setup, "$.setup")
        if setup is not None:
            g = game_from_setup(edition, setup, sets=sets)
        elif req.position is not msgspec.UNSET:
            g = game_from_position(edition, req.position)
        elif not service.scenario_folders:
            raise RequestError("BAD_REQUEST", "this service reads no scenario file: start it with "
                               "`mb-oracle serve --scenarios DIR` to start games from the scenarios in DIR",
                               "$.scenario")
        else:
            g = scenario_game(req.scenario.path, req.scenario.id, edition, service.scenario_folders,
                              service.card_files)
    except StartError as e:
        raise RequestError("BAD_REQUEST", str(e), f"$.{starts[0]}") from None
    except SetupError as e:
        raise RequestError(e.code, e.message, _setup_field(e, req), e.clause) from None
    return _opened(service, req.id, g, setup)


def open_document(service, sc, edition: str) -> bytes:
    """The reply line of a game started from a scenario already read (the
    board's position, held in memory), as a `scenario` start of `new` gives
    it (start.scenario_start); RequestError for a position the rules refuse."""
    try:
        g = scenario_start(sc, edition)
    except SetupError as e:
        raise RequestError(e.code, e.message, "$.given", e.clause) from None
    return _enc.encode(_opened(service, None, g, None))


def _opened(service, rid, g: Game, setup: dict | None) -> pr.NewReply:
    """A started game opened under a new handle: the reply to its `new`."""
    gid = _add(service, g, list(g.events), faces(g))
    return pr.NewReply(id=rid, game=gid, pending=pending_view(g), over=over_view(g),
                       events=event_views(g, g.events), setup=None if setup is None else setup_line(setup))


def _pending(service, req: pr.Pending) -> pr.PendingReply:
    g = _get(service, req.game).game
    return pr.PendingReply(id=req.id, game=req.game, pending=pending_view(g), over=over_view(g))


def _apply(service, req: pr.Apply) -> pr.ApplyReply:
    entry = _get(service, req.game)
    g = entry.game
    d = decision_of(req.decision)
    r = g.refusal(d)
    if r is not None:
        ref = pr.RefusalView(r.code, r.clause, r.message, [line_of(o) for o in r.options], r.card)
        return pr.ApplyReply(id=req.id, game=req.game, pending=pending_view(g), over=over_view(g),
                             applied=False, refusal=ref)
    before = faces(g)
    events = g.apply_unchecked(d.kind, d.arg)
    entry.events.extend(events)
    return pr.ApplyReply(id=req.id, game=req.game, pending=pending_view(g), over=over_view(g), applied=True,
                         events=event_views(g, events, before))


def _state(service, req: pr.State) -> pr.StateReply:
    g = _get(service, req.game).game
    counters = octonite_view(g)
    return pr.StateReply(id=req.id, game=req.game, state=state_line(g), octonite=counters or msgspec.UNSET)


def _events(service, req: pr.Events) -> pr.EventsReply:
    entry = _get(service, req.game)
    return pr.EventsReply(id=req.id, game=req.game,
                          events=event_views(entry.game, entry.events, entry.start, req.since),
                          next=len(entry.events))


def _fork(service, req: pr.Fork) -> pr.ForkReply:
    entry = _get(service, req.game)
    return pr.ForkReply(id=req.id, game=_add(service, entry.game.copy(), list(entry.events), entry.start),
                        parent=req.game)


def _close(service, req: pr.Close) -> pr.CloseReply:
    _get(service, req.game)
    service.close_game(req.game)
    return pr.CloseReply(id=req.id, game=req.game)


def _add(service, g: Game, events: list, start: dict) -> str:
    return service.add_game(_Open(g, events, start))


def _get(service, gid: str) -> _Open:
    entry = service.open_game(gid)
    if entry.rules != _Open.rules:
        raise RequestError("UNKNOWN_GAME", f"game {gid!r} is a game of {entry.rules}, not of Mindbug", "$.game")
    return entry


def _setup_field(e: SetupError, req: pr.New) -> str:
    """Where in a `new` request the refused part is: the start, or the
    counters of one card when the engine refuses those (its details name
    the card id; a card refused for its later-set mechanics is named by
    its name, and the fault is the start's)."""
    pos = req.position
    card = e.details.get("card")
    if (e.clause == "later.octonite" and pos is not msgspec.UNSET and pos.octonite is not msgspec.UNSET
            and type(card) is int and card in pos.octonite):
        return f"$.position.octonite.{card}"
    start = next(k for k in ("setup", "seed", "position", "scenario") if getattr(req, k) is not msgspec.UNSET)
    return f"$.{start}"


# The values a field takes, where msgspec names a bad value without them.
_DECISION_TYPES = tuple(t.__struct_config__.tag for t in pr.DecisionLine.__args__)
_VALUES = {"$.edition": ("edition", EDITIONS), "$.decision.t": ("decision type", _DECISION_TYPES)}


def _octonite_words(message: str, field: str | None, data) -> tuple[str, str | None]:
    """A bad Octonite count of a position named by its card id, with what the counters are."""
    if field == "$.position.octonite[...]":
        field = _octonite_entry(data) or field
    if field is not None and field.startswith("$.position.octonite"):
        message += (f" (Octonite counters: an object from card ids of creatures in play to whole numbers "
                    f"from 0 to {pr.MAX_OCTONITE})")
    return message, field


def _struct_at(parent: str, data: dict):
    """The struct of the object at `parent` of a Mindbug request ("$", "$.position", "$.decision", ...)."""
    struct = None
    if parent == "$":
        struct = next((t for t in pr.Request.__args__ if t.__struct_config__.tag == data.get("op")), None)
    elif parent == "$.position":
        struct = pr.Position
    elif parent == "$.scenario":
        struct = pr.ScenarioRef
    elif parent == "$.decision" and isinstance(data.get("decision"), dict):
        t = data["decision"].get("t")
        struct = next((d for d in pr.DecisionLine.__args__ if d.__struct_config__.tag == t), None)
    return struct


def _octonite_entry(data) -> str | None:
    """The field of the first count of a position's `octonite` that is not
    a whole number from 0 to MAX_OCTONITE (msgspec names no key)."""
    try:
        counts = data["position"]["octonite"]
        for key, n in counts.items():
            if type(n) is not int or not 0 <= n <= pr.MAX_OCTONITE:
                return f"$.position.octonite.{key}"
    except (AttributeError, KeyError, TypeError):
        pass
    return None
