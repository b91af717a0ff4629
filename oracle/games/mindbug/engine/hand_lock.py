"""Hands that no card may enter (promo.hand-closed; Alien Brain).

While a player's opponent controls a creature that says so, that player
cannot put cards into their hand: they draw nothing, and cards that an
effect would move into their hand (stolen, handed over, taken from a
discard pile, drawn from the unused pile) stay where they are. The verbs
that put cards into a hand ask `closed` first. A creature an effect would
return from play to a closed hand is the promo.hand-closed.returned
reading's (`returned`).
"""

from __future__ import annotations

from ..cards.promo_abilities import HAND_LOCKS
from ..readings import choice
from . import leaving
from .holders import holder


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


def returned(g, card: int, ctrl: int, clauses=(), source=None) -> bool:
    """promo.hand-closed.returned: `card`, a creature of `ctrl` that an effect
    would return to their hand, meets a closed hand. It stays in play (the
    team's reading) or goes to `ctrl`'s discard pile, not defeated. Whether
    the hand was closed (and the creature dealt with here)."""
    why = clauses + ("promo.hand-closed.returned",)
    if not refused(g, ctrl, why, source):
        return False
    if choice(g.profile, "promo.hand-closed.returned") == "to-discard":
        s = g.state
        s.play[ctrl].remove(card)
        if card in s.exhausted and choice(g.profile, "terms.leave-play") == "resets":   # a reading
            s.exhausted.discard(card)
        leaving.left_play(g, card, ctrl)
        s.discard[ctrl].append(card)
        g.changed()
        g.emit("put-in-discard", why + ("triggers.defeated.not",), player=ctrl, card=card, source=source)
        leaving.arrived(g, ctrl, (card,))
    return True
