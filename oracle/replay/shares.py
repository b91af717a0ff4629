"""Cutting replay input into shares that worker processes read themselves.

A share is a piece of the input holding whole games, small enough to keep
every worker busy and to keep memory flat:

- `Range`: a byte range of a plain local file, starting at a game line (or
  at the start of the file) and ending just before one (or at its end). The
  worker opens the file and reads only its range.
- `Batch`: raw bytes cut at a game line from a stream that cannot be
  seeked or range-split (standard input, a gzip file, a pipe). The parent
  reads the stream in large blocks and never looks at most lines.
- `Whole`: a file read whole by the worker, through the reader (a file
  with a byte order mark, a file that cannot be opened) or through fsspec
  (a URL such as ``s3://bucket/games/day1.jsonl.gz``).
- `Broken`: a stream that failed while the parent read it (a truncated gzip
  file): one `UNREADABLE` verdict at the line where it failed.
- `Files`: several small byte ranges (small files, or the ends of files)
  handed out as one share, so that many small files cost few hand-outs.
- `Games`: games the parent read itself, line by line as a single reader
  does. A stream where no game line comes for STREAM_HOLD bytes (a line of
  a gigabyte, a gzip bomb, a huge game) is read so from there on: lines
  past the limits are never held whole, so memory stays flat.

Every share knows the number of lines before it (`line0`), so the games it
holds are numbered exactly as a single reader of the whole input numbers
them. Cuts are made only at lines `reader.is_game_line` accepts, so each
share splits into the same games as the whole input would.
"""

from __future__ import annotations

import gzip
import io
import os
import select
import stat
from typing import BinaryIO, Iterator, Union

import msgspec

from .inputs import Unread, expand_paths
from .reader import (BOM, GZIP_MAGIC, READ_ERRORS, RawGame, first_game_line, is_game_line, newlines as count_newlines,
                     open_stdin, read_all, split_games, unread_game, unreadable_after)

# Lines longer than this are never taken as a place to cut (a game line is
# short); the share around them just grows. Keeps the parent's reads small.
CUT_LINE_MAX = 64 * 1024
MIN_SHARE = 256 * 1024
MAX_SHARE = 4 * 1024 * 1024
STREAM_SHARE = 1024 * 1024
# A cluster's shares: about this many for each of its workers, of 2 MB to 8 MB. A Dask task
# costs about 10 ms of processor time (the main process's, the scheduler's and the
# worker's), as much as 30 to 40 games: 2 MB shares spent about 17% more than -j 2 on it, 8 MB
# shares 4% (256 KB shares made a cluster 2 to 3 times -j 2's time). Fewer than this many
# shares a worker would leave workers idle at the end while the last shares finish.
CLUSTER_SHARES_PER_WORKER = 8
CLUSTER_MIN_SHARE = 2 * 1024 * 1024
CLUSTER_MAX_SHARE = 8 * 1024 * 1024
# Bytes of a stream held at most while looking for a game line to cut at;
# past that, the parent reads the rest of the stream game by game (`Games`).
STREAM_HOLD = 8 * 1024 * 1024


class Range(msgspec.Struct, frozen=True):
    path: str
    start: int
    end: int
    line0: int


class Batch(msgspec.Struct, frozen=True):
    name: str
    data: bytes
    line0: int
    ends: bool = True     # the stream ends with it (else a game line follows)


class Whole(msgspec.Struct, frozen=True):
    path: str


class Broken(msgspec.Struct, frozen=True):
    game: RawGame    # its `unreadable` game, as the reader gives it


class Games(msgspec.Struct, frozen=True):
    name: str
    games: tuple[RawGame, ...]


class Files(msgspec.Struct, frozen=True):
    parts: tuple[Range, ...]


Share = Union[Range, Batch, Whole, Broken, Games, Files]
# Ranges grouped into one `Files` share at most (each costs the worker an open file).
MAX_FILES = 256


class Wait(msgspec.Struct, frozen=True):
    """Not a share: nothing more can be planned until the live stream `fd`
    has data (only from a plan made with `wait=False`). Asking the plan again
    before that gives another Wait."""
    fd: int


def is_url(path: str) -> bool:
    return "://" in path


# -- reading a share ----------------------------------------------------------

