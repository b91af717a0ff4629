"""Where a problem of a scenario document's structure is: msgspec's error
path walked back to the line of the document, whatever its game (each game's
scenario loader reads its documents with it, oracle.structure's `read_past`
past one problem to the next).

Line numbers come from the YAML node tree (`yaml.compose`): every value keeps
the node it was read from, and msgspec's error path (`$.given.players[0].life`)
is walked back down that tree to the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..structure import Locator, unknown_key

_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_JSON_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "null": type(None),
               "array": list, "object": dict}


def msgspec_location(error: str, data, loc: Locator, editions: tuple[str, ...],
                     note: Callable[[list, str], str] | None = None,
                     root: type | None = None) -> tuple[list, int, str]:
    """Turn msgspec's `... - at `$.a.b[0]`` into (path, line, message).
    `editions`: the game's, named when a document gives another; `note(path,
    message)`: the game's word on a value of the wrong kind, the message
    with what it adds; `root`: the document's type, whose keys an unknown
    key is told (the nearest, or all of them)."""
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
            bad = next((k for k in value if k not in editions), None) if isinstance(value, dict) else None
        known = f"unknown edition {bad!r} (one of {', '.join(editions)})"
        if in_key and isinstance(bad, str):
            return path, loc.key_line(path, bad), known
        return path, loc.line(path), known
    if in_key:
        return path, loc.line(path), f"a key: {message}"
    if note is not None:
        message = note(path, message)
    unknown = re.match(r"Object contains unknown field `(.+)`$", message)
    if unknown:
        key = unknown.group(1)
        return path + [key], loc.key_line(path, key), unknown_key(key, root, path)
    missing = re.match(r"Object missing required field `(.+)`$", message)
    if missing:
        return path, loc.line(path), f"missing required key {missing.group(1)!r}"
    return path, loc.line(path), message

