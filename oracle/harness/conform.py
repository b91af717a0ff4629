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
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..games.mindbug.cards import DEFAULT_SETS
from ..draftfile import DraftRefused
from ..games.mindbug.editions import EDITIONS
from ..games.mindbug.engine import SetupError
from ..games.mindbug.readings import differing, with_readings
from ..replay.findings import Finding, GameReport
from ..replay.selfplay import choose, random_deal
from ..safefile import OutputError
from ..term import visible
from . import artifacts
from . import engine_protocol as ep
from .engine_client import Engine, EngineFault
from .lockstep import OPTIONS_DIFFER, Divergence, Run, replay, start_game
from .shrink import Shrinker, from_position, thinned
from .serve import game_from_position
from .views import position_of

ENGINE_FAULT = "ENGINE_FAULT"
SHORT_GAME = 8          # decisions: a shrunk game longer than this is also tried from a position
SEED_FAMILY = 6         # further games tried for a root cause whose shortest game is longer than SHORT_GAME


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
    sets: tuple[str, ...] = DEFAULT_SETS             # the card sets the games are dealt from (--sets)
    expected: list = field(default_factory=list)    # known deviations (--expect: mb-expect/1 entries)


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

    def run(self) -> Iterator[GameReport]:
        """Every game's report, then every scenario's, in a stable order."""
        s = self.settings
        games = [timed(self.seconds, self._game, i) for i in range(s.budget)]
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

    # -- shrinking ---------------------------------------------------------------
    def _shrink(self, games: list[_Game]) -> None:
        """One finding per root cause: the games whose divergence has the same
        code and the same rule event (the clause the rules refuse the engine's
        option by, or the clause of the pending decision or of the rules event
        behind the state difference) are one group, whatever the edition or
        the cards; its shortest game is shrunk once and written as an
        artifact that fails on the engine's behaviour, and every game of the
        group carries the code and clauses verify gives that artifact."""
        groups: dict[tuple, list[_Game]] = {}
        for g in games:
            if g.divergence is not None:
                groups.setdefault(g.divergence.signature, []).append(g)
        extra = iter(range(self.settings.budget, self.settings.budget + SEED_FAMILY * max(1, len(groups))))
        for n, (sig, members) in enumerate(groups.items(), 1):
            first = min(members, key=lambda g: (g.position is not None, len(g.divergence.decisions), g.report.id))
            other = self._shorter_elsewhere(first, sig, extra)
            t0 = time.perf_counter()
            code, clauses, basis, note = self._shrink_one(other or first, sig)
            self.seconds[first.report.id] = self.seconds.get(first.report.id, 0.0) + time.perf_counter() - t0
            if other is not None:
                note = (f"the shortest game of this root cause is {other.report.id}, {len(other.divergence.decisions)} "
                        f"decisions, found among further games of the same seed family; " + note)
            seen = ", ".join(g.report.id for g in members)
            first.report.notes.append(f"root cause {n} of {len(groups)}: {code} [{clauses[0] if clauses else ''}], "
                                      f"in {len(members)} game{'s' if len(members) > 1 else ''} ({seen}); {note}")
            for g in members:
                f = g.divergence.finding
                f.code, f.clauses = code, list(clauses)
                if basis is not None:
                    f.basis, f.reading, f.alternatives = basis
                if g is not first:
                    g.report.notes.append(f"the same root cause as {first.report.id} (root cause {n} of "
                                          f"{len(groups)}), shrunk and counted there")

    def _shorter_elsewhere(self, first: _Game, sig: tuple, extra) -> _Game | None:
        """For a root cause whose shortest game is long: up to SEED_FAMILY
        further games of the run's seed family (the numbers after the
        budget's), the first that shows the same divergence sooner; None
        when none does (or shrinking is off)."""
        if not self.settings.shrink or first.position is not None or len(first.divergence.decisions) <= SHORT_GAME:
            return None
        for _ in range(SEED_FAMILY):
            i = next(extra, None)
            if i is None:
                return None
            got = self._game(i)
            d = got.divergence
            if (d is not None and got.position is None and d.signature == sig
                    and len(d.decisions) < len(first.divergence.decisions)):
                return got
        return None

    def _shrink_one(self, first: _Game, sig: tuple) -> tuple[str, list[str], tuple | None, str]:
        """Shrink one game and write its artifacts: (the code and clauses
        to report, the basis, the note)."""
        s = self.settings
        edition = first.edition
        start = first.setup if first.position is None else first.position
        shrinker = Shrinker(self.engine, edition, start, s.shrink_budget if s.shrink else 0, s.readings)
        setup = start
        small = first.divergence
        if s.shrink:
            try:
                small, setup = shrinker.shrink(first.divergence)
            except EngineFault:
                pass
        try:
            if self.engine.proc is None:
                self.engine.start()
        except EngineFault:
            pass
        moved = "" if setup is start else ", with the used cards first in the draw piles"
        if first.position is not None:
            moved += ", from the position both sides started again from past an expected divergence"
        note = (f"shrunk from {len(first.divergence.decisions)} to {len(small.decisions)} decisions{moved} "
                f"({shrinker.replays} replays)")
        draft, draft_start = small, setup
        if first.position is None and len(small.decisions) > SHORT_GAME and s.shrink:
            # Still long: the same divergence from a position just before it, for the draft scenario.
            found = from_position(self.engine, edition, setup, small, s.readings)
            if found is not None:
                trial = Shrinker(self.engine, edition, found[1], max(1, s.shrink_budget // 4), s.readings)
                draft, draft_start = trial._decisions(found[0]), found[1]
                before = _card_count(draft_start)
                draft_start, draft, _spent = thinned(self.engine, edition, draft_start, draft, s.readings,
                                                     max(1, s.shrink_budget // 4))
                note += (f"; from the rules' position at a turn action just before it, {len(draft.decisions)} "
                         f"decision{'s' if len(draft.decisions) != 1 else ''} (the draft scenario), with "
                         f"{_card_count(draft_start)} of its {before} cards in play, hands and piles")
        self.shrunk.append((len(first.divergence.decisions), len(small.decisions), len(draft.decisions)))
        f = small.finding
        code, clauses, basis = f.code, list(f.clauses), None
        stem = f"{first.report.id}-{sig[0].lower()}"
        impl = {"name": self.engine.name, "version": getattr(self.engine, "version", "")}
        lines, extra, checked = (artifacts.failing_log(small, edition, setup, f"conform-{stem}", impl, s.readings)
                                 if first.position is None else (None, None, None))
        if checked is not None:
            v = checked.findings[0]
            code, clauses = v.code, list(v.clauses)
            if v.basis is not None:
                basis = (v.basis, v.reading, list(v.alternatives))
        else:
            basis = self._basis(small, edition, setup)
        if s.out is None:
            return code, clauses, basis, note
        refused = extra if draft is small or extra in draft.extra else None
        doc = artifacts.draft_scenario(draft, edition, draft_start,
                                       f"conform.{first.report.id.lower()}.{sig[0].lower().replace('_', '-')}",
                                       self.engine.name, refused, s.readings)
        doc["clauses"] = list(clauses) or doc["clauses"]
        name = visible(self.engine.name)         # one line of the draft's comment
        header = f"# {name} parts from the rules ({code} [{clauses[0] if clauses else ''}]) after " \
                 f"{len(small.decisions)} decisions.\n"
        try:
            log, yml = artifacts.write(s.out, stem, lines, doc, header, s.force)
        except (DraftRefused, OutputError, OSError) as e:
            return code, clauses, basis, note + f"; not written: {why_not_written(e)}"
        if log is not None:
            flagged = "; ".join(f"{x.code} [{', '.join(x.clauses)}]" for x in checked.findings)
            note += (f"; artifact: the replay log {log}, which mb-oracle verify flags ({flagged}), "
                     f"and the draft scenario {yml}")
        elif first.position is not None:
            note += (f"; artifact: the draft scenario {yml}, which starts from that position and states what "
                     "the rules say there (no replay log starts from a position)")
        else:
            why = ("an option the engine does not list" if not small.extra else
                   "only options the engine lists that verify accepts as changing nothing") \
                if f.code == OPTIONS_DIFFER else "a decision the engine refuses"
            note += (f"; artifact: the draft scenario {yml}, which states the legal options there "
                     f"(no replay log can show {why})")
        return code, clauses, basis, note

    def _basis(self, small: Divergence, edition: str, setup: dict) -> tuple | None:
        """Whether a divergence no log shows stands only under a team reading:
        the game is replayed under each other choice of a reading, and the
        first under which the rules and the engine agree there names it."""
        from ..games.mindbug.readings import READINGS, TEAM

        now = dict(self.settings.readings)
        alternatives = []
        for r in READINGS:
            for choice in r.names():
                if choice == now.get(r.clause, r.team):
                    continue
                try:
                    run = replay(self.engine, edition, setup, small.decisions, {**now, r.clause: choice})
                except EngineFault:
                    return None
                d = run.divergence
                if d is None or len(d.decisions) > len(small.decisions):
                    alternatives.append((r.clause, choice))
        if not alternatives:
            return ("rules", None, [])
        clause = alternatives[0][0]
        return ("reading", {"clause": clause, "choice": now.get(clause, TEAM[clause])},
                [c for k, c in alternatives if k == clause])

    # -- scenarios ---------------------------------------------------------------
    def _scenarios(self) -> Iterator[GameReport]:
        if not self.settings.scenarios:
            return
        from .scenario_run import run_scenarios
        yield from run_scenarios(self, self.settings.scenarios)


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


def _deals(edition: str, sets) -> bool:
    """Whether `edition` deals the card sets `sets` (setup.sets.later), a
    deck large enough for a deal (setup.deal)."""
    from ..replay.selfplay import deal_problem
    from .start import StartError, start_sets

    try:
        start_sets(sets, edition)
    except StartError:
        return False
    return deal_problem(sets, edition) is None


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
    missing = [x for x in settings.sets if x not in engine.sets]
    if missing:
        engine.stop()
        raise ValueError(f"the engine deals {', '.join(engine.sets)}, not {', '.join(missing)} (its hello's sets)")
    dealt = [e for e in editions if _deals(e, settings.sets)]
    if not dealt:
        engine.stop()
        raise ValueError(f"no edition asked for deals {', '.join(settings.sets)} (setup.sets.later: the later "
                         f"sets only in en-revised; a deck of at least 22 cards); asked for {', '.join(editions)}")
    editions = dealt
    return Campaign(engine, settings, editions)


def _card_count(pos) -> int:
    """The cards a position places in hands, play areas, discard piles and draw piles."""
    return sum(len(z) for name in ("hand", "play", "discard", "deck") for z in getattr(pos, name))
