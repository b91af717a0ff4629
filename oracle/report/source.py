"""The logs of a run, read again game by game for the HTML report.

Reports come in input order, so each file is read once, front to back,
alongside them: `LogSource.raw(rep)` moves that file's reader on to the
game the report is about (a report about an earlier line, as when a file
is given twice, starts the file again). Standard input and URLs cannot be
read twice; their games get no board (`raw` returns None and `why_not`
says why).
"""

from __future__ import annotations

from ..replay.reader import RawGame, _open, split_games


class LogSource:
    def __init__(self):
        self._file: str | None = None
        self._games = None
        self._handle = None
        self._next: RawGame | None = None    # read, but about a later line than asked for
        self._at = 0                         # the first line of the last game read

    @staticmethod
    def why_not(file: str) -> str | None:
        """Why the games of `file` cannot be read again, or None."""
        if file == "<stdin>":
            return "read from standard input, which cannot be read twice; save the log and run mb-oracle show"
        if "://" in file:
            return "read from a URL; download the log and run mb-oracle show"
        return None

    def raw(self, rep) -> RawGame | None:
        """The lines of the game `rep` reports on, or None when its file cannot be read again."""
        if self.why_not(rep.file) is not None or rep.line <= 0:
            return None
        if rep.file != self._file or rep.line <= self._at:
            self.close()
            try:
                self._handle = _open(rep.file)
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
