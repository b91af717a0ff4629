"""hypothesis strategies that break well-formed replay input: JSON values,
replay lines of every type (structured, and byte by byte), and whole games
mutated line by line. The YAML files (scenarios, expectations, cards) are
broken by yaml_strategies.py, service sessions and engine adapters' replies
by Mindbug's rpc_strategies.py (oracle.games.mindbug.fuzz)."""

from __future__ import annotations

import gzip
import json
from typing import Any

from hypothesis import strategies as st

from ..games.mindbug.cards import CARDS, SETS, full_set
from ..games.mindbug.editions import EDITIONS
from ..games.mindbug.replay.format import LINE_TYPES

NAMES = sorted(set(full_set()))
SHIPPED = {s for s, card_set in SETS.items() if card_set.later} | {"first-contact", "new-servants"}
# Stage faces of evolution lines and names of the later sets' cards (verify's claims of stages and faces).
# Shipped cards only, whatever else the process has loaded: the same draws in every process.
FACES = sorted({c.name for c in CARDS.values() if c.stage and c.card_set in SHIPPED} | {"Sea-Rex", "Typhoon Princess"})
CODES = ("ILLEGAL_DECISION", "STATE_MISMATCH", "WRONG_RESULT", "BAD_JSON", "BAD_SETUP", "GAME_OVER",
         "MISSING_END", "TOO_LARGE", "NOPE")
CLAUSES = ("keywords.sneaky", "combat.block", "setup.deal", "life.lose", "no.such.clause", "")
KEYWORDS = ("FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "furie", "BOGUS")

# Byte strings that tend to break parsers and decoders.
NASTY = (b"\xff", b"\xfe\xff", b"\x00", b"\xef\xbb\xbf", b"\xc3", b"\xed\xa0\x80", b"\\u0000", b"\\ud800",
         b'"', b"\\", b"\r", b"\n", b"\t", b"[" * 70, b"{" * 70, b"]", b"}", b",", b":", b"1e999", b"-0",
         b"18446744073709551616", b"-9223372036854775809", b"NaN", b"null", b"true", b"\"t\":\"game\"")

# -- JSON values -------------------------------------------------------------------

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=10), st.sampled_from(NAMES), st.sampled_from(EDITIONS), st.sampled_from(LINE_TYPES),
)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=5), max_leaves=25)

card = st.one_of(st.integers(1, 48), st.integers(1, 48), st.integers(-2, 60), st.sampled_from(NAMES),
                 st.none(), st.integers(min_value=2**63 - 2, max_value=2**70))
player = st.sampled_from([0, 1, 0, 1, 2, -1, None, "0", True, 1.0])
cards = st.lists(card, max_size=12)


def pair(x) -> st.SearchStrategy:
    return st.one_of(st.lists(x, min_size=2, max_size=2), st.lists(x, max_size=4))


creature = st.fixed_dictionaries({"card": card}, optional={
    "exhausted": st.one_of(st.booleans(), json_values), "power": st.one_of(st.integers(-5, 15), json_values),
    "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=4),
    # later sets: a stage, the face shown, the boost cards under it
    "stage": st.one_of(st.integers(-1, 4), json_values), "face": st.one_of(st.sampled_from(FACES), json_values),
    "boosts": st.one_of(cards, json_values)})
setup_cards = st.one_of(
    st.permutations(full_set()).map(lambda names: {str(i + 1): n for i, n in enumerate(names)}),
    st.dictionaries(st.one_of(st.integers(-2, 60).map(str), st.text(max_size=3)), st.sampled_from(NAMES),
                    max_size=50))

