"""Failing scenario runs on the HTML report's board.

Each failing run of `mb-oracle scenarios` is shown as a game: the position
the scenario starts from, then each of its steps (and the forced decisions
the runner takes between them) as the rules play it, up to the step that
failed; its finding is the failure, with what the scenario expects beside
what the rules did, at the step where it failed, and the events of that
step. Each document that cannot be read as a scenario is an entry too,
malformed, its problems as findings (as the JSON and JUnit reports list
them).
"""

from __future__ import annotations

import re

from ..games.mindbug.engine import Decision, SetupError
from ..games.mindbug.engine.state import STAGE_KINDS, asks_number
from ..replay.findings import DiffEntry, Finding, GameReport, RulesEvent
from ..games.mindbug.replay.narrate import event_text, faces, names_by_event, shown_names
from ..games.mindbug.scenarios.loader import step_kind, step_text
from ..games.mindbug.scenarios.runner import SETTLE_LIMIT, build
from ..games.mindbug.scenarios.runner import _decision  # a step as the runner applies it: (kind, engine argument)
from .steps import MAX_STEPS, board, decision_text

MAX_DOCUMENT_LINES = 2000    # a document longer than this is shown cut


def scenario_steps(sc, edition: str) -> dict | None:
    """The boards of a scenario run in `edition`: {"cards", "steps", "at"}
    where `at` maps a scenario step number to the index of the last board
    made for it. None when the position cannot be set up."""
    try:
        g = build(sc, edition)
    except SetupError:
        return None
    names = g.table.names
    steps: list[dict] = []
    at: dict[int, int] = {}

    def record(text, events, line, forced=False, before=None):
        # `before`: the evolved creatures' faces before the events (narrate.faces)
        if len(steps) < MAX_STEPS:
            each, _after = names_by_event(g, events, faces(g) if before is None else before)
            steps.append({"line": line, "decision": text, "forced": forced,
                          "events": [[e.kind, list(e.clauses), event_text(e, n)] for e, n in zip(events, each)],
                          "board": board(g)})

    def forced_text(kind, arg):
        pend = g.pending
        who = None if pend.is_chance else pend.player
        return decision_text(Decision(kind, who, arg).to_json(), shown_names(g), asks_number(pend))

    def take_forced(k, a, line):
        text, before = forced_text(k, a), faces(g)
        record(text, g.apply_unchecked(k, a), line, forced=True, before=before)

    record(None, g.events, sc.line_of("given"))
    at[0] = 0
    try:
        for i, step in enumerate(sc.doc.steps, 1):
            kind, arg = _decision(step)
            _, _, by = step_kind(step)
            line = sc.line_of("step", i)
            taken = 0
            while g.pending is not None and len(g.pending.options) == 1 and kind not in STAGE_KINDS[g.pending.stage]:
                k, a = g.pending.options[0]
                take_forced(k, a, line)
                taken += 1
                if taken > SETTLE_LIMIT:
                    return _done(names, steps, at)
            if g.pending is None:
                break
            player = g.pending.player if by is None else by
            d = Decision.make(kind, player, arg)
            if g.refusal(d) is not None:
                break                       # the step the rules refuse: the board stays where it was
            before = faces(g)
            record(f"step {i}: {step_text(step)}", g.apply(d), line, before=before)
            at[i] = len(steps) - 1
        else:
            if sc.doc.settle:
                taken = 0
                while g.pending is not None and len(g.pending.options) == 1 and g.pending.stage != "action":
                    k, a = g.pending.options[0]
                    take_forced(k, a, steps[-1]["line"])
                    taken += 1
                    if taken > SETTLE_LIMIT:
                        break
    except Exception:  # noqa: BLE001 - an engine error or crash is the run's own failure; show what was reached
        pass
    return _done(names, steps, at)


def _done(names, steps, at) -> dict:
    return {"cards": dict(names), "steps": steps, "at": at}


def _value(d, side: int):
    """One side of a difference as the page shows it: its plain value where the run had one."""
    return d.values[side] if d.values is not None else (d.expected, d.actual)[side]


_CLAUSES = re.compile(r"^(.*) \[([^\[\]]*)\]$", re.S)


def _event(text: str) -> RulesEvent:
    """A line of what happened ("... [clause, clause]") as an event with its clauses."""
    m = _CLAUSES.match(text)
    if m is None:
        return RulesEvent("event", [], text)
    return RulesEvent("event", [c for c in m.group(2).split(", ") if c], m.group(1))


