"""The JSON Schemas of Mind Up!'s harness vocabulary: `mb-oracle schema rpc
--game mind-up` (and rpc-response, engine, engine-reply).

The service and the engine client read a Mind Up! request or reply with the
structs of oracle.games.mindup.harness.protocol, some of which take their op
from the field `op` rather than a tag (one struct serves several ops). The
schemas are made from tagged twins of those structs, one per op, with the
same fields, so that a validator picks the branch by `op` as the service
does; `hello`, `quit` and the error reply are the service's and the engine
protocol's own, whatever the game.
"""

from __future__ import annotations

from typing import Union

import msgspec
from msgspec.structs import fields

from ....harness import engine_protocol as ep
from ....harness import protocol as mb
from ....schemas import json_schema, strict_twins
from ..replay import format as fmt
from . import protocol as pr

_BASE = "https://mb-oracle.invalid/schema/"


def _specs(cls: type, keep=None, **types) -> list[tuple]:
    """The fields of `cls` as msgspec.defstruct takes them (those named in
    `keep`, if given, and never `op`), their types replaced by `types` where
    given."""
    out: list[tuple] = []
    for f in fields(cls):
        if f.name == "op" or keep is not None and f.name not in keep:
            continue
        tp = types.get(f.name, f.type)
        if f.default is not msgspec.NODEFAULT:
            out.append((f.name, tp, f.default))
        elif f.default_factory is not msgspec.NODEFAULT:
            out.append((f.name, tp, msgspec.field(default_factory=f.default_factory)))
        else:
            out.append((f.name, tp))
    return out


def _twin(cls: type, op: str, name: str, **types) -> type:
    """`cls` as a struct tagged `op` in the field `op`, its other fields as
    they are (their types replaced by `types`, where given)."""
    twin = msgspec.defstruct(name, _specs(cls, **types), tag_field="op", tag=op, kw_only=True,
                             forbid_unknown_fields=True, module=__name__)
    twin.__doc__ = cls.__doc__
    return twin


def _requests() -> object:
    step = strict_twins(pr.Step.__args__, "Apply")
    ops = [_twin(pr.New, "new", "NewRequest")]
    for op, cls in pr.ON_GAME.items():
        ops.append(_twin(cls, op, op.title() + "Request", **({"decision": step} if op == "apply" else {})))
    return Union[tuple([mb.Hello, *ops])]  # type: ignore[return-value]


def _engine_messages() -> object:
    apply = _twin(pr.EngineApply, "apply", "EngineApply", decision=Union[fmt.RoundLine, fmt.TurnLine])
    return Union[ep.Hello, pr.EngineDeal, pr.EnginePosition, apply, ep.Quit]


# The fields of a reply to `hello` that a Mind Up! adapter may give (the
# engine client reads them as for any game; `sets` and `chance` are Mindbug's).
_HELLO_FIELDS = ("protocol", "name", "version", "editions", "positions", "games", "deviations", "claims")


def _engine_reply() -> type:
    """One struct for any reply line of a Mind Up! adapter: the hello fields,
    then the fields of a reply about the game (all optional)."""
    return msgspec.defstruct("MindUpEngineReply", _specs(ep.HelloReply, _HELLO_FIELDS) + _specs(pr.EngineReply),
                             kw_only=True, module=__name__)


def harness_schema(which: str) -> dict:
    """The schema `mb-oracle schema WHICH --game mind-up` prints."""
    if which == "rpc":
        return json_schema(_requests(), id=_BASE + "mb-oracle-rpc-1-mind-up.json",
                           title=f"{mb.RPC} request line, Mind Up!",
                           description=("One request of `mb-oracle serve` on a game of Mind Up! (JSON Lines on "
                                        "standard input); see spec/rpc.md, Mind Up!. `op` names the request."))
    if which == "rpc-response":
        return json_schema(Union[tuple([mb.HelloReply, *pr.Response.__args__, mb.ErrorReply])],
                           id=_BASE + "mb-oracle-rpc-1-response-mind-up.json",
                           title=f"{mb.RPC} response line, Mind Up!",
                           description=("One response of `mb-oracle serve` to a request on a game of Mind Up! "
                                        "(JSON Lines on standard output); `op` echoes the request's, or is `error`."))
    if which == "engine":
        return json_schema(_engine_messages(), id=_BASE + "mb-engine-1-mind-up.json",
                           title=f"{ep.PROTOCOL} message (oracle to engine adapter), Mind Up!",
                           description=("One line `mb-oracle conform --game mind-up` writes to an engine adapter's "
                                        "standard input; see spec/engine-protocol.md. `op` names the message."))
    return json_schema(_engine_reply(), id=_BASE + "mb-engine-1-reply-mind-up.json",
                       title=f"{ep.PROTOCOL} reply (engine adapter to oracle), Mind Up!",
                       description=("One line an engine adapter writes for each message of `mb-oracle conform "
                                    "--game mind-up` but `quit`: to `hello`, the hello fields (`protocol`, `name`, "
                                    "`games`...); to `deal`, `position` and `apply`, the game as the engine sees "
                                    "it; see spec/engine-protocol.md."))
