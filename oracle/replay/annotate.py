"""`mb-oracle annotate`: the canonical form of a log, written by the rules.

Each game is written by its own game's annotator (oracle.games: the
entry's ANNOTATE): every decision written out, with full state claims, then
the rules' result. An implementer diffs it against their own log to see
where they part from the rules. What every game's annotator shares is
here: `KeepsEndDetail` (the log's own end detail, kept) and `write_game`
(the game written out, ending with a note line per finding).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO, TextIO

import msgspec

from ..games import DEFAULT, GAMES, attribute, game_of
from ..term import visible
from .reader import read_all

_enc = msgspec.json.Encoder()


class KeepsEndDetail:
    """An annotator's part, before its game's Verifier among its bases: the
    log's own end.detail, kept for the canonical end line."""

    detail: str | None = None

    def _end(self, line, lineno) -> None:
        if isinstance(line.detail, str):
            self.detail = line.detail
        super()._end(line, lineno)


def write_game(raw, a, rep, end_line: Callable[[object], dict], out: BinaryIO, err: TextIO | None = None) -> int:
    """The game `raw` in canonical form, once its annotator `a` has run
    (`rep`, its report): the game line, the annotator's lines (`a.out`), the rules' end line
    (`end_line(game)`, with the log's own detail) when the game conforms,
    then the note lines of its findings (write_findings); the exit status
    its verdict calls for."""
    if raw.kind == "game" and raw.lines:
        out.write(raw.lines[0][1] + b"\n")
    for line in a.out:
        out.write(_enc.encode(line) + b"\n")
    if rep.verdict == "conforms" and a.g is not None:
        end = end_line(a.g)
        if a.detail is not None:
            end["detail"] = a.detail
        out.write(_enc.encode(end) + b"\n")
    return write_findings(rep, out, err)


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
    """Every game of `paths` in canonical form, each by its game's annotator
    (oracle.games: its entry's ANNOTATE; a game the registry does not know
    goes to the default game's, which says why it cannot be read); the worst
    exit status of them."""
    worst = 0
    for raw in read_all(paths):
        game = game_of(raw.lines[0][1]) if raw.kind == "game" and raw.lines else DEFAULT
        if not (isinstance(game, str) and game in GAMES):
            game = DEFAULT
        worst = max(worst, attribute(game, "ANNOTATE")(raw, out, err, edition))
    out.flush()
    return worst
