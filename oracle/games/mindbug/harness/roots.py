"""conform's root causes: the games that part from the rules are grouped,
each group's shortest game is shrunk, the groups whose shrunk games verify
names alike are one root cause, and each root cause is written once as
artifacts (a replay log verify flags, a draft scenario), which are then
played again: a draft the rules do not pass, or an artifact that does not
fail on the engine, is said in the root cause's note."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ....draftfile import DraftRefused
from ....safefile import OutputError
from ....term import visible
from ....harness.conform import why_not_written
from ....harness.engine_client import EngineFault
from ....harness.lockstep import OPTIONS_DIFFER
from .lockstep import Divergence, replay
from . import artifacts
from .shrink import Shrinker, from_position, thinned

SHORT_GAME = 8          # decisions: a shrunk game longer than this is also tried from a position
SEED_FAMILY = 6         # further games tried for a root cause whose shortest game is longer than SHORT_GAME


@dataclass
class Root:
    """One root cause: its games, the game shrunk for it and what was cut."""

    first: object                       # the game (conform's _Game) whose report carries the root cause
    members: list                       # every game it showed in, in the run's order
    shrunk: object                      # the game shrunk: `first`, or a shorter one of the seed family
    sig: tuple                          # the lockstep signature of its games (code, first clause)
    small: Divergence                   # the shrunk game's divergence
    setup: object                       # the shrunk game's deal (or position)
    draft: Divergence                   # the draft scenario's decisions (from a position when still long)
    draft_start: object
    code: str = ""
    clauses: list = field(default_factory=list)
    basis: tuple | None = None
    note: str = ""
    lines: list | None = None           # the replay log verify flags, when one can show it
    extra: dict | None = None           # the engine's option the log ends with
    checked: object = None              # verify's report of that log
    merged: list = field(default_factory=list)      # the lockstep signatures of the groups merged into it

    @property
    def key(self) -> tuple:
        return (self.code, self.clauses[0] if self.clauses else None)


def root_causes(camp, games: list) -> None:
    """One finding per root cause: the games whose divergence has the same
    code and the same rule event (the clause the rules refuse the engine's
    option by, or the clause of the pending decision or of the rules event
    behind the state difference) are one group, whatever the edition or the
    cards; its shortest game is shrunk once. Groups whose shrunk games get
    the same code and first clause from verify are one root cause, written
    once as an artifact that fails on the engine's behaviour, and every game
    of it carries the code and clauses verify gives that artifact."""
    groups: dict[tuple, list] = {}
    for g in games:
        if g.divergence is not None:
            groups.setdefault(g.divergence.signature, []).append(g)
    extra = iter(range(camp.settings.budget, camp.settings.budget + SEED_FAMILY * max(1, len(groups))))
    roots: list[Root] = []
    for sig, members in groups.items():
        first = min(members, key=lambda g: (g.position is not None, len(g.divergence.decisions), g.report.id))
        other = _shorter_elsewhere(camp, first, sig, extra)
        t0 = time.perf_counter()
        root = _cut(camp, first, other or first, members, sig)
        camp.seconds[first.report.id] = camp.seconds.get(first.report.id, 0.0) + time.perf_counter() - t0
        if other is not None:
            root.note = (f"the shortest game of this root cause is {other.report.id}, {len(other.divergence.decisions)}"
                         f" decisions, found among further games of the same seed family; " + root.note)
        roots.append(root)
    roots = merged(roots, [g for g in games if g.divergence is not None])
    for n, root in enumerate(roots, 1):
        t0 = time.perf_counter()
        note = _written(camp, root)
        first = root.first
        camp.seconds[first.report.id] = camp.seconds.get(first.report.id, 0.0) + time.perf_counter() - t0
        camp.shrunk.append((len(root.shrunk.divergence.decisions), len(root.small.decisions),
                            len(root.draft.decisions)))
        seen = ", ".join(g.report.id for g in root.members)
        code, clauses = root.code, root.clauses
        first.report.notes.append(f"root cause {n} of {len(roots)}: {code} [{clauses[0] if clauses else ''}], in "
                                  f"{len(root.members)} game{'s' if len(root.members) > 1 else ''} ({seen}); {note}")
        for g in root.members:
            f = g.divergence.finding
            f.code, f.clauses = code, list(clauses)
            if root.basis is not None:
                f.basis, f.reading, f.alternatives = root.basis[0], root.basis[1], list(root.basis[2])
            if g is not first:
                g.report.notes.append(f"the same root cause as {first.report.id} (root cause {n} of "
                                      f"{len(roots)}), shrunk and counted there")


def merged(roots: list[Root], order: list) -> list[Root]:
    """Root causes with the same code and first clause as verify names them
    are one: the one with the shortest artifact stands (the first of equals),
    with the games of all, in the run's order (`order`)."""
    by: dict[tuple, list[Root]] = {}
    for r in roots:
        by.setdefault(r.key, []).append(r)
    out = []
    for same in by.values():
        keep = min(same, key=lambda r: (len(r.draft.decisions), len(r.small.decisions)))
        if len(same) > 1:
            games = {id(g) for r in same for g in r.members}
            keep.members = [g for g in order if id(g) in games]
            keep.merged = [r.sig for r in same]
            words = ", ".join(f"{code} [{clause or ''}]" for code, clause in keep.merged)
            keep.note = (f"its games first part from the rules at {len(same)} different rule events ({words}), "
                         f"which their shrunk games show as one; " + keep.note)
        out.append(keep)
    return out


