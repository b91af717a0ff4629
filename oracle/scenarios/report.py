"""Scenario results for people (human), for machines (JSON) and for CI (JUnit XML)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..junit import JUnitWriter, classname
from ..term import json_document, plural, visible
from .loader import ScenarioError
from .result import Result

RESULTS_FORMAT = "mb-scenario-results/1"


def summary(results: list[Result], errors: list[ScenarioError]) -> dict:
    by = Counter(r.status for r in results)
    return {"scenarios": len({r.scenario for r in results}), "runs": len(results),
            "passed": by["pass"], "failed": by["fail"], "not_applicable": by["not-applicable"], "bad_files": len({e.file for e in errors}),
            "errors": len(errors)}


def _gist(r: Result) -> str:
    if not r.differences:
        return r.message
    more = len(r.differences) - 1
    return str(r.differences[0]) + (f" (and {more} more difference{'s' * (more != 1)})" if more else "")


def reason(r: Result) -> str:
    """One line for a failed run: what failed, then the step and its line
    (the reason in pytest's short summary and JUnit message)."""
    gist = _gist(r)
    where = f"step {r.step} ({r.step_text})" if r.step else "the setup"
    if gist.startswith(where + " "):
        gist = gist[len(where) + 1:]
    clause = f", {r.clause}" if r.clause and f"[{r.clause}]" not in gist else ""
    return f"{gist} ({where}, line {r.at_line or r.line}{clause})"


def failure_text(r: Result) -> str:
    """The readable account of one failed run: where (file:line of the
    failing step), which clause, the difference."""
    gist = str(r.differences[0]) if r.differences else r.message
    where = f"step {r.step} ({r.step_text})" if r.step else "the setup"
    lines = [f"{r.file}:{r.at_line or r.line}: FAIL {r.scenario} [{r.edition}] at {where}"
             + (f" [{r.clause}]" if r.clause else "") + f": {gist}",
             f"  {r.title}{' (draft)' if r.draft else ''}  (scenario at {r.file}:{r.line})",
             f"  cites: {', '.join(r.clauses)}"]
    if r.step is not None:
        lines.append(f"  step: {r.step} ({r.step_text})" if r.step else "  step: 0 (the setup)")
    if r.clause:
        lines.append(f"  clause: {r.clause}")
    lines.append(f"  {r.message}")
    for d in r.differences:
        lines.append(f"    {d.field}: expected {d.expected}")
        lines.append(f"    {' ' * len(d.field)}       got {d.actual}")
    if r.happened:
        lines.append(f"  what happened at step {r.step}:" if r.step else "  what happened at the start:")
        lines += [f"    {h}" for h in r.happened[:25]]
        if len(r.happened) > 25:
            lines.append(f"    ... {len(r.happened) - 25} more")
    return "\n".join(map(visible, lines))   # titles, ids, keys and values from the scenario file


def _same_failures(results: list[Result]) -> dict[int, Result]:
    """The failed runs to show, by the id of the first run of each: a
    scenario that fails the same way in several editions is shown once,
    naming them all (`[en-first, fr-first]`)."""
    first: dict[tuple, Result] = {}
    editions: dict[tuple, list[str]] = {}
    for r in results:
        if r.failed:
            key = (r.scenario, r.file, failure_text(replace(r, edition="")))
            first.setdefault(key, r)
            editions.setdefault(key, []).append(r.edition)
    return {id(r): replace(r, edition=", ".join(editions[key])) for key, r in first.items()}


def human(results: list[Result], errors: list[ScenarioError], verbose: bool = False,
          list_errors: bool = True) -> str:
    """The report for people. On standard output the problems in the files
    are left out (`list_errors=False`): they go to standard error, and the
    summary counts them."""
    out = [visible(str(e)) for e in errors] if list_errors else []
    failures = _same_failures(results)
    for r in results:
        if r.failed:
            if id(r) in failures:
                out.append(failure_text(failures[id(r)]))
        elif verbose:
            out.append(visible(f"pass {r.scenario} [{r.edition}]" if r.passed
                               else f"not applicable {r.scenario} [{r.edition}]: {r.message}"))
    s = summary(results, errors)
    line = (f"{plural(s['scenarios'], 'scenario')}, {plural(s['runs'], 'run')}: {s['passed']:,} passed, "
            f"{s['failed']:,} failed")
    if s["not_applicable"]:
        line += (f", {s['not_applicable']:,} not applicable (they hold with exactly their own sets: "
                 f"exact_sets)")
    if errors:
        line += f"; {plural(s['errors'], 'error')} in {plural(s['bad_files'], 'file')}"
        if not list_errors:
            line += " (on standard error)"
    out.append(line)
    return "\n".join(out)


def as_json(results: list[Result], errors: list[ScenarioError]) -> str:
    doc = {"format": RESULTS_FORMAT, "summary": summary(results, errors),
           "errors": [e.to_json() for e in errors], "results": [r.to_json() for r in results]}
    return json_document(doc)


def junit(results: list[Result], errors: list[ScenarioError], out) -> None:
    """A case per scenario and edition, and an error case per problem in a
    file, written to `out` with the shared JUnit writer (`oracle.junit`)."""
    with JUnitWriter(out, "mb-oracle scenarios") as w:
        for e in errors:
            w.case(classname("scenarios", e.file), f"load:{e.line or 0}", result="error", file=e.file,
                   line=e.line or 0, message=str(e), type="SCENARIO_ERROR")
        for r in results:
            kw = {"time": r.time, "file": r.file, "line": r.line}
            if r.passed:
                w.case(classname("scenarios", r.file), r.name, **kw)
            elif not r.failed:
                w.case(classname("scenarios", r.file), r.name, result="skipped", message=r.message, **kw)
            else:
                gist = str(r.differences[0]) if r.differences else r.message
                w.case(classname("scenarios", r.file), r.name, result="failure", message=gist,
                       type=r.clause or "FAIL", text=failure_text(r), **kw)
