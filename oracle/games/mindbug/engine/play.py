"""Playing a card and using Mindbugs (rulebook: Play a Card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from ..cards import FAST
from . import drawing
from .mindbug_rules import may_use, spend
from .effects import enter_play
from .later_turns import fast_for_taker
from .registry import TASKS, resume, task
from .state import MINDBUG, PASS, next_task


def play_from_hand(g: Board, card: int) -> None:
    """play.from-hand: the card leaves the hand and waits for the opponent's
    Mindbug decision; the hand is refilled first (drawing.before-effects)."""
    s = g.state
    p = s.active
    s.hand[p].remove(card)
    s.played = card
    g.emit("play", _FROM_HAND, player=p, card=card)
    drawing.after_removal(g, p)
    # Only the opponent decides; the card's owner never gets a Mindbug
    # decision on it, even after it was taken (mindbug.no-return).
    opp = 1 - p
    options = [PASS]
    if (may_use(g, opp) if g.table.flags.mindbug_hooks       # mindbug.none-left, promo.mindbug-ban
            else s.mindbugs[opp] > 0):
        options.append(MINDBUG)
    g.ask("mindbug", opp, options, ("mindbug", card), _USE, source=card,
          prompt="use a Mindbug on the card just played, or pass")


def _mindbug(g: Board, kind: str, arg, card: int) -> None:
    s = g.state
    p = s.active
    opp = 1 - p
    if kind == "mindbug" and not spend(g, opp, card):         # promo.mindbug-used: the game ended first
        return
    s.played = None
    if kind == "mindbug":
        # mindbug.use: the opponent takes the card and spends a Mindbug.
        s.play[opp].append(card)
        g.emit("mindbug", _USE, player=opp, card=card)
        s.stack.append(_EXTRA_ACTION)
        if g.later_sets and g.table.defs[card].keywords & FAST and fast_for_taker(g):
            s.stack.append(("fast-taken", card))                 # keywords.fast.mindbugged
        # mindbug.play-effect: its Play effect happens for the new controller.
        enter_play(g, card, opp, _TAKEN)
        if next_task(s, _EXTRA_ACTION):     # nothing came before it: Game.run would pop it at once
            _TASKS["extra-action"](g)
    else:
        s.play[p].append(card)
        if g.later_sets and g.table.defs[card].keywords & FAST:
            g.push_next(("fast", card))                          # keywords.fast
        else:
            s.stack.append(_END_TURN)
        enter_play(g, card, p, _RESOLVE)
        if next_task(s, _END_TURN):         # nothing came before it: Game.run would pop it at once
            _TASKS["end-turn"](g)


resume("mindbug")(_mindbug)


@task("extra-action")
def extra_action(g: Board) -> None:
    """mindbug.extra-action: another turn action in the same turn (English
    revised), or the end of this turn and another turn for the same player."""
    s = g.state
    # Either task would be the next Game.run pops: it runs now.
    if g.extra_action:
        _TASKS["action"](g, True)
    else:
        g.emit("end-turn", _EXTRA_TURN, player=s.active)
        _TASKS["turn"](g, s.active, True)


# Tasks these steps schedule: these very tuples, so that a step can tell whether one waits next.
_EXTRA_ACTION: Final[tuple] = ("extra-action",)
_END_TURN: Final[tuple] = ("end-turn",)
# Their clauses, each one object typed `tuple`: the compiled build makes a
# tuple written out in a call anew each time it runs.
_FROM_HAND: Final[tuple] = ("play.from-hand",)
_USE: Final[tuple] = ("mindbug.use",)
_TAKEN: Final[tuple] = ("mindbug.play-effect", "triggers.controller")
_RESOLVE: Final[tuple] = ("play.resolve",)
_EXTRA_TURN: Final[tuple] = ("turns.end", "mindbug.extra-action")
_TASKS: Final = TASKS
