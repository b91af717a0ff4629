"""The logs of a run, read again game by game for the HTML report.

Reports come in input order, so each file is read once, front to back,
alongside them: `LogSource.raw(rep)` moves that file's reader on to the
game the report is about. Standard input and URLs cannot be read twice;
their games get no board (`raw` returns None and `why_not` says why).
"""

from __future__ import annotations

from ..replay.reader import RawGame, split_games, _open


class LogSource:
    def __init__(self):
        self._file: str | None = None
        self._games = None
        self._handle = None

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
        for again in (False, True):
            if again or rep.file != self._file:
                # A new file, or the same file given twice: read it from the start.
                self.close()
                try:
                    self._handle = _open(rep.file)
                except OSError:
                    return None
                self._file = rep.file
                self._games = split_games(self._handle, rep.file)
            for raw in self._games:
                if raw.first_line == rep.line and raw.kind == "game":
                    return raw
                if raw.first_line >= rep.line:
                    break
        self.close()
        return None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
        self._file = self._games = self._handle = None
