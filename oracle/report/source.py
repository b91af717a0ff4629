"""The logs of a run, read again game by game for the HTML report.

Reports come in input order, so each file is read once, front to back,
alongside them: `LogSource.raw(rep)` moves that file's reader on to the
game the report is about (a report about an earlier line, as when a file
is given twice, starts the file again).

A game still on hand (`on_hand`, oracle.replay.onhand.OnHand: the lines
`verify` holds while it passes the game's report on) is taken from there
rather than read again. That is how the games of standard input and of a
pipe given as a path get their boards: those cannot be read twice, and a
log that is not a plain file is never opened again here (opening a pipe
would wait for a writer, reading it would take bytes the run has yet to
read). Games read from a URL get no board (`raw` returns None and
`why_not` says why): with `-j N` the workers read them, so they are not
on hand, and a board must not depend on the number of jobs.
"""

from __future__ import annotations

import os
import stat

from ..replay.reader import RawGame, open_log, split_games


def _not_plain(path: str) -> bool:
    """Whether `path` is there and is not a plain file (a pipe, a device)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


class LogSource:
    def __init__(self, on_hand=None):
        self.on_hand = on_hand
        self._file: str | None = None
        self._games = None
        self._handle = None
        self._next: RawGame | None = None    # read, but about a later line than asked for
        self._at = 0                         # the first line of the last game read

    def why_not(self, file: str) -> str | None:
        """Why the games of `file` cannot be read again, or None."""
        if "://" in file:
            return "read from a URL; download the log and run mb-oracle show"
        if self.on_hand is not None:
            return None     # on hand, or read again if it is a plain file
        if file == "<stdin>":
            return "read from standard input, which cannot be read twice; save the log and run mb-oracle show"
        if _not_plain(file):
            return "read from a pipe or device, which cannot be read twice; save the log and run mb-oracle show"
        return None

    def raw(self, rep) -> RawGame | None:
        """The lines of the game `rep` reports on, or None when they are
        neither on hand nor in a plain file to read again."""
        if rep.line <= 0 or "://" in rep.file:
            return None
        if self.on_hand is not None:
            raw = self.on_hand.game(rep.file, rep.line)
            if raw is not None:
                return raw if raw.kind == "game" else None
        if rep.file == "<stdin>" or _not_plain(rep.file):
            return None
        if rep.file != self._file or rep.line <= self._at:
            self.close()
            try:
                self._handle = open_log(rep.file)
            except OSError:
                return None
            self._file = rep.file
            self._games = split_games(self._handle, rep.file)
        while True:
            raw = self._next
            self._next = None
            if raw is None:
                raw = next(self._games, None)
                if raw is None:
                    return None
            self._at = raw.first_line
            if raw.first_line < rep.line:
                continue
            if raw.first_line > rep.line:
                self._next = raw        # keep it for the next report
                self._at = rep.line
                return None
            return raw if raw.kind == "game" else None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
        self._file = self._games = self._handle = self._next = None
        self._at = 0
