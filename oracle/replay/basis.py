"""Rules or reading: whether a finding stands whatever the team readings.

A game that violates is verified again under each alternative of the team
readings (its game's readings, e.g. oracle/games/mindbug/readings.py), one
reading changed at a time: a handful of extra runs, only for games that
violate. A finding the rules accept under an alternative (its replay reads
the finding's lines in step with the log, from as early as the run under
the readings in force, and finds nothing there) exists only under the
reading in force: its basis is `reading`, naming that reading and the
alternatives that accept the line. Without keep_going, when an alternative
accepts the finding but the game still deviates later under it, those later
findings are added with basis `rules` (they are not a matter of that
reading); with keep_going, the findings are those of the readings in force
alone.

`consistency` answers --which-editions: the (edition, readings) combinations
under which a game conforms, over the readings in play in that game.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from .. import games

# Verifies the game again: (edition or None, readings) -> its verifier, run (`replayed`).
Run = Callable[[object, dict], object]


def _differing(readings: dict, book) -> dict[str, str]:
    """The entries of `readings` that are not the team's, in the order of `book`."""
    return {r.clause: readings[r.clause] for r in book if readings.get(r.clause, r.team) != r.team}


def _book(book):
    """The readings given, or the default game's (the registry's)."""
    return games.entry(games.DEFAULT).all_readings() if book is None else book


def _alternatives(readings: dict, book):
    """(clause, choice) for every reading choice other than the one in force."""
    for r in book:
        now = readings.get(r.clause, r.team)
        for choice in r.names():
            if choice != now:
                yield r.clause, choice


def replayed(v):
    """`v`, a verifier, once it has read its game (its `report`, `stretch`
    and `flagged`): what a `Run` returns."""
    v.run()
    return v


def _accepts(alt, team, f) -> bool:
    """Whether the alternative's run `alt` accepts every line of the finding
    `f` of the run `team`: it read the line in step with the log, from the
    start of the stretch the team's run read it in or earlier, and made no
    finding there. A line it did not reach in step (it diverged earlier and
    has not resumed, the game ended sooner under it, or it resumed later in
    the log) is not accepted."""
    for line in f.lines or (f.line,):
        since = alt.stretch.get(line)
        if since is None or line in alt.flagged or since > team.stretch.get(line, -1):
            return False
    return True


def _where(asked, clause) -> tuple:
    """(the line `clause` was first asked at, a snapshot of the team's run
    from which to replay it, oracle.games.mindbug.replay.fork), each None when unknown:
    `asked` notes a line, or (line, snapshot)."""
    where = None if asked is None else asked.get(clause)
    return where if isinstance(where, tuple) else (where, None)


def _after(first, found) -> bool:
    """Whether some finding of `found` has all its lines at or after line
    `first` (None: unknown, so it may)."""
    return first is None or any(min(f.lines or (f.line,)) >= first for f in found)


def classify(run: Run, team, edition, keep_going: bool, readings: dict, book=None,
             asked: set | None = None) -> None:
    """Set `basis` on the findings of a game that violates (in place).
    `team`: the verifier whose report it is, after its run (`replayed`),
    under the readings in force; `run` replays the game under other
    readings. `book`: the game's readings (the default game's when None). A finding
    is `reading` when some alternative accepts its lines (`_accepts`). With
    `keep_going`, the report keeps the findings of the readings in force
    alone; without, an alternative that accepts every finding and still
    deviates later has those deviations added with basis `rules`.
    `asked`: the clauses of the readings the team's run asked for, each
    with the line it was first asked at (readings.consulted), when known:
    the alternatives of the others are not replayed, as they would replay
    the game exactly as the team's run; nor are those of a reading first
    asked after a line of every finding, as they read each finding's lines
    before it exactly as the team's run, finding there what it found. Where
    `asked` notes a snapshot of the team's run before that line, `run` is
    given it as a third argument and replays from there."""
    book = _book(book)
    TEAM = {r.clause: r.team for r in book}  # noqa: N806
    rep = team.report
    found = [f for f in rep.findings if not f.malformed]
    if not found:
        return
    for f in found:
        f.basis = "rules"
    keys = {(f.line, f.code) for f in rep.findings}
    added = False
    for clause, choice in _alternatives(readings, book):
        first, start = _where(asked, clause)
        if asked is not None and (clause not in asked or not _after(first, found)):
            continue
        alt = run(edition, {**readings, clause: choice}) if start is None else \
            run(edition, {**readings, clause: choice}, start)
        if alt.report.verdict == "malformed":
            continue
        cleared = [f for f in found if _accepts(alt, team, f)]
        for f in cleared:
            if f.reading is None:
                f.basis = "reading"
                f.reading = {"clause": clause, "choice": readings.get(clause, TEAM[clause])}
            if f.reading["clause"] == clause and choice not in f.alternatives:
                f.alternatives.append(choice)
        if not cleared:
            continue
        if alt.report.verdict == "conforms":
            rep.notes.append(f"the game conforms under the reading {clause}={choice}")
        elif len(cleared) == len(found) and not added and not keep_going:
            # The game follows that reading and still deviates: the deviations
            # it shows there are reported as rules findings.
            added = True
            under = _differing({**readings, clause: choice}, book) or {clause: choice}
            for f in alt.report.findings:
                if (f.line, f.code) not in keys and not f.malformed:
                    f.basis = "rules"
                    f.under = under
                    rep.findings.append(f)
    rep.findings.sort(key=lambda f: f.line)


def _in_play(reports, book) -> list[str]:
    """Readings with alternatives whose clause a finding cites or that a finding's basis names."""
    clauses = set()
    for rep in reports:
        for f in rep.findings:
            clauses.update(f.clauses)
            if f.reading:
                clauses.add(f.reading["clause"])
    return [r.clause for r in book if r.alternatives and r.clause in clauses]


def consistency(run: Run, readings: dict, first=None, book=None, editions=None
                ) -> tuple[list[str], list[dict]]:
    """(editions the game conforms to under the readings in force, every
    {edition, readings} under which it conforms). At most the number of
    editions times the choices of the readings in play runs; `first` is the
    game's own report (its findings' basis counts among the readings in play).
    `book`, `editions`: the game's readings and editions (the default game's when None)."""
    book = _book(book)
    EDITIONS = games.attribute(games.DEFAULT, "EDITION_IDS") if editions is None else editions  # noqa: N806
    BY_CLAUSE = {r.clause: r for r in book}  # noqa: N806
    TEAM = {r.clause: r.team for r in book}  # noqa: N806
    base = {e: run(e, readings) for e in EDITIONS}
    conforms_to = [e for e in EDITIONS if base[e].verdict == "conforms"]
    in_play = _in_play(list(base.values()) + ([first] if first is not None else []), book)
    combos = []
    for e in EDITIONS:
        if not in_play:
            if base[e].verdict == "conforms":
                combos.append({"edition": e, "readings": _differing(readings, book)})
            continue
        for choice in product(*(BY_CLAUSE[c].names() for c in in_play)):
            chosen = {**readings, **dict(zip(in_play, choice))}
            now = {c: chosen.get(c, TEAM[c]) for c in in_play}
            if all(now[c] == readings.get(c, TEAM[c]) for c in in_play):
                ok = base[e].verdict == "conforms"
            else:
                ok = run(e, chosen).verdict == "conforms"
            if ok:
                combos.append({"edition": e, "readings": {**_differing(readings, book), **now}})
    return conforms_to, combos
