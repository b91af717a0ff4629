"""Decoding the lines of an mb-replay/1 log, with findings that name the line
and field."""

from __future__ import annotations

import msgspec

from ....replay.findings import Finding
from ....replay.limits import LineProblem, decode_line, error_field, plain
from ....replay.lines import loose_head
from ..editions import EDITIONS
from . import format as fmt

_strict = fmt.strict_decoder.decode


def read_line(raw: bytes):
    """One line decoded within the limits, and the fields mb-replay/1 does not
    define if it is a game, setup, state or end line. Raises as `decode_line`."""
    if plain(raw):
        try:
            return _strict(raw), ()   # the common line: within every limit (limits.decode_line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass     # unknown fields, or a broken line: worded by the ordinary decoder
    line = decode_line(fmt.decoder, raw)
    t = line.__struct_config__.tag
    return line, (fmt.unknown_fields(t, raw) if t in fmt.KNOWN_FIELDS else ())


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
    if "at `$.format`" in text or "at `$.edition`" in text:
        head = loose_head(raw)
        if "at `$.format`" in text:
            return Finding("BAD_VERSION", [], lineno,
                           f"format {head.format!r} is not supported; this oracle reads {_formats()}",
                           log=head.format, rules=fmt.FORMAT)
        return Finding("UNKNOWN_EDITION", [], lineno,
                       f"unknown edition {head.edition!r}; known: {', '.join(EDITIONS)}", log=head.edition)
    return Finding("BAD_LINE", [], lineno, f"field {error_field(text)}: {text}",
                   log=raw[:200].decode("utf-8", "replace"))




def _formats() -> str:
    """'mb-replay/1 (Mindbug), mu-replay/1 (Mind Up!)': the formats verify reads."""
    from ... import FORMATS, entry

    return ", ".join(f"{name} ({entry(game).TITLE})" for name, game in FORMATS.items())
