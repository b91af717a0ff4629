"""Creatures that cannot attack (abilities.cannot-attack; Hamster Lion)."""

from __future__ import annotations

from ..cards.abilities import ATTACK_RULES
from .presence import flags

_EMPTY = frozenset()


def attack_barred(g, player: int) -> frozenset:
    """The creatures of `player` that an enemy constant ability forbids to
    attack now (powers read at this moment, on `player`'s turn)."""
    if not flags(g.table).attack_rules:
        return _EMPTY
    s = g.state
    defs = g.table.defs
    side = 1 - player
    out = _EMPTY
    for c in s.play[side]:
        rule = ATTACK_RULES.get(defs[c].name)
        if rule is not None:
            out = out | rule(g, c, side, s.play[player])
    return out
