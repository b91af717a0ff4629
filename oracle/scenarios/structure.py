"""The structure of a scenario document: every problem of its structure
(msgspec's checks), each at its line, read past one problem to the next so
that one run lists them all (`oracle.structure`).

Line numbers come from the YAML node tree (`yaml.compose`): every value keeps
the node it was read from, and msgspec's error path (`$.given.players[0].life`)
is walked back down that tree to the line.
"""

from __future__ import annotations

import re

from ..games.mindbug.editions import EDITIONS
from ..structure import Locator, Structure, field_name, read_past
from .format import MAX_OCTONITE, SOURCE_KINDS, Scenario

_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_JSON_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "null": type(None),
               "array": list, "object": dict}


def msgspec_location(error: str, data, loc: Locator) -> tuple[list, int, str]:
    """Turn msgspec's `... - at `$.a.b[0]`` into (path, line, message)."""
    message, sep, at = error.rpartition(" - at `")
    if not sep:
        message, at = error, "$"
    at = at.rstrip("`")
    # A key of a mapping: msgspec writes "at `key` in `$.a.b`".
    in_key = at.startswith("key` in `")
    if in_key:
        at = at[len("key` in `"):]
    path: list = []
    value = data
    for m in _PATH_STEP.finditer(at[1:]):
        key, idx = m.group(1), m.group(2)
        if key is not None:
            step = key
        elif idx == "...":
            # A dict value: msgspec does not say which key; find the value of the wrong type.
            got = re.search(r"got `(\w+)`", message)
            want = _JSON_TYPES.get(got.group(1)) if got else None
            step = next((k for k, v in (value or {}).items()
                         if want is None or type(v) is want or (want is dict and isinstance(v, dict))),
                        None) if isinstance(value, dict) else None
            if step is None:
                break
        else:
            step = int(idx)
        path.append(step)
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            value = None
    if message.startswith("Invalid enum value") and (path[:1] == ["editions"] or
                                                     in_key and path == ["expect_by_edition"]):
        # Editions are a closed list: name them.
        bad = value
        if in_key:
            bad = next((k for k in value if k not in EDITIONS), None) if isinstance(value, dict) else None
        known = f"unknown edition {bad!r} (one of {', '.join(EDITIONS)})"
        if in_key and isinstance(bad, str):
            return path, loc.key_line(path, bad), known
        return path, loc.line(path), known
    if in_key:
        return path, loc.line(path), f"a key: {message}"
    if path[-1:] == ["octonite"] or path[-2:-1] == ["octonite"]:
        message += f" (Octonite counters: a whole number from 0 to {MAX_OCTONITE}, MAX_OCTONITE)"
    if message.startswith("Invalid enum value") and path[:1] == ["steps"]:
        message += " (a bare step is `mindbug` or `pass`; others are written `kind: value`)"
    unknown = re.match(r"Object contains unknown field `(.+)`$", message)
    if unknown:
        key = unknown.group(1)
        return path + [key], loc.key_line(path, key), f"unknown key {key!r}"
    missing = re.match(r"Object missing required field `(.+)`$", message)
    if missing:
        return path, loc.line(path), f"missing required key {missing.group(1)!r}"
    return path, loc.line(path), message


# Values put in for a required top-level key the document lacks, so that the
# checks beyond the structure still run on the rest (their findings about
# these values are not the document's, and are dropped).
PLACEHOLDERS = {"id": "placeholder", "title": "-", "clauses": ["-"], "source": {"kind": SOURCE_KINDS[0], "ref": "-"},
                "given": {}}


def read_structure(data: dict, loc: Locator) -> Structure:
    """The document as a Scenario and every problem of its structure (a step
    with a problem is taken out whole: what is left of it is no step)."""
    def whole(path, _message):
        return path[:2] if len(path) >= 3 and path[0] == "steps" else path
    out = read_past(data, Scenario, loc, lambda e, d: msgspec_location(e, d, loc), PLACEHOLDERS, whole)
    if out.doc is not None and "id" in out.filled:
        import msgspec
        out.doc = msgspec.structs.replace(out.doc, id="(no id)")
    return out


__all__ = ["Locator", "PLACEHOLDERS", "Structure", "field_name", "msgspec_location", "read_structure"]
