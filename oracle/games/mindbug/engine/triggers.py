"""Resolving triggered effects (rulebook: Triggers): the effects waiting
in the state's queue (effects.queue_trigger) resolve one at a time, in the
order the active player picks, each ability run with the verbs of verbs.py;
and the later parts of an ability (`then` of effects.py) once what it started is
done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from ..cards import abilities
from .registry import resume, task
from .verbs import VERBS

_VERBS: Final = VERBS

TRIGGER_CLAUSE: Final = {"play": "triggers.play", "attack": "triggers.attack", "defeated": "triggers.defeated",
                         "when": "triggers.from-discard", "harvest": "triggers.harvest", "end-of-turn": "triggers.when",
                         "action": "triggers.action", "when-ally-defeated": "triggers.when.events",
                         "when-enemy-defeated": "triggers.when.events", "when-you-gain-life": "triggers.when.events",
                         "when-you-lose-life": "triggers.when.events", "to-discard": "triggers.to-discard",
                         "granted-attack": "promo.granted-attack"}
# ... with the clause that the effect happens for the creature's controller:
# made once, as the compiled build would make them anew at each trigger.
_TRIGGERED_CLAUSES: Final[dict[str, tuple]] = {k: (c, "triggers.controller") for k, c in TRIGGER_CLAUSE.items()}


def resolve_triggers(g: Board) -> None:
    """effects.simultaneous: with several effects waiting, the active player
    picks the next; effects.finish-one: each finishes before the next starts."""
    s = g.state
    if not s.triggers:
        return
    if len(s.triggers) > 1:
        g.ask("order", s.active, [("choose", (t[0],)) for t in s.triggers], ("order",),
              ("effects.simultaneous", "effects.finish-one"),
              prompt="which waiting effect resolves next")
        return
    t = s.triggers.pop()
    if len(t) == 3:                     # (card, controller, trigger), called without unpacking
        _run_ability(g, t[0], t[1], t[2])
    else:
        _run_ability(g, *t)


task("resolve-triggers")(resolve_triggers)


@resume("order")
def _order(g: Board, kind, arg) -> None:
    s = g.state
    chosen = arg[0]
    for i, t in enumerate(s.triggers):
        if t[0] == chosen:
            del s.triggers[i]
            break
    g.push_next(("resolve-triggers",))
    if len(t) == 3:
        _run_ability(g, t[0], t[1], t[2])
    else:
        _run_ability(g, *t)


def _run_ability(g: Board, card: int, controller: int, trigger: str, name: str | None = None) -> None:
    g.emit("trigger", _TRIGGERED_CLAUSES[trigger], player=controller, card=card)
    # The abilities are written with the verbs of verbs.py, handed in.
    abilities.TRIGGERED[(name or g.design(card).name, trigger)](_VERBS, g, controller, card)


@task("ability-then")
def _ability_then(g: Board, step, player, card, *args) -> None:
    if g.state.winner is None:
        abilities.STEPS[step](_VERBS, g, player, card, *args)


@resume("ability-chose")
def _ability_chose(g: Board, kind, arg, step, player, card, *args) -> None:
    """A `choose` whose answer an ability's later part reads: `then` of
    ("ability-chose", step, player, card, ...)."""
    abilities.STEPS[step](_VERBS, g, player, card, tuple(arg or ()), *args)
