"""hypothesis strategies that break well-formed replay input: JSON values,
replay lines of every type (structured, and byte by byte), and whole games
mutated line by line, each game's lines as its vocabulary says (a
Vocabulary: Mindbug's in oracle.games.mindbug.fuzz.lines, Mind Up!'s in
oracle.games.mindup.fuzz.strategies). The YAML files are broken by
yaml_strategies.py, service sessions and engine adapters' replies by each
game's strategies."""

from __future__ import annotations

import gzip
import json
from typing import Any

from hypothesis import strategies as st

from .. import games as registry

# The words a verifier reads (card names, editions, line types, ...): the
# default game's (its registry entry's FUZZ_WORDS), whichever game is fuzzed.
WORDS = registry.attribute(registry.DEFAULT, "FUZZ_WORDS")
# The codes of findings, and one no verifier gives.
CODES = ("ILLEGAL_DECISION", "STATE_MISMATCH", "WRONG_RESULT", "BAD_JSON", "BAD_SETUP", "GAME_OVER",
         "MISSING_END", "TOO_LARGE", "NOPE")


# Byte strings that tend to break parsers and decoders.
NASTY = (b"\xff", b"\xfe\xff", b"\x00", b"\xef\xbb\xbf", b"\xc3", b"\xed\xa0\x80", b"\\u0000", b"\\ud800",
         b'"', b"\\", b"\r", b"\n", b"\t", b"[" * 70, b"{" * 70, b"]", b"}", b",", b":", b"1e999", b"-0",
         b"18446744073709551616", b"-9223372036854775809", b"NaN", b"null", b"true", b"\"t\":\"game\"")

# -- JSON values -------------------------------------------------------------------

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=10), st.sampled_from(WORDS["names"]), st.sampled_from(WORDS["editions"]),
    st.sampled_from(WORDS["line_types"]),
)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=5), max_leaves=25)


class LineTable:
    """A game's line types, the fields of each, a strategy of a field's
    values (tag, name -> strategy), and the stray keys to add now and then."""

    def __init__(self, types: tuple, fields: dict, value, stray: tuple):
        self.types, self.fields, self.value, self.stray = types, fields, value, stray


@st.composite
def structured_line(draw, table: LineTable) -> dict:
    """A line of one of the types of `table`'s game, each field present or
    not, plausible or not."""
    tag = draw(st.sampled_from(table.types + ("shuffle",)))
    line: dict[str, Any] = {"t": tag}
    for name in table.fields.get(tag, ()):
        if draw(st.integers(0, 5)):          # most fields present
            line[name] = draw(table.value(tag, name))
    if draw(st.integers(0, 6)) == 0:
        line[draw(st.sampled_from(table.stray))] = draw(json_values)
    return line


def encode(line: Any, ascii_only: bool = True) -> bytes:
    text = json.dumps(line, ensure_ascii=ascii_only, allow_nan=True, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def byte_mutation(draw, raw: bytes) -> bytes:
    """`raw` with a few byte-level edits: flips, nasty insertions, cuts, repeats."""
    data = bytearray(raw)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "repeat", "nest"]))
        pos = draw(st.integers(0, len(data))) if data else 0
        if op == "flip" and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif op == "insert":
            data[pos:pos] = draw(st.one_of(st.sampled_from(NASTY), st.binary(min_size=1, max_size=6)))
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 8))]
        elif op == "truncate":
            del data[pos:]
        elif op == "repeat" and data:
            end = min(len(data), pos + draw(st.integers(1, 12)))
            data[pos:pos] = data[pos:end] * draw(st.integers(1, 4))
        elif op == "nest" and data.endswith(b"}"):
            depth = draw(st.sampled_from([10, 63, 64, 65, 200, 1000]))
            data[-1:] = b',"x":' + b"[" * depth + b"]" * depth + b"}"
    return bytes(data)


@st.composite
def field_mutation(draw, raw: bytes, table: LineTable) -> bytes:
    """A line with one field set to another value, or dropped, or added
    (`table`: the game's lines)."""
    try:
        obj = json.loads(raw)
    except ValueError:
        return draw(byte_mutation(raw))
    if not isinstance(obj, dict) or not obj:
        return encode(draw(json_values))
    tag = obj.get("t") if isinstance(obj.get("t"), str) else ""
    keys = sorted(obj) + list(table.fields.get(tag, ()))
    name = draw(st.sampled_from(keys))
    what = draw(st.sampled_from(["set", "set", "drop", "type"]))
    if what == "drop":
        obj.pop(name, None)
    elif what == "type":
        obj["t"] = draw(st.sampled_from(table.types))
    else:
        obj[name] = draw(table.value(tag, name))
    return encode(obj, draw(st.booleans()))


