"""Mind Up! games in `mb-oracle serve` (mb-oracle-rpc/1): the requests of a
`new` naming `"game": "mind-up"` and every request on a game it opened. The
shared service (oracle.harness.serve) reads the line, checks its size and
text, keeps the games and their handles, and words every error; this
module reads and answers in Mind Up!'s terms
(oracle.games.mindup.harness.protocol).
"""

from __future__ import annotations

import msgspec

from ....harness.protocol import RPC
from ....harness.serve import RequestError, bad_request
from ....replay.findings import event_views
from ....reading_type import UnknownReading
from ..engine import Game, RuleError, SetupError
from ..replay import format as fmt
from . import play
from . import protocol as pr

_enc = msgspec.json.Encoder()
_new = msgspec.json.Decoder(pr.New)
_on_game = {struct: msgspec.json.Decoder(struct) for struct in (*pr.ON_GAME.values(), pr.AnyOp)}
OPS = ("new", "pending", "apply", "state", "events", "fork", "close")


# Mind Up!'s words for a request's errors (oracle.harness.serve.bad_request).
_VALUES = {"$.edition": ("edition", ("fr",))}


def _struct_at(parent: str, data: dict):
    """The struct of the object at `parent` of a Mind Up! request."""
    if parent == "$":
        return pr.New if data.get("op") == "new" else _request_struct(data.get("op"))
    return {"$.position": pr.Position, "$.setup": pr.Deal}.get(parent)


def _request_struct(op):
    return pr.ON_GAME.get(op, pr.AnyOp) if isinstance(op, str) else pr.AnyOp


class Open:
    """An open Mind Up! game of the service: the game, every event since it started."""

    rules = pr.GAME

    def __init__(self, game: Game, events: list, revealed: bool = False):
        self.game = game
        self.events = events
        self.revealed = revealed    # the last step revealed a turn: a `reveal` step writes that out


def read(service, raw: bytes, data: dict):
    """One request line on Mind Up! (`data`: the request decoded as plain
    JSON) as its request struct; RequestError for a bad one."""
    try:
        op = data.get("op")
        return (_new if op == "new" else _on_game[_request_struct(op)]).decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise bad_request(str(e), raw, _VALUES, _struct_at) from None


def answer(service, req) -> bytes:
    """The response line to a request on Mind Up!; RequestError for one that cannot be carried out."""
    if req.rpc is not msgspec.UNSET and req.rpc != RPC:
        raise RequestError("BAD_VERSION", f"this service speaks {RPC}, not {req.rpc!r}", "$.rpc")
    if isinstance(req, pr.New):
        return _enc.encode(_start(service, req))
    if req.op not in OPS:
        raise RequestError("UNKNOWN_OP", f"unknown op {req.op!r} for a Mind Up! game; ops: {', '.join(OPS)}",
                           "$.op")
    entry = service.open_game(req.game)
    return _enc.encode(globals()["_" + req.op](service, req, entry))


def _start(service, req: pr.New) -> pr.NewReply:
    starts = [k for k in ("seed", "setup", "position") if getattr(req, k) is not msgspec.UNSET]
    if len(starts) != 1:
        raise RequestError("BAD_REQUEST", "give exactly one of seed, setup or position"
                           + (f" (got {', '.join(starts)})" if starts else ""), "$")
    try:
        readings = play.check_readings(req.readings)
    except UnknownReading as e:
        raise RequestError("BAD_REQUEST", str(e), "$.readings") from None
    setup = None
    try:
        if req.position is not msgspec.UNSET:
            if req.players is not msgspec.UNSET and req.players != len(req.position.hands):
                raise RequestError("BAD_REQUEST", f"`players` is {req.players}; the position has "
                                   f"{len(req.position.hands)} hands", "$.players")
            if req.objectives and req.objectives != len(req.position.objectives):
                raise RequestError("BAD_REQUEST", f"`objectives` is {req.objectives}; the position shows "
                                   f"{len(req.position.objectives)}", "$.objectives")
            g = play.game_from_position(msgspec.to_builtins(req.position), readings)
        else:
            if req.players is msgspec.UNSET:
                raise RequestError("BAD_REQUEST", "a game from a seed or a deal names its `players` (3 to 6)",
                                   "$.players")
            setup = play.seeded_deal(req.seed, req.players) if req.seed is not msgspec.UNSET else \
                {"t": "setup", **msgspec.to_builtins(req.setup)}
            g = play.game_from_deal(req.players, setup, req.objectives, readings)
    except SetupError as e:
        raise RequestError(e.code, e.message, f"$.{starts[0]}", e.clause) from None
    gid = service.add_game(Open(g, []))
    return pr.NewReply(id=req.id, game=gid, pending=play.pending_view(g), over=play.over_view(g), events=[],
                       setup=setup)


