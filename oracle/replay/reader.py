"""Reading replay streams (the files oracle.replay.inputs finds, and
standard input), split into games.

The reader only finds game boundaries; lines are decoded by the verifier,
so each game can go to another worker process. Memory stays bounded by the
limits of `limits.py`, not by the stream: a line longer than
MAX_LINE_BYTES is skipped in bounded chunks and stands in the game as a
`RefusedLine`; a game longer than MAX_GAME_LINES keeps its first lines and
one `RefusedLine`, the rest up to the next game line is skipped.

Files may be gzip-compressed (recognised by their first bytes, whatever
their name); byte order marks and blank lines are read as `linestarts` says.
"""

from __future__ import annotations

import io
import sys
import zlib
from typing import BinaryIO, Iterator

import msgspec

from .batches import COMPILED as _BATCHES_COMPILED, game_marks, low_line
from .inputs import Unread, check_input
from .linestarts import BOM, UTF16_BOMS, after_utf16, unblanked, utf16_kind, utf16_lines, without_boms
from .limits import (LONG_LINE_HEAD, LONG_LINE_TAIL, MAX_GAME_LINES, MAX_LINE_BYTES, TOO_LARGE, RefusedLine,
                     decode_line, long_game_line)

GZIP_MAGIC = b"\x1f\x8b"   # the first bytes of gzip data: read decompressed
_BLOCK = 1 << 16   # read at a time; lines are cut from these blocks


class _Tag(msgspec.Struct):
    t: str = ""


_tag = msgspec.json.Decoder(_Tag)


class _Object(msgspec.Struct):
    pass


_object = msgspec.json.Decoder(_Object)


def is_json_object(raw: bytes) -> bool:
    """Whether a line is one JSON object (whatever its fields)."""
    if raw.__class__ is RefusedLine or b"{" not in raw[:64]:
        return False
    try:
        _object.decode(raw)
        return True
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return False


class RawGame(msgspec.Struct):
    """The lines of one game as read: (line number, bytes). `kind` is
    'game' for a game, 'orphan' for lines before any game line, 'text' for
    an input none of whose lines is a JSON object (not JSON Lines: its first
    lines, and `more`, how many others), 'empty' for an input holding no
    line at all, 'unreadable:<why>' for an input that cannot be read (from
    the line where reading failed)."""

    file: str
    lines: list[tuple[int, bytes]] = msgspec.field(default_factory=list)
    kind: str = "game"
    more: int = 0      # 'text': the lines counted past MAX_GAME_LINES, not kept

    @property
    def first_line(self) -> int:
        return self.lines[0][0] if self.lines else 0

    def ends_aborted(self, decoder) -> bool:
        """Whether the last end line `decoder` reads among the game's lines
        says the implementation stopped the game (reason `aborted`), read
        or not by verification: an aborted game counts alike with and
        without --keep-going, whatever stopped its verification."""
        if self.kind != "game":
            return False
        for _, raw_line in reversed(self.lines):
            if b"end" not in raw_line:
                continue
            try:
                line = decode_line(decoder, raw_line)
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue
            if line.__struct_config__.tag == "end":
                return line.reason == "aborted"
        return False


# What reading a stream may raise when its data is cut short or corrupt.
READ_ERRORS = (OSError, EOFError, zlib.error)


def unreadable_after(name: str, lineno: int, e: BaseException) -> RawGame:
    """The `unreadable` game of a stream whose reading failed after its first
    `lineno` whole lines (whoever read it: one job, or the parent of many)."""
    why = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return RawGame(name, [(lineno + 1, b"")], kind=f"unreadable:after line {lineno}: {why}")


# A letter of "game" written as a JSON escape (\u0067, \u0061, \u006d,
# \u0065): a line holding one may be a game line without the text "game".
_ESCAPED_LETTER = b"\\u006"


def newlines(data: bytes) -> int:
    """How many newlines `data` holds. `bytes.count` looks at every byte in
    turn; deleting the newlines finds each one with memchr, about an eighth
    of the instructions on log lines (the parent of `verify -j N` counts
    every byte of its input to number the lines of its shares)."""
    return len(data) - len(data.replace(b"\n", b""))


