"""Cards a player may not play from hand (promo.play-limit; Wolfman Steve).

While a player's opponent controls such a creature, that player may not
play a card of printed power 4 or less from their hand.
"""

from __future__ import annotations

from ..cards.promo_abilities import PLAY_LIMITS
from .holders import holder


def limiter(g, player: int):
    """The enemy creature that limits what `player` plays, or None."""
    return holder(g, 1 - player, PLAY_LIMITS)


def playable(g, player: int) -> list:
    """The cards of `player`'s hand they may play now."""
    hand = g.state.hand[player]
    lim = limiter(g, player)
    if lim is None:
        return hand
    top = PLAY_LIMITS[g.design(lim).name]
    return [c for c in hand if g.table.defs[c].power > top]
