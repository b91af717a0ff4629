"""`mb-oracle serve`: the reference engine as a JSON Lines service
(mb-oracle-rpc/1, see spec/rpc.md).

One request per line on standard input, one response per line on standard
output, in order. A request the service cannot carry out gets an error
response naming the field at fault; no request stops the service, which
ends at the end of its input.
"""

from __future__ import annotations

from typing import BinaryIO

import msgspec

from .. import games
from ..games.mindbug.cards import SETS
from ..games.mindbug.editions import EDITIONS
from ..games.mindbug.engine import Game, SetupError
from ..games.mindbug.readings import READINGS, UnknownReading, check as check_readings, with_readings
from ..replay.limits import json_error, text_problem
from ..games.mindbug.replay.narrate import faces
from ..term import did_you_mean
from . import protocol as pr
from ..games.mindbug.harness.start import (check_setup, game_from_position, game_from_setup, scenario_game,
                                           seeded_deal, setup_line, start_sets)
from ..games.mindbug.harness.views import (decision_of, event_views, line_of, octonite_view, over_view, pending_view,
                                           state_line)
from .start import StartError

_enc = msgspec.json.Encoder()
_generic = msgspec.json.Decoder()


class RequestError(Exception):
    def __init__(self, code: str, message: str, field: str | None = None, clause: str | None = None):
        super().__init__(message)
        self.view = pr.ErrorView(code, message, field, clause)
        self.rid = None


class _Open:
    __slots__ = ("game", "events", "start")
    rules = "mindbug"           # the game of the registry (oracle.games) this game is of

    def __init__(self, game: Game, events: list, start: dict):
        self.game = game
        self.events = events        # every event since the game started
        self.start = start          # the evolved creatures' faces when it started (narrate.faces)


