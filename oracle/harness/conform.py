"""`mb-oracle conform`, what every game's campaign shares: the settings of a
run, a game's time, a game the adapter failed (ENGINE_FAULT), the outcome
of known deviations, and why an artifact was not written. Each game plays
its own campaign (Mindbug's: oracle.games.mindbug.harness.conform)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..draftfile import DraftRefused
from ..replay.findings import Finding, GameReport
from .engine_client import Engine, EngineFault

ENGINE_FAULT = "ENGINE_FAULT"


@dataclass
class Settings:
    budget: int = 20                    # games to play
    seed: int = 1
    editions: tuple[str, ...] = ()      # default: every edition the engine plays
    bots: tuple[str, ...] = ("random", "greedy")
    max_decisions: int = 1000
    shrink: bool = True
    shrink_budget: int = 400            # lockstep replays per divergence
    out: Path | None = None             # where shrunk games are written
    scenarios: tuple[str, ...] = ()     # scenario files or folders to run against the engine
    timeout: float = 10.0
    force: bool = False                 # overwrite shrunk games and drafts someone edited
    readings: dict = field(default_factory=dict)    # team readings the rules follow (--reading)
    sets: tuple[str, ...] = ()          # the card sets the games are dealt from (--sets; none: the game's default)
    expected: list = field(default_factory=list)    # known deviations (--expect: mb-expect/1 entries)


def timed(seconds: dict[str, float], play, i: int):
    """`play(i)`, a game, with the time it took kept in `seconds` under its id."""
    t0 = time.perf_counter()
    g = play(i)
    seconds[g.report.id] = time.perf_counter() - t0
    return g


def engine_fault(engine: Engine, report: GameReport, e: EngineFault, line: int = 0) -> None:
    """A game the adapter failed (`line`: after that many decisions both
    sides agreed on): malformed with ENGINE_FAULT; the adapter is started
    again for the next game (a note says when it cannot be)."""
    report.verdict = "malformed"
    report.findings.append(Finding(ENGINE_FAULT, [], line, str(e)))
    try:
        engine.restart()
    except EngineFault as again:
        report.notes.append(f"the engine could not be restarted: {again}")


class KnownOutcomes:
    """Each game's outcome from the findings conform marked as known
    deviations (hello's `deviations`, --expect): expected ones alone make an
    expected failure, counted apart from new divergences."""

    def apply(self, rep) -> None:
        if rep.verdict in ("malformed", "error"):
            rep.outcome = rep.verdict
        elif any(not f.expected for f in rep.findings):
            rep.outcome = "fail"
        else:
            rep.outcome = "xfail" if rep.findings else "pass"

    def stale(self) -> list:
        return []


def why_not_written(e: Exception) -> str:
    """Why a shrunk game or its draft was not written (DraftRefused, OutputError, OSError)."""
    if isinstance(e, DraftRefused):
        return f"{e} (--force overwrites what someone edited)"
    if isinstance(e, OSError):
        return f"{e.filename or 'the --out folder'}: {e.strerror}"
    return str(e)
