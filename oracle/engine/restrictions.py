"""Creatures that cannot attack (abilities.cannot-attack; Hamster Lion), and
creatures that came into play this turn (later.action.fresh)."""

from __future__ import annotations

from ..cards import FAST
from ..cards.abilities import ATTACK_RULES
from .presence import flags

_EMPTY = frozenset()


def attack_barred(g, player: int) -> frozenset:
    """The creatures of `player` that an enemy constant ability forbids to
    attack now (powers read at this moment, on `player`'s turn), and those
    that came into play this turn without FAST (later.action.fresh)."""
    s = g.state
    out = fresh(g, player) if s.arrived else _EMPTY
    if not flags(g.table).attack_rules:
        return out
    defs = g.table.defs
    side = 1 - player
    for c in s.play[side]:
        rule = ATTACK_RULES.get(defs[c].name)
        if rule is not None:
            out = out | rule(g, c, side, s.play[player])
    return out


def fresh(g, player: int) -> frozenset:
    """later.action.fresh: `player`'s creatures that came into play this turn
    and have no FAST: they neither attack nor use an Action this turn."""
    s = g.state
    return frozenset(c for c in s.arrived if c in s.play[player] and not g.has(c, FAST))
