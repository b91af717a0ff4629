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


from .board import Base, design_face
from . import in_discard
from .lasting import keywords as lasting_keywords


def compute(g: Board) -> tuple[dict[int, int], dict[int, int], list]:
    """Power and keywords of every creature in play and the block rules in
    play, worked out from the board alone (the rules' own: `Game.stats`
    builds them from a kept `Base` instead)."""
    return apply(g, base(g))


def base(g: Board) -> Base:
    """What the powers are built from (board.Base), from the board."""
    s = g.state
    table = g.table
    faces = table.faces
    power: dict[int, int] = {}
    kw: dict[int, int] = {}
    # creatures with a constant ability: (side, card, its functions of the power, granted and copied layers,
    # whether it never reads whose turn it is)
    holders: list[tuple] = []
    blocks = []                                                 # ... that forbids blocks
    bars = []                                                   # ... that forbids enemy creatures to attack
    turn_free = True                                            # ... none of which reads whose turn it is
    floor: int = g.power_floor                                  # cards.power-minimum
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
                    holders.append((p, c, const[4], const[5], const[6], const[3]))
                    if not const[3]:
                        turn_free = False
                    if const[7]:
                        under = True
                if const[1] is not None:
                    blocks.append((p, c, const[1]))
                if const[8] is not None:
                    bars.append((p, c, const[8]))
    if s.stages:                                                # later.evolve: the face of its stage
        for c, _aside, _n in s.stages:
            if c in power:
                holders = [h for h in holders if h[1] != c]
                blocks = [b for b in blocks if b[1] != c]
                bars = [b for b in bars if b[1] != c]
                d = g.design(c)
                f = design_face(d)
                power[c] = f[0]
                kw[c] = f[1]
                const = f[2]
                if const is not None:
                    p = 0 if c in s.play[0] else 1
                    if const[0]:
                        holders.append((p, c, const[4], const[5], const[6], const[3]))
                    if const[1] is not None:
                        blocks.append((p, c, const[1]))
                    if const[8] is not None:
                        bars.append((p, c, const[8]))
                turn_free = False       # an evolved creature in play: kept from turn to turn only without one
        under = True                                            # its stage's face: looked at with the others
    if s.boosts:                                                # later.boost: +1 power per card under it
        for c, under_it in s.boosts:
            if c in power:
                power[c] += len(under_it)
    return Base(power, kw, holders, blocks, bars, turn_free, under)


def apply(g: Board, b: Base) -> tuple[dict[int, int], dict[int, int], list]:
    """The powers and keywords built from `b`: the discard piles' abilities,
    the keywords granted this turn, then the constant abilities in layers.
    With none of these and no power under the floor they are the printed
    ones: `b`'s own dicts, which `entered` and `left` then keep up to date."""
    s = g.state
    discard = g.table.flags.in_discard
    if not (b.holders or b.under or discard or s.lasting):
        g._turn_free = b.free
        return b.power, b.kw, b.blocks
    power = b.power.copy()
    kw = b.kw.copy()
    if discard:
        in_discard.power(g, power)                              # later.in-discard
    if s.lasting:
        lasting_keywords(s, kw)                                 # abilities.granted-this-turn
    # Whether these stats hold whoever's turn it is (turns.start_turn keeps them then).
    g._turn_free = b.free and not discard
    # abilities.constant, in layers: power, then the floor, then keywords granted by power, then copied ones
    play = s.play
    holders = b.holders
    for h in holders:
        fn = h[2]
        if fn is not None:
            fn(g, h[0], h[1], play[h[0]], power, kw)
    if b.under:
        floor: int = g.power_floor
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
    return power, kw, b.blocks


def entered(g: Board, card: int, player: int) -> None:
    """`card` came into play last on `player`'s side: the kept `Base` takes
    it in (or is forgotten where the board holds what a creature's arrival
    may change otherwise: an evolved creature, boost cards), and the kept
    powers are forgotten, unless they are the base's own printed ones (apply)
    and stay so: a creature with no constant ability, not under the floor."""
    b = g._base
    if b is None or card in b.power:                            # none kept, or made with it in play
        g._stats = None
        return
    s = g.state
    side = s.play[player]
    if s.stages or s.boosts or not side or side[-1] != card:
        g._stats = None
        g._base = None
        return
    table = g.table
    f = table.faces.get(card) or table.face(card)
    printed: int = f[0]
    b.power[card] = printed
    b.kw[card] = f[1]
    const: tuple | None = f[2]
    if printed < g.power_floor:
        b.under = True
        g._stats = None
    elif const is not None or not _printed(g, b):
        g._stats = None
    if const is not None:
        if const[0]:
            b.holders = _placed(b.holders, player, (player, card, const[4], const[5], const[6], const[3]))
            if not const[3]:
                b.free = False
            if const[7]:
                b.under = True
        if const[1] is not None:
            b.blocks = _placed(b.blocks, player, (player, card, const[1]))
        if const[8] is not None:
            b.bars = _placed(b.bars, player, (player, card, const[8]))


def _printed(g: Board, b: Base) -> bool:
    """Whether the kept powers are `b`'s own dicts (apply: nothing changes
    the printed powers and keywords), so that a change of `b` changes them."""
    st = g._stats
    return st is not None and st[0] is b.power


def _placed(entries: list[tuple], player: int, entry: tuple) -> list[tuple]:
    """`entries` (side, card, ...) in play order with `entry` after the last of its side's."""
    at = len(entries)
    if player == 0:
        at = 0
        for e in entries:
            if e[0] != 0:
                break
            at += 1
    return entries[:at] + [entry] + entries[at:]


def left(g: Board, card: int) -> None:
    """`card` left play: the kept `Base` lets it go (or is forgotten, as in
    `entered`), and the kept powers are forgotten, unless they are the
    base's own (apply) and it had no constant ability."""
    b = g._base
    if b is None or card not in b.power:                        # none kept, or made without it
        g._stats = None
        return
    s = g.state
    if s.stages or s.boosts:
        g._stats = None
        g._base = None
        return
    del b.power[card]
    del b.kw[card]
    table = g.table
    const: tuple | None = (table.faces.get(card) or table.face(card))[2]
    if const is not None or not _printed(g, b):
        g._stats = None
    if const is not None:
        if const[0]:
            b.holders = [h for h in b.holders if h[1] != card]
            free = True
            for h in b.holders:
                if not h[5]:
                    free = False
            b.free = free
        if const[1] is not None:
            b.blocks = [e for e in b.blocks if e[1] != card]
        if const[8] is not None:
            b.bars = [e for e in b.bars if e[1] != card]
