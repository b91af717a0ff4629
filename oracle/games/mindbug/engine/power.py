"""Power and keywords of creatures in play (rulebook: Creature Cards;
Constant Abilities; the power floor of the revised editions).

Constant abilities apply in layers: power first, then the keywords that
depend on power (Snail Thrower), then the keywords copied from enemy
creatures (Sharky), so that no ability reads a value still being built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board


from .board import design_face
from . import in_discard
from .lasting import keywords as lasting_keywords


def compute(g: Board) -> tuple[dict[int, int], dict[int, int], list]:
    s = g.state
    table = g.table
    faces = table.faces
    power: dict[int, int] = {}
    kw: dict[int, int] = {}
    # creatures with a constant ability: (side, card, its functions of the power, granted and copied layers)
    holders: list[tuple] = []
    blocks = []                                                 # ... that forbids blocks
    turn_free = True                                            # ... none of which reads whose turn it is
    floor: int = g.profile.power_floor                          # cards.power-minimum
    # Whether a power may end under the floor: one printed under it, or an
    # ability that may lower one (without, the floor changes nothing).
    under = table.flags.in_discard
    for p in range(2):
        side: list = s.play[p]                                  # its ids as objects: no unboxing
        for c in side:
            f = faces.get(c) or table.face(c)
            printed: int = f[0]                                 # cards.anatomy
            if printed < floor:
                under = True
            power[c] = printed
            kw[c] = f[1]
            const: tuple | None = f[2]
            if const is not None:                               # board.design_face
                if const[0]:
                    holders.append((p, c, const[4], const[5], const[6]))
                    if not const[3]:
                        turn_free = False
                    if const[7]:
                        under = True
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
                        holders.append((p, c, const[4], const[5], const[6]))
                    if const[1] is not None:
                        blocks.append((p, c, const[1]))
                turn_free = False       # an evolved creature in play: kept from turn to turn only without one
        under = True                                            # its stage's face: looked at with the others
    if s.boosts:                                                # later.boost: +1 power per card under it
        for c, under_it in s.boosts:
            if c in power:
                power[c] += len(under_it)
    if table.flags.in_discard:
        in_discard.power(g, power)                              # later.in-discard
    if s.lasting:
        lasting_keywords(s, kw)                                 # abilities.granted-this-turn
    # Whether these stats hold whoever's turn it is (turns.start_turn keeps them then).
    g._turn_free = turn_free and not table.flags.in_discard
    # abilities.constant, in layers: power, then the floor, then keywords granted by power, then copied ones
    play = s.play
    for h in holders:
        fn = h[2]
        if fn is not None:
            fn(g, h[0], h[1], play[h[0]], power, kw)
    if under:
        for c, v in power.items():
            if v < floor:
                power[c] = floor
    for h in holders:
        fn = h[3]
        if fn is not None:
            fn(g, h[0], h[1], play[h[0]], power, kw)
    for h in holders:
        fn = h[4]
        if fn is not None:
            fn(g, h[0], h[1], play[h[0]], power, kw)
    return power, kw, blocks
