"""The JSON Schemas of Mindbug's harness formats, by the name `mb-oracle
schema` takes (the registry's HARNESS_SCHEMA)."""

from __future__ import annotations

from ....harness.engine_protocol import PROTOCOL
from ....harness.protocol import RPC
from ....schemas import json_schema
from . import engine_protocol as ep
from . import protocol as pr

_BASE = "https://mb-oracle.invalid/schema/"

# name -> (the type of one line, the schema's file, title, description)
_SCHEMAS = {
    "rpc": (pr.Request, "mb-oracle-rpc-1.json", f"{RPC} request line",
            "One request of `mb-oracle serve` (JSON Lines on standard input); see spec/rpc.md. `op` names the "
            "request."),
    "rpc-response": (pr.Response, "mb-oracle-rpc-1-response.json", f"{RPC} response line",
                     "One response of `mb-oracle serve` (JSON Lines on standard output); see spec/rpc.md. `op` "
                     "echoes the request's, or is `error`."),
    "engine": (ep.Message, "mb-engine-1.json", f"{PROTOCOL} message (oracle to engine adapter)",
               "One line `mb-oracle conform` writes to an engine adapter's standard input; see "
               "spec/engine-protocol.md. `op` names the message."),
    "engine-reply": (ep.Reply, "mb-engine-1-reply.json", f"{PROTOCOL} reply (engine adapter to oracle)",
                     "One line an engine adapter writes to its standard output for each message but `quit`; see "
                     "spec/engine-protocol.md."),
}


def harness_schema(which: str) -> dict:
    """The schema `mb-oracle schema WHICH` prints (rpc, rpc-response, engine, engine-reply)."""
    tp, name, title, description = _SCHEMAS[which]
    return json_schema(tp, id=_BASE + name, title=title, description=description)
