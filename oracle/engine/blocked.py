"""A record of the creatures that blocked this turn (promo.blocked-this-turn;
Jazz Dog).

A creature that blocks, or is named by HUNTER and so blocks, is marked
"blocked" until the turn ends (effects.this-turn). Only games with a card
that reads the record keep it.
"""

from __future__ import annotations

from ..cards.promo_abilities import BLOCK_READERS
from .presence import flags


def record(g, blocker: int) -> None:
    if flags(g.table).names.isdisjoint(BLOCK_READERS):
        return
    s = g.state
    if (blocker, "blocked") not in s.lasting:
        s.lasting = s.lasting + ((blocker, "blocked"),)


def blocked_this_turn(s) -> list:
    return [c for c, what in s.lasting if what == "blocked"]
