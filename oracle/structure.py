"""Reading a document past the problems of its structure, so that one run
lists every problem of a file (scenario files, card files).

msgspec stops at the first value that does not fit. `read_past` takes that
value out of (a copy of) the data and reads the rest again, until it fits;
a required top-level key the document lacks is put in (a placeholder) so
that the rest can still be read. `Locator` maps a path of the data back to
the line of the file, list items taken out included.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec
import yaml


class Locator:
    """Maps a path of keys and indices to the line of the YAML node there.

    After list items were taken out of the data (`remove`, to read on past a
    problem), a path of the data is mapped back to the file's (`original`)."""

    def __init__(self, node: yaml.Node | None):
        self.root = node
        self.removed: dict[tuple, list[int]] = {}   # the file's path of a list -> its items taken out

    def original(self, path: Iterable) -> list:
        out: list = []
        for step in path:
            if isinstance(step, int) and tuple(out) in self.removed:
                gone, i, left = self.removed[tuple(out)], -1, step
                while left >= 0:
                    i += 1
                    if i not in gone:
                        left -= 1
                step = i
            out.append(step)
        return out

    def remove(self, data, path: list) -> bool:
        """Take the value at `path` out of `data`; False when there is none."""
        parent = data
        for step in path[:-1]:
            try:
                parent = parent[step]
            except (KeyError, IndexError, TypeError):
                return False
        last = path[-1] if path else None
        if isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
            where = tuple(self.original(path[:-1]))
            self.removed.setdefault(where, []).append(self.original(path)[-1])
            del parent[last]
            return True
        if isinstance(parent, dict) and last in parent:
            del parent[last]
            return True
        return False

    def node(self, path: Iterable) -> yaml.Node:
        node = self.root
        for step in self.original(path):
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == step or (isinstance(step, int) and k.value == str(step)):   # {0: ...}
                        nxt = v
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
                if 0 <= step < len(node.value):
                    nxt = node.value[step]
            if nxt is None:
                break
            node = nxt
        return node

    def line(self, path: Iterable) -> int | None:
        node = self.node(path)
        return None if node is None else node.start_mark.line + 1

    def key_line(self, path: Iterable, key: str) -> int | None:
        node = self.node(path)
        if node is None:
            return None
        if isinstance(node, yaml.MappingNode):
            for k, _v in node.value:
                if k.value == key or (isinstance(key, int) and k.value == str(key)):
                    return k.start_mark.line + 1
        return node.start_mark.line + 1


def keys_at(root: type, path: list) -> list[str]:
    """The keys the document type `root` allows in the mapping at `path`
    (the fields of the struct found there; of each struct a union offers),
    [] where the path leads to no struct."""
    import msgspec.inspect as mi

    def flat(types):
        for t in types:
            while isinstance(t, mi.Metadata):
                t = t.type
            if isinstance(t, mi.UnionType):
                yield from flat(t.types)
            else:
                yield t

    types = [mi.type_info(root)]
    for step in path:
        inner = []
        for t in flat(types):
            if isinstance(step, str) and isinstance(t, mi.StructType):
                inner += [f.type for f in t.fields if f.encode_name == step]
            elif isinstance(step, str) and isinstance(t, mi.DictType):
                inner.append(t.value_type)
            elif isinstance(step, int) and isinstance(t, (mi.ListType, mi.VarTupleType)):
                inner.append(t.item_type)
            elif isinstance(step, int) and isinstance(t, mi.TupleType) and step < len(t.item_types):
                inner.append(t.item_types[step])
        types = inner
    return list(dict.fromkeys(f.encode_name for t in flat(types) if isinstance(t, mi.StructType) for f in t.fields))


def unknown_key(key: str, root: type | None, path: list) -> str:
    """The message of a key the document type `root` does not allow at
    `path`: the key meant, when one is near, else the keys allowed there."""
    from .term import did_you_mean

    keys = keys_at(root, path) if root is not None else []
    hint = did_you_mean(key, keys) or (f" (keys here: {', '.join(keys)})" if keys else "")
    return f"unknown key {key!r}{hint}"


def field_name(path: Iterable) -> str:
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
    return out or "(document)"


@dataclass
class Structure:
    """A document read past the problems of its structure."""

    doc: object = None                   # the struct; None when what is left cannot be read
    problems: list = field(default_factory=list)    # (path in the file, line, message)
    filled: set[str] = field(default_factory=set)   # top-level keys put in for missing ones (placeholders)
    cut: set[str] = field(default_factory=set)      # top-level keys under which a value was taken out


def read_past(data, kind, loc: Locator, locate: Callable, placeholders: dict | None = None,
              whole: Callable | None = None, limit: int = 200) -> Structure:
    """`data` read as the struct `kind`, and every problem of its structure.
    `locate(error text, data)` gives (path of the data, line, message) of a
    msgspec error; `whole(path, message)` the path of the value to take out
    for that problem (default: `path`). A problem of a list the reading took
    an item out of is not listed (the reading made it), nor is a missing key
    whose value was taken out; the values taken out are not checked further."""
    out = Structure()
    taken: set[tuple] = set()
    copied = False
    for _ in range(limit):
        try:
            out.doc = msgspec.convert(data, kind)
            return out
        except msgspec.ValidationError as e:
            path, at, message = locate(str(e), data)
        where = loc.original(path)
        missing = re.match(r"missing required key '(.+)'$", message)
        made = tuple(where + [missing.group(1)]) in taken if missing else tuple(where) in loc.removed
        if not made:
            out.problems.append((where, at, message))
        if not copied:
            data, copied = copy.deepcopy(data), True
        if missing and not path and missing.group(1) in (placeholders or {}):
            out.filled.add(missing.group(1))
            data[missing.group(1)] = copy.deepcopy(placeholders[missing.group(1)])
            continue
        path = whole(path, message) if whole else path
        taken.add(tuple(loc.original(path)))
        out.cut.add(str(where[0]) if where else "")
        if not path or not loc.remove(data, path):
            break
    return out


__all__ = ["Locator", "Structure", "field_name", "keys_at", "read_past", "unknown_key"]
