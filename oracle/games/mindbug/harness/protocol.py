"""mb-oracle-rpc/1 for Mindbug: the requests `mb-oracle serve` reads and
the responses it writes about a game of Mindbug, one JSON object per line,
defined in code on the shared frame (oracle.harness.protocol: the
envelopes, hello, the error reply).

`mb-oracle schema rpc` and `mb-oracle schema rpc-response` print the JSON
Schemas generated from these structs; spec/rpc.md documents them for
people. Decisions travel in their mb-replay/1 line form
(`{"t": "block", "p": 1, "card": 12}`), states in the replay claim form (a
`state` line), so a client reuses what it writes for its logs.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ....harness.protocol import _Request, _Response, ErrorReply, GameId, Hello, HelloReply
from ....replay.findings import RulesEvent
from ....schemas import strict_twins
from ..editions import EDITIONS
from ..replay import format as fmt
from ..scenarios.format import MAX_OCTONITE

Edition = Literal[EDITIONS]  # type: ignore[valid-type]
DecisionLine = Union[fmt.PlayLine, fmt.AttackLine, fmt.ActivateLine, fmt.MindbugLine, fmt.PassLine, fmt.HuntLine,
                     fmt.BlockLine, fmt.ChooseLine, fmt.RandomLine]
# The decision of an `apply`: a decision line that may hold no field mb-replay/1
# does not define (a request's unknown fields are errors; a log's decision
# line may carry them). Each is a subclass of the line type, with its tag.
ApplyDecision = strict_twins(DecisionLine.__args__, "Apply")
# Octonite counters by card id (later.octonite, English revised): the
# creatures in play that hold some, each with its count, bounded as a
# scenario's `octonite` (MAX_OCTONITE).
OctoniteCount = Annotated[int, Meta(ge=0, le=MAX_OCTONITE,
                                    description=f"Octonite counters on the creature: 0 to {MAX_OCTONITE}")]
OctoniteMap = Annotated[dict[int, OctoniteCount],
                        Meta(max_length=fmt.MAX_CARDS,
                             description="Octonite counters by card id, for creatures in play (later.octonite, "
                                         "English revised)")]
# A position's counts, bounded: life from 0 to MAX_LIFE, Mindbugs from 0 to 2
# (as a scenario's), the turn from 1 to MAX_TURN.
MAX_LIFE = 99
MAX_TURN = 10_000
LifePair = Annotated[list[Annotated[int, Meta(ge=0, le=MAX_LIFE)]],
                     Meta(min_length=2, max_length=2, description=f"life by player: 0 to {MAX_LIFE}")]
MindbugPair = Annotated[list[Annotated[int, Meta(ge=0, le=2)]],
                        Meta(min_length=2, max_length=2, description="Mindbugs left by player: 0 to 2")]


class Position(Struct, kw_only=True, forbid_unknown_fields=True):
    """An arbitrary position, at the start of the active player's turn action
    (as a scenario's `given.players`): every card id with its name, each
    player's zones (draw piles top first), the exhausted creatures. Cards
    placed nowhere go to the unused pile unless `unused` is given; `out`:
    cards out of the game; `octonite`: the Octonite counters on creatures in
    play, by card id (English revised; left out: none)."""

    cards: Annotated[dict[int, str], Meta(max_length=fmt.MAX_CARDS)]
    hand: fmt.IdsPair = msgspec.field(default_factory=lambda: [[], []])
    play: fmt.IdsPair = msgspec.field(default_factory=lambda: [[], []])
    discard: fmt.IdsPair = msgspec.field(default_factory=lambda: [[], []])
    deck: fmt.IdsPair = msgspec.field(default_factory=lambda: [[], []])
    exhausted: fmt.Ids = msgspec.field(default_factory=list)
    unused: fmt.Ids | UnsetType = UNSET
    out: fmt.Ids = msgspec.field(default_factory=list)
    active: fmt.Player = 0
    life: LifePair = msgspec.field(default_factory=lambda: [3, 3])
    mindbugs: MindbugPair = msgspec.field(default_factory=lambda: [2, 2])
    turn: Annotated[int, Meta(ge=1, le=MAX_TURN)] = 1
    octonite: OctoniteMap | UnsetType = UNSET


class ScenarioRef(Struct, forbid_unknown_fields=True):
    """A scenario's position: the scenario `id` of the file at `path`, a
    regular file under a folder the service was started with
    (`mb-oracle serve --scenarios DIR`)."""

    path: str
    id: str


# -- requests ------------------------------------------------------------------------


class New(_Request, tag="new"):
    """Start a game from exactly one of a deal (`setup`, a replay setup line,
    its `t` optional), the deal of a `seed` (as `mb-oracle selfplay` and
    `perft --seed` deal it), a `position`, or a `scenario`'s position.
    `game` may name Mindbug (the default; "mind-up" is Mind Up!'s `new`)."""

    edition: Edition
    sets: fmt.Names = msgspec.field(default_factory=lambda: ["first-contact"])
    readings: dict[str, str] = msgspec.field(default_factory=dict)
    setup: dict[str, Any] | UnsetType = UNSET
    seed: int | UnsetType = UNSET
    position: Position | UnsetType = UNSET
    scenario: ScenarioRef | UnsetType = UNSET
    game: Literal["mindbug"] | UnsetType = UNSET


class Pending(_Request, tag="pending"):
    """Who decides what now, with every legal option."""

    game: GameId


class Apply(_Request, tag="apply"):
    """Apply one decision; a decision the rules refuse leaves the game unchanged."""

    game: GameId
    decision: ApplyDecision


class State(_Request, tag="state"):
    """The state, as a full replay claim (a `state` line)."""

    game: GameId


class Events(_Request, tag="events"):
    """The events since the game started (or since event number `since`)."""

    game: GameId
    since: Annotated[int, Meta(ge=0)] = 0


class Fork(_Request, tag="fork"):
    """A copy of the game under a new handle, to explore an alternative."""

    game: GameId


class Close(_Request, tag="close"):
    """Forget a game."""

    game: GameId


Request = Union[Hello, New, Pending, Apply, State, Events, Fork, Close]
request_decoder = msgspec.json.Decoder(Request)


# -- responses -----------------------------------------------------------------------


class PendingView(Struct):
    """The decision the game waits for: `stage` (action, mindbug, frenzy,
    hunt, block, choose, order, random), the deciding player (null for a
    chance outcome), the clauses that ask, the card whose ability asks, and
    every legal answer as a decision line."""

    stage: str
    player: int | None
    chance: bool
    prompt: str
    clauses: list[str]
    source: int | None
    options: list[DecisionLine]


class Over(Struct):
    """The result of a finished game: the winner and why (life, no-action)."""

    winner: int
    reason: str


# Something the rules did, with the clauses that made it happen: the same
# shape as the events of a verify finding.
EventView = RulesEvent


class RefusalView(Struct, omit_defaults=True):
    """Why the rules refuse a decision: a stable code, the clause, a message,
    the legal options, the card whose ability forbids it (if any)."""

    code: str
    clause: str
    message: str
    options: list[DecisionLine]
    card: str | None = None


class _View(_Response):
    game: str
    pending: PendingView | None
    over: Over | None


class NewReply(_View, tag="new"):
    """`setup`: the deal as a setup line, when the game was dealt (to write in a log)."""

    events: list[EventView]
    setup: fmt.SetupLine | None = None


class PendingReply(_View, tag="pending"):
    pass


class ApplyReply(_View, tag="apply"):
    applied: bool
    events: list[EventView] = msgspec.field(default_factory=list)
    refusal: RefusalView | None = None


class StateReply(_Response, tag="state"):
    """`state`: a replay state line (a full claim). `octonite`: the Octonite
    counters on creatures in play, by card id; present only when some
    creature holds counters (a replay claim has no place for them)."""

    game: str
    state: fmt.StateLine
    octonite: OctoniteMap | UnsetType = UNSET


class EventsReply(_Response, tag="events"):
    game: str
    events: list[EventView]
    next: int


class ForkReply(_Response, tag="fork"):
    game: str
    parent: str


class CloseReply(_Response, tag="close"):
    game: str


Response = Union[HelloReply, NewReply, PendingReply, ApplyReply, StateReply, EventsReply, ForkReply, CloseReply,
                 ErrorReply]