FIELDS: dict[str, st.SearchStrategy] = {
    "format": st.sampled_from(["mb-replay/1", "mb-replay/1", "mb-replay/2", "", "MB-REPLAY/1"]),
    "id": st.text(max_size=12), "edition": st.sampled_from(EDITIONS + ("xx-first", "")),
    "sets": st.lists(st.sampled_from(["first-contact", "beyond", "beyond-eternity", "beyond-evolution", "promo-2023"]),
                     max_size=2),
    "impl": st.fixed_dictionaries({"name": st.text(max_size=5)}, optional={"version": json_values}),
    "decks": pair(st.lists(st.integers(-1, 50), max_size=12)), "unused": st.one_of(cards, st.integers(-1, 40)),
    "first": player, "reveals": st.lists(pair(card), max_size=3), "life_cards": pair(st.lists(card, max_size=4)),
    "p": player, "card": card, "life": pair(st.integers(-2, 8)), "mindbugs": pair(st.integers(-2, 3)),
    "hand": pair(cards), "discard": pair(cards), "play": pair(st.lists(creature, max_size=5)),
    "deck": pair(st.one_of(st.integers(-2, 12), cards)), "played": card, "active": player,
    "turn": st.integers(-2, 200), "winner": player,
    "reason": st.sampled_from(["life", "no-action", "card", "aborted", "timeout"]), "detail": st.text(max_size=10),
    "text": st.text(max_size=10), "x": json_values,
}
LINE_FIELDS = {
    "game": ("format", "id", "edition", "sets", "impl"),
    "setup": ("cards", "decks", "unused", "first", "reveals", "life_cards"),
    "play": ("p", "card"), "attack": ("p", "card"), "mindbug": ("p",), "pass": ("p",), "hunt": ("p", "card"),
    "block": ("p", "card"), "choose": ("p", "cards"), "random": ("cards",),
    "state": ("life", "mindbugs", "hand", "play", "discard", "deck", "unused", "played", "active", "turn"),
    "end": ("winner", "reason", "detail"), "note": ("text",),
}


def field_value(tag: str, name: str) -> st.SearchStrategy:
    if name == "cards":
        return setup_cards if tag == "setup" else cards
    return st.one_of(FIELDS.get(name, json_values), FIELDS.get(name, json_values), json_values)


class LineTable:
    """A game's line types, the fields of each, a strategy of a field's
    values (tag, name -> strategy), and the stray keys to add now and then."""

    def __init__(self, types: tuple, fields: dict, value, stray: tuple):
        self.types, self.fields, self.value, self.stray = types, fields, value, stray


MINDBUG_LINES = LineTable(LINE_TYPES, LINE_FIELDS, field_value, ("zz", "x", "lifes", "t", ""))


@st.composite
def structured_line(draw, table: LineTable | None = None) -> dict:
    """A line of one of the types, each field present or not, plausible or not
    (of `table`'s game: Mindbug's by default)."""
    table = table or MINDBUG_LINES
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
def field_mutation(draw, raw: bytes, table: LineTable | None = None) -> bytes:
    """A line with one field set to another value, or dropped, or added
    (`table`: the game's lines, Mindbug's by default)."""
    table = table or MINDBUG_LINES
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
def replay_lines_stream(draw, games: tuple, vocab=None) -> bytes:
    """The start of a real game followed by structured random lines (of
    `vocab`'s game: Mindbug's by default)."""
    vocab = vocab or MINDBUG
    base = draw(st.sampled_from(games))
    lines = list(base[:draw(st.integers(0, 2))])
    for _ in range(draw(st.integers(1, 6))):
        line = encode(draw(vocab.structured_line()), draw(st.booleans()))
        if draw(st.integers(0, 4)) == 0:
            line = draw(byte_mutation(line))
        lines.append(line)
    return b"\n".join(lines) + b"\n"


PAIR_FIELDS = ("life", "mindbugs", "hand", "play", "discard", "deck")


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