class _RangeRaw(io.RawIOBase):
    """Bytes [start, end) of an open file, as a raw stream."""

    def __init__(self, f: BinaryIO, start: int, end: int):
        self.f = f
        self.left = end - start
        f.seek(start)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.left <= 0:
            return 0
        view = memoryview(b)[: self.left]
        n = self.f.readinto(view)
        self.left -= n or 0
        return n or 0


def share_games(share: Share) -> Iterator[RawGame]:
    """The games of one share, numbered as in the whole input."""
    if isinstance(share, Range):
        with open(share.path, "rb", buffering=0) as f:
            ends = share.end >= os.fstat(f.fileno()).st_size
            buffer = max(1, min(1 << 20, share.end - share.start))   # a small file gets a small buffer
            stream = io.BufferedReader(_RangeRaw(f, share.start, share.end), buffer_size=buffer)
            yield from split_games(stream, share.path, share.line0, ends)
    elif isinstance(share, Batch):
        yield from split_games(io.BytesIO(share.data), share.name, share.line0, share.ends)
    elif isinstance(share, Broken):
        yield share.game
    elif isinstance(share, Games):
        yield from share.games
    elif isinstance(share, Files):
        for part in share.parts:
            yield from share_games(part)
    elif is_url(share.path):
        yield from _url_games(share.path)
    else:
        yield from read_all((share.path,))


def _url_games(url: str) -> Iterator[RawGame]:
    try:
        import fsspec

        f = fsspec.open(url, "rb", compression="infer").open()
    except ImportError as e:   # fsspec, or the file system's own package (s3fs, gcsfs ...)
        yield RawGame(url, [(0, b"")], kind=f"unreadable:{e} (URL paths need pip install 'mb-oracle[cluster]', "
                                             "or 'mb-oracle[s3]' for s3://)")
        return
    except (OSError, ValueError) as e:
        yield RawGame(url, [(0, b"")], kind=f"unreadable:{getattr(e, 'strerror', None) or e}")
        return
    with f:
        yield from split_games(f, url)


# -- planning -----------------------------------------------------------------

def expand(paths: tuple[str, ...]) -> list[str]:
    """The reader's expansion for local paths; fsspec's (globs included) for URLs."""
    out: list[str] = []
    local: list[str] = []
    for p in paths or ("-",):
        if is_url(p):
            out.extend(expand_paths(tuple(local)) if local else [])
            local = []
            out.extend(_expand_url(p))
        else:
            local.append(p)
    if local:
        out.extend(expand_paths(tuple(local)))
    return out


def _expand_url(url: str) -> list[str]:
    try:
        import fsspec

        files = fsspec.open_files(url, "rb")
    except (ImportError, OSError, ValueError):
        return [url]   # reading it will say what is wrong
    names = [f.fs.unstrip_protocol(f.path) for f in files]
    return sorted(names) or [url]


