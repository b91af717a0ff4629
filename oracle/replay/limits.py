"""The limits of mb-replay/1 input, and decoding a line within them.

A hostile or broken log must never crash the verifier or exhaust its
memory. Every limit here is documented in spec/replay-format.md; a line or
game beyond one is a `TOO_LARGE` finding of the game it belongs to, and
the other games of the stream are verified as usual.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate

import msgspec

MAX_LINE_BYTES = 1 << 20      # one line of a log, without its line break
MAX_DEPTH = 64                # nesting of JSON arrays and objects in one line
MAX_GAME_LINES = 100_000      # lines of one game (blank lines not counted)

TOO_LARGE = "TOO_LARGE"
CONNECT_TIMEOUT = 10.0        # seconds a Dask scheduler named by --cluster has to answer (--cluster-timeout)

# Everything but brackets, to be deleted before measuring the nesting.
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
# Opening brackets count +1, closing ones -1 (as signed bytes).
_STEPS = bytes.maketrans(b"[]{}", b"\x01\xff\x01\xff")


# Patterns of rare paths, compiled (and kept by `re`) when first used: start-up.
_SURROGATE = rb"\\[uU][dD][89abcdefABCDEF]"


class RefusedLine(bytes):
    """A line the reader did not keep: too long, or beyond the length of a
    game. Holds the start of the line (for the report) and why; for a line
    too long, whether it is a game line (which starts a game of its own) and
    the game's id, as far as the reader could tell without holding it."""

    code: str
    reason: str
    game: bool
    game_id: str

    def __new__(cls, head: bytes, code: str, reason: str, game: bool = False, game_id: str = ""):
        obj = super().__new__(cls, head)
        obj.code = code
        obj.reason = reason
        obj.game = game
        obj.game_id = game_id
        return obj

    def __reduce__(self):
        return (RefusedLine, (bytes(self), self.code, self.reason, self.game, self.game_id))


# How much of the start and of the end of a line too long to hold is looked
# at to tell whether it is a game line.
LONG_LINE_HEAD = 64 * 1024
LONG_LINE_TAIL = 256
# The tokens that matter to find an object's keys: strings and punctuation.
_TOKEN = rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]'
_GAME_KEY = rb'[{,]\s*"t"\s*:\s*"game"'
_string = msgspec.json.Decoder(str)


class _LastKeys(msgspec.Struct):
    t: str = ""
    id: object = None


_last_keys = msgspec.json.Decoder(_LastKeys)


def _ends_as_game(tail: bytes) -> tuple[bool, str]:
    """Whether `tail`, the end of an object, holds its key "t" with "game"
    among its last keys: from `"t"` on, it reads as a whole object (its
    closing brace the line's last byte) of scalar values."""
    for m in re.finditer(_GAME_KEY, tail):
        try:
            keys = _last_keys.decode(b"{" + tail[m.start() + 1:])
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if keys.t == "game":
            return True, keys.id if isinstance(keys.id, str) else ""
    return False, ""


def long_game_line(head: bytes, tail: bytes) -> tuple[bool, str]:
    """Whether a line too long to hold, of which `head` is the start and
    `tail` the end, is a game line, and the game's `id` if its start gives
    one. A game line is an object whose key "t" is "game": found among the
    keys of the object in `head`, or among its last keys in `tail`."""
    tokens = re.finditer(_TOKEN, head.lstrip())
    first = next(tokens, None)
    if first is None or first.group() != b"{" or first.start() != 0:
        return False, ""
    depth, key, expect_key, after_colon = 1, None, True, False
    kind = game_id = None
    for m in tokens:
        tok = m.group()
        if depth == 1 and expect_key and tok[:1] == b'"':
            key, expect_key = tok, False
            continue
        if depth == 1 and tok == b":" and key is not None:
            after_colon = True
            continue
        if after_colon:
            after_colon = False
            if tok[:1] == b'"' and key == b'"t"':
                kind = tok
            elif tok[:1] == b'"' and key == b'"id"' and len(tok) <= 1000:
                try:
                    game_id = _string.decode(tok)
                except (msgspec.DecodeError, UnicodeDecodeError):
                    pass     # not JSON text, or not UTF-8: no id to read
            if kind is not None and (kind != b'"game"' or game_id is not None):
                break
        if tok in (b"{", b"["):
            depth += 1
        elif tok in (b"}", b"]"):
            depth -= 1
            if depth == 0:
                break
        elif tok == b"," and depth == 1:
            expect_key, key = True, None
    if kind is None:
        game, last_id = _ends_as_game(tail)
        return game, game_id or last_id
    return kind == b'"game"', game_id or ""