@line_edit
def semantic_mutation(draw, obj: dict) -> None:
    """A line kept well-formed but made wrong: another player or card in a
    decision, a claim of the wrong shape or value, a deal that breaks the
    setup rules, another result."""
    t = obj.get("t")
    if t in ("play", "attack", "hunt", "block", "mindbug", "pass", "choose"):
        what = draw(st.sampled_from(["p", "card", "cards", "t"]))
        if what == "p":
            obj["p"] = 1 - obj["p"] if obj.get("p") in (0, 1) else 0
        elif what == "card":
            obj["card"] = draw(st.one_of(st.integers(1, 48), st.none()))
        elif what == "cards":
            obj["cards"] = draw(st.lists(st.integers(1, 48), max_size=3))
        else:
            obj["t"] = draw(st.sampled_from(["play", "attack", "hunt", "block", "mindbug", "pass", "choose"]))
    elif t == "state":
        name = draw(st.sampled_from(PAIR_FIELDS + ("unused", "played", "active", "turn")))
        value = obj.get(name)
        how = draw(st.sampled_from(["one", "three", "swap", "bump", "names", "drop"]))
        if isinstance(value, list) and how == "one":
            obj[name] = value[:1]
        elif isinstance(value, list) and how == "three":
            obj[name] = value + value[:1]
        elif isinstance(value, list) and how == "swap":
            obj[name] = value[::-1]
        elif how == "bump":
            if isinstance(value, int) and not isinstance(value, bool):
                obj[name] = value + draw(st.sampled_from([-1, 1, -100, 2**40]))
            elif isinstance(value, list) and value and isinstance(value[0], int):
                obj[name] = [v + draw(st.sampled_from([-1, 1, -5])) for v in value]
            elif isinstance(value, list) and value and isinstance(value[0], list) and value[0]:
                obj[name] = [value[0][1:], value[1] + value[0][:1]] if len(value) > 1 else value
        elif how == "names" and name in ("hand", "discard") and isinstance(value, list):
            obj[name] = [[draw(st.sampled_from(NAMES)) for _ in side] if isinstance(side, list) else side
                         for side in value]
        elif how == "drop":
            obj.pop(name, None)
    elif t == "setup":
        what = draw(st.sampled_from(["swap", "drop", "first", "reveals", "life_cards"]))
        decks, unused = obj.get("decks"), obj.get("unused")
        if what == "swap" and isinstance(decks, list) and len(decks) == 2 and decks[0] and isinstance(unused, list):
            i = draw(st.integers(0, len(decks[0]) - 1))
            j = draw(st.integers(0, max(0, len(unused) - 1)))
            if unused:
                decks[0][i], unused[j] = unused[j], decks[0][i]
        elif what == "drop" and isinstance(unused, list) and unused:
            unused.pop()
        elif what == "first":
            obj["first"] = draw(player)
        elif what == "reveals":
            obj["reveals"] = draw(st.lists(pair(st.integers(1, 48)), max_size=3))
        elif isinstance(unused, list):
            obj["life_cards"] = draw(st.sampled_from([[unused[:3]], [unused[:3], unused[3:6]], [unused[:3], unused[:3]],
                                                      [unused[:2], unused[3:6]], [], [unused[:3], unused[3:6], []]]))
    elif t == "end":
        obj[draw(st.sampled_from(["winner", "reason"]))] = draw(st.one_of(player, st.sampled_from(
            ["life", "no-action", "card", "aborted"])))


class Vocabulary:
    """A game's lines, for the mutations: a structured line of its types,
    a field set to another value, a line kept well-formed but made wrong."""

    def __init__(self, structured_line, field_mutation, semantic_mutation):
        self.structured_line = structured_line
        self.field_mutation = field_mutation
        self.semantic_mutation = semantic_mutation


MINDBUG = Vocabulary(structured_line, field_mutation, semantic_mutation)


@st.composite
def mutated_game(draw, games: tuple, vocab: Vocabulary | None = None) -> list[bytes]:
    """A real game with a few of its lines deleted, repeated, swapped, edited,
    or with lines from another game or made up put in (`vocab`: the game's
    lines; Mindbug's by default)."""
    vocab = vocab or MINDBUG
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
def game_stream(draw, games: tuple, good: tuple, vocab: Vocabulary | None = None) -> Stream:
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
