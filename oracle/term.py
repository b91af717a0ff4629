"""Terminal conventions shared by every command: colour, progress, plurals.

Colour follows `--color auto|always|never`, then the `NO_COLOR` and
`FORCE_COLOR` environment variables, then whether the stream is a terminal.
Progress is drawn on standard error, only when it is a terminal, and never
mixes with the report: call `clear()` before writing to a terminal that
shows it.

Text from the input (ids, names, field names, titles, messages quoting
them) reaches people only through `visible()`, which writes every
character a terminal would act on or hide as a visible escape.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import TextIO

COLOR_CHOICES = ("auto", "always", "never")

# Characters that text from the input must never bring to a terminal as
# they are: the control characters (C0 with DEL, C1 with the one-byte CSI
# \x9b, carriage return among them), the format characters (bidirectional
# overrides and isolates, zero-width spaces and joiners, the byte order mark,
# soft hyphen, tag characters), the line and paragraph separators U+2028 and
# U+2029, and lone surrogates. Unicode categories Cc, Cf, Zl, Zp and Cs.
_FORMAT = (r"\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e"
           r"\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
           r"\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
_HIDDEN_IN_LINE = r"[\x00-\x1f\x7f-\x9f" + _FORMAT + "]"
_HIDDEN_IN_LINES = r"[\x00-\x09\x0b-\x1f\x7f-\x9f" + _FORMAT + "]"   # newline kept


def _escape(m: re.Match) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


def visible(text: str, lines: bool = False) -> str:
    """`text` from the input, safe to show on a terminal: each of the
    characters above written as a visible escape (`\\x1b`, `\\u202e`,
    `\\U000e0001`), on one line; with `lines`, newlines are kept (a message
    of several lines). Text already shown this way is unchanged."""
    if text.isprintable():   # no character of Cc, Cf, Zl, Zp or Cs (the common case)
        return text
    # The patterns are compiled when first needed: most runs show only
    # printable text, and compiling them costs more than a command's start.
    return re.compile(_HIDDEN_IN_LINES if lines else _HIDDEN_IN_LINE).sub(_escape, text)


def _json_escape(m: re.Match) -> str:
    c = ord(m.group(0))
    if 0xd800 <= c < 0xe000:
        return f"\\\\u{c:04x}"      # a lone surrogate: the text `visible` writes (no JSON value holds one)
    if c < 0x10000:
        return f"\\u{c:04x}"
    c -= 0x10000
    return f"\\u{0xd800 + (c >> 10):04x}\\u{0xdc00 + (c & 0x3ff):04x}"


def json_visible(encoded: str, lines: bool = False) -> str:
    """JSON text (`encoded`) with each character `visible` escapes written
    as a JSON escape (`\\u001b`, `\\u202e`, a surrogate pair beyond U+FFFF):
    the same values, and nothing a terminal would act on or hide. A lone
    surrogate (a byte of a file name that is not UTF-8, as `os.fsdecode`
    gives it), which no JSON value can hold, is written as the text
    `visible` writes for it (`\\udcff`, its backslash escaped). With
    `lines`, the newlines of indented JSON are kept (a newline in a string
    is always escaped by the encoder, so any left is the layout's)."""
    if encoded.isprintable():
        return encoded
    return re.compile(_HIDDEN_IN_LINES if lines else _HIDDEN_IN_LINE).sub(_json_escape, encoded)


def json_document(doc) -> str:
    """`doc` as indented JSON for a person or a program to read (a report of
    scenarios, of a hunt), `json_visible` with its layout's newlines."""
    import json     # here: most commands write no indented JSON

    return json_visible(json.dumps(doc, ensure_ascii=False, indent=2), lines=True)


def surrogates_visible(value):
    """Plain data (`value`: dicts, lists, tuples, strings, numbers) with each
    lone surrogate of its strings written as the text `visible` writes for
    it (`bad\\udcff.jsonl`): a file name that is not UTF-8, as `os.fsdecode`
    gives it, in a report that must be UTF-8, as every report writes it."""
    if isinstance(value, str):
        return re.sub("[\ud800-\udfff]", _escape, value)
    if isinstance(value, dict):
        return {surrogates_visible(k): surrogates_visible(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [surrogates_visible(v) for v in value]
    return value


def json_encode_visible(encode, obj) -> bytes:
    """`json_visible_bytes` of `encode(obj)` (a msgspec encoder's `encode`):
    when `obj` holds a lone surrogate, which UTF-8 cannot encode, it is
    encoded as `surrogates_visible` writes it (the common case costs one try)."""
    try:
        data = encode(obj)
    except UnicodeEncodeError:
        import msgspec

        data = encode(surrogates_visible(msgspec.to_builtins(obj)))
    return json_visible_bytes(data)


def json_visible_bytes(encoded: bytes) -> bytes:
    """`json_visible` of compact JSON in UTF-8: the same bytes when they are
    ASCII without DEL (the common case, checked without decoding)."""
    if encoded.isascii() and encoded.find(b"\x7f") < 0:   # `find`: `in` tries the bytes as a number first
        return encoded
    text = encoded.decode("utf-8")
    shown = json_visible(text)
    return encoded if shown is text else shown.encode("utf-8")


def error(message, prefix: str = "error: ") -> None:
    """A problem, on standard error: `prefix` and the message, escaped
    (`visible`, its lines kept)."""
    import click    # on this rare path only: `verify` of a good log never loads click

    click.echo(prefix + visible(str(message), lines=True), err=True)


def color_setting(choice: str | None, environ=None) -> bool | None:
    """True or False to force colour on or off, None to let each stream
    decide (colour on a terminal only). An explicit `always` or `never`
    wins; otherwise a non-empty NO_COLOR turns colour off, and a FORCE_COLOR
    other than empty or 0 turns it on."""
    env = os.environ if environ is None else environ
    if choice == "always":
        return True
    if choice == "never":
        return False
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force and force != "0":
        return True
    return None


def _set_color(ctx: click.Context, _param, value):
    if value is not None or ctx.parent is None:
        ctx.color = color_setting(value)
        # Child contexts copy `color` from their parent when they are made;
        # a group sets it before its subcommand's context exists.
    return value


def color_option(default: str | None = None):
    """`--color auto|always|never` for a group (default auto) or a command
    (default: what the group chose)."""
    import click

    return click.option("--color", type=click.Choice(COLOR_CHOICES), default=default, expose_value=False,
                        is_eager=True, callback=_set_color,
                        help="Colour in the output: auto (on a terminal, unless NO_COLOR is set), always, never.")


# The ANSI styles the reports use, written as click.style writes them, and
# removed as click.unstyle removes them (tests/test_term.py compares them):
# the human report needs no click.
_FG = {"black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37,
       "reset": 39, "bright_black": 90, "bright_red": 91, "bright_green": 92, "bright_yellow": 93,
       "bright_blue": 94, "bright_magenta": 95, "bright_cyan": 96, "bright_white": 97}
_ANSI: list = []


def style(text, fg: str | None = None, bold: bool | None = None, dim: bool | None = None) -> str:
    """`text` in colour `fg` (a name), bold or dim, then reset: click.style's text."""
    bits = []
    if fg is not None:
        bits.append(f"\033[{_FG[fg]}m")
    if bold is not None:
        bits.append(f"\033[{1 if bold else 22}m")
    if dim is not None:
        bits.append(f"\033[{2 if dim else 22}m")
    return "".join(bits) + str(text) + "\033[0m"


def unstyle(text: str) -> str:
    """`text` without its ANSI escapes (click.unstyle)."""
    if "\033" not in text:
        return text
    if not _ANSI:       # compiled when first needed
        _ANSI.append(re.compile(r"\033\[[0-?]*[ -/]*[@-~]"))
    return _ANSI[0].sub("", text)


def is_terminal(stream) -> bool:
    """Whether `stream` is a terminal; a closed or replaced stream is not."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def use_color(stream: TextIO) -> bool:
    """Whether text written to `stream` should carry colour now."""
    # No click loaded (the fast path of `verify`, oracle.launch): no
    # context, and the setting is the one `--color auto` gives.
    click = sys.modules.get("click")
    ctx = click.get_current_context(silent=True) if click is not None else None
    setting = ctx.color if ctx is not None else color_setting(None)
    if setting is not None:
        return setting
    return is_terminal(stream)


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 game', '2 games', '0 games'; `many` for irregular plurals."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def did_you_mean(word, choices=(), n: int = 1, cutoff: float = 0.6, close=None, quote: bool = True) -> str:
    """" (did you mean 'X'?)" or " (did you mean 'X' or 'Y'?)" for the
    choices nearest to `word` (or the names `close` already found; card
    names, unquoted), "" when none is near."""
    import difflib

    if close is None:
        close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=cutoff)
    return f" (did you mean {' or '.join(repr(c) if quote else str(c) for c in close)}?)" if close else ""


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """A one-line progress display on standard error, drawn only when it is
    a terminal. With a `total`: the share done, the rate and the time left.

        with Progress("verify", unit="game") as bar:
            for ...:
                bar.update(1)
    """

    def __init__(self, label: str, total: int | None = None, unit: str = "item", enabled: bool = True,
                 stream: TextIO | None = None, interval: float = 0.2):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and is_terminal(self.stream)
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.interval = interval
        self.start = time.monotonic()
        self._last_draw = 0.0
        self._shown = False
        self.note = ""          # shown after the counts, e.g. "120 games"

    def __enter__(self) -> Progress:
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        self.clear()

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last_draw >= self.interval:
            self._last_draw = now
            self.stream.write("\r" + self.line(now) + "\033[K")
            self.stream.flush()
            self._shown = True

    def line(self, now: float | None = None) -> str:
        """The text of the display (without terminal controls)."""
        elapsed = max((now if now is not None else time.monotonic()) - self.start, 1e-9)
        rate = self.done / elapsed
        what = plural(self.done, self.unit)
        if self.total:
            parts = [f"{self.label}: {self.done:,}/{plural(self.total, self.unit)}",
                     f"{100 * self.done / self.total:.0f}%"]
        else:
            parts = [f"{self.label}: {what}"]
        parts.append(f"{rate:,.{0 if rate >= 100 else 1}f} {self.unit}s/s")
        if self.total and rate > 0 and self.done < self.total:
            parts.append(f"{_duration((self.total - self.done) / rate)} left")
        if self.note:
            parts.append(self.note)
        return ", ".join(parts)

    def clear(self) -> None:
        """Erase the display (before writing something else to the terminal)."""
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False
            self._last_draw = 0.0   # drawn again at the next update, below what was written
