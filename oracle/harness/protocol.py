"""mb-oracle-rpc/1, the frame every game's requests share: the version, the
limits, the request and response envelopes (`op`, `id`, `rpc`), `hello`
and its reply, the error reply. Each game defines its own requests and
responses on these (Mindbug's: oracle.games.mindbug.harness.protocol,
Mind Up!'s: oracle.games.mindup.harness.protocol); spec/rpc.md documents
them for people.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from msgspec import UNSET, Meta, Struct, UnsetType

RPC = "mb-oracle-rpc/1"
MAX_REQUEST_BYTES = 1 << 20     # a longer request line is refused (TOO_LARGE)
MAX_GAMES = 1000                # games open at once in one service
OPS = ("hello", "new", "pending", "apply", "state", "events", "fork", "close")

RequestId = Union[int, str, None]
GameId = Annotated[str, Meta(max_length=100, description="a game handle returned by `new` or `fork`")]


class _Request(Struct, tag_field="op", kw_only=True, forbid_unknown_fields=True):
    id: RequestId = None            # echoed in the response
    rpc: Literal[RPC] | UnsetType = UNSET  # type: ignore[valid-type]


class Hello(_Request, tag="hello"):
    """The protocol version, the editions, the team readings."""


class ErrorView(Struct, omit_defaults=True):
    """A request the service cannot carry out. `field`: where in the request
    (`$.decision.card`), when one field is at fault; `clause`: the rule that
    refuses a deal or position."""

    code: str
    message: str
    field: str | None = None
    clause: str | None = None


class _Response(Struct, tag_field="op", kw_only=True):
    rpc: Literal[RPC] = RPC  # type: ignore[valid-type]
    id: RequestId = None
    ok: bool = True


class HelloReply(_Response, tag="hello"):
    """Mindbug's editions, sets, team readings and ops; `games`: the games
    a `new` may name (its `game`; Mindbug when left out)."""

    editions: list[str]
    sets: list[str]
    readings: dict[str, list[str]]
    ops: list[str]
    games: list[str]


class ErrorReply(_Response, tag="error"):
    error: ErrorView
