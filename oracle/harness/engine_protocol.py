"""mb-engine/1, the frame every game's messages share: what `mb-oracle
conform` says to an engine adapter first (`hello`) and last (`quit`), and
the fields of the adapter's reply to hello, one JSON object per line.

The adapter is any program that reads these messages on its standard
input and writes one reply line for each on its standard output (`quit`
excepted). Each game defines the messages of its games and the rest of
the replies (Mindbug's: oracle.games.mindbug.harness.engine_protocol,
Mind Up!'s: oracle.games.mindup.harness.protocol);
spec/engine-protocol.md explains them.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

PROTOCOL = "mb-engine/1"
MAX_REPLY_BYTES = 4 << 20       # a longer reply line is a protocol fault


class _Message(Struct, tag_field="op", kw_only=True):
    pass


class Hello(_Message, tag="hello"):
    """The first message: the adapter answers with its name, the editions
    its engine plays, and whether it can set up arbitrary positions."""

    protocol: str = PROTOCOL


class Quit(_Message, tag="quit"):
    """The end of the session: the adapter exits without replying."""


class HelloReply(Struct, kw_only=True, omit_defaults=True):
    """The fields of a reply to hello, whatever the game; a game's reply
    struct adds those of a reply about its games."""

    protocol: str | UnsetType = UNSET
    name: str | UnsetType = UNSET
    version: str | UnsetType = UNSET
    editions: list[str] | UnsetType = UNSET     # editions the oracle does not know are ignored
    positions: bool | UnsetType = UNSET
    sets: list[str] | UnsetType = UNSET         # to hello: the card sets the engine deals; absent: the game's default
    games: list[str] | UnsetType = UNSET        # to hello: the games the engine plays (oracle.games); absent: the default
    # To hello, what the engine can do: `chance` "lists" (every outcome of a chance event among the
    # options, and the oracle sends the one to apply; the default) or "reports" (the engine draws it
    # and says which in `drawn`); `deviations`, the clauses it knowingly does not follow; `claims`,
    # the state fields its claims give.
    chance: Literal["lists", "reports"] | UnsetType = UNSET
    deviations: list[str] | UnsetType = UNSET
    claims: list[str] | UnsetType = UNSET


message_encoder = msgspec.json.Encoder()
hello_decoder = msgspec.json.Decoder(HelloReply)
