"""`mb-oracle conform`, Mindbug's campaign: play games on the reference
engine and on another engine (through its mb-engine/1 adapter) in
lockstep, run the scenario library against it, and shrink each divergence
to a short game.

Games are dealt and decided from seeds (random and greedy choices, the
bots of `mb-oracle selfplay`), so a run is reproducible: the same engine,
budget and seed give the same report. Each game is a `GameReport`, as
verify makes them, so the human, JSON and JUnit reports are verify's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Iterator

from . import engine_protocol as ep
from ....harness.conform import Settings, engine_fault, timed
from ....harness.engine_client import Engine, EngineFault
from ....replay.findings import Finding, GameReport
from ..cards import DEFAULT_SETS
from ..editions import EDITIONS
from ..engine import SetupError
from ..readings import differing, with_readings
from ..replay.selfplay import choose, random_deal
from .lockstep import Divergence, Run, start_game
from .roots import root_causes
from .start import game_from_position
from .views import position_of


@dataclass
class _Game:
    report: GameReport
    edition: str = ""
    setup: dict | None = None
    divergence: Divergence | None = None
    position: object = None             # the position the divergence's run started from, past an expected one


@dataclass
class Campaign:
    engine: Engine
    settings: Settings
    editions: list[str] = field(default_factory=list)
    # Scenario runs left out: (id, where, why, listed: whether to name each run, not only count them).
    skipped: list[tuple[str, str, str, bool]] = field(default_factory=list)
    # per root cause: (decisions found, decisions of the shrunk game, decisions of its shortest artifact)
    shrunk: list[tuple[int, int, int]] = field(default_factory=list)
    # Each game's own time, by id (its play, and the shrinking of its root cause), for the reports:
    # the games are reported only once all are played and shrunk.
    seconds: dict[str, float] = field(default_factory=dict)

    def __post_init__(self):
        if not self.settings.sets:      # no --sets: Mindbug's default
            self.settings = replace(self.settings, sets=DEFAULT_SETS)

    def run(self) -> Iterator[GameReport]:
        """Every game's report, then every scenario's, in a stable order."""
        s = self.settings
        games = [timed(self.seconds, self._game, i) for i in range(s.budget)]
        root_causes(self, games)
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
        setup = random_deal(rng, edition, s.sets)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        rep = GameReport(file=self.engine.name, line=0, id=f"{edition}-{bot}-s{seed}", edition=edition,
                         impl=f"{self.engine.name} {getattr(self.engine, 'version', '')}".strip())
        if differing(s.readings):
            rep.readings = differing(s.readings)
        out = _Game(rep, edition, setup)
        taken = 0                       # decisions before the current run (the runs followed past)
        run = None
        try:
            g, deal = start_game(edition, setup, s.readings)
            run = Run(self.engine, g, self.engine.send(deal))
            while True:
                while run.going and taken + len(run.decisions) < s.max_decisions:
                    run.step(choose(run.g, bot, rng))
                d = run.divergence
                if d is None or not self.known(d.finding, rep):
                    break
                d.finding.line += taken
                d.finding.expected = True
                rep.findings.append(d.finding)
                nxt = self._follow(run, edition, bot, rng, rep)
                if nxt is None:
                    break
                taken += len(run.decisions) + nxt[1]
                run, out.position = nxt[0], nxt[2]
        except EngineFault as e:
            # The decisions both sides applied and agreed on before the fault.
            rep.decisions = taken + (run.agreed if run is not None else 0)
            engine_fault(self.engine, rep, e, rep.decisions)
            return out
        rep.decisions = taken + len(run.decisions)
        followed = sum(f.expected for f in rep.findings)
        if followed and self.engine.positions:
            rep.notes.append(f"followed past {followed} expected divergence{'s' if followed > 1 else ''}: each "
                             "time, the rules played on to the next turn action and both sides started again "
                             "from the rules' position there")
        if run.g.is_over:
            rep.result = {"winner": run.g.winner, "reason": run.g.reason}
        if rep.findings:
            rep.verdict = "violates"
        if run.divergence is not None and not run.divergence.finding.expected:
            run.divergence.finding.line += taken
            out.divergence = run.divergence
            rep.verdict = "violates"
            rep.findings.append(run.divergence.finding)
        return out

    def known(self, f: Finding, rep: GameReport) -> bool:
        """A known deviation: the first clause of the finding is one the
        engine names in its hello (`deviations`), or an entry of --expect
        names one of its clauses (for this game and edition, if it says)."""
        if f.clauses and f.clauses[0] in self.engine.deviations:
            return True
        return any((e.clause is None or e.clause in f.clauses) and e.game in (None, rep.id)
                   and e.edition in (None, rep.edition) for e in self.settings.expected)

    def _follow(self, run: Run, edition: str, bot: str, rng: random.Random, rep: GameReport):
        """Past an expected divergence: the rules play on (the same bot) to
        the next turn action, and both sides start again from the rules'
        position there, when the engine sets up positions. (the new run, the
        decisions the rules took alone, the position), or None (the game stops here)."""
        if not self.engine.positions:
            rep.notes.append(f"not followed past the expected divergence at line {run.divergence.finding.line}: "
                             "the engine cannot set up positions (hello: positions false)")
            return None
        g = run.g.copy()
        alone = 0
        while g.pending is not None and (g.pending.stage != "action" or alone == 0):
            d = choose(g, bot, rng)
            g.apply_unchecked(d.kind, d.arg)
            alone += 1
        if g.pending is None:
            return None
        if g.state.stages or g.state.boosts:
            rep.notes.append(f"not followed past the expected divergence at line {run.divergence.finding.line}: "
                             "the position has evolved creatures or boost cards, which a position cannot carry")
            return None
        pos = position_of(g)
        try:
            start = game_from_position(with_readings(edition, self.settings.readings), pos)
        except SetupError as e:
            rep.notes.append(f"not followed past the expected divergence: the position cannot be set up ({e.message})")
            return None
        named = {} if self.settings.sets == DEFAULT_SETS else {"sets": list(self.settings.sets)}
        return Run(self.engine, start, self.engine.send(ep.SetPosition(edition=edition, position=pos, **named))), \
            alone, pos

    # -- scenarios ---------------------------------------------------------------
    def _scenarios(self) -> Iterator[GameReport]:
        if not self.settings.scenarios:
            return
        from .scenario_run import run_scenarios
        yield from run_scenarios(self, self.settings.scenarios)


def _deals(edition: str, sets) -> bool:
    """Whether `edition` deals the card sets `sets` (setup.sets.later), a
    deck large enough for a deal (setup.deal)."""
    from ..replay.selfplay import deal_problem
    from ....harness.start import StartError
    from .start import start_sets

    try:
        start_sets(sets, edition)
    except StartError:
        return False
    return deal_problem(sets, edition) is None


def campaign(command: str, settings: Settings, players: tuple[int, ...] = ()) -> Campaign:
    """Start the adapter and choose the editions; EngineFault or ValueError
    (no edition in common) if that cannot be done. (`players`: a Mindbug game
    has two; the command line refuses --players for it.)"""
    if not settings.sets:               # no --sets: Mindbug's default
        settings = replace(settings, sets=DEFAULT_SETS)
    engine = Engine(command, settings.timeout)
    engine.start()
    wanted = list(settings.editions) or list(EDITIONS)
    editions = [e for e in wanted if e in engine.editions]
    if not editions:
        engine.stop()
        raise ValueError(f"the engine plays {', '.join(engine.editions) or 'no edition'}; "
                         f"asked for {', '.join(wanted)}")
    engine_sets = ep.dealt_sets(engine)
    missing = [x for x in settings.sets if x not in engine_sets]
    if missing:
        engine.stop()
        raise ValueError(f"the engine deals {', '.join(engine_sets)}, not {', '.join(missing)} (its hello's sets)")
    dealt = [e for e in editions if _deals(e, settings.sets)]
    if not dealt:
        engine.stop()
        raise ValueError(f"no edition asked for deals {', '.join(settings.sets)} (setup.sets.later: the later "
                         f"sets only in en-revised; a deck of at least 22 cards); asked for {', '.join(editions)}")
    editions = dealt
    return Campaign(engine, settings, editions)