def share_size(paths: list[str], jobs: int, least: int = MIN_SHARE, most: int = MAX_SHARE, each: int = 64) -> int:
    """Big enough that each share costs little to hand out (`least` bytes at
    least), small enough that about `each` go to each worker (the last ones
    finish together), and `most` bytes at most."""
    total = 0
    for p in paths:
        if p != "-" and not is_url(p):
            try:
                total += os.stat(p).st_size
            except OSError:
                pass
    return max(least, min(most, total // (jobs * each) + 1))


def cluster_share_size(paths: list[str], workers: int) -> int:
    """The size of a cluster's shares, for its number of `workers`."""
    return share_size(paths, max(1, workers), CLUSTER_MIN_SHARE, CLUSTER_MAX_SHARE, CLUSTER_SHARES_PER_WORKER)


def plan(paths: list[str], size: int, stdin: BinaryIO | None = None, wait: bool = True) -> Iterator[Share | Wait]:
    """Shares in input order, produced lazily as they are handed out. With
    `wait=False`, a live stream that has nothing to read yet gives `Wait`
    instead of blocking, so that the caller can go on with other work.
    Consecutive byte ranges smaller than `size` (small files) come grouped
    into `Files` shares of about `size` bytes."""
    return _grouped(_plan(paths, size, stdin, wait), size)


def _grouped(shares: Iterator[Share | Wait], size: int) -> Iterator[Share | Wait]:
    """`shares`, with runs of small ranges handed out together."""
    held: list[Range] = []
    held_bytes = 0
    for share in shares:
        small = share.__class__ is Range and share.end - share.start < size
        if small:
            held.append(share)
            held_bytes += share.end - share.start
        if held and (not small or held_bytes >= size or len(held) >= MAX_FILES):
            yield held[0] if len(held) == 1 else Files(tuple(held))
            held, held_bytes = [], 0
        if not small:
            yield share
    if held:
        yield held[0] if len(held) == 1 else Files(tuple(held))


def _plan(paths: list[str], size: int, stdin: BinaryIO | None, wait: bool) -> Iterator[Share | Wait]:
    for p in paths:
        if p == "-":
            stream = stdin
            if stream is None:
                # Decompressed here, as one job reads it: shares are cut at game lines.
                try:
                    stream = open_stdin()
                except (OSError, ValueError) as e:
                    why = getattr(e, "strerror", None) or e
                    yield Broken(RawGame("<stdin>", [(0, b"")], kind=f"unreadable:{why}"))
                    continue
            yield from plan_stream(stream, "<stdin>", STREAM_SHARE, wait)
        elif isinstance(p, Unread):
            yield Broken(unread_game(p))          # a folder that could not be searched
        elif is_url(p):
            yield Whole(p)
        else:
            yield from plan_local(p, size, wait)


def plan_local(path: str, size: int, wait: bool = True) -> Iterator[Share | Wait]:
    try:
        f = open(path, "rb")
    except OSError:
        yield Whole(path)  # the reader names the error
        return
    with f:
        try:
            regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
        except OSError:
            regular = False
        if not regular:
            yield from plan_stream(f, path, STREAM_SHARE, wait)
            return
        try:
            head = f.read(3)
        except OSError:
            yield Whole(path)  # a file that cannot be read (/proc/self/mem): the reader names the error
            return
        if head.startswith(GZIP_MAGIC):
            f.seek(0)
            yield from plan_stream(gzip.GzipFile(fileobj=f, mode="rb"), path, STREAM_SHARE)
        elif head.startswith(BOM):
            yield Whole(path)
        else:
            yield from plan_ranges(f, path, size)


def _skip_line(f: BinaryIO) -> bool:
    """Read to the end of the current line; False at the end of the file."""
    while True:
        part = f.readline(CUT_LINE_MAX)
        if not part:
            return False
        if part.endswith(b"\n"):
            return True


def plan_ranges(f: BinaryIO, path: str, size: int) -> Iterator[Range]:
    start = line0 = 0
    while True:
        f.seek(start)
        newlines, got = 0, 0
        while got < size:
            chunk = f.read(min(1 << 20, size - got))
            if not chunk:
                break
            got += len(chunk)
            newlines += count_newlines(chunk)
        if got < size:
            yield Range(path, start, start + got, line0)
            return
        # Move to the first line starting at or after start + size.
        target = start + got
        f.seek(target - 1)
        if f.read(1) != b"\n":
            if not _skip_line(f):
                yield Range(path, start, f.tell(), line0)
                return
            newlines += 1
        # The next game line, from one read of a block rather than a line at a time.
        here = f.tell()
        block = f.read(CUT_LINE_MAX) if start else b""
        cut = first_game_line(block)
        if cut is not None:
            yield Range(path, start, here + cut, line0)
            start, line0 = here + cut, line0 + newlines + count_newlines(block[:cut])
            continue
        f.seek(here)
        while True:
            pos = f.tell()
            line = f.readline(CUT_LINE_MAX)
            if not line:
                yield Range(path, start, pos, line0)
                return
            if not line.endswith(b"\n"):
                if len(line) == CUT_LINE_MAX:   # too long to be a place to cut
                    if not _skip_line(f):
                        yield Range(path, start, f.tell(), line0)
                        return
                    newlines += 1
                    continue
                yield Range(path, start, pos + len(line), line0)  # a last line without newline
                return
            if is_game_line(line.rstrip(b"\r\n")) and (start or _holds_a_line(f, pos)):
                yield Range(path, start, pos, line0)
                start, line0 = pos, line0 + newlines
                break
            newlines += 1


def _holds_a_line(f: BinaryIO, end: int) -> bool:
    """Whether the file's bytes before `end` hold a line that is not blank:
    a first share of blank lines alone would read as an empty input."""
    here = f.tell()
    f.seek(0)
    left, found = end, False
    while left and not found:
        chunk = f.read(min(left, 1 << 20))
        left -= len(chunk)
        found = bool(chunk.strip())
    f.seek(here)
    return found


def _last_cut(buf: bytearray, lo: int, sent: bool) -> tuple[int | None, int]:
    """The start of the last whole game line in `buf` where a share may end
    (not at the very start, nor after blank lines alone at the start of the
    input), looking only at the lines from `lo` (a line start: the lines
    before it hold no such game line); and where the next search may start.

    Only lines holding `"game"` can be game lines (reader.is_game_line), so
    the search jumps from one such line to the one before."""
    nxt = buf.rfind(b"\n", lo) + 1 or lo      # the start of the line not yet whole
    hi = nxt
    while hi > lo:
        g = buf.rfind(b'"game"', lo, hi)
        if g < 0:
            break
        start = buf.rfind(b"\n", 0, g) + 1
        stop = buf.find(b"\n", g)
        if 0 < start and stop - start <= CUT_LINE_MAX and is_game_line(bytes(buf[start:stop]).rstrip(b"\r")) \
                and (sent or bytes(buf[:start]).strip()):
            return start, nxt
        hi = start
    return None, nxt


def is_live(f) -> bool:
    """A pipe, socket or terminal: its data comes when the writer sends it.
    A decompressed stream is not taken as one: what it holds decompressed
    cannot be seen by waiting on the pipe beneath it."""
    if isinstance(f, gzip.GzipFile):
        return False
    try:
        mode = os.fstat(f.fileno()).st_mode
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def _more_now(f: BinaryIO) -> bool:
    """Whether a read of the live stream `f` would return at once."""
    try:
        return bool(select.select([f], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def plan_stream(f: BinaryIO, name: str, size: int, wait: bool = True) -> Iterator[Share | Wait]:
    """Blocks of about `size` bytes cut before a game line. From a live
    stream (a pipe, a socket, a terminal) the games already whole are
    handed out as soon as the writer pauses, not when `size` bytes have
    come: a slow writer (an engine playing as it logs) gets its verdicts
    as one job would give them. With `wait=False`, `Wait` stands for a read
    of the live stream that would block."""
    live = is_live(f)
    # read1: a read that fails (a cut or corrupt gzip stream) loses nothing
    # read before it, as the single reader's reads lose nothing.
    read = getattr(f, "read1", None) or f.read
    buf = bytearray()
    line0 = 0
    sent = False
    lo = 0        # the lines of buf before lo hold no game line where a share could end
    while True:
        if live and not wait:
            while not _more_now(f):
                yield Wait(f.fileno())
        try:
            chunk = read(size)
        except READ_ERRORS as e:
            # As the single reader: the whole lines read, then the error
            # (a line it cut short is not read).
            whole = bytes(buf[:buf.rfind(b"\n") + 1])
            if whole.strip():
                yield Batch(name, whole, line0, ends=False)
            yield Broken(unreadable_after(name, line0 + count_newlines(whole), e))
            return
        if not chunk:
            if buf or not sent:
                yield Batch(name, bytes(buf), line0)
            return
        buf += chunk
        if len(buf) < size and (not live or _more_now(f)):
            continue
        cut, lo = _last_cut(buf, lo, sent)
        if cut is None:
            if len(buf) > STREAM_HOLD:
                yield from _games_of_rest(buf, f, name, line0)
                return
            continue
        data = bytes(buf[:cut])
        del buf[:cut]
        lo -= cut
        yield Batch(name, data, line0, ends=False)
        sent = True
        line0 += count_newlines(data)


class _Prefixed(io.RawIOBase):
    """Some bytes already read, then the rest of a stream."""

    def __init__(self, head: bytes, f: BinaryIO):
        self.head = memoryview(head)
        self.f = f

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.head:
            n = min(len(b), len(self.head))
            b[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.f.read(len(b))
        b[:len(data)] = data
        return len(data)


def _games_of_rest(buf: bytearray, f: BinaryIO, name: str, line0: int) -> Iterator[Games]:
    """The rest of a stream (`buf` read of it so far, from a line start),
    read by the parent game by game as the single reader reads it, in shares
    of about STREAM_SHARE bytes of lines."""
    stream = io.BufferedReader(_Prefixed(bytes(buf), f), buffer_size=1 << 20)
    buf.clear()
    held: list[RawGame] = []
    size = 0
    for raw in split_games(stream, name, line0):
        held.append(raw)
        size += sum(len(b) for _, b in raw.lines)
        if size >= STREAM_SHARE:
            yield Games(name, tuple(held))
            held, size = [], 0
    if held:
        yield Games(name, tuple(held))
