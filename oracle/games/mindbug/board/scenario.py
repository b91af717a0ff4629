"""A failing Mindbug scenario's boards on the HTML report's scenario page
(oracle.report.scenario): the position the scenario starts from, then each
of its steps (and the forced decisions the runner takes between them) as
the rules play it, up to the step the rules refuse.
"""

from __future__ import annotations

from ....report.steps import MAX_STEPS
from .. import NAME
from ..engine import Decision, SetupError
from ..engine.state import STAGE_KINDS, asks_number
from ..replay.narrate import event_text, faces, names_by_event, shown_names
from ..scenarios.loader import step_kind, step_text
from ..scenarios.runner import SETTLE_LIMIT, build
from ..scenarios.runner import _decision  # a step as the runner applies it: (kind, engine argument)
from .steps import board, decision_text


def scenario_steps(sc, edition: str) -> dict | None:
    """The boards of a scenario run in `edition`: {"game", "cards", "steps", "at"}
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
    return {"game": NAME, "cards": dict(names), "steps": steps, "at": at}