def open_document(service, sc, edition: str) -> bytes:
    """The reply line of a game started from a scenario already read (the
    board's position, held in memory), as the scenario runner starts it
    (scenarios.runner.build; hands of one card each: the round's last cards
    placed at once); RequestError for a position the rules refuse."""
    from ..scenarios.runner import build

    try:
        g = build(sc)
        events = g.place_last_cards() if all(len(h) == 1 for h in g.state.hands) else []
    except RuleError as e:
        raise RequestError(e.code, e.message, "$.given", e.clause) from None
    views = event_views(events)
    gid = service.add_game(Open(g, list(views)))
    return _enc.encode(pr.NewReply(id=None, game=gid, pending=play.pending_view(g), over=play.over_view(g),
                                   events=views, setup=None))


def _pending(service, req, entry: Open) -> pr.PendingReply:
    g = entry.game
    return pr.PendingReply(id=req.id, game=req.game, pending=play.pending_view(g), over=play.over_view(g))


def _step_problem(message: str, field: str, decision) -> str:
    """msgspec's word on a step in the service's: an unknown step type or
    field named with the nearest one and the list of them."""
    from ....term import did_you_mean

    steps = {cls.__struct_config__.tag: cls for cls in pr.Step.__args__}
    t = decision.get("t") if isinstance(decision, dict) else None
    if field == "$.decision.t" and message.startswith("Invalid value"):
        return f"unknown step type {t!r}{did_you_mean(t, steps)}; step types: {', '.join(steps)}"
    unknown = message.startswith("Object contains unknown field `") and steps.get(t)
    if unknown:
        key = message.split("`")[1]
        names = [f for f in unknown.__struct_fields__ if f != "t"]
        return f"unknown field {key!r} of a {t!r} step{did_you_mean(key, names)}; fields: {', '.join(names)}"
    return message


def _apply(service, req, entry: Open) -> pr.ApplyReply:
    if req.decision is msgspec.UNSET:
        raise RequestError("BAD_REQUEST", "apply needs a `decision`: a round, turn, choose or reveal line",
                           "$.decision")
    try:
        line = pr.step_decoder.decode(msgspec.json.encode(req.decision))
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        message, _, at = str(e).rpartition(" - at `")
        field = "$.decision" + at.rstrip("`")[1:] if at.startswith("$") else "$.decision"
        message = _step_problem(message or str(e), field, req.decision)
        if message.startswith("unknown field "):
            field += "." + message.split("'")[1]
        raise RequestError("BAD_REQUEST", f"not a Mind Up! step (a round, turn, choose or reveal line): "
                           f"{message}", field) from None
    g = entry.game
    if isinstance(line, fmt.RevealLine) and entry.revealed:
        entry.revealed = False      # the reveal the last step made, written out: nothing changes
        return pr.ApplyReply(id=req.id, game=req.game, pending=play.pending_view(g), over=play.over_view(g),
                             applied=True, events=[])
    try:
        events = play.apply_step(g, line)
    except RuleError as e:
        ref = pr.Refusal(e.code, e.clause, e.message, [c for c in e.options if isinstance(c, int)])
        return pr.ApplyReply(id=req.id, game=req.game, pending=play.pending_view(g), over=play.over_view(g),
                             applied=False, refusal=ref)
    views = event_views(events)
    entry.events.extend(views)
    entry.revealed = any(e.kind == "reveal" for e in events)
    return pr.ApplyReply(id=req.id, game=req.game, pending=play.pending_view(g), over=play.over_view(g),
                         applied=True, events=views)


def _state(service, req, entry: Open) -> pr.StateReply:
    return pr.StateReply(id=req.id, game=req.game, state=play.state_claim(entry.game))


def _events(service, req, entry: Open) -> pr.EventsReply:
    return pr.EventsReply(id=req.id, game=req.game, events=entry.events[req.since:], next=len(entry.events))


def _fork(service, req, entry: Open) -> pr.ForkReply:
    return pr.ForkReply(id=req.id, game=service.add_game(Open(entry.game.copy(), list(entry.events), entry.revealed)),
                        parent=req.game)


def _close(service, req, entry: Open) -> pr.CloseReply:
    service.close_game(req.game)
    return pr.CloseReply(id=req.id, game=req.game)
