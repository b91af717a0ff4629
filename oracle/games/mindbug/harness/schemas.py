"""The JSON Schemas of Mindbug's harness formats, by the name `mb-oracle
schema` takes (the registry's HARNESS_SCHEMA)."""

from __future__ import annotations


def harness_schema(which: str) -> dict:
    if which in ("rpc", "rpc-response"):
        from ....harness.protocol import rpc_response_schema, rpc_schema
        return rpc_schema() if which == "rpc" else rpc_response_schema()
    from ....harness.engine_protocol import engine_reply_schema, engine_schema
    return engine_schema() if which == "engine" else engine_reply_schema()