def may_be_game_line(raw: bytes) -> bool:
    """Whether `raw` can be a game line (is_game_line), at a glance: it
    holds "game" in quotes, or a letter of it escaped. (`find`, not `in`:
    Python's `in` on bytes first tries the text looked for as a number, and
    builds and drops an error message each time, which costs more than the
    search.)"""
    return (raw.find(b'"game"') >= 0 or (raw.find(b"\\") >= 0 and raw.find(_ESCAPED_LETTER) >= 0)
            or raw.__class__ is RefusedLine)


def is_game_line(raw: bytes) -> bool:
    """Whether `raw` starts a game: an object whose key "t" is "game". A line
    that is not valid JSON (cut short, a bad escape, NaN) still starts a
    game when its key "t" reads "game": that game is then malformed, and
    the game before it keeps only its own lines."""
    if raw.__class__ is RefusedLine:
        return raw.game
    if not may_be_game_line(raw):
        return False
    try:
        return _tag.decode(raw).t == "game"
    except msgspec.ValidationError:
        return False     # valid JSON, but not an object, or "t" not text
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        if raw.startswith(BOM):
            return is_game_line(raw[len(BOM):])     # a line after a byte order mark (the reader skips it)
        return long_game_line(raw[:LONG_LINE_HEAD], raw[-LONG_LINE_TAIL:])[0]


def first_game_line(block: bytes) -> int | None:
    """Where the first game line of `block` (bytes from a line start) starts,
    if a whole one is there with no backslash before it; else None (an
    escape may spell "game": the caller then reads a line at a time)."""
    g = block.find(b'"game"')
    while g >= 0:
        begin, end = block.rfind(b"\n", 0, g) + 1, block.find(b"\n", g)
        if end < 0 or block.find(b"\\", 0, begin) >= 0:
            return None
        if is_game_line(block[begin:end].rstrip(b"\r")):
            return begin
        g = block.find(b'"game"', end)
    return None


def _too_long(head: bytes, size: int, tail: bytes) -> RefusedLine:
    """A line longer than MAX_LINE_BYTES, of which `head` is the start (up to
    LONG_LINE_HEAD bytes) and `tail` the end: a game line among them starts
    its own game, which gets the finding."""
    game, game_id = long_game_line(head, tail)
    return RefusedLine(head[:200], TOO_LARGE, f"the line is {size} bytes long, longer than {MAX_LINE_BYTES} "
                                              "bytes (MAX_LINE_BYTES); it was skipped", game, game_id)


def _refused(line: bytes) -> RefusedLine:
    return _too_long(line[:LONG_LINE_HEAD], len(line), line[-LONG_LINE_TAIL:])


def _lines(stream: BinaryIO) -> Iterator[tuple[list[bytes], bytes | None, int]]:
    """The lines of a stream, without line breaks, read in blocks and given
    in batches. A line longer than MAX_LINE_BYTES is never held whole: its
    start is kept and the rest skipped up to the next line break; it is
    given as a RefusedLine.

    A batch comes as (lines, block, end). When its lines are exactly
    `block[:end]` cut at the line breaks (no carriage return to take off,
    no line too long), `block` is given, for the caller to search in one
    step; otherwise it is None."""
    read = getattr(stream, "read1", None) or stream.read
    buf = b""
    skipped = 0          # > 0: inside an over-long line, this many bytes so far
    head = b""
    tail = b""           # the last bytes of the over-long line read so far
    first = True
    while True:
        chunk = read(_BLOCK)
        if not chunk:
            break
        if first:
            if len(buf) + len(chunk) < len(BOM) and BOM.startswith(buf + chunk):
                buf += chunk     # too short to tell yet
                continue
            chunk, buf, first = buf + chunk, b"", False
            if chunk.startswith(BOM):
                chunk = chunk[len(BOM):]
        if skipped:
            nl = chunk.find(b"\n")
            if nl < 0:
                skipped += len(chunk)
                tail = (tail + chunk[-LONG_LINE_TAIL:])[-LONG_LINE_TAIL - 1:]
                continue
            # The line's length without a carriage return before the line
            # break (which may have come with the block before).
            tail = (tail + chunk[:nl])[-LONG_LINE_TAIL - 1:]
            cr = tail.endswith(b"\r")
            yield [_too_long(head, skipped + nl - cr, tail[:len(tail) - cr][-LONG_LINE_TAIL:])], None, 0
            skipped = 0
            chunk = chunk[nl + 1:]
        block = buf + chunk if buf else chunk
        if block.find(BOM[:1]) >= 0 and block.find(BOM) >= 0:     # its first byte by memchr first
            block = without_boms(block)
        end = block.rfind(b"\n")
        if end >= 0:
            parts = block.split(b"\n")
            buf = parts.pop()
            if end <= MAX_LINE_BYTES and block.find(b"\r") < 0:
                yield parts, block, end
            else:
                # The rare batch: carriage returns to take off, or a line to refuse.
                for i, line in enumerate(parts):
                    if line.endswith(b"\r") or len(line) > MAX_LINE_BYTES:
                        line = line.rstrip(b"\r")
                        parts[i] = _refused(line) if len(line) > MAX_LINE_BYTES else line
                yield parts, None, 0
        else:
            buf = block
        if len(buf) > MAX_LINE_BYTES:
            head, skipped, tail, buf = buf[:LONG_LINE_HEAD], len(buf), buf[-LONG_LINE_TAIL - 1:], b""
    if skipped:
        yield [_too_long(head, skipped, tail.rstrip(b"\r")[-LONG_LINE_TAIL:])], None, 0
    elif buf:
        line = buf.rstrip(b"\r")
        yield [_refused(line) if len(line) > MAX_LINE_BYTES else line], None, 0


