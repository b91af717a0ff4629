"""Verifying one recorded game against the rules.

The log's inputs (the deal, every decision, every random outcome) drive the
reference engine; its claims (state lines, the end line) are compared with
what the engine says. The first divergence is reported with the clause, the
line, the legal options and, for state claims, a structural diff. With
`keep_going`, verification resumes at the next full state claim before a
turn action, so one run reports every divergence of a game.

A game in the plain form goes through the fast lane (`fastlane`); any other
through the full verifier (`verifier`), which gives the same report for the
games both can read.
"""

from __future__ import annotations

from .basis import classify
from .fastlane import fast_report
from .findings import MALFORMED, Finding, GameReport, Summary, report_schema  # noqa: F401
from .reader import RawGame
from .verifier import Verifier, line_json  # noqa: F401


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False,
                readings: dict | None = None, basis: bool = True, *, strict: bool = False) -> GameReport:
    """The report of one game; with `basis`, each finding of a game that
    violates says whether it stands only under a team reading."""
    if not keep_going:
        rep = fast_report(raw, edition, readings, strict)
        if rep is not None:
            return rep
    v = Verifier(raw, edition, keep_going, readings, strict=strict)
    rep = v.run()
    if basis and rep.verdict == "violates":
        classify(lambda ed, rd: Verifier(raw, ed, keep_going, rd, strict=strict).run(), rep, edition, keep_going,
                 v.readings)
    return rep
