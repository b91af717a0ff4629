"""hypothesis strategies that break well-formed input: replay lines of every
type (structured, and byte by byte), whole games mutated line by line,
scenario documents, expectation files, card files, sessions of service
requests, and the replies of an engine adapter to break."""

from __future__ import annotations

import gzip
import json
from functools import cache
from typing import Any

import yaml
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


@st.composite
def semantic_mutation(draw, raw: bytes) -> bytes:
    """A line kept well-formed but made wrong: another player or card in a
    decision, a claim of the wrong shape or value, a deal that breaks the
    setup rules, another result."""
    try:
        obj = json.loads(raw)
    except ValueError:
        return raw
    if not isinstance(obj, dict):
        return raw
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
    return encode(obj)


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


# -- YAML documents ------------------------------------------------------------------

def _paths(node, path=()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


yaml_values = st.one_of(
    json_values, st.sampled_from(NAMES), st.sampled_from(NAMES).map(lambda n: n + "#2"),
    st.sampled_from(NAMES).map(lambda n: n + "#3"), st.sampled_from(CLAUSES), st.sampled_from(KEYWORDS),
    st.sampled_from(EDITIONS), st.dates(),
    st.fixed_dictionaries({}, optional={k: st.sampled_from(NAMES) | st.none() | st.booleans()
                                        for k in ("play", "attack", "block", "hunt", "choose", "by")}),
    st.sampled_from(["mindbug", "pass", "all", "draft", "ILLEGAL", "BAD_POSITION"]),
)


SCENARIO_KEYS = ("extra", "given", "expect", "illegal", "steps", "step", "editions")


@st.composite
def tree_mutation(draw, doc: Any, values: st.SearchStrategy = yaml_values, keys: tuple = SCENARIO_KEYS) -> Any:
    """A parsed YAML document with one to three values replaced (by one of
    `values`), removed or added (under one of `keys`)."""
    import copy

    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.integers(0, 9)) == 0:
                doc = draw(values)
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        op = draw(st.sampled_from(["set", "set", "set", "delete", "add", "repeat"]))
        if op == "set":
            parent[key] = draw(values)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(keys))] = draw(values)
        elif op == "repeat" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return doc


YAML_NASTY = ("&a ", "*a", "*nope", "\t", "\0", "\ufeff", "[" * 70, "{", "? ", "!!python/object:os.system ",
              "!!binary ", "<<: *a\n", "---\n", "...\n", "%YAML 1.1\n", "\x85", "'", '"', ": ", "- ", "\\x")


