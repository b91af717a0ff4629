"""Problems in scenario files, located like compiler messages: a
`ScenarioError` names the file, the line and the field. Line numbers come
from the YAML node tree (`yaml.compose`): every value keeps the node it was
read from, and msgspec's error path (`$.given.players[0].life`) is walked
back down that tree to the line. Shared by the documents of every game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import yaml

from ..editions import EDITIONS
from .format import MAX_OCTONITE


@dataclass(frozen=True)
class ScenarioError:
    """A problem in a scenario file, located like a compiler message."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}


# -- locating values in the YAML node tree ---------------------------------------


class _Locator:
    """Maps a path of keys and indices to the line of the YAML node there."""

    def __init__(self, node: yaml.Node):
        self.root = node

    def node(self, path: Iterable) -> yaml.Node:
        node = self.root
        for step in path:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == step:
                        nxt = v
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
                if 0 <= step < len(node.value):
                    nxt = node.value[step]
            if nxt is None:
                break
            node = nxt
        return node

    def line(self, path: Iterable) -> int:
        return self.node(path).start_mark.line + 1

    def key_line(self, path: Iterable, key: str) -> int:
        node = self.node(path)
        if isinstance(node, yaml.MappingNode):
            for k, _v in node.value:
                if k.value == key:
                    return k.start_mark.line + 1
        return node.start_mark.line + 1


def field_name(path: Iterable) -> str:
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
    return out or "(document)"


_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_JSON_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "null": type(None),
               "array": list, "object": dict}


def _msgspec_location(error: str, data, loc: _Locator) -> tuple[list, int, str]:
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


def check_editions_and_readings(doc, fail, check_readings) -> None:
    """What every game's document checker asks of `editions` and `readings`:
    no edition listed twice, readings the game knows (`check_readings`
    raises UnknownReading, whose message names the nearest); each problem
    goes to `fail(path, message)`."""
    from msgspec import UNSET

    from ..readings import UnknownReading

    if doc.editions != "all" and len(set(doc.editions)) != len(doc.editions):
        fail(["editions"], "an edition is listed twice")
    if doc.readings is not UNSET:
        try:
            check_readings(doc.readings)
        except UnknownReading as e:
            fail(["readings"], str(e))
