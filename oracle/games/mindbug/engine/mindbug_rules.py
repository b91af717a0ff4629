"""Mindbugs under the promos' constant abilities (beyond-sheet M10).

- promo.mindbug-ban (Bug Catcher): while such a creature is in play, on
  either side, no player may use a Mindbug.
- promo.mindbug-used (Mindbug Bug): whenever a player uses a Mindbug while
  their opponent controls such a creature, that player first loses 1 life
  for each of them; a player at 1 life who uses one loses the game before the
  Mindbug takes the card.
- promo.life-as-mindbugs (Ivybug, unconfirmed: the team's reading): its
  controller, with no Mindbug left, may still use one by losing 1 life
  instead of spending a Mindbug; not while they cannot lose life
  (promo.cannot-lose-life).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board

from ..cards.promo_abilities import LIFE_AS_MINDBUGS, MINDBUG_BANS, MINDBUG_WATCHERS
from ..readings import choice
from .life import lose_life
from .outcome import life_locked

_ALL = MINDBUG_BANS | MINDBUG_WATCHERS | LIFE_AS_MINDBUGS


def _holders(g: Board, players, names) -> list:
    s = g.state
    return [c for p in players for c in s.play[p] if g.design(c).name in names]


def may_use(g: Board, player: int) -> bool:
    """Whether `player` may use a Mindbug now (mindbug.none-left, promo.mindbug-ban)."""
    s = g.state
    names = g.table.flags.names
    if names.isdisjoint(_ALL):
        return s.mindbugs[player] > 0
    if _holders(g, (0, 1), MINDBUG_BANS):
        return False
    return s.mindbugs[player] > 0 or _life_for_mindbug(g, player)


def _life_for_mindbug(g: Board, player: int) -> bool:
    """promo.life-as-mindbugs: `player` controls a creature that lets them pay
    life for a Mindbug, and can lose life to pay it (promo.cannot-lose-life:
    a life they cannot lose pays for nothing)."""
    return (choice(g.profile, "promo.life-as-mindbugs") == "life-for-mindbug"
            and bool(_holders(g, (player,), LIFE_AS_MINDBUGS)) and life_locked(g, player) is None)


def banned_by(g: Board):
    """The creature that forbids Mindbugs now (promo.mindbug-ban), or None."""
    if g.table.flags.names.isdisjoint(MINDBUG_BANS):
        return None
    held = _holders(g, (0, 1), MINDBUG_BANS)
    return held[0] if held else None


def spend(g: Board, player: int, card: int) -> bool:
    """`player` uses a Mindbug on `card`: first the life their opponent's
    creatures make them lose (promo.mindbug-used), then the Mindbug itself,
    or 1 life in its place (promo.life-as-mindbugs). False when the game
    ended on the way."""
    s = g.state
    if not g.table.flags.names.isdisjoint(_ALL):
        for c in _holders(g, (1 - player,), MINDBUG_WATCHERS):
            g.emit("trigger", ("promo.mindbug-used", "triggers.controller"), player=1 - player, card=c)
            lose_life(g, player, 1, ("promo.mindbug-used",), c)
            if s.winner is not None:
                return False
        if s.mindbugs[player] == 0:
            paid = _holders(g, (player,), LIFE_AS_MINDBUGS)[0]
            lose_life(g, player, 1, ("promo.life-as-mindbugs",), paid)
            return s.winner is None
    s.mindbugs[player] -= 1
    return True
