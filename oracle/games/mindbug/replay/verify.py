"""Verifying one recorded game of Mindbug against the rules.

The log's inputs (the deal, every decision, every random outcome) drive the
reference engine; its claims (state lines, the end line) are compared with
what the engine says. The first divergence is reported with the clause, the
line, the legal options and, for state claims, a structural diff. With
`keep_going`, verification resumes at the next full state claim from which
the rules can go on (`resync`), so one run reports every divergence of a
game.

A game in the plain form goes through the fast lane (`fastlane`); any other
through the full verifier (`verifier`), which gives the same report for the
games both can read. With `keep_going`, only a game the fast lane finds
conforming keeps its report: there is no divergence to go on past.
"""

from __future__ import annotations

from ....replay.basis import classify, consistency as combos, replayed
from ....replay.findings import GameReport
from ....replay.reader import RawGame
from ..readings import consulted
from .fastlane import fast_report
from .fork import Checkpoints, resume
from .verifier import LeanVerifier, Verifier


class _Lane:
    """Whether the fast lane is worth trying: a stream whose games keep
    leaving it (an engine that writes an accepted form in every game) goes
    straight to the full verifier, trying the fast lane again now and then.
    Only the speed depends on it, never a report."""

    __slots__ = ("leaving", "skipped")

    def __init__(self):
        self.leaving = 0.0      # a moving average of the games that left the fast lane
        self.skipped = 0

    def worth_trying(self) -> bool:
        if self.leaving < 0.75:
            return True
        self.skipped += 1
        return self.skipped % 16 == 0

    def record(self, left: bool) -> None:
        self.leaving = 0.9 * self.leaving + (0.1 if left else 0.0)


_lane = _Lane()


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False,
                readings: dict | None = None, basis: bool = True, *, strict: bool = False,
                check_invariants: bool = False) -> GameReport:
    """The report of one game of Mindbug; with `basis`, each finding of a
    game that violates says whether it stands only under a team reading.
    With `check_invariants`, the engine's own invariants are checked after
    every decision (INVARIANT_BROKEN: the game is not verified)."""
    if not check_invariants and _lane.worth_trying():
        # With keep_going too: a game the fast lane finds conforming is read
        # the same way by the full verifier, which finds nothing to go on past.
        rep = fast_report(raw, edition, readings, strict)
        if rep is not None and keep_going and rep.verdict != "conforms":
            rep = None
        _lane.record(rep is None)
        if rep is not None:
            return rep
    v = Verifier(raw, edition, keep_going, readings, strict=strict, check_invariants=check_invariants)
    if keep_going:
        # The readings the game asked for, each with the line it was first
        # asked at: only their alternatives can read a line otherwise, and
        # only from that line on (a replay under another goes the same way
        # before it, so it starts at the claim before it: `fork`).
        with consulted(Checkpoints(v).where) as asked:
            rep = v.run()
    else:
        rep, asked = v.run(), None
    if basis and rep.verdict == "violates":
        classify(_replays(raw, keep_going, strict, v), v, edition, keep_going, v.readings, asked=asked)
    return rep


def _replays(raw: RawGame, keep_going: bool, strict: bool, team):
    """How `classify` replays the game under other readings. With
    keep_going only which lines they accept counts (none of their findings
    is reported), up to the last line of a finding of the team's run
    (`team`), and a replay given a snapshot of that run (fork.resume)
    starts there."""
    rep = team.report
    if not keep_going:
        return lambda ed, rd: replayed(Verifier(raw, ed, False, rd, strict=strict))
    until = max((n for f in rep.findings if not f.malformed for n in (f.lines or (f.line,))), default=None)

    def run(ed, rd, start=None):
        if start is not None:
            return resume(raw, start, team, rd, until)
        return replayed(LeanVerifier(raw, ed, True, rd, strict=strict, until=until))
    return run


def consistency(raw: RawGame, readings: dict, rep: GameReport):
    """--which-editions for a game of Mindbug: the editions it conforms to
    under the readings in force, and every (edition, readings) it conforms
    under, over the readings in play (basis.consistency)."""
    return combos(lambda ed, rd: verify_game(raw, ed, False, rd, basis=False), readings, rep)
