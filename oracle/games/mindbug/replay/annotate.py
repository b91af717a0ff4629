"""`mb-oracle annotate` for Mindbug: a log in canonical form, written by the
rules. Every decision is written out (forced ones included), each followed
by a full state claim, then the rules' result."""

from __future__ import annotations

from typing import BinaryIO, TextIO

import msgspec

from ....replay.annotate import write_findings
from ....replay.reader import RawGame
from ..engine import Decision
from .selfplay import claim
from .verifier import Verifier

_enc = msgspec.json.Encoder()


class Annotator(Verifier):
    def __init__(self, raw, edition=None):
        super().__init__(raw, edition, keep_going=False)
        self.out: list[dict] = []
        self.detail: str | None = None   # the log's end.detail, kept in the canonical end line

    def _end(self, line, lineno) -> None:
        if isinstance(line.detail, str):
            self.detail = line.detail
        super()._end(line, lineno)

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
    rep = a.run()
    if raw.kind == "game" and raw.lines:
        out.write(raw.lines[0][1] + b"\n")
    for line in a.out:
        out.write(_enc.encode(line) + b"\n")
    g = a.g
    if rep.verdict == "conforms" and g is not None:
        if g.is_over:
            end = {"t": "end", "winner": g.winner, "reason": g.reason}
        else:
            end = {"t": "end", "winner": None, "reason": "aborted",
                   "detail": "the log stops before the game ends"}
        if a.detail is not None:
            end["detail"] = a.detail
        out.write(_enc.encode(end) + b"\n")
    return write_findings(rep, out, err)