def _maybe_games(block: bytes, end: int, lines: list[bytes]) -> list[int]:
    """The indexes in `lines` (the lines of `block[:end]`) of the lines that
    hold the text "game" in quotes, in order: the only ones that can be game
    lines. Each is found by its text among the lines after the one before
    it, none of which holds "game": no line break is counted."""
    out = []
    i = 0
    pos = block.find(b'"game"', 0, end)
    while pos >= 0:
        start = block.rfind(b"\n", 0, pos) + 1
        stop = block.find(b"\n", pos, end)
        if stop < 0:
            stop = end
        i = lines.index(block[start:stop], i)
        out.append(i)
        i += 1
        pos = block.find(b'"game"', stop, end)
    return out


def split_games(stream: BinaryIO, name: str, line0: int = 0, ends: bool = True) -> Iterator[RawGame]:
    """The games of a stream, in order, its lines numbered from line0 + 1
    (line0: the lines before it, when the stream is a share of an input;
    `ends`: the input ends with the stream, else a game line follows it)."""
    current: RawGame | None = None
    seen_any = False
    skipping = False   # past the end of a game that is too long, or in UTF-16 text
    utf16 = False      # in UTF-16 text after a byte order mark, up to the next game line
    lineno = line0     # the lines of the batches before this one
    # From the start of an input, until a line is a JSON object: the input
    # may not be JSON Lines at all (one 'text' report for it, at its end).
    text = line0 == 0
    try:
        for batch, block, end in _lines(stream):
            count = len(batch)
            nums = None     # the numbers of the lines of `batch`, when blank lines were left out of it
            if block is not None and (low_line(batch) if _BATCHES_COMPILED else not min(batch)[:1] > b" "):
                # Blank or space-led lines (they sort first): a batch of
                # blank lines only is passed in one step; from another, the
                # blank lines are left out. They are never part of a game.
                lines = unblanked(batch, block, end, lineno)
                if lines is None:
                    lineno += count
                    continue
                batch, nums = lines
            n = len(batch)
            # A batch taken as lines of `block` (without a carriage return or
            # a line too long) and without a letter of "game" escaped (rare:
            # such a line may be a game line that _maybe_games cannot find by
            # its text) is taken in runs between the lines that may be game
            # lines, a run in one step; the lines that may be game lines, and
            # every line of other batches, one by one.
            runs = block is not None and (block.find(b"\\") < 0 or block.find(_ESCAPED_LETTER) < 0) \
                and not utf16_lines(block)   # a backslash first: one memchr
            marks = (game_marks(block, end, batch) if _BATCHES_COMPILED and nums is None
                     else _maybe_games(block, end, batch)) if runs else ()
            k = 0
            i = 0
            while i < n:
                if runs:
                    stop = marks[k] if k < len(marks) else n
                    if i == stop:
                        k += 1
                    elif current is not None and not text:
                        if skipping:
                            i = stop
                            continue
                        take = min(stop - i, MAX_GAME_LINES - len(current.lines))
                        if take > 0:
                            current.lines.extend(zip(range(lineno + i + 1, lineno + i + take + 1) if nums is None
                                                     else nums[i:i + take], batch[i:i + take]))
                            i += take
                            continue
                raw = batch[i]
                num = lineno + i + 1 if nums is None else nums[i]
                i += 1
                if utf16 and raw[:1] == b"\0":
                    raw = after_utf16(raw)
                if is_game_line(raw):       # which first looks for "game" (may_be_game_line)
                    if current is not None:
                        yield current
                    current = RawGame(name, [(num, raw)])
                    seen_any = True
                    skipping = text = utf16 = False
                    continue
                if skipping or not raw.strip():
                    continue
                if raw[:2] in UTF16_BOMS:    # unreadable: the file, or the lines up to a game line
                    if current is not None:
                        yield current
                    yield RawGame(name, [(num, b"")], kind=utf16_kind(num, num == line0 + 1))
                    if num == line0 + 1:
                        return
                    current = None
                    seen_any = skipping = utf16 = True
                    continue
                if text and is_json_object(raw):
                    text = False
                seen_any = True
                if current is None:
                    current = RawGame(name, [(num, raw)], kind="orphan")
                elif len(current.lines) < MAX_GAME_LINES:
                    current.lines.append((num, raw))
                elif text:
                    current.more += 1      # not JSON Lines so far: counted, not kept
                    continue
                elif current.kind == "orphan":
                    # Lines outside any game: reported in groups of bounded size.
                    yield current
                    current = RawGame(name, [(num, raw)], kind="orphan")
                else:
                    current.lines.append((num, RefusedLine(
                        raw[:200], TOO_LARGE, f"the game is longer than {MAX_GAME_LINES} lines (MAX_GAME_LINES); "
                                              "the rest of it is skipped")))
                    skipping = True
            lineno += count
    except READ_ERRORS as e:
        # A read error or corrupt compressed data: the game read so far is
        # verified as it is (it will be found cut short), then the error.
        # A line the error cut short is not read.
        if current is not None:
            yield current
        yield unreadable_after(name, lineno, e)
        return
    if current is not None:
        if text and ends:
            current.kind = "text"
        yield current
    if not seen_any:
        yield RawGame(name, [], kind="empty")


