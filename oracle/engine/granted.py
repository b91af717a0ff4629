"""Triggered abilities one card gives to others (promo.granted-attack;
Jean-Claw Pandamme, Blessed Axolotl Healer).

A granted "Attack:" ability belongs to the attacking creature: it triggers
when that creature attacks and resolves for the creature's controller. It
waits with the creature's own Attack effect, if it has one, and the active
player orders them (effects.simultaneous). In the queue of waiting effects it
stands under the card that grants it, so the two can be told apart.
"""

from __future__ import annotations

from ..cards.promo_abilities import GRANTED_ATTACK
from .presence import flags


def attack_grants(g, attacker: int, player: int) -> list:
    """The cards whose granted Attack ability `attacker` (of `player`) has now."""
    if flags(g.table).names.isdisjoint(GRANTED_ATTACK):
        return []
    s = g.state
    out = []
    for where, pool in (("enemy-play", s.play[1 - player]), ("own-discard", s.discard[player])):
        for c in pool:
            if GRANTED_ATTACK.get(g.design(c).name) == where:
                out.append(c)
    return out