def scenario_report(r) -> GameReport:
    """A failing run as a game report with one finding: the scenario's
    expectation on the log's side, the rules' on the other; what happened
    at the failing step as the finding's events."""
    diff = [DiffEntry(text=str(d), field=d.field, log=_value(d, 0), rules=_value(d, 1),
                      card=d.cards[0] if len(d.cards) == 1 else None) for d in r.differences]
    where = f"step {r.step} ({r.step_text})" if r.step else "the setup"
    f = Finding("SCENARIO_FAILED", [r.clause] if r.clause else [], r.at_line or r.line,
                f"{r.title}: fails at {where}: {r.message}",
                log={d.field: _value(d, 0) for d in r.differences} or None,
                rules={d.field: _value(d, 1) for d in r.differences} or None,
                diff=diff or None, events=[_event(h) for h in r.happened])
    return GameReport(file=r.file, line=r.line, id=r.name, verdict="fails", edition=r.edition,
                      findings=[f], outcome="fail")


def error_reports(errors) -> list[tuple[GameReport, list]]:
    """The problems of the scenario files, one entry per document that has
    some (per file, for the problems without a line): its report, whose
    findings are the problems, and the document's lines."""
    groups: dict[tuple, list] = {}
    texts: dict[str, list | None] = {}
    for e in errors:
        if e.file not in texts:
            texts[e.file] = _read_lines(e.file)
        first = _document_start(texts[e.file], e.line) if e.line else None
        groups.setdefault((e.file, first), []).append(e)
    out = []
    for (file, first), errs in groups.items():
        findings = [Finding("SCENARIO_ERROR", [], e.line or 0, f"{e.field}: {e.message}" if e.field else e.message)
                    for e in errs]
        n = len(errs)
        rep = GameReport(file=file, line=first or 0, id=f"{file}:{first}" if first else file, verdict="malformed",
                         findings=findings, outcome="malformed",
                         notes=[f"{n} problem{'s' * (n != 1)} in this {'document' if first else 'file'}: "
                                "its scenarios are not run"])
        out.append((rep, _document(texts[file], first) if first else []))
    return out


def _read_lines(path: str) -> list | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read().splitlines()
    except OSError:
        return None


def _document_start(text: list | None, line: int) -> int | None:
    """The first line of the document of a scenario file that holds `line`."""
    if not text:
        return None
    n = min(line, len(text))
    while n > 1 and text[n - 2].strip() != "---":
        n -= 1
    return n


def _document(text: list | None, first: int) -> list:
    """A document's lines as [number, text], from `first` up to the next document
    (at most MAX_DOCUMENT_LINES)."""
    out = []
    for n in range(first, len(text or ()) + 1):
        line = text[n - 1]
        if n > first and line.strip() == "---" or len(out) >= MAX_DOCUMENT_LINES:
            break
        out.append([n, line])
    return out


def source_lines(path: str, first: int) -> list:
    """The scenario's own lines in its file, from `first` up to the next document."""
    return _document(_read_lines(path), first)


def write_page(results, files, stream, command: str = "", inputs=(), errors=()) -> None:
    """The page of a scenario run: a game per failing run, and one per
    document (or file) that cannot be read as scenarios."""
    from .page import HtmlReport

    by_id = {(sc.file, sc.id): sc for sf in files for sc in sf.scenarios}
    page = HtmlReport(title="mb-oracle scenarios report", command=command, inputs=inputs, kind="scenario")
    for rep, lines in error_reports(errors):
        page.game(rep, no_board="the document cannot be read as a scenario" if lines
                  else "the file cannot be read as scenarios", log=lines or None)
    for r in results:
        if not r.failed:
            continue
        rep = scenario_report(r)
        sc = by_id.get((r.file, r.scenario))
        if sc is not None and sc.game == "mind-up":
            from .mindup_board import scenario_steps as mind_up_steps
            data = mind_up_steps(sc)
        else:
            data = scenario_steps(sc, r.edition) if sc is not None else None
        if data is not None and data["steps"]:
            step = r.step or 0
            idx = max((i for s, i in data["at"].items() if s <= step), default=0)
            data["at"] = [idx]
            page.game(rep, steps=data, log=source_lines(r.file, r.line))
        else:
            page.game(rep, no_board="the position cannot be set up", log=source_lines(r.file, r.line))
    passed, failed = sum(r.passed for r in results), sum(r.failed for r in results)
    skipped = len(results) - passed - failed
    bad = len({e.file for e in errors})
    page.finish(stream, notes=[f"{len(results)} run{'s' * (len(results) != 1)}: {passed} passed, {failed} failed"
                               + (f", {skipped} not applicable" if skipped else "")
                               + (f"; {len(errors)} problem{'s' * (len(errors) != 1)} in {bad} file{'s' * (bad != 1)}"
                                  if errors else "") + "; "
                               "each failing run, and each document that cannot be read, is an entry here"])