class Service:
    """The games of one session and the answer to each request."""

    def __init__(self, scenario_folders=(), card_files=()):
        self.games: dict = {}       # handle -> an open game (_Open, or another game's entry with its `rules`)
        self.serial = 0
        self.others = 0             # open games of other games than Mindbug
        # The folders whose scenario files a `scenario` start may read (none: no such start),
        # and the card files (--cards) a scenario's `card_file` may name besides those under them.
        self.scenario_folders = tuple(str(f) for f in scenario_folders)
        self.card_files = tuple(str(f) for f in card_files)

    def handle(self, raw: bytes) -> bytes:
        """The response line (without newline) to one request line."""
        rid = None
        try:
            if len(raw) > pr.MAX_REQUEST_BYTES:
                raise RequestError("TOO_LARGE", f"the request is longer than {pr.MAX_REQUEST_BYTES} bytes")
            _check_text(raw)
            other = self._other_game(raw)
            if other is not None:
                rid = _request_id(raw)
                return games.attribute(other[0], "SERVE")(self, raw, other[1])
            try:
                req = pr.request_decoder.decode(raw)
            except msgspec.ValidationError as e:
                rid = _request_id(raw)
                raise bad_request(str(e), raw) from None
            except msgspec.DecodeError as e:
                raise RequestError("BAD_JSON", f"the request is not a JSON object: {json_error(raw, e)}") from None
            rid = req.id
            return _enc.encode(getattr(self, "_" + req.__struct_config__.tag)(req))
        except RequestError as e:
            return _enc.encode(pr.ErrorReply(id=rid if rid is not None else e.rid, ok=False, error=e.view))
        except Exception as e:  # noqa: BLE001  (a bug must not stop the service)
            return _enc.encode(pr.ErrorReply(id=rid, ok=False, error=pr.ErrorView(
                "INTERNAL", f"the service failed on this request ({type(e).__name__}: {e}); please report it")))

    # -- requests --------------------------------------------------------------
    def _hello(self, req: pr.Hello) -> pr.HelloReply:
        return pr.HelloReply(id=req.id, editions=list(EDITIONS), sets=self._sets(),
                             readings={r.clause: list(r.names()) for r in READINGS}, ops=list(pr.OPS),
                             games=list(games.names()))

    def _sets(self) -> list[str]:
        """The card sets this service deals: the shipped sets (the later ones
        included) and those of the card files it was started with; never
        another set the process happens to know (the same reply in every
        process)."""
        from ..games.mindbug.cards.compiled import load_file
        from ..games.mindbug.cards.declared import CardFileError

        out = [s for s, card_set in SETS.items() if card_set.later or s in ("first-contact", "new-servants")]
        for f in self.card_files:
            try:
                sid = load_file(f).set.id      # loaded once, when the service started (`serve --cards`)
            except (CardFileError, OSError):
                continue
            if sid not in out:
                out.append(sid)
        return out

    def _new(self, req: pr.New) -> pr.NewReply:
        starts = [k for k in ("setup", "seed", "position", "scenario") if getattr(req, k) is not msgspec.UNSET]
        if len(starts) != 1:
            raise RequestError("BAD_REQUEST", "give exactly one of setup, seed, position or scenario"
                               + (f" (got {', '.join(starts)})" if starts else ""), "$")
        try:
            sets = start_sets(req.sets)                        # setup.sets
        except StartError as e:
            raise RequestError("UNSUPPORTED_SET", f"{e}; the sets this service deals are in hello's reply",
                               "$.sets") from None
        if len(self.games) >= pr.MAX_GAMES:
            raise RequestError("TOO_MANY_GAMES", f"{pr.MAX_GAMES} games are open; close some first")
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
            elif not self.scenario_folders:
                raise RequestError("BAD_REQUEST", "this service reads no scenario file: start it with "
                                   "`mb-oracle serve --scenarios DIR` to start games from the scenarios in DIR",
                                   "$.scenario")
            else:
                g = scenario_game(req.scenario.path, req.scenario.id, edition, self.scenario_folders,
                                  self.card_files)
        except StartError as e:
            raise RequestError("BAD_REQUEST", str(e), f"$.{starts[0]}") from None
        except SetupError as e:
            raise RequestError(e.code, e.message, _setup_field(e, req), e.clause) from None
        gid = self._add(g, list(g.events), faces(g))
        return pr.NewReply(id=req.id, game=gid, pending=pending_view(g), over=over_view(g),
                           events=event_views(g, g.events), setup=None if setup is None else setup_line(setup))

    def _pending(self, req: pr.Pending) -> pr.PendingReply:
        g = self._get(req.game).game
        return pr.PendingReply(id=req.id, game=req.game, pending=pending_view(g), over=over_view(g))

    def _apply(self, req: pr.Apply) -> pr.ApplyReply:
        entry = self._get(req.game)
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

    def _state(self, req: pr.State) -> pr.StateReply:
        g = self._get(req.game).game
        counters = octonite_view(g)
        return pr.StateReply(id=req.id, game=req.game, state=state_line(g), octonite=counters or msgspec.UNSET)

    def _events(self, req: pr.Events) -> pr.EventsReply:
        entry = self._get(req.game)
        return pr.EventsReply(id=req.id, game=req.game,
                              events=event_views(entry.game, entry.events, entry.start, req.since),
                              next=len(entry.events))

    def _fork(self, req: pr.Fork) -> pr.ForkReply:
        entry = self._get(req.game)
        return pr.ForkReply(id=req.id, game=self._add(entry.game.copy(), list(entry.events), entry.start),
                            parent=req.game)

    def _close(self, req: pr.Close) -> pr.CloseReply:
        self._get(req.game)
        self.close_game(req.game)
        return pr.CloseReply(id=req.id, game=req.game)

    # -- games -----------------------------------------------------------------
    def _add(self, g: Game, events: list, start: dict) -> str:
        return self.add_game(_Open(g, events, start))

    def add_game(self, entry) -> str:
        """A new handle for an open game (of any game of the registry)."""
        if len(self.games) >= pr.MAX_GAMES:
            raise RequestError("TOO_MANY_GAMES", f"{pr.MAX_GAMES} games are open; close some first")
        self.serial += 1
        gid = f"g{self.serial}"
        self.games[gid] = entry
        self.others += entry.rules != games.DEFAULT
        return gid

    def open_game(self, gid: str):
        entry = self.games.get(gid)
        if entry is None:
            raise RequestError("UNKNOWN_GAME", f"no open game {gid!r} (closed, or never opened)", "$.game")
        return entry

    def close_game(self, gid: str) -> None:
        entry = self.games.pop(gid)
        self.others -= entry.rules != games.DEFAULT

    def _get(self, gid: str) -> _Open:
        entry = self.open_game(gid)
        if entry.rules != games.DEFAULT:
            raise RequestError("UNKNOWN_GAME", f"game {gid!r} is a game of {entry.rules}, not of Mindbug", "$.game")
        return entry

    def _other_game(self, raw: bytes) -> tuple[str, dict] | None:
        """The game of the registry other than Mindbug a request is about (a
        `new` naming it in `game`, or a request on a game of it), with the
        request as plain JSON; None for Mindbug's requests."""
        if b'"game"' not in raw or (not self.others and b'"new"' not in raw):
            return None
        data = _lenient(raw)        # a number out of range too (`"seed": 1e400`), which is the game's to word
        if not isinstance(data, dict):
            return None
        name = data.get("game")
        if data.get("op") == "new":
            if "game" not in data:
                return None
            try:
                games.check(name if isinstance(name, str) else repr(name))
            except games.UnknownGame as e:
                err = RequestError("BAD_REQUEST", str(e), "$.game")
                err.rid = _request_id(raw)
                raise err from None
            return None if name == games.DEFAULT else (name, data)
        entry = self.games.get(name) if isinstance(name, str) else None
        return (entry.rules, data) if entry is not None and entry.rules != games.DEFAULT else None


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


