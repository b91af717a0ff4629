"""Scenario results for people (human), for machines (JSON) and for CI (JUnit XML)."""

from __future__ import annotations

import json
from collections import Counter
from xml.sax.saxutils import escape, quoteattr

from .loader import ScenarioError
from .runner import Result

RESULTS_FORMAT = "mb-scenario-results/1"


def summary(results: list[Result], errors: list[ScenarioError]) -> dict:
    by = Counter(r.status for r in results)
    return {"scenarios": len({r.scenario for r in results}), "runs": len(results),
            "passed": by["pass"], "failed": by["fail"], "bad_files": len({e.file for e in errors}),
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
    return "\n".join(lines)


def human(results: list[Result], errors: list[ScenarioError], verbose: bool = False) -> str:
    out = [str(e) for e in errors]
    for r in results:
        if not r.passed:
            out.append(failure_text(r))
        elif verbose:
            out.append(f"pass {r.scenario} [{r.edition}]")
    s = summary(results, errors)
    line = (f"{s['scenarios']} scenarios, {s['runs']} runs: {s['passed']} passed, {s['failed']} failed")
    if errors:
        line += f"; {s['errors']} error{'s' * (s['errors'] != 1)} in {s['bad_files']} file{'s' * (s['bad_files'] != 1)}"
    out.append(line)
    return "\n".join(out)


def as_json(results: list[Result], errors: list[ScenarioError]) -> str:
    doc = {"format": RESULTS_FORMAT, "summary": summary(results, errors),
           "errors": [e.to_json() for e in errors], "results": [r.to_json() for r in results]}
    return json.dumps(doc, ensure_ascii=False, indent=2)


def junit(results: list[Result], errors: list[ScenarioError]) -> str:
    """One testsuite per file, one testcase per scenario and edition."""
    files: dict[str, list] = {}
    for e in errors:
        files.setdefault(e.file, [])
    for r in results:
        files.setdefault(r.file, []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    s = summary(results, errors)
    out.append(f'<testsuites name="mb-oracle scenarios" tests="{s["runs"] + s["errors"]}" '
               f'failures="{s["failed"]}" errors="{s["errors"]}">')
    for path, rs in files.items():
        errs = [e for e in errors if e.file == path]
        fails = sum(1 for r in rs if not r.passed)
        out.append(f'  <testsuite name={quoteattr(path)} tests="{len(rs) + len(errs)}" '
                   f'failures="{fails}" errors="{len(errs)}">')
        for e in errs:
            out.append(f'    <testcase classname={quoteattr(path)} name={quoteattr(f"load:{e.line or 0}")}>')
            out.append(f'      <error message={quoteattr(str(e))}/>')
            out.append('    </testcase>')
        for r in rs:
            out.append(f'    <testcase classname={quoteattr(path)} name={quoteattr(r.name)} '
                       f'file={quoteattr(r.file)} line="{r.line}">')
            if not r.passed:
                out.append(f'      <failure message={quoteattr(r.message)}>{escape(failure_text(r))}</failure>')
            out.append('    </testcase>')
        out.append('  </testsuite>')
    out.append('</testsuites>')
    return "\n".join(out)
