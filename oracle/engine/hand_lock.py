"""Hands that no card may enter (promo.hand-closed; Alien Brain).

While a player's opponent controls a creature that says so, that player
cannot put cards into their hand: they draw nothing, and cards that an
effect would move into their hand (stolen, handed over, taken from a
discard pile, returned from play, drawn from the unused pile) stay where
they are. The verbs that put cards into a hand ask `closed` first.
"""

from __future__ import annotations

from ..cards.promo_abilities import HAND_LOCKS
from .presence import holder


def closed(g, player: int):
    """The creature that keeps `player` from putting cards into their hand, or None."""
    return holder(g, 1 - player, HAND_LOCKS)


def refused(g, player: int, clauses=(), source=None) -> bool:
    """Whether `player`'s hand is closed; if so, say so as an event (nothing moves)."""
    lock = closed(g, player)
    if lock is None:
        return False
    g.emit("hand-closed", clauses + ("promo.hand-closed",), player=player, card=lock, source=source)
    return True
