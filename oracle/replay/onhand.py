"""The lines of the games whose reports are being passed on, still on hand
for the HTML report's boards.

A board is drawn from the game's log lines. A plain file can be read again
for them (oracle.report.source), but standard input and a pipe given as a
path cannot: reading them again finds nothing, or takes bytes the run has
yet to read. Nor is a copy of them kept: standard input may be gigabytes,
held in memory it would break the bound on memory, and spooled to a
temporary file it could fill the disk (or the memory, where the temporary
directory is a tmpfs) and would have to be removed on every way out.

No copy is needed: `verify` handles each report while the generator of
`parallel.iter_reports` waits at it, and at that moment this process still
holds the game's lines: with one job, the game it has just verified; with
`-j N` or `--cluster`, the share the game came in (the main process cuts
a stream into shares, `shares.Batch` and `shares.Games`, and keeps each
until the last of its reports is passed on). `iter_reports` puts that game
or share here (`hold`) before it passes the reports on, and the report
takes the game from here (`game`). Memory stays the run's own: one share
(at most about shares.STREAM_HOLD bytes, or the games of one `Games`
share) is kept until the next one comes. The games come from the split
they were verified from (`shares.share_games`), which splits a share into
the games a single reader finds there, so a board is the same whatever
the number of jobs, and the same as for the same bytes read from a file.
"""

from __future__ import annotations

from typing import Iterator

from . import shares as sh
from .reader import RawGame


class OnHand:
    def __init__(self):
        self._share: sh.Batch | sh.Games | None = None
        self._games: Iterator[RawGame] | None = None   # the share's games, read on as the reports go on
        self._last: RawGame | None = None              # the last game taken from `_games`

    def hold(self, share) -> None:
        """The share whose reports come next. A share that this process does
        not hold the bytes of (a byte range or a whole file, which the
        workers read themselves) lets the last one go."""
        if share is self._share:
            return
        self._share = share if isinstance(share, (sh.Batch, sh.Games)) else None
        self._games = self._last = None

    def hold_game(self, raw: RawGame) -> None:
        """The game whose report comes next (one job)."""
        self.hold(sh.Games(raw.file, (raw,)))

    def game(self, file: str, line: int) -> RawGame | None:
        """The game of `file` (as reports name it) that starts at `line`, if it is on hand."""
        share = self._share
        if share is None or share.name != file or line <= 0:
            return None
        if self._last is not None and self._last.first_line > line:
            self._games = None      # an earlier game than the last one asked for: split the share again
        if self._games is None:
            self._games, self._last = sh.share_games(share), None
        raw = self._last
        while raw is None or raw.first_line < line:
            raw = next(self._games, None)
            if raw is None:
                self._games = self._last = None
                return None
            self._last = raw
        return raw if raw.first_line == line else None
