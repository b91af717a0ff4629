"""Triggered abilities a card in play gives to enemy creatures
(promo.granted-attack; Jean-Claw Pandamme).

A granted "Attack:" ability belongs to the attacking creature: it triggers
when that creature attacks and resolves for the creature's controller. It
waits with the creature's own Attack effect, if it has one, and the active
player orders them (effects.simultaneous). In the queue of waiting effects it
stands under the card that grants it, so the two can be told apart. (A card
in a discard pile that gives an Attack ability, Blessed Axolotl Healer, is
oracle.games.mindbug.engine.in_discard's: later.in-discard.)
"""

from __future__ import annotations

from ..cards.promo_abilities import GRANTED_ATTACK


def attack_grants(g, attacker: int, player: int) -> list:
    """The cards in play whose granted Attack ability `attacker` (of `player`) has now."""
    if g.table.flags.names.isdisjoint(GRANTED_ATTACK):
        return []
    return [c for c in g.state.play[1 - player] if g.design(c).name in GRANTED_ATTACK]
