"""Decoding the lines of a log, with findings that name the line and field."""

from __future__ import annotations

import msgspec

from . import format as fmt
from .findings import Finding
from .limits import LineProblem


def line_error(lineno: int, raw: bytes, exc: Exception) -> Finding:
    text = str(exc)
    if isinstance(exc, LineProblem):
        return Finding(exc.code, [], lineno, exc.message, log=raw[:200].decode("utf-8", "replace"))
    if not isinstance(exc, msgspec.ValidationError):
        hint = " (the line is cut short: a truncated file?)" if "truncated" in text else ""
        return Finding("BAD_JSON", [], lineno, f"not valid JSON: {text}{hint}",
                       log=raw[:200].decode("utf-8", "replace"))
    if "at `$.t`" in text:
        return Finding("UNKNOWN_LINE_TYPE", [], lineno,
                       f"unknown line type; expected one of {', '.join(fmt.LINE_TYPES)}",
                       log=raw[:200].decode("utf-8", "replace"))
    field = ""
    if " - at `$." in text:
        field = text.rsplit(" - at `$.", 1)[1].rstrip("`")
    elif "field `" in text:
        field = text.split("field `", 1)[1].split("`", 1)[0]
    return Finding("BAD_LINE", [], lineno, f"field {field or '?'}: {text}",
                   log=raw[:200].decode("utf-8", "replace"))