@st.composite
def text_mutation(draw, text: str) -> bytes:
    """YAML text with a few edits: anchors and aliases, tabs, NUL, deep
    brackets, lines removed or repeated, bytes that are not UTF-8."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "insert", "delete-line", "repeat-line", "indent", "bytes"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "insert":
            col = draw(st.integers(0, len(lines[i]))) if lines else 0
            if lines:
                lines[i] = lines[i][:col] + draw(st.sampled_from(YAML_NASTY) | st.text(max_size=4)) + lines[i][col:]
        elif op == "delete-line" and lines:
            del lines[i]
        elif op == "repeat-line" and lines:
            lines.insert(i, lines[i])
        elif op == "indent" and lines:
            lines[i] = " " * draw(st.integers(1, 3)) + lines[i]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 7)) == 0:
        data = draw(byte_mutation(data))
    return data


def dump(doc: Any) -> str:
    try:
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return json.dumps(doc, default=str)


@st.composite
def scenario_file(draw, texts: tuple) -> bytes:
    """One or two scenario documents, mutated as data and/or as text."""
    docs = []
    for _ in range(draw(st.integers(1, 2))):
        how = draw(st.sampled_from(["tree", "tree", "text", "both", "none"]))
        docs.append(draw(mutated_yaml(draw(st.sampled_from(texts)), how)))
    return b"\n---\n".join(docs)


@st.composite
def mutated_yaml(draw, text: str, how: str, values: st.SearchStrategy = yaml_values,
                 keys: tuple = SCENARIO_KEYS) -> bytes:
    """A YAML text mutated as data (`tree`), as text (`text`), both, or not at all."""
    if how in ("tree", "both"):
        try:
            parsed = yaml.safe_load(text)
        except yaml.YAMLError:
            parsed = None
        if parsed is not None:
            text = dump(draw(tree_mutation(parsed, values, keys)))
    if how in ("text", "both"):
        return draw(text_mutation(text))
    return text.encode("utf-8", "surrogatepass")


expect_entry = st.one_of(
    st.fixed_dictionaries({"code": st.sampled_from(CODES)}, optional={
        "clause": st.sampled_from(CLAUSES) | st.none(), "game": st.text(max_size=8) | st.none(),
        "note": st.text(max_size=10), "extra": json_values}),
    json_values)


@st.composite
def expect_file(draw, texts: tuple) -> bytes:
    """An expectation file: generated entries, or a seed mutated as data or text."""
    how = draw(st.sampled_from(["generated", "generated", "tree", "text"]))
    if how == "generated":
        doc = {"format": draw(st.sampled_from(["mb-expect/1", "mb-expect/1", "mb-expect/2", 1])),
               "expected": draw(st.lists(expect_entry, max_size=5) | json_values)}
        text = dump(doc) if draw(st.booleans()) else json.dumps(doc, default=str)
        return text.encode("utf-8", "surrogatepass")
    text = draw(st.sampled_from(texts))
    if how == "tree":
        return dump(draw(tree_mutation(yaml.safe_load(text)))).encode("utf-8", "surrogatepass")
    return draw(text_mutation(text))


# -- card files (mb-cards/1) --------------------------------------------------

CARD_KEYS = ("abilities", "code", "octonite", "distribute", "copies", "power", "keywords", "names", "text",
             "target", "count", "all", "up_to", "amount", "who", "keyword", "when", "cost", "trigger", "effect",
             "side", "power_min", "power_max", "others", "set", "id", "cards")


@cache
def _card_values() -> st.SearchStrategy:
    from ..games.mindbug.cards.declared import KEYWORDS as CARD_KEYWORDS, TRIGGERS, VERBS

    words = sorted(VERBS) + list(TRIGGERS) + list(CARD_KEYWORDS) + [
        "enemy", "allied", "any", "me", "opponent", "always", "own-turn", "octonite", "first-contact",
        "new-servants", "Fuzz 1", "Fuzz 2"]
    return st.one_of(
        yaml_values, st.sampled_from(words), st.integers(-3, 250), st.sampled_from(NAMES),
        st.fixed_dictionaries({}, optional={"side": st.sampled_from(["enemy", "allied", "any", "both"]),
                                            "power_min": st.integers(-2, 14), "power_max": st.integers(-2, 14),
                                            "others": st.booleans()}),
        st.lists(st.sampled_from(CARD_KEYWORDS), max_size=3))


@st.composite
def card_file(draw, texts: tuple) -> bytes:
    """A card file: one the card checks accept (the hunt's generator), that
    one with a few values changed, or a seed file mutated as data or text."""
    from ..hunt.card_strategies import card_file as legal_card_file

    how = draw(st.sampled_from(["legal", "legal", "legal-mutated", "tree", "text", "both"]))
    if how.startswith("legal"):
        doc = draw(legal_card_file("fuzz-lab", "Fuzz", n=draw(st.integers(1, 4)), later=draw(st.booleans())))
        if how == "legal-mutated":
            doc = draw(tree_mutation(doc, _card_values(), CARD_KEYS))
        return dump(doc).encode("utf-8", "surrogatepass")
    return draw(mutated_yaml(draw(st.sampled_from(texts)), how, _card_values(), CARD_KEYS))


# -- service sessions (mb-oracle-rpc/1) ----------------------------------------

GAME_HANDLES = st.sampled_from(["g1", "g1", "g2", "g3", "g0", "", "G1", 1, None])


def _rpc_new(setups: tuple) -> st.SearchStrategy:
    # Mostly requests the service accepts, so that games get played; some broken.
    base = {"op": st.just("new"), "edition": st.one_of(*[st.sampled_from(EDITIONS)] * 6, st.sampled_from(["", "en", 3]))}
    seeded = st.fixed_dictionaries({**base, "seed": st.integers(-2, 10**6) | st.sampled_from([2**70, "7", 1.5])})
    dealt = st.fixed_dictionaries({**base, "setup": st.sampled_from(setups).flatmap(
        lambda raw: st.one_of(st.just(raw), st.just(raw), field_mutation(raw), semantic_mutation(raw))
        .map(_as_object))})
    position = st.fixed_dictionaries({**base, "position": st.fixed_dictionaries(
        {"cards": st.dictionaries(st.integers(-1, 60).map(str), st.sampled_from(NAMES) | st.text(max_size=4),
                                  max_size=14)},
        optional={"hand": pair(cards), "play": pair(cards), "discard": pair(cards), "deck": pair(cards),
                  "exhausted": cards, "unused": cards, "out": cards, "active": player,
                  "life": pair(st.integers(-1, 9)), "mindbugs": pair(st.integers(-1, 3)),
                  "octonite": st.dictionaries(st.integers(-1, 60).map(str) | st.sampled_from(["x", ""]),
                                              st.integers(-1, 101) | st.sampled_from([True, 1.5, "2", None]),
                                              max_size=3)})})
    scenario = st.fixed_dictionaries({**base, "scenario": st.fixed_dictionaries(
        {"path": st.sampled_from(["scenarios/combat.yaml", "scenarios", "nope.yaml", "", "/dev/null", "/etc/hostname"]),
         "id": st.text(max_size=12) | st.sampled_from(["combat.unblocked", "x"])})})
    extras = st.fixed_dictionaries({}, optional={"id": st.integers() | st.text(max_size=5) | st.none() | st.floats(),
                                                 "rpc": st.sampled_from(["mb-oracle-rpc/1", "mb-oracle-rpc/2"]),
                                                 "readings": st.dictionaries(st.sampled_from(CLAUSES), st.text(max_size=6),
                                                                             max_size=2),
                                                 "sets": st.lists(st.sampled_from(["first-contact", "new-servants", ""]),
                                                                  max_size=2)})
    return st.tuples(st.one_of(seeded, seeded, seeded, dealt, dealt, position, scenario),
                     st.one_of(st.just({}), st.just({}), st.just({}), extras)).map(lambda t: {**t[0], **t[1]})


def _as_object(raw: bytes):
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


@st.composite
def rpc_session(draw, setups: tuple) -> list:
    """Requests for one service, in order: each a request object, raw bytes
    (a line that is not one), or ("legal", k): the k-th legal decision of
    game g1 at that moment, so that games get deep into play."""
    game = GAME_HANDLES
    simple = st.one_of(
        st.fixed_dictionaries({"op": st.sampled_from(["hello", "pending", "state", "fork", "close", "events", "nope"])},
                              optional={"game": game, "since": st.integers(-3, 10**9), "id": st.integers(-3, 3)}),
        st.fixed_dictionaries({"op": st.just("apply"), "game": game, "decision": structured_line()}),
    )
    requests = [draw(_rpc_new(setups))]
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["legal", "legal", "legal", "legal", "simple", "simple", "new", "raw"]))
        if kind == "legal":
            requests.append(("legal", draw(st.integers(0, 30))))
        elif kind == "simple":
            requests.append(draw(simple))
        elif kind == "new":
            requests.append(draw(_rpc_new(setups)))
        else:
            line = json.dumps(draw(simple), default=str).encode()
            requests.append(draw(byte_mutation(line)))
    return requests


# -- engine adapters (mb-engine/1, `conform`) -------------------------------------

@st.composite
def engine_case(draw) -> tuple:
    """(seed, {reply number: (how it is broken, a number)}, edition): the
    replies of an otherwise faithful adapter that a case breaks
    (oracle.fuzz.engine)."""
    from .engine import BREAKS

    breaks = draw(st.dictionaries(st.integers(1, 40), st.tuples(st.sampled_from(BREAKS), st.integers(0, 10**6)),
                                  min_size=1, max_size=3))
    return draw(st.integers(0, 10**6)), breaks, draw(st.sampled_from(EDITIONS))
