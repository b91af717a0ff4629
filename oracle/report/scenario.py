"""Failing scenario runs on the HTML report's board.

Each failing run of `mb-oracle scenarios` is shown as a game: the position
the scenario starts from, then each of its steps as the rules play it, up
to the step that failed (the boards its game's board gives: oracle.games,
BOARD); its finding is the failure, with what the scenario expects beside
what the rules did, at the step where it failed, and the events of that
step. Each document that cannot be read as a scenario is an entry too,
malformed, its problems as findings (as the JSON and JUnit reports list
them).
"""

from __future__ import annotations

import re

from ..replay.findings import DiffEntry, Finding, GameReport, RulesEvent
from .boards import board

MAX_DOCUMENT_LINES = 2000    # a document longer than this is shown cut


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
        game_board = board(sc.game) if sc is not None else None
        data = game_board.scenario_steps(sc, r.edition) if game_board is not None else None
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