class LineProblem(msgspec.DecodeError):
    """A line that cannot be decoded safely: `code` is the finding's code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def nesting_depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in a JSON text (brackets inside
    strings do not count). Linear, in C-speed steps."""
    # Remove escaped backslashes, then escaped quotes: what is left splits
    # on quotes into text outside strings (even pieces) and inside (odd).
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(plain.split(b'"')[::2])
    brackets = outside.translate(None, _NOT_BRACKETS).translate(_STEPS)
    if not brackets:
        return 0
    return max(0, max(accumulate(array("b", brackets))))


def check_line(raw: bytes) -> LineProblem | None:
    """Why `raw` cannot be decoded safely, or None. Cheap for ordinary lines."""
    if raw.__class__ is RefusedLine:
        return LineProblem(raw.code, raw.reason)
    if len(raw) > MAX_LINE_BYTES:
        return LineProblem(TOO_LARGE, f"the line is {len(raw)} bytes long; the limit is {MAX_LINE_BYTES} "
                                      "(MAX_LINE_BYTES)")
    problem = text_problem(raw)
    if problem is not None:
        code, detail = problem
        return LineProblem(code, f"not valid JSON: {detail}" if code == "BAD_JSON" else detail)
    return None


def text_problem(raw: bytes) -> tuple[str, str] | None:
    """(code, what is wrong) when `raw` is not UTF-8 text (BAD_JSON) or its
    arrays and objects nest deeper than MAX_DEPTH (TOO_LARGE), else None:
    what must hold before JSON is decoded (a replay line, a service request,
    an engine's reply). Cheap for ordinary lines."""
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return "BAD_JSON", f"not UTF-8 text (byte 0x{raw[e.start]:02x} at column {e.start + 1})"
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        depth = nesting_depth(raw)
        if depth > MAX_DEPTH:
            return TOO_LARGE, f"arrays and objects nest {depth} levels deep; the limit is {MAX_DEPTH} (MAX_DEPTH)"
    return None


def plain(raw: bytes) -> bool:
    """Whether `raw` is a common line, within every limit at a glance: short,
    ASCII, with fewer brackets than the nesting limit."""
    return raw.__class__ is bytes and len(raw) <= MAX_LINE_BYTES and raw.isascii() \
        and (len(raw) <= MAX_DEPTH or raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH)


def decode_line(decoder, raw: bytes):
    """`decoder.decode(raw)` within the limits; raises msgspec.DecodeError
    (a LineProblem for a limit) or msgspec.ValidationError, nothing else."""
    if plain(raw):
        try:
            return decoder.decode(raw)   # the common line: within every limit, nothing to check
        except msgspec.DecodeError:
            pass                         # worded below
    problem = check_line(raw)
    if problem is not None:
        raise problem
    try:
        return decoder.decode(raw)
    except RecursionError:
        raise LineProblem(TOO_LARGE, "arrays and objects nest too deeply") from None
    except UnicodeDecodeError as e:
        raise LineProblem("BAD_JSON", f"not valid JSON: not UTF-8 text ({e.reason})") from None
    except msgspec.DecodeError as e:
        worded = json_error(raw, e)
        if worded != str(e):
            raise LineProblem("BAD_JSON", f"not valid JSON: {worded}") from None
        raise


def json_error(raw: bytes, e: msgspec.DecodeError) -> str:
    """What is wrong with `raw`, which msgspec refused with `e`: its own
    words, except for a lone surrogate escape (\\ud800), which msgspec
    calls truncated input."""
    if "truncated" in str(e) and raw.rstrip().endswith(b"}") and re.search(_SURROGATE, raw):
        return "a \\u escape is half of a UTF-16 surrogate pair, not a character"
    return str(e)


def error_field(text: str) -> str:
    """The field a decoding error (msgspec's wording) names: `hand[0]` of
    "... - at `$.hand[0]`", `cards (a key)` of "... - at `key` in `$.cards`",
    `p` of "... field `p`"; `?` when it names none."""
    if " - at `key` in `$." in text:
        return text.rsplit(" - at `key` in `$.", 1)[1].rstrip("`") + " (a key)"
    if " - at `$." in text:
        return text.rsplit(" - at `$.", 1)[1].rstrip("`")
    if "field `" in text:
        return text.split("field `", 1)[1].split("`", 1)[0]
    return "?"
