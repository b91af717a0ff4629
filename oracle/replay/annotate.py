"""`mb-oracle annotate`: the canonical form of a log, written by the rules.

Every decision is written out (forced ones included), each followed by a
full state claim, then the rules' result. An implementer diffs it against
their own log to see where they part from the rules.
"""

from __future__ import annotations

from typing import BinaryIO, TextIO

import msgspec

from ..games.mindbug.engine import Decision
from ..games import DEFAULT, GAMES, attribute, game_of
from ..term import visible
from .reader import read_all
from .selfplay import claim
from .verify import Verifier

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


def write_findings(rep, out: BinaryIO, err: TextIO | None = None) -> int:
    """A note line per finding of a game written in canonical form; the exit
    status its verdict calls for (0 conforms, 1 violates, 2 malformed). A
    game that does not conform is also said on `err`, one line (an error
    when it cannot be read, a note when it breaks the rules), since its log
    stops at the first finding."""
    for f in rep.findings:
        text = f"{rep.verdict}: line {f.line}: {f.code} [{', '.join(f.clauses)}] {f.message}"
        out.write(_enc.encode({"t": "note", "text": text}) + b"\n")
    if err is not None and rep.findings:
        f = rep.findings[0]
        kind = "error" if rep.verdict == "malformed" else "note"
        err.write(visible(f"{kind}: {rep.file}:{f.line or rep.line}: game {rep.id}: {rep.verdict}: "
                          f"{f.code}: {f.message}") + "\n")
    return {"conforms": 0, "violates": 1, "malformed": 2}[rep.verdict]


def annotate_stream(paths, edition, out: BinaryIO, err: TextIO | None = None) -> int:
    worst = 0
    for raw in read_all(paths):
        game = game_of(raw.lines[0][1]) if raw.kind == "game" and raw.lines else DEFAULT
        if isinstance(game, str) and game != DEFAULT and game in GAMES:
            worst = max(worst, attribute(game, "ANNOTATE")(raw, out, err))    # another game's canonical form
            continue
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
        worst = max(worst, write_findings(rep, out, err))
    out.flush()
    return worst
