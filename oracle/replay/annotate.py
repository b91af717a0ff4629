"""`mb-oracle annotate`: the canonical form of a log, written by the rules.

Each game is written by its own game's annotator (oracle.games: the
entry's ANNOTATE): every decision written out, with full state claims, then
the rules' result. An implementer diffs it against their own log to see
where they part from the rules. `write_findings` is the note lines every
game's annotator ends a game with.
"""

from __future__ import annotations

from typing import BinaryIO, TextIO

import msgspec

from ..games import DEFAULT, GAMES, attribute, game_of
from ..term import visible
from .reader import read_all

_enc = msgspec.json.Encoder()


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
