"""Reading replay streams: files, folders and standard input, split into games.

The reader only finds game boundaries; lines are decoded by the verifier,
so each game can go to another worker process. Memory stays bounded by the
largest game, not the stream.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterator

import msgspec


class _Tag(msgspec.Struct):
    t: str = ""


_tag = msgspec.json.Decoder(_Tag)


@dataclass
class RawGame:
    """The lines of one game as read: (line number, bytes). `kind` is
    'game' for a game, 'orphan' for lines before any game line, 'empty' for
    an input holding no line at all."""

    file: str
    lines: list[tuple[int, bytes]] = field(default_factory=list)
    kind: str = "game"

    @property
    def first_line(self) -> int:
        return self.lines[0][0] if self.lines else 0


def is_game_line(raw: bytes) -> bool:
    if b'"game"' not in raw:
        return False
    try:
        return _tag.decode(raw).t == "game"
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False


def split_games(stream: BinaryIO, name: str) -> Iterator[RawGame]:
    current: RawGame | None = None
    seen_any = False
    for lineno, raw in enumerate(stream, 1):
        raw = raw.rstrip(b"\r\n")
        if not raw.strip():
            continue
        seen_any = True
        if is_game_line(raw):
            if current is not None:
                yield current
            current = RawGame(name, [(lineno, raw)])
        elif current is None:
            current = RawGame(name, [(lineno, raw)], kind="orphan")
        else:
            current.lines.append((lineno, raw))
    if current is not None:
        yield current
    if not seen_any:
        yield RawGame(name, [], kind="empty")


def expand_paths(paths: tuple[str, ...]) -> list[str]:
    """Files as given; folders give their *.jsonl files, sorted, recursively."""
    out: list[str] = []
    for p in paths or ("-",):
        if p == "-":
            out.append("-")
            continue
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*.jsonl")))
        else:
            out.append(p)
    return out


def read_all(paths: tuple[str, ...]) -> Iterator[RawGame]:
    for p in expand_paths(paths):
        if p == "-":
            yield from split_games(sys.stdin.buffer, "<stdin>")
            continue
        try:
            f = open(p, "rb")
        except OSError as e:
            yield RawGame(p, [(0, b"")], kind=f"unreadable:{e.strerror}")
            continue
        with f:
            yield from split_games(f, p)
