"""What `verify` tells the terminal on standard error while it runs: its
progress, and that it is waiting for standard input."""

from __future__ import annotations

import sys

from ..term import Progress, is_terminal, plural
from .inputs import expand_paths
from .reader import newlines


COMPRESSED = (".gz", ".bz2", ".xz", ".zst")


class GameProgress:
    """`verify`'s progress on standard error. When every input is a plain
    file, the lines are counted first (a fast pass) and the display shows
    the share of lines verified, the rate and the time left; otherwise
    (standard input, compressed files) the games verified and the rate."""

    def __init__(self, paths, enabled: bool, stream=None):
        self.files: list[tuple[str, int]] = []
        if enabled and is_terminal(stream if stream is not None else sys.stderr):
            self.files = _line_counts(expand_paths(paths)) or []
        total = sum(n for _, n in self.files)
        self.bar = Progress("verify", total=total or None, unit="line" if total else "game", enabled=enabled,
                            stream=stream)
        self.games = 0
        self._index = 0
        self._base = 0

    def update(self, rep) -> None:
        self.games += 1
        if not self.bar.total:
            self.bar.update(1)
            return
        while self._index < len(self.files) - 1 and self.files[self._index][0] != rep.file:
            self._base += self.files[self._index][1]
            self._index += 1
        self.bar.note = plural(self.games, "game")
        self.bar.update(max(self._base + rep.line - 1 - self.bar.done, 0))   # the lines before this game

    def clear(self) -> None:
        self.bar.clear()


def _line_counts(files: list[str]) -> list[tuple[str, int]] | None:
    """(file, number of lines) of each input, or None if one cannot be counted."""
    out = []
    for f in files:
        if f == "-" or f.endswith(COMPRESSED):
            return None
        try:
            with open(f, "rb") as fh:
                n = 0
                last = b"\n"
                while chunk := fh.read(1 << 20):
                    n += newlines(chunk)
                    last = chunk[-1:]
                out.append((f, n + (last != b"\n")))
        except OSError:
            return None
    return out


def say_reading_stdin(paths) -> None:
    """On a terminal, say that `verify` without PATHS waits for standard input."""
    if any(p != "-" for p in paths):
        return
    if is_terminal(sys.stdin):
        import click

        click.echo("mb-oracle verify: reading mb-replay/1 lines from standard input (end with Ctrl-D; "
                   "give PATHS to verify files or folders)", err=True)
