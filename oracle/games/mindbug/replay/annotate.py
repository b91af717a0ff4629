"""`mb-oracle annotate` for Mindbug: a log in canonical form, written by the
rules. Every decision is written out (forced ones included), each followed
by a full state claim, then the rules' result."""

from __future__ import annotations

from typing import BinaryIO, TextIO

import msgspec

from ....replay.annotate import KeepsEndDetail, write_game
from ....replay.reader import RawGame
from ..engine import Decision
from .selfplay import claim
from .verifier import Verifier


class Annotator(KeepsEndDetail, Verifier):
    def __init__(self, raw, edition=None):
        super().__init__(raw, edition, keep_going=False)
        self.out: list[dict] = []

    def _setup(self, line, lineno, prof) -> bool:
        ok = super()._setup(line, lineno, prof)
        if ok:
            self.out.append(msgspec.to_builtins(line))
            self.out.append(claim(self.g))
        return ok

    def _step(self, kind, arg) -> None:
        player = self.g.pending.player
        super()._step(kind, arg)
        self.out.append(Decision(kind, player, arg).to_json())
        self.out.append(claim(self.g))


def annotate_game(raw: RawGame, out: BinaryIO, err: TextIO | None = None, edition: str | None = None) -> int:
    """Write one game in canonical form (under `edition`, when the log names
    none); the exit status it calls for (0, 1, 2). A game that does not
    conform is said on `err` too (its log stops at the first finding)."""
    a = Annotator(raw, edition)
    return write_game(raw, a, a.run(), _end_line, out, err)


def _end_line(g) -> dict:
    """The rules' end line of a game that conforms (aborted if it is not over)."""
    if g.is_over:
        return {"t": "end", "winner": g.winner, "reason": g.reason}
    return {"t": "end", "winner": None, "reason": "aborted", "detail": "the log stops before the game ends"}
