"""`mb-oracle conform`: play games on the reference engine and on another
engine (through its mb-engine/1 adapter) in lockstep, run the scenario
library against it, and shrink each divergence to a short game.

Games are dealt and decided from seeds (random and greedy choices, the
bots of `mb-oracle selfplay`), so a run is reproducible: the same engine,
budget and seed give the same report. Each game is a `GameReport`, as
verify makes them, so the human, JSON and JUnit reports are verify's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..draftfile import DraftRefused
from ..editions import EDITIONS
from ..replay.findings import Finding, GameReport
from ..replay.selfplay import choose, random_deal
from ..safefile import OutputError
from ..term import visible
from . import artifacts
from . import engine_protocol as ep
from .engine_client import Engine, EngineFault
from .lockstep import Divergence, Run
from .shrink import Shrinker
from .start import game_from_setup, setup_line

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


@dataclass
class _Game:
    report: GameReport
    edition: str = ""
    setup: dict | None = None
    divergence: Divergence | None = None


@dataclass
class Campaign:
    engine: Engine
    settings: Settings
    editions: list[str] = field(default_factory=list)

    def run(self) -> Iterator[GameReport]:
        """Every game's report, then every scenario's, in a stable order."""
        s = self.settings
        games = [self._game(i) for i in range(s.budget)]
        if s.shrink:
            self._shrink(games)
        for g in games:
            yield g.report
        yield from self._scenarios()

    # -- games -------------------------------------------------------------------
    def _game(self, i: int) -> _Game:
        s = self.settings
        edition = self.editions[i % len(self.editions)]
        bot = s.bots[(i // len(self.editions)) % len(s.bots)]
        seed = s.seed * 1_000_003 + i
        rng = random.Random(seed)
        setup = random_deal(rng, edition)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        rep = GameReport(file=self.engine.name, line=0, id=f"{edition}-{bot}-s{seed}", edition=edition,
                         impl=f"{self.engine.name} {getattr(self.engine, 'version', '')}".strip())
        out = _Game(rep, edition, setup)
        try:
            g = game_from_setup(edition, setup)
            run = Run(self.engine, g, self.engine.send(ep.Deal(edition=edition, setup=setup_line(setup))))
            while run.going and len(run.decisions) < s.max_decisions:
                run.step(choose(run.g, bot, rng))
        except EngineFault as e:
            return self._fault(out, e)
        rep.decisions = len(run.decisions)
        if run.g.is_over:
            rep.result = {"winner": run.g.winner, "reason": run.g.reason}
        if run.divergence is not None:
            out.divergence = run.divergence
            rep.verdict = "violates"
            rep.findings.append(run.divergence.finding)
        return out

    def _fault(self, out: _Game, e: EngineFault) -> _Game:
        out.report.verdict = "malformed"
        out.report.findings.append(Finding(ENGINE_FAULT, [], 0, str(e)))
        try:
            self.engine.restart()
        except EngineFault as again:
            out.report.notes.append(f"the engine could not be restarted: {again}")
        return out

    # -- shrinking ---------------------------------------------------------------
    def _shrink(self, games: list[_Game]) -> None:
        """Shrink the shortest game of each kind of divergence (code, first
        clause, edition); the other games of that kind point to it."""
        s = self.settings
        kinds: dict[tuple, list[_Game]] = {}
        for g in games:
            if g.divergence is not None:
                kinds.setdefault((g.divergence.signature, g.edition), []).append(g)
        for (sig, edition), members in kinds.items():
            first = min(members, key=lambda g: (len(g.divergence.decisions), g.report.id))
            shrinker = Shrinker(self.engine, edition, first.setup, s.shrink_budget)
            setup = first.setup
            try:
                small, setup = shrinker.shrink(first.divergence)
                if self.engine.proc is None:
                    self.engine.start()
            except EngineFault:
                small = first.divergence
            moved = "" if setup is first.setup else ", with the used cards first in the draw piles"
            note = (f"shrunk from {len(first.divergence.decisions)} to {len(small.decisions)} decisions{moved} "
                    f"({shrinker.replays} replays)")
            if s.out is not None:
                stem = f"{first.report.id}-{sig[0].lower()}"
                lines = artifacts.replay_lines(small, edition, setup, f"conform-{stem}",
                                               {"name": self.engine.name, "version": getattr(self.engine, "version", "")})
                doc = artifacts.draft_scenario(small, edition, setup,
                                               f"conform.{first.report.id.lower()}.{sig[0].lower().replace('_', '-')}",
                                               self.engine.name)
                name = visible(self.engine.name)         # one line of the draft's comment
                header = (f"# {name} parts from the rules ({sig[0]} [{sig[1]}]) after {len(small.decisions)} "
                          f"decisions.\n")
                try:
                    log, yml = artifacts.write(s.out, stem, lines, doc, header, s.force)
                except (DraftRefused, OutputError, OSError) as e:
                    note += f"; not written: {_why(e)}"
                else:
                    checked = artifacts.verify_lines(lines)
                    flagged = "; ".join(f"{f.code} [{', '.join(f.clauses)}]" for f in checked.findings) or "nothing"
                    note += f": {log} and {yml}; mb-oracle verify on it: {checked.verdict} ({flagged})"
            first.report.notes.append(note)
            for g in members:
                if g is not first:
                    g.report.notes.append(f"the same divergence as {first.report.id}, shrunk there")

    # -- scenarios ---------------------------------------------------------------
    def _scenarios(self) -> Iterator[GameReport]:
        if not self.settings.scenarios:
            return
        from .scenario_run import run_scenarios
        yield from run_scenarios(self, self.settings.scenarios)


def _why(e: Exception) -> str:
    if isinstance(e, DraftRefused):
        return f"{e} (--force overwrites what someone edited)"
    if isinstance(e, OSError):
        return f"{e.filename or 'the --out folder'}: {e.strerror}"
    return str(e)


def campaign(command: str, settings: Settings) -> Campaign:
    """Start the adapter and choose the editions; EngineFault or ValueError
    (no edition in common) if that cannot be done."""
    engine = Engine(command, settings.timeout)
    engine.start()
    wanted = list(settings.editions) or list(EDITIONS)
    editions = [e for e in wanted if e in engine.editions]
    if not editions:
        engine.stop()
        raise ValueError(f"the engine plays {', '.join(engine.editions) or 'no edition'}; "
                         f"asked for {', '.join(wanted)}")
    return Campaign(engine, settings, editions)

