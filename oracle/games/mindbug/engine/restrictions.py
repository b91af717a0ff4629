"""Creatures that cannot attack (abilities.cannot-attack; Hamster Lion), and
creatures that came into play this turn (later.action.fresh)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board

from ..cards import FAST
from ..cards.abilities import ANY_SIDE_ATTACK_RULES, ATTACK_RULES
from . import in_discard
from .state import holds

_EMPTY: frozenset[int] = frozenset()


def attack_barred(g: Board, player: int) -> frozenset:
    """The creatures of `player` that an enemy constant ability forbids to
    attack now (powers read at this moment, on `player`'s turn), and those
    that came into play this turn without FAST (later.action.fresh)."""
    s = g.state
    f = g.table.flags
    out = fresh(g, player) if s.arrived else _EMPTY
    if f.in_discard:
        out = out | in_discard.attack_barred(g, player)        # later.in-discard
    if f.enemy_attack_rules:
        side = 1 - player
        b = g._base
        if b is not None:                                      # the rules in play, kept (board.Base)
            for e in b.bars:
                if e[0] == side:
                    out = out | e[2](g, e[1], side, s.play[player])
        elif s.stages:                                         # later.evolve: the face of its stage
            for c in s.play[side]:
                rule = ATTACK_RULES.get(g.design(c).name)
                if rule is not None:
                    out = out | rule(g, c, side, s.play[player])
        else:
            table = g.table
            faces = table.faces
            for c in s.play[side]:
                const = (faces.get(c) or table.face(c))[2]      # board.design_face
                if const is not None and const[8] is not None:
                    out = out | const[8](g, c, side, s.play[player])
    if f.any_side_attack_rules:
        for holder in (0, 1):                                  # rules that bar either side's creatures
            for c in s.play[holder]:
                rule = ANY_SIDE_ATTACK_RULES.get(g.design(c).name)
                if rule is not None:
                    out = out | rule(g, c, holder, s.play[player])
    return out


def barred_by(g: Board, player: int, card: int):
    """The ability that forbids `card`, a creature of `player`, to attack
    now: (clause, the card holding it: an enemy creature's constant ability
    such as Hamster Lion's, or one of the later sets'), or None. For
    messages (explain)."""
    s = g.state
    one = frozenset((card,))
    side = 1 - player
    for c in s.play[side]:
        rule = ATTACK_RULES.get(g.design(c).name)
        if rule is not None and rule(g, c, side, one):
            return "abilities.cannot-attack", c
    for holder in (side, player):
        for c in s.play[holder]:
            rule = ANY_SIDE_ATTACK_RULES.get(g.design(c).name)
            if rule is not None and rule(g, c, holder, one):
                return "abilities.cannot-attack", c
    return in_discard.attack_ban(g, player, card)               # later.in-discard


def came_into_play(g: Board, card: int) -> None:
    """later.action.fresh: `card` came into play this turn, whatever brought
    it (played, mindbugged, put into play by an effect); `fresh` reads it."""
    if g.later_sets:
        g.state.arrived += (card,)


def fresh(g: Board, player: int) -> frozenset:
    """later.action.fresh: `player`'s creatures that came into play this turn
    and have no FAST: they neither attack nor use an Action this turn."""
    s = g.state
    mine = s.play[player]
    out = [c for c in s.arrived if holds(mine, c) and not g.has(c, FAST)]   # a list: compiled, no generator
    return frozenset(out) if out else _EMPTY
