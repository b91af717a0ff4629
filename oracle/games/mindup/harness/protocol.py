"""Mind Up! on the wire: the vocabulary `mb-oracle serve` (mb-oracle-rpc/1)
and `mb-oracle conform` (mb-engine/1) use for a game of Mind Up!, defined in
code on the shared frames (oracle.harness.protocol,
oracle.harness.engine_protocol) as Mindbug's vocabulary is in
oracle.games.mindbug.harness.protocol and engine_protocol.

Choices are simultaneous and hidden: every player in `pending.players`
chooses a card from `pending.options[p]` (their hand), in any order; the
cards are revealed together once the last player has chosen. A client of
the service sends each choice on its own (`{"t": "choose", "p": 2, "card":
17}`) or a whole turn at once (`{"t": "turn", "cards": [...]}`, one card
per player, seat order); an engine adapter always receives the whole turn,
one joint choice per message. Chance (a round's Score order, the draws, the
objectives shown) is a `round` line given by whoever runs the game. Steps
travel as mu-replay/1 lines, states as mu-replay/1 state claims.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ....harness.protocol import RPC, RequestId
from ....replay.findings import RulesEvent
from ....schemas import strict_twins
from ..replay import format as fmt

GAME = "mind-up"
PENDING_KINDS = ("choose", "round", "over")
MAX_SEED = 2 ** 63 - 1

Step = Union[fmt.RoundLine, fmt.TurnLine, fmt.ChooseLine, fmt.RevealLine]
# An `apply`'s step: a request's unknown fields are errors (a log's step line may carry them).
step_decoder = msgspec.json.Decoder(strict_twins(Step.__args__, "Apply"))
Seat = Annotated[int, Meta(ge=0, le=5)]


class Deal(Struct, kw_only=True, forbid_unknown_fields=True):
    """A deal as a mu-replay/1 setup line: `deck` (the 60 cards, top first),
    or `hands` and `line` with the `pile` (top first; the rest in number
    order when some are left out)."""

    t: Literal["setup"] | UnsetType = UNSET
    deck: fmt.Cards | UnsetType = UNSET
    hands: fmt.ByPlayer | UnsetType = UNSET
    line: fmt.Cards | UnsetType = UNSET
    pile: fmt.Cards | UnsetType = UNSET


class Position(Struct, kw_only=True, forbid_unknown_fields=True):
    """A position at the start of a turn, as a Mind Up! scenario's `given`
    (spec/scenario-format.md): the round, the Score order, every hand, the
    line, each player's Score cards (left to right), the pile's top cards,
    the scores of the rounds played, the objectives shown this round and
    those shown and discarded in earlier rounds (which may not come back;
    under mu.objectives.letters-later=letter-retired, their letters neither)."""

    round: Annotated[int, Meta(ge=1, le=3)] = 1
    order: Annotated[list[int], Meta(min_length=5, max_length=5)]
    hands: fmt.ByPlayer
    line: fmt.Cards
    columns: Annotated[list[Annotated[list[fmt.Cards], Meta(max_length=5)]], Meta(max_length=6)] = []
    pile: fmt.Cards = []
    scores: Annotated[list[Annotated[list[int], Meta(max_length=6)]], Meta(max_length=3)] = []
    objectives: Annotated[list[int], Meta(max_length=5)] = []
    shown_before: Annotated[list[int], Meta(max_length=14)] = []


class New(Struct, kw_only=True, forbid_unknown_fields=True):
    """`new` for Mind Up!: `game: "mind-up"`, the player count and the
    objectives shown at a time (with a seed or a deal), the readings, and
    exactly one start: `seed` (the deal `selfplay --game mind-up` deals),
    `setup` (a deal) or `position`."""

    op: Literal["new"]
    id: RequestId = None
    rpc: str | UnsetType = UNSET
    game: Literal["mind-up"]
    edition: Literal["fr"] = "fr"
    players: Annotated[int, Meta(ge=2, le=6)] | UnsetType = UNSET
    objectives: Annotated[int, Meta(ge=0, le=5)] = 0
    readings: dict[str, str] = {}
    seed: Annotated[int, Meta(ge=-MAX_SEED, le=MAX_SEED)] | UnsetType = UNSET
    setup: Deal | UnsetType = UNSET
    position: Position | UnsetType = UNSET


class OnGame(Struct, kw_only=True, forbid_unknown_fields=True):
    """Any other request on a Mind Up! game (pending, state, fork, close;
    apply and events add their own field)."""

    op: str
    id: RequestId = None
    rpc: str | UnsetType = UNSET
    game: Annotated[str, Meta(max_length=100)]


class ApplyRequest(OnGame, kw_only=True, forbid_unknown_fields=True):
    decision: Any = UNSET


class EventsRequest(OnGame, kw_only=True, forbid_unknown_fields=True):
    since: Annotated[int, Meta(ge=0)] = 0


class AnyOp(OnGame, kw_only=True, forbid_unknown_fields=True):
    """A request of an op the service does not know: read with every field of
    the others, then refused by its op (UNKNOWN_OP)."""

    decision: Any = UNSET
    since: Annotated[int, Meta(ge=0)] = 0


# The request struct of each op on a game (the others: AnyOp).
ON_GAME = {"pending": OnGame, "state": OnGame, "fork": OnGame, "close": OnGame,
           "apply": ApplyRequest, "events": EventsRequest}


class PendingView(Struct, omit_defaults=True):
    """What the game waits for: `choose` (a card from each of `players`;
    `options[p]`: the cards player p may choose, by seat), `round` (the
    chance of round `round`: a Score order, and from round 2 the `draws`,
    the pile's top cards in seat order), or `over`."""

    kind: str
    clauses: list[str]
    players: list[int] = []
    options: list[list[int]] = []
    round: int | None = None
    draws: list[int] | None = None


class Over(Struct):
    """The result: each player's game score and the winners (several share the victory)."""

    scores: list[int]
    winners: list[int]


class Refusal(Struct, omit_defaults=True):
    code: str
    clause: str
    message: str
    options: list[int] = []


class Reply(Struct, tag_field="op", kw_only=True):
    rpc: str = RPC
    id: RequestId = None
    ok: bool = True


class NewReply(Reply, tag="new"):
    game: str
    pending: PendingView
    over: Over | None
    events: list[RulesEvent]
    setup: dict | None = None


class PendingReply(Reply, tag="pending"):
    game: str
    pending: PendingView
    over: Over | None


class ApplyReply(Reply, tag="apply"):
    game: str
    pending: PendingView
    over: Over | None
    applied: bool
    events: list[RulesEvent] = []
    refusal: Refusal | None = None


class StateReply(Reply, tag="state"):
    game: str
    state: dict


class EventsReply(Reply, tag="events"):
    game: str
    events: list[RulesEvent]
    next: int


class ForkReply(Reply, tag="fork"):
    game: str
    parent: str


class CloseReply(Reply, tag="close"):
    game: str


# Every response to a request on a Mind Up! game (errors are the service's ErrorReply).
Response = Union[NewReply, PendingReply, ApplyReply, StateReply, EventsReply, ForkReply, CloseReply]


# -- mb-engine/1 for Mind Up! ---------------------------------------------------------

class EngineDeal(Struct, tag_field="op", tag="deal", kw_only=True):
    """Start a game from a deal: the players, the objectives shown at a
    time, the readings that are not the team's, the deal (a setup line)."""

    game: str = GAME
    edition: str = "fr"
    players: int
    objectives: int = 0
    readings: dict[str, str] = {}
    setup: dict


class EnginePosition(Struct, tag_field="op", tag="position", kw_only=True):
    """Start a game from a position (only to adapters that said `positions: true`)."""

    game: str = GAME
    edition: str = "fr"
    readings: dict[str, str] = {}
    position: dict


class EngineApply(Struct, tag_field="op", tag="apply", kw_only=True):
    """One step: a `round` line (the chance of a round) or a `turn` line
    (every player's hidden choice, revealed together)."""

    decision: dict


class EngineReply(Struct, kw_only=True, omit_defaults=True):
    """The game as the engine sees it: `pending` (`choose`, `round` or
    `over`), `options` (while choosing: each player's cards they may choose,
    by seat), `state` (a mu-replay/1 state claim: the fields given are
    compared), `over` (null, or the scores and winners); or `error`."""

    pending: Literal[PENDING_KINDS] | UnsetType = UNSET  # type: ignore[valid-type]
    options: Annotated[list[fmt.Cards], Meta(max_length=6)] | UnsetType = UNSET
    state: fmt.StateLine | UnsetType = UNSET
    over: Over | None | UnsetType = UNSET
    error: Annotated[str, Meta(max_length=10000)] | UnsetType = UNSET
    x: msgspec.Raw | UnsetType = UNSET


class _ReplyDecoder:
    """The adapter's reply decoded; a reply that breaks the contract raises
    ValidationError in the contract's words (fmt.explain)."""

    _decoder = msgspec.json.Decoder(EngineReply)

    def decode(self, data: bytes) -> EngineReply:
        try:
            return self._decoder.decode(data)
        except msgspec.ValidationError as e:
            raise msgspec.ValidationError(fmt.explain(str(e))) from None


engine_reply_decoder = _ReplyDecoder()