def _check_text(raw: bytes) -> None:
    """A request must be UTF-8 text whose arrays and objects nest at most
    MAX_DEPTH levels, as a replay line (oracle.replay.limits), checked
    before any decoding."""
    problem = text_problem(raw)
    if problem is not None:
        code, detail = problem
        raise RequestError(code, f"the request is not valid JSON: {detail}" if code == "BAD_JSON"
                           else f"the request is too deep: {detail}")


def _lenient(raw: bytes):
    """The request as plain data, a number out of range included (as a float,
    perhaps infinite); None when it is not JSON."""
    try:
        return _generic.decode(raw)
    except msgspec.DecodeError:
        pass
    import json

    try:
        return json.loads(raw)   # numbers msgspec refuses, such as 1e400
    except (ValueError, RecursionError):
        return None


def _request_id(raw: bytes):
    """The request's `id`, read leniently so that even a bad request's error names it."""
    data = _lenient(raw)
    if isinstance(data, dict):
        rid = data.get("id")
        if rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
            return rid
    return None


def bad_request(message: str, raw: bytes, values: dict | None = None, structs=None) -> RequestError:
    """A validation error as the service words it: the field, and the ops when the op is unknown.
    Another game's requests give its own `values` (field -> what, the values it takes) and
    `structs` (the struct of the object at a path, as _field_names); Mindbug's by default."""
    field = None
    if " - at `" in message:
        message, _, at = message.rpartition(" - at `")
        field = at.rstrip("`")
        if field.startswith("key` in `"):       # a bad key of an object keyed by card id
            field = field[len("key` in `"):]
            message = f"{message} as a key (a card id)"
    data = _lenient(raw)
    if message.startswith("Number out of range"):
        message = "a number out of range" + (": the seed is a whole number (an integer such as 7)"
                                             if field == "$.seed" else "")
    if field == "$.position.octonite[...]":
        field = _octonite_entry(data) or field
    if field is not None and field.startswith("$.position.octonite"):
        message += (f" (Octonite counters: an object from card ids of creatures in play to whole numbers "
                    f"from 0 to {pr.MAX_OCTONITE})")
    if not isinstance(data, dict):
        return RequestError("BAD_REQUEST", "a request is a JSON object with an `op`", "$")
    if "op" not in data:
        return RequestError("BAD_REQUEST", f"the request has no `op` (one of {', '.join(pr.OPS)})", "$.op")
    if data.get("op") not in pr.OPS:
        return RequestError("UNKNOWN_OP", f"unknown op {data.get('op')!r}; ops: {', '.join(pr.OPS)}", "$.op")
    if data.get("rpc", pr.RPC) != pr.RPC:
        return RequestError("BAD_VERSION", f"this service speaks {pr.RPC}, not {data.get('rpc')!r}", "$.rpc")
    return RequestError("BAD_REQUEST", *_in_words(message, field, data, _VALUES if values is None else values,
                                                  structs or _struct_at))