def _shorter_elsewhere(camp, first, sig: tuple, extra):
    """For a root cause whose shortest game is long: up to SEED_FAMILY
    further games of the run's seed family (the numbers after the budget's),
    the first that shows the same divergence sooner; None when none does
    (or shrinking is off)."""
    if not camp.settings.shrink or first.position is not None or len(first.divergence.decisions) <= SHORT_GAME:
        return None
    for _ in range(SEED_FAMILY):
        i = next(extra, None)
        if i is None:
            return None
        got = camp._game(i)
        d = got.divergence
        if (d is not None and got.position is None and d.signature == sig
                and len(d.decisions) < len(first.divergence.decisions)):
            return got
    return None


def _cut(camp, first, game, members: list, sig: tuple) -> Root:
    """Shrink `game` (the group's shortest) and find the code, clauses and
    basis to report: those verify gives the shrunk game's log, when a log
    can show it."""
    s = camp.settings
    engine = camp.engine
    edition = game.edition
    start = game.setup if game.position is None else game.position
    shrinker = Shrinker(engine, edition, start, s.shrink_budget if s.shrink else 0, s.readings)
    setup = start
    small = game.divergence
    if s.shrink:
        try:
            small, setup = shrinker.shrink(game.divergence)
        except EngineFault:
            pass
    try:
        if engine.proc is None:
            engine.start()
    except EngineFault:
        pass
    moved = "" if setup is start else ", with the used cards first in the draw piles"
    if game.position is not None:
        moved += ", from the position both sides started again from past an expected divergence"
    note = (f"shrunk from {len(game.divergence.decisions)} to {len(small.decisions)} decisions{moved} "
            f"({shrinker.replays} replays)")
    draft, draft_start = small, setup
    if game.position is None and len(small.decisions) > SHORT_GAME and s.shrink:
        # Still long: the same divergence from a position just before it, for the draft scenario.
        found = from_position(engine, edition, setup, small, s.readings)
        if found is not None:
            trial = Shrinker(engine, edition, found[1], max(1, s.shrink_budget // 4), s.readings)
            draft, draft_start = trial._decisions(found[0]), found[1]
            before = _card_count(draft_start)
            draft_start, draft, _spent = thinned(engine, edition, draft_start, draft, s.readings,
                                                 max(1, s.shrink_budget // 4))
            note += (f"; from the rules' position at a turn action just before it, {len(draft.decisions)} "
                     f"decision{'s' if len(draft.decisions) != 1 else ''} (the draft scenario), with "
                     f"{_card_count(draft_start)} of its {before} cards in play, hands and piles")
    root = Root(first, list(members), game, sig, small, setup, draft, draft_start, note=note)
    f = small.finding
    root.code, root.clauses = f.code, list(f.clauses)
    stem = _stem(game, sig)
    impl = {"name": engine.name, "version": getattr(engine, "version", "")}
    if game.position is None:
        root.lines, root.extra, root.checked = artifacts.failing_log(small, edition, setup, f"conform-{stem}", impl,
                                                                     s.readings)
    if root.checked is not None:
        v = root.checked.findings[0]
        root.code, root.clauses = v.code, list(v.clauses)
        if v.basis is not None:
            root.basis = (v.basis, v.reading, list(v.alternatives))
    if root.basis is None or root.basis[0] != "reading":
        # A log holds the decisions in the order the rules take them: under a reading that takes them in
        # another order (effects.hunter-order) verify cannot replay it. In lockstep the engine can say.
        lock = _basis(camp, small, edition, setup)
        if root.checked is not None and lock is not None and lock[0] == "reading":
            r = lock[1]
            root.note += (f"; a matter of the reading {r['clause']}: played in lockstep under "
                          f"{' or '.join(lock[2])}, the rules agree with the engine there (verify, which "
                          f"replays the log's decisions in the order of {r['choice']}, flags it on the rules)")
        if root.checked is None or (lock is not None and lock[0] == "reading"):
            root.basis = lock
    return root


def _stem(game, sig: tuple) -> str:
    return f"{game.report.id}-{sig[0].lower()}"


def _written(camp, root: Root) -> str:
    """Write the root cause's artifacts (with --out) and play its draft
    again: the note, with what was written and what the draft does."""
    s = camp.settings
    note = root.note
    if s.out is None:
        return note
    game, small, draft, f = root.shrunk, root.small, root.draft, root.small.finding
    code, clauses = root.code, root.clauses
    refused = root.extra if draft is small or root.extra in draft.extra else None
    doc = artifacts.draft_scenario(draft, game.edition, root.draft_start,
                                   f"conform.{game.report.id.lower()}.{root.sig[0].lower().replace('_', '-')}",
                                   camp.engine.name, refused, s.readings)
    doc["clauses"] = list(clauses) or doc["clauses"]
    name = visible(camp.engine.name)         # one line of the draft's comment
    header = f"# {name} parts from the rules ({code} [{clauses[0] if clauses else ''}]) after " \
             f"{len(small.decisions)} decisions.\n"
    try:
        log, yml = artifacts.write(s.out, _stem(game, root.sig), root.lines, doc, header, s.force)
    except (DraftRefused, OutputError, OSError) as e:
        return note + f"; not written: {why_not_written(e)}"
    if log is not None:
        flagged = "; ".join(f"{x.code} [{', '.join(x.clauses)}]" for x in root.checked.findings)
        note += (f"; artifact: the replay log {log}, which mb-oracle verify flags ({flagged}), "
                 f"and the draft scenario {yml}")
    elif game.position is not None:
        note += (f"; artifact: the draft scenario {yml}, which starts from that position and states what "
                 "the rules say there (no replay log starts from a position)")
    else:
        why = ("an option the engine does not list" if not small.extra else
               "only options the engine lists that verify accepts as changing nothing") \
            if f.code == OPTIONS_DIFFER else "a decision the engine refuses"
        note += (f"; artifact: the draft scenario {yml}, which states the legal options there "
                 f"(no replay log can show {why})")
    return note + _draft_played(camp, yml, game.edition, log is None)


def _draft_played(camp, yml, edition: str, only: bool) -> str:
    """What the draft does played again, when it is not what it is for: on
    the rules it passes, against the engine it fails. ("" when it does both.)
    `only`: the draft is the root cause's only artifact."""
    from ....scenarios.loader import load_file
    from ....scenarios.runner import run as run_scenario
    from .scenario_run import play_one

    loaded = load_file(yml)
    if loaded.errors or not loaded.scenarios:
        return f"; the draft scenario does not load: {loaded.errors[0] if loaded.errors else 'no scenario'}"
    sc = loaded.scenarios[0]
    out = ""
    result = run_scenario(sc, edition)
    if not result.passed:
        out += f"; the draft scenario fails on the rules: " + "; ".join(
            [result.message] + [str(d) for d in result.differences])
    try:
        rep = play_one(camp, sc, edition)
    except EngineFault as e:
        rep = f"the engine failed: {e}"
    if isinstance(rep, str) or rep.verdict != "violates":
        what = f"it is skipped there ({rep})" if isinstance(rep, str) else f"it {rep.verdict} there"
        out += (f"; the draft scenario does not fail on the engine ({what})"
                + ("; this root cause has no artifact that fails on it" if only else ""))
    return out


def _basis(camp, small: Divergence, edition: str, setup) -> tuple | None:
    """Whether a divergence no log shows stands only under a team reading:
    the game is replayed under each other choice of a reading, and the first
    under which the rules and the engine agree there names it."""
    from ..readings import READINGS, TEAM

    now = dict(camp.settings.readings)
    alternatives = []
    for r in READINGS:
        for choice in r.names():
            if choice == now.get(r.clause, r.team):
                continue
            try:
                run = replay(camp.engine, edition, setup, small.decisions, {**now, r.clause: choice})
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


def _card_count(pos) -> int:
    """The cards a position places in hands, play areas, discard piles and draw piles."""
    return sum(len(z) for name in ("hand", "play", "discard", "deck") for z in getattr(pos, name))