def open_log(p: str) -> BinaryIO:
    """A log file for reading as verify reads it: decompressed when it is
    gzip data (a byte order mark at its start is the caller's to skip: BOM)."""
    f = open(p, "rb")
    try:
        if f.peek(2)[:2] == GZIP_MAGIC:
            import gzip

            return gzip.GzipFile(fileobj=f, mode="rb")
    except OSError:
        pass
    return f


def open_stdin() -> BinaryIO:
    """Standard input for reading, decompressed when it is gzip data (the
    one reader of it in a run: the main process, whatever the jobs)."""
    stream = sys.stdin.buffer
    peek = getattr(stream, "peek", None)
    if peek is None:
        return stream
    head = peek(2)
    if not head:
        # The end of input was seen already. On a terminal, Ctrl-D ends
        # input once: reading again would wait for more.
        return io.BytesIO(b"")
    if head[:2] == GZIP_MAGIC:
        import gzip

        return gzip.GzipFile(fileobj=stream, mode="rb")
    return stream


def unread_game(folder: Unread) -> RawGame:
    """The UNREADABLE game a folder that could not be searched stands for."""
    return RawGame(str(folder), [(0, b"")], kind=f"unreadable-folder:{folder.why}")


def read_all(paths: tuple[str, ...]) -> Iterator[RawGame]:
    """Every game of `paths`, in order. The paths are checked before the
    first game is given (NoInput, see check_input)."""
    return _read_files(check_input(paths))


def _read_files(files: list[str]) -> Iterator[RawGame]:
    for p in files:
        if isinstance(p, Unread):
            yield unread_game(p)
            continue
        if p == "-":
            try:
                stream = open_stdin()
            except (OSError, ValueError) as e:
                yield RawGame("<stdin>", [(0, b"")], kind=f"unreadable:{getattr(e, 'strerror', None) or e}")
                continue
            yield from split_games(stream, "<stdin>")
            continue
        try:
            f = open_log(p)
        except OSError as e:
            yield RawGame(p, [(0, b"")], kind=f"unreadable:{e.strerror or e}")
            continue
        with f:
            yield from split_games(f, p)
