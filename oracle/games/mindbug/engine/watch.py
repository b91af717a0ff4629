"""Abilities that answer an event while their creature is in play: the
"when ..." triggers of the later sets (triggers.when, triggers.when.events;
English revised edition). Only declared cards have them
(spec/card-format.md): when another allied creature is defeated, when an
enemy creature is defeated, when their controller gains life, when their
controller loses life.

The effect waits like any triggered effect, for the creature's controller,
and resolves once the effect under way is finished (effects.finish-one),
ordered by the active player with the others (effects.simultaneous). A
creature defeated at the same time as the one watched is no longer in play
and answers nothing. An event brought about by a "when ..." effect sets off
no "when ..." ability (the team's reading: otherwise two such cards could
answer each other for ever).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board

from .presence import EVENT_TRIGGERS

ALLY_DEFEATED, ENEMY_DEFEATED, GAIN_LIFE, LOSE_LIFE = EVENT_TRIGGERS


def _quiet(g: Board, source) -> bool:
    """triggers.when.events: the event came from a "when ..." effect."""
    return source is not None and source in g.table.defs and not set(g.design(source).triggers).isdisjoint(EVENT_TRIGGERS)


def _queue(g: Board, player: int, trigger: str) -> bool:
    s = g.state
    waiting = [c for c in s.play[player] if trigger in g.design(c).triggers]
    s.triggers.extend((c, player, trigger) for c in waiting)
    return bool(waiting)


def defeated(g: Board, losers, source) -> bool:
    """Creatures left play defeated; `losers` holds the controller each had.
    Queues the answers and says whether any waits (the caller resolves)."""
    if not g.table.flags.events or _quiet(g, source):
        return False
    queued = False
    for ctrl in losers:
        queued |= _queue(g, ctrl, ALLY_DEFEATED)
        queued |= _queue(g, 1 - ctrl, ENEMY_DEFEATED)
    return queued


def life_changed(g: Board, player: int, trigger: str, source) -> None:
    """`player` gained (GAIN_LIFE) or lost (LOSE_LIFE) life, the game going on."""
    if not g.table.flags.events or _quiet(g, source):
        return
    if _queue(g, player, trigger):
        g.push_next(("resolve-triggers",))
