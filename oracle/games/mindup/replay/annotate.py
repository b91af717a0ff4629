"""`mb-oracle annotate` for Mind Up!: a log in canonical form, written by the
rules: the game line, the deal as hands, line and pile, each round's line
with its draws and objectives, each turn as one `turn` line followed by a
full state claim, each round's last cards (`last`), and the rules' result."""

from __future__ import annotations

from typing import BinaryIO, TextIO

import msgspec

from ....replay.annotate import write_findings
from ....replay.reader import RawGame
from .selfplay import claim
from .verifier import Verifier

_enc = msgspec.json.Encoder()


class Annotator(Verifier):
    def __init__(self, raw):
        super().__init__(raw)
        self.out: list[dict] = []
        self.detail: str | None = None      # the log's end.detail, kept in the canonical end line

    def _end(self, line, lineno) -> None:
        if isinstance(line.detail, str):
            self.detail = line.detail
        super()._end(line, lineno)

    def _setup(self, line, lineno) -> bool:
        ok = super()._setup(line, lineno)
        if ok:
            s = self.g.state
            setup = {"t": "setup", "hands": [list(h) for h in s.hands], "line": list(s.line)}
            if s.pile is not None:
                setup["pile"] = list(s.pile)
            self.out.append(setup)
        return ok

    def _round(self, line, lineno) -> None:
        before = len(self.since)
        super()._round(line, lineno)
        if self.lost:
            return
        s = self.g.state
        out = {"t": "round", "round": s.round, "order": list(s.order)}
        draws = [e.card for e in self.since[before:] if e.kind == "take-back"]
        if draws:
            out["draws"] = draws
        if s.objectives:
            out["objectives"] = list(s.objectives)
        self.out += [out, claim(self.g)]

    def _apply(self, step, lineno, line, decisions: int) -> None:
        chosen = list(self.g.state.chosen)
        if any(c is None for c in chosen):
            log = msgspec.to_builtins(line)
            chosen = list(log.get("cards", chosen)) if isinstance(log, dict) else chosen
        ended = self.last_cards
        super()._apply(step, lineno, line, decisions)
        if self.lost:
            return
        self.out += [{"t": "turn", "cards": chosen}, claim(self.g)]
        if self.last_cards is not None and self.last_cards is not ended:
            self.out.append({"t": "last", "cards": list(self.last_cards)})


def annotate_game(raw: RawGame, out: BinaryIO, err: TextIO | None = None, edition: str | None = None) -> int:
    """Write one game in canonical form; the exit status it calls for (0, 1, 2).
    A game that does not conform is said on `err` too (its log stops at the
    first finding). `edition`: what `annotate --edition` names, for the
    games whose logs may leave it out; Mind Up! has one edition, so it is
    not read."""
    a = Annotator(raw)
    rep = a.run()
    out.write(raw.lines[0][1] + b"\n")
    for line in a.out:
        out.write(_enc.encode(line) + b"\n")
    g = a.g
    if rep.verdict == "conforms" and g is not None:
        if g.is_over:
            end = {"t": "end", "scores": g.totals(), "winners": g.winners()}
        else:
            end = {"t": "end", "reason": "aborted", "detail": "the log stops before the game ends"}
        if a.detail is not None:
            end["detail"] = a.detail
        out.write(_enc.encode(end) + b"\n")
    return write_findings(rep, out, err)
