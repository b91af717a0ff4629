"""mb-engine/1 for Mindbug: what `mb-oracle conform` says to an engine
adapter about a game of Mindbug, and what the adapter answers, one JSON
object per line, defined in code on the shared frame
(oracle.harness.engine_protocol: hello, quit, the fields of a reply to
hello).

`mb-oracle schema engine` and `mb-oracle schema engine-reply` print the JSON
Schemas; spec/engine-protocol.md explains them. Decisions travel in their
mb-replay/1 line form, states as replay state claims.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import UNSET, Meta, UnsetType

from ....harness.engine_protocol import Hello, HelloReply, Quit, _Message
from ..cards import DEFAULT_SETS, set_id
from ..replay import format as fmt
from .protocol import DecisionLine, Edition, Over, Position


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


Message = Hello | Deal | SetPosition | Apply | Quit


class Reply(HelloReply, kw_only=True, omit_defaults=True):
    """One reply line. To `hello`: `protocol`, `name` (and `version`),
    `editions`, `positions`, `sets`. To `deal`, `position` and `apply`: the game as
    the engine now sees it: `options` (every legal decision, as decision
    lines; the possible outcomes at a chance event; empty when the game is
    over), `state` (a replay state claim: the fields given are compared),
    `over` (null, or the winner and the reason). To any message the engine
    cannot carry out (a decision it refuses, a deal it cannot set up):
    `error`, a message for people. Other fields are ignored; `x` is meant
    for the adapter's own data."""

    # The chance outcomes the engine drew while carrying out the message, in order (`chance: reports`).
    drawn: list[fmt.RandomLine] | UnsetType = UNSET
    options: list[DecisionLine] | UnsetType = UNSET
    state: fmt.StateLine | UnsetType = UNSET
    over: Over | None | UnsetType = UNSET
    error: Annotated[str, Meta(max_length=10000)] | UnsetType = UNSET
    x: msgspec.Raw | UnsetType = UNSET


reply_decoder = msgspec.json.Decoder(Reply)


def dealt_sets(engine) -> list[str]:
    """The card sets an engine deals, as its hello lists them (ids or names,
    as on a replay game line, "New Servants": kept as ids); first-contact
    alone when it lists none."""
    if engine.sets is None:
        return list(DEFAULT_SETS)
    return list(dict.fromkeys(set_id(x) for x in engine.sets))