@st.composite
def replay_lines_stream(draw, games: tuple, vocab: Vocabulary) -> bytes:
    """The start of a real game followed by structured random lines (of
    `vocab`'s game)."""
    base = draw(st.sampled_from(games))
    lines = list(base[:draw(st.integers(0, 2))])
    for _ in range(draw(st.integers(1, 6))):
        line = encode(draw(vocab.structured_line()), draw(st.booleans()))
        if draw(st.integers(0, 4)) == 0:
            line = draw(byte_mutation(line))
        lines.append(line)
    return b"\n".join(lines) + b"\n"


def line_edit(edit):
    """A strategy of a line kept well-formed but made wrong: `edit(draw,
    obj)` changes the line's object in place; a line that is not a JSON
    object stays as it is."""

    @st.composite
    def mutation(draw, raw: bytes) -> bytes:
        try:
            obj = json.loads(raw)
        except ValueError:
            return raw
        if not isinstance(obj, dict):
            return raw
        edit(draw, obj)
        return encode(obj)

    mutation.__doc__ = edit.__doc__
    return mutation


class Vocabulary:
    """A game's lines, for the mutations: a structured line of its types,
    a field set to another value (both as its LineTable says), a line kept
    well-formed but made wrong (`semantic_mutation`, raw -> strategy)."""

    def __init__(self, table: LineTable, semantic_mutation):
        self.table = table
        self.semantic_mutation = semantic_mutation

    def structured_line(self) -> st.SearchStrategy:
        return structured_line(self.table)

    def field_mutation(self, raw: bytes) -> st.SearchStrategy:
        return field_mutation(raw, self.table)


@st.composite
def mutated_game(draw, games: tuple, vocab: Vocabulary) -> list[bytes]:
    """A real game with a few of its lines deleted, repeated, swapped, edited,
    or with lines from another game or made up put in (`vocab`: the game's
    lines)."""
    structured_line, field_mutation, semantic_mutation = \
        vocab.structured_line, vocab.field_mutation, vocab.semantic_mutation
    lines = list(draw(st.sampled_from(games)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "repeat", "swap", "field", "field", "bytes", "insert", "splice",
                                   "truncate", "semantic", "semantic", "semantic", "semantic"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            lines.append(encode(draw(structured_line())))
            continue
        if op == "delete":
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op == "field":
            lines[i] = draw(field_mutation(lines[i]))
        elif op == "semantic":
            lines[i] = draw(semantic_mutation(lines[i]))
        elif op == "bytes":
            lines[i] = draw(byte_mutation(lines[i]))
        elif op == "insert":
            lines.insert(i, encode(draw(structured_line())))
        elif op == "splice":
            other = draw(st.sampled_from(games))
            lines.insert(i, other[draw(st.integers(0, len(other) - 1))])
        elif op == "truncate":
            del lines[i + 1:]
    return lines


class Stream:
    """A fuzz input for verify: bytes, how it is to be fed, and the game that
    follows the broken one (which must still conform)."""

    def __init__(self, data: bytes, plain: bytes, last_id: str | None):
        self.data = data          # as given to verify (maybe gzip-compressed)
        self.plain = plain        # uncompressed
        self.last_id = last_id    # id of the last game, a good one, or None


@st.composite
def game_stream(draw, games: tuple, good: tuple, vocab: Vocabulary) -> Stream:
    """A good game, a broken game, a good game: the last must still conform."""
    first = draw(st.sampled_from(good))
    last = draw(st.sampled_from(good))
    middle = draw(mutated_game(games, vocab))
    nl = draw(st.sampled_from([b"\n", b"\n", b"\r\n"]))
    plain = nl.join(list(first) + middle + list(last)) + draw(st.sampled_from([nl, b""]))
    if draw(st.integers(0, 9)) == 0:
        plain = b"\xef\xbb\xbf" + plain
    data = gzip.compress(plain, mtime=0) if draw(st.integers(0, 9)) == 0 else plain
    last_id = json.loads(last[0])["id"]
    return Stream(data, plain, last_id)
