"""Keys given twice in one JSON object of a log line.

The decoder takes the last of two values silently, so a line such as
`{"t":"play","p":0,"card":3,"p":1}` would be read as player 1's without a
word. `given_twice(raw, line)` finds such keys, at almost no cost for an
ordinary line: the keys the line has (each `":` of its bytes) are counted
and set against the keys its decoded value holds (`_held`). A line that
has more (a field written at its default value, `"exhausted":false`) is
decoded as plain JSON and written again, which keeps one of each key; only
a line whose count still differs, that writes `\\u` escapes, or blanks
between a quote and a colon (`"p" :`, which the count would miss), is read
again with the standard library's JSON reader, key by key.

Why the count is safe: `_held` counts only what the line must have given
(a field away from its default, each key of a mapping), never more; a key
given twice makes the line's keys outnumber the distinct ones it holds.
The lines that come often (decisions, the game and setup lines) are
settled by the count; the others (state claims: lists of objects) by the
second test, two passes of msgspec.
"""

from __future__ import annotations

import msgspec

_UNSET = msgspec.UNSET
_NODEFAULT = msgspec.NODEFAULT
_Struct = msgspec.Struct
_fields: dict[type, tuple] = {}     # a Struct class -> (its tag counts as a key, ((field, default), ...))


def _shape(cls) -> tuple:
    shape = _fields.get(cls)
    if shape is None:
        import msgspec.structs

        pairs = []
        for f in msgspec.structs.fields(cls):
            default = f.default if f.default is not _NODEFAULT else (
                f.default_factory() if f.default_factory is not _NODEFAULT else _NODEFAULT)
            pairs.append((f.name, default))
        shape = _fields[cls] = (cls.__struct_config__.tag is not None, tuple(pairs))
    return shape


def _held(v) -> int:
    """Keys that the decoded value `v` shows its line gave, at most: the
    fields of a Struct away from their defaults, the keys of a mapping, and
    those of a Struct or mapping in a field; lists are not looked into (a
    count too low only sends the line on to the next test)."""
    c = v.__class__
    if c is dict:
        return len(v)
    if not isinstance(v, _Struct):
        return 0
    tagged, pairs = _shape(c)
    n = 1 if tagged else 0
    for name, default in pairs:
        x = getattr(v, name)
        if x is _UNSET or x is None or x is default:
            continue
        if default is not _NODEFAULT and x.__class__ is default.__class__ and x == default:
            continue
        n += 1
        if x.__class__ is dict:
            n += len(x)
        elif isinstance(x, _Struct):
            n += _held(x)
    return n


def given_twice(raw, line, lists_of_objects: frozenset | None = None) -> list[str]:
    """The keys `raw` gives twice in one of its objects (in order of the
    second time, each once), `line` being what it decoded to; [] for
    nearly every line without reading it again. `lists_of_objects`: the tags
    of the lines whose objects are mostly in lists (default Mindbug's state
    claims; a format with no object in a list gives none)."""
    if raw.__class__ is not bytes:
        raw = bytes(raw)
    keys = raw.count(b'":')
    # `find`, not `in`: `in` on bytes first tries the text as a number, and
    # builds and drops an error message each time (reader.may_be_game_line);
    # a rare byte alone first: one memchr, where a pair is searched byte by byte.
    if raw.find(b"\t") >= 0 and raw.find(b'"\t') >= 0 or raw.find(b"\r") >= 0 and raw.find(b'"\r') >= 0 \
            or raw.find(b"\n") >= 0 and raw.find(b'"\n') >= 0 or raw.find(b'" ') >= 0 and _blank_before_colon(raw):
        return _read_twice(raw)
    if (line.__struct_config__.tag not in (_LISTS_OF_OBJECTS if lists_of_objects is None else lists_of_objects)
            and keys <= _held(line)):
        return []
    if raw.find(b"\\") < 0 or raw.find(b"\\u") < 0:
        # The line decoded as plain JSON (each key once) and written again:
        # as many keys as the line's own count unless one was given twice.
        # (A `\":` in a string is written back as it was; a `\u0022` would
        # not be, hence the lines with \u escapes are read key by key.)
        try:
            again = _encode(_decode(raw)).count(b'":')
        except (msgspec.DecodeError, msgspec.EncodeError, RecursionError, ValueError):
            pass
        else:
            if again == keys:
                return []
    return _read_twice(raw)


# Lines whose objects are mostly in lists, which `_held` does not look into:
# the second test settles them at once.
_LISTS_OF_OBJECTS = frozenset(("state",))
_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


_blank = None


def _blank_before_colon(raw: bytes) -> bool:
    """Whether a quote is followed by blanks and a colon (`"p" :`): a key
    that the count of `":` would miss."""
    global _blank
    if _blank is None:
        import re

        _blank = re.compile(rb'"[ \t\r\n]+:')
    return _blank.search(raw) is not None


def _read_twice(raw: bytes) -> list[str]:
    import json

    twice: list[str] = []

    def pairs(items):
        seen = set()
        for k, _ in items:
            if k in seen and k not in twice:
                twice.append(k)
            seen.add(k)
        return dict(items)

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return []
    return twice
