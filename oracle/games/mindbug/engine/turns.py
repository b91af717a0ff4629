"""Taking turns and the turn action (rulebook: Taking Turns)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from .combat import declare_attack
from .forced import must_attack
from .lasting import end_of_turn
from .later_turns import activate, actions, harvest
from .play import play_from_hand
from .play_limits import playable
from .registry import TASKS, resume, task
from .turn_record import end_of_turn_waiting
from .restrictions import attack_barred
from .state import ATTACK_ANSWERS, COMPILED, PLAY_ANSWERS, answer


# The registry the steps run through (Game.run's): a task replaced there runs replaced here too.
_TASKS: Final = TASKS
_COMPILED: Final = COMPILED      # compiled, the steps below are called directly while _TASKS holds them

# The clauses and tasks of every turn, each one object typed `tuple`: the
# compiled build makes a tuple written out in a call anew each time it runs.
_ALTERNATE: Final[tuple] = ("turns.alternate",)
_EXTRA: Final[tuple] = ("mindbug.extra-action",)
_ACTION: Final[tuple] = ("action",)
_ACTION_CLAUSES: Final[tuple] = ("turns.alternate", "turns.action")
_EXTRA_ACTION_CLAUSES: Final[tuple] = ("mindbug.extra-action", "turns.action")
_END: Final[tuple] = ("turns.end",)


def start_turn(g: Board, player: int, extra: bool) -> None:
    """turns.alternate: a turn for `player`; `extra` when it is the extra turn
    after a Mindbug (mindbug.extra-action, editions where the turn ends)."""
    s = g.state
    if s.lasting:
        end_of_turn(g)                                         # effects.this-turn
    s.active = player
    s.turn += 1
    s.attacks = {}
    s.actions = 0
    s.arrived = ()                                             # later.action.fresh: a new turn
    if not g._turn_free:
        g.recount()                                            # powers that read whose turn it is
    g.emit("turn", _EXTRA if extra else _ALTERNATE, player=player, amount=s.turn)
    if s.octonite:
        g.push_next(("action", extra))
        harvest(g, player)                                     # triggers.harvest, before the turn action
    else:
        # The task it would push runs next: it runs now, as Game.run would run it.
        if _COMPILED and _TASKS["action"] is _TURN_ACTION:
            turn_action(g, extra)
        else:
            _TASKS["action"](g, extra)


task("turn")(start_turn)
_START_TURN: Final = start_turn


def turn_action(g: Board, extra: bool) -> None:
    """turns.action: play a card from hand or attack with one allied creature;
    turns.no-action: with neither possible, the player loses."""
    s = g.state
    p = s.active
    f = g.table.flags
    # Exhausted creatures attack like any other (keywords.tough.exhausted).
    barred = attack_barred(g, p)                               # abilities.cannot-attack, later.action.fresh
    hand = playable(g, p) if f.play_limits else s.hand[p]      # promo.play-limit
    options = [answer(PLAY_ANSWERS, "play", c) for c in hand]
    for c in s.play[p]:
        if not barred or c not in barred:
            options.append(answer(ATTACK_ANSWERS, "attack", c))
    if f.action:
        options += actions(g, p)                               # triggers.action, later.action.each
    if f.hunt_rules and g.later_sets:
        options = must_attack(g, p, options)                   # later.forced.hippo
    if not options:
        if g.no_action_loses:
            g.end_game(1 - p, "no-action", ("turns.no-action",))
            return
    clauses = _EXTRA_ACTION_CLAUSES if extra else _ACTION_CLAUSES
    g.ask("action", p, options, _ACTION, clauses, prompt="turn action: play a card or attack")


task("action")(turn_action)
_TURN_ACTION: Final = turn_action


def _action(g: Board, kind: str, arg) -> None:
    g.state.actions += 1
    if kind == "play":
        play_from_hand(g, arg)
    elif kind == "activate":
        activate(g, arg)
    else:
        declare_attack(g, arg)


resume("action")(_action)


def end_turn(g: Board, triggered: bool = False) -> None:
    """turns.end: the turn action is over; the opponent's turn begins.
    triggers.when: first the active player's "at the end of turn" effects
    (declared cards of the later sets) resolve, this turn's effects still on."""
    s = g.state
    if not triggered and g.table.flags.end_of_turn:
        waiting = end_of_turn_waiting(g, s.active)               # promo.felix-defeated: either player's
        if waiting:
            s.triggers.extend((c, p, "end-of-turn") for c, p in waiting)
            g.push_next(("resolve-triggers",), ("end-turn", True))
            return
    g.emit("end-turn", _END, player=s.active)
    # The task it would push runs next: it runs now, as Game.run would run it.
    if _COMPILED and _TASKS["turn"] is _START_TURN:
        start_turn(g, 1 - s.active, False)
    else:
        _TASKS["turn"](g, 1 - s.active, False)


task("end-turn")(end_turn)
