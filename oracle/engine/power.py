"""Power and keywords of creatures in play (rulebook: Creature Cards;
Constant Abilities; the power floor of the revised editions).

Constant abilities apply in layers: power first, then the keywords that
depend on power (Snail Thrower), then the keywords copied from enemy
creatures (Sharky), so that no ability reads a value still being built.
"""

from __future__ import annotations


from ..cards.abilities import COPY_LAYER, GRANT_LAYER, POWER_LAYER
from .lasting import keywords as lasting_keywords


def compute(g):
    s = g.state
    defs = g.table.defs
    power: dict[int, int] = {}
    kw: dict[int, int] = {}
    holders = []                                                # creatures with a constant ability
    for p in (0, 1):
        for c in s.play[p]:
            d = defs[c]
            power[c] = d.power                                  # cards.anatomy
            kw[c] = d.keywords
            n = d.name
            if n in POWER_LAYER or n in GRANT_LAYER or n in COPY_LAYER:
                holders.append((p, c, n))
    if s.lasting:
        lasting_keywords(s, kw)                                 # abilities.granted-this-turn
    for layer in (POWER_LAYER, GRANT_LAYER, COPY_LAYER):        # abilities.constant
        if layer is GRANT_LAYER:
            floor = g.profile.power_floor                       # cards.power-minimum
            for c, v in power.items():
                if v < floor:
                    power[c] = floor
        for p, c, n in holders:
            fn = layer.get(n)
            if fn is not None:
                fn(g, p, c, s.play[p], power, kw)
    return power, kw
