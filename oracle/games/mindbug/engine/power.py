"""Power and keywords of creatures in play (rulebook: Creature Cards;
Constant Abilities; the power floor of the revised editions).

Constant abilities apply in layers: power first, then the keywords that
depend on power (Snail Thrower), then the keywords copied from enemy
creatures (Sharky), so that no ability reads a value still being built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


from ..cards.abilities import BLOCK_RULES, COPY_LAYER, GRANT_LAYER, POWER_LAYER, TURN_FREE
from . import in_discard
from .lasting import keywords as lasting_keywords


def design_face(d) -> tuple:
    """`Table.face` of a design (an evolved creature reads its stage's face)."""
    n = d.name
    changes = n in POWER_LAYER or n in GRANT_LAYER or n in COPY_LAYER
    forbids = BLOCK_RULES.get(n)
    return (d.power, d.keywords, (changes, forbids, n) if changes or forbids else None)


def compute(g: Game) -> tuple[dict[int, int], dict[int, int], list]:
    s = g.state
    table = g.table
    faces = table.faces
    power: dict[int, int] = {}
    kw: dict[int, int] = {}
    holders = []                                                # creatures with a constant ability
    blocks = []                                                 # ... that forbids blocks
    for p in (0, 1):
        for c in s.play[p]:
            f = faces.get(c) or table.face(c)
            power[c] = f[0]                                     # cards.anatomy
            kw[c] = f[1]
            const = f[2]
            if const is not None:                               # (changes, forbids, name)
                if const[0]:
                    holders.append((p, c, const[2]))
                if const[1] is not None:
                    blocks.append((p, c, const[1]))
    if s.stages:                                                # later.evolve: the face of its stage
        for c, _aside, _n in s.stages:
            if c in power:
                holders = [h for h in holders if h[1] != c]
                blocks = [b for b in blocks if b[1] != c]
                d = g.design(c)
                f = design_face(d)
                power[c] = f[0]
                kw[c] = f[1]
                const = f[2]
                if const is not None:
                    p = 0 if c in s.play[0] else 1
                    if const[0]:
                        holders.append((p, c, const[2]))
                    if const[1] is not None:
                        blocks.append((p, c, const[1]))
    if s.boosts:                                                # later.boost: +1 power per card under it
        for c, under in s.boosts:
            if c in power:
                power[c] += len(under)
    if table.flags.in_discard:
        in_discard.power(g, power)                              # later.in-discard
    if s.lasting:
        lasting_keywords(s, kw)                                 # abilities.granted-this-turn
    # Whether these stats hold whoever's turn it is (turns.start_turn keeps them then).
    turn_free = not table.flags.in_discard
    for h in holders:
        if h[2] not in TURN_FREE:
            turn_free = False
    g._turn_free = turn_free
    floor = g.profile.power_floor                               # cards.power-minimum
    if not holders:
        for v in power.values():
            if v < floor:
                break
        else:
            return power, kw, blocks
    for layer in (POWER_LAYER, GRANT_LAYER, COPY_LAYER):        # abilities.constant
        if layer is GRANT_LAYER:
            for c, v in power.items():
                if v < floor:
                    power[c] = floor
        for p, c, n in holders:
            fn = layer.get(n)
            if fn is not None:
                fn(g, p, c, s.play[p], power, kw)
    return power, kw, blocks
