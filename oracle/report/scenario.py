"""Failing scenario runs on the HTML report's board.

Each failing run of `mb-oracle scenarios` is shown as a game: the position
the scenario starts from, then each of its steps (and the forced decisions
the runner takes between them) as the rules play it, up to the step that
failed; its finding is the failure, with what the scenario expects beside
what the rules did, at the step where it failed.
"""

from __future__ import annotations

from ..games.mindbug.engine import Decision, SetupError
from ..games.mindbug.engine.state import STAGE_KINDS, asks_number
from ..replay.findings import DiffEntry, Finding, GameReport
from ..replay.narrate import event_text, faces, names_by_event, shown_names
from ..scenarios.loader import step_kind, step_text
from ..scenarios.runner import SETTLE_LIMIT, build
from ..scenarios.runner import _decision  # a step as the runner applies it: (kind, engine argument)
from .steps import MAX_STEPS, board, decision_text


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


def scenario_report(r) -> GameReport:
    """A failing run as a game report with one finding: the scenario's
    expectation on the log's side, the rules' on the other."""
    diff = [DiffEntry(text=str(d), field=d.field, log=d.expected, rules=d.actual,
                      card=d.cards[0] if len(d.cards) == 1 else None) for d in r.differences]
    where = f"step {r.step} ({r.step_text})" if r.step else "the setup"
    f = Finding("SCENARIO_FAILED", [r.clause] if r.clause else [], r.at_line or r.line,
                f"{r.title}: fails at {where}: {r.message}",
                log={d.field: d.expected for d in r.differences} or None,
                rules={d.field: d.actual for d in r.differences} or None,
                diff=diff or None)
    return GameReport(file=r.file, line=r.line, id=r.name, verdict="violates", edition=r.edition,
                      findings=[f], notes=([f"what happened at {where}: " + "; ".join(r.happened[:25])]
                                           if r.happened else []), outcome="fail")


def source_lines(path: str, first: int) -> list:
    """The scenario's own lines in its file, from `first` up to the next document."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read().splitlines()
    except OSError:
        return []
    out = []
    for n in range(first, len(text) + 1):
        line = text[n - 1]
        if n > first and line.strip() == "---":
            break
        out.append([n, line])
    return out


def write_page(results, files, stream, command: str = "", inputs=()) -> None:
    """The page of a scenario run: a game per failing run."""
    from .page import HtmlReport

    by_id = {(sc.file, sc.id): sc for sf in files for sc in sf.scenarios}
    page = HtmlReport(title="mb-oracle scenarios report", command=command, inputs=inputs, kind="scenario")
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
    page.finish(stream, notes=[f"{len(results)} runs: {passed} passed, {failed} failed"
                               + (f", {skipped} not applicable" if skipped else "") + "; "
                               "each failing run is a game here"])
