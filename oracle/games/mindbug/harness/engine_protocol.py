"""mb-engine/1: what `mb-oracle conform` says to an engine adapter, and what
the adapter answers, one JSON object per line, defined in code.

The adapter is any program that reads these messages on its standard
input and writes one reply line for each on its standard output (`quit`
excepted). `mb-oracle schema engine` and `mb-oracle schema engine-reply`
print the JSON Schemas; spec/engine-protocol.md explains them. Decisions
travel in their mb-replay/1 line form, states as replay state claims.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ..games.mindbug.replay import format as fmt
from ..schemas import json_schema
from .protocol import DecisionLine, Edition, Over, Position

PROTOCOL = "mb-engine/1"
MAX_REPLY_BYTES = 4 << 20       # a longer reply line is a protocol fault


class _Message(Struct, tag_field="op", kw_only=True):
    pass


class Hello(_Message, tag="hello"):
    """The first message: the adapter answers with its name, the editions
    its engine plays, and whether it can set up arbitrary positions."""

    protocol: str = PROTOCOL


class Deal(_Message, tag="deal"):
    """Start a new game from a deal (a replay setup line); any earlier game is dropped."""

    edition: Edition
    setup: fmt.SetupLine
    sets: list[str] | UnsetType = UNSET   # the card sets dealt from (setup.sets); absent: first-contact alone


class SetPosition(_Message, tag="position"):
    """Start a new game from a position, at the start of the active player's
    turn action (only sent to adapters that said `positions: true`)."""

    edition: Edition
    position: Position
    sets: list[str] | UnsetType = UNSET   # the card sets in play (setup.sets); absent: first-contact alone


class Apply(_Message, tag="apply"):
    """Apply one decision (or chance outcome) to the current game."""

    decision: DecisionLine


class Quit(_Message, tag="quit"):
    """The end of the session: the adapter exits without replying."""


Message = Hello | Deal | SetPosition | Apply | Quit


class Reply(Struct, kw_only=True, omit_defaults=True):
    """One reply line. To `hello`: `protocol`, `name` (and `version`),
    `editions`, `positions`, `sets`. To `deal`, `position` and `apply`: the game as
    the engine now sees it: `options` (every legal decision, as decision
    lines; the possible outcomes at a chance event; empty when the game is
    over), `state` (a replay state claim: the fields given are compared),
    `over` (null, or the winner and the reason). To any message the engine
    cannot carry out (a decision it refuses, a deal it cannot set up):
    `error`, a message for people. Other fields are ignored; `x` is meant
    for the adapter's own data."""

    protocol: str | UnsetType = UNSET
    name: str | UnsetType = UNSET
    version: str | UnsetType = UNSET
    editions: list[str] | UnsetType = UNSET     # editions the oracle does not know are ignored
    positions: bool | UnsetType = UNSET
    sets: list[str] | UnsetType = UNSET         # to hello: the card sets the engine deals; absent: first-contact
    games: list[str] | UnsetType = UNSET        # to hello: the games the engine plays (oracle.games); absent: mindbug
    # To hello, what the engine can do: `chance` "lists" (every outcome of a chance event among the
    # options, and the oracle sends the one to apply; the default) or "reports" (the engine draws it
    # and says which in `drawn`); `deviations`, the clauses it knowingly does not follow; `claims`,
    # the state fields its claims give.
    chance: Literal["lists", "reports"] | UnsetType = UNSET
    deviations: list[str] | UnsetType = UNSET
    claims: list[str] | UnsetType = UNSET
    # The chance outcomes the engine drew while carrying out the message, in order (`chance: reports`).
    drawn: list[fmt.RandomLine] | UnsetType = UNSET
    options: list[DecisionLine] | UnsetType = UNSET
    state: fmt.StateLine | UnsetType = UNSET
    over: Over | None | UnsetType = UNSET
    error: Annotated[str, Meta(max_length=10000)] | UnsetType = UNSET
    x: msgspec.Raw | UnsetType = UNSET


message_encoder = msgspec.json.Encoder()
reply_decoder = msgspec.json.Decoder(Reply)


def engine_schema() -> dict:
    return json_schema(Message, id="https://mb-oracle.invalid/schema/mb-engine-1.json",
                       title=f"{PROTOCOL} message (oracle to engine adapter)",
                       description=("One line `mb-oracle conform` writes to an engine adapter's standard input; "
                                    "see spec/engine-protocol.md. `op` names the message."))


def engine_reply_schema() -> dict:
    return json_schema(Reply, id="https://mb-oracle.invalid/schema/mb-engine-1-reply.json",
                       title=f"{PROTOCOL} reply (engine adapter to oracle)",
                       description=("One line an engine adapter writes to its standard output for each message "
                                    "but `quit`; see spec/engine-protocol.md."))
