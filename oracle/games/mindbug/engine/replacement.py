"""A defeat replaced by evolving (promo.evolve-instead; Kitten Crewmate).

When a creature whose design says so would be defeated, in a fight or by an
effect, it evolves instead (later.evolve): it stays in play as the same
creature, nothing goes to a discard pile and no Defeated effect happens.
With its line's card not free (later.evolve.unavailable) nothing replaces
the defeat, and it is defeated as usual.
"""

from __future__ import annotations

from ..cards.later_helpers import can_evolve
from .evolve import evolve


def evolve_instead(g, card: int, clauses: tuple, source=None) -> bool:
    """Whether `card`'s defeat is replaced: if so it has evolved."""
    if not can_evolve(g, card):
        return False
    evolve(g, card, clauses + ("promo.evolve-instead", "triggers.defeated.not"), source)
    return True