# The values a field takes, where msgspec names a bad value without them.
_DECISION_TYPES = tuple(t.__struct_config__.tag for t in pr.DecisionLine.__args__)
_VALUES = {"$.edition": ("edition", EDITIONS), "$.decision.t": ("decision type", _DECISION_TYPES)}


def _in_words(message: str, field: str | None, data: dict, values: dict, structs) -> tuple[str, str | None]:
    """msgspec's validation message in the service's words: an unknown value
    or field with the nearest valid one and the list of them; a missing
    field named with its op."""
    quoted = message.split("`")[1] if message.count("`") >= 2 else "?"
    if message.startswith("Object contains unknown field"):
        field = f"{field}.{quoted}" if field else f"$.{quoted}"
        names = _field_names(structs(field.rpartition(".")[0], data))
        return (f"unknown field {quoted!r} for op {data['op']!r}{did_you_mean(quoted, names)}"
                + (f"; fields: {', '.join(names)}" if names else "")), field
    if message.startswith("Object missing required field"):
        whose = f"op {data['op']!r}" if not field else f"the {field.rpartition('.')[2]}"
        field = f"{field}.{quoted}" if field else f"$.{quoted}"
        what, known = values.get(field, (None, ()))
        return (f"{whose} needs the field {quoted!r}"
                + (f" (the {what}: {', '.join(known)})" if known else "")), field
    if field not in values:
        return message, field
    what, known = values[field]
    if message.startswith(("Invalid enum value", "Invalid value")):
        value = message.partition(" value ")[2]
        word = value.strip("'") if value.startswith("'") else value
        return f"unknown {what} {value}{did_you_mean(word, known)}; {what}s: {', '.join(known)}", field
    return f"{message}; {what}s: {', '.join(known)}", field


def _field_names(struct) -> tuple[str, ...]:
    """The fields an object of `struct` may have (none without a struct)."""
    if struct is None:
        return ()
    tag = struct.__struct_config__.tag_field
    return tuple(f.encode_name for f in msgspec.structs.fields(struct) if f.encode_name not in (tag, "op"))


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


def serve(inp: BinaryIO, out: BinaryIO, scenario_folders=(), card_files=()) -> None:
    """Answer every request line of `inp` on `out` until the input ends;
    a `scenario` start reads only under `scenario_folders` (and `card_files`)."""
    svc = Service(scenario_folders, card_files)
    while True:
        raw = inp.readline(pr.MAX_REQUEST_BYTES + 1)
        if not raw:
            break
        if len(raw) > pr.MAX_REQUEST_BYTES and not raw.endswith(b"\n"):
            while True:     # skip the rest of an over-long line
                more = inp.readline(pr.MAX_REQUEST_BYTES)
                if not more or more.endswith(b"\n"):
                    break
        line = raw.strip()
        if not line:
            continue
        out.write(svc.handle(line) + b"\n")
        out.flush()
