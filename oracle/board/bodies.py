"""The JSON bodies the board's API reads, as msgspec structs: a body with
an unknown field, a field of the wrong type or a missing one is refused
with the field named (`$.decisions[3]`), as `serve` refuses a request."""

from __future__ import annotations

from typing import Any

import msgspec

from ..replay.limits import text_problem
from ..term import did_you_mean

MAX_BODY_BYTES = 1 << 20            # a request's body (413 beyond)
MAX_DECISIONS = 2000


class _Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Check(_Body):
    document: dict[str, Any]


class Play(_Body):
    document: dict[str, Any]
    decisions: list[dict[str, Any]] = []
    edition: str | None = None


class Ruling(Play):
    ticks: list[str] = []
    id: str = "board.ruling"
    title: str = "A ruling set up on the board"
    clauses: list[str] = []
    source: dict[str, Any] | None = None


class Save(Ruling, kw_only=True):
    file: str
    overwrite: bool = False
    base: str | None = None


class BodyError(ValueError):
    """A body that cannot be read: the message and the field at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message, self.field = message, field


def read(raw: bytes, struct):
    """The body `raw` as `struct`; BodyError naming the field of a bad one.
    Its text is checked first as a request of `serve` is (UTF-8, at most
    MAX_DEPTH levels of arrays and objects)."""
    problem = text_problem(raw)
    if problem is not None:
        raise BodyError(f"the body is not accepted: {problem[1]}", "$")
    try:
        body = msgspec.json.decode(raw, type=struct)
    except msgspec.ValidationError as e:
        message, _, at = str(e).rpartition(" - at `")
        field = at.rstrip("`") if message else "$"
        message = message or str(e)
        if message.startswith("Object contains unknown field"):
            name = message.split("`")[1]
            names = [f.encode_name for f in msgspec.structs.fields(struct)] if not field or field == "$" else []
            field = f"{field or '$'}.{name}"
            message = f"unknown field {name!r}{did_you_mean(name, names)}" + (
                f"; fields: {', '.join(names)}" if names else "")
        elif message.startswith("Object missing required field"):
            name = message.split("`")[1]
            field = f"{field or '$'}.{name}"
            message = f"the body needs the field {name!r}"
        raise BodyError(message, field) from None
    except msgspec.DecodeError as e:
        raise BodyError(f"the body is not JSON: {e}", "$") from None
    decisions = getattr(body, "decisions", ())
    if len(decisions) > MAX_DECISIONS:
        raise BodyError(f"{len(decisions)} decisions: at most {MAX_DECISIONS} are played from one position",
                        "$.decisions")
    return body
