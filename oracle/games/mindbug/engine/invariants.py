"""What must hold after every step of every game, in every edition."""

from __future__ import annotations

from collections import Counter

from ..cards import next_stage
from ..readings import choice
from . import leaving
from .power import apply, base, compute


def violations(g) -> list[str]:
    s = g.state
    out = []
    seen: Counter[int] = Counter()
    for _zone, _p, cards in s.zones():
        seen.update(cards)
    every = set(g.table.defs)
    twice = sorted(c for c, n in seen.items() if n > 1)
    if twice:
        out.append(f"cards in two places: {twice}")
    missing = sorted(every - set(seen))
    if missing:
        out.append(f"cards in no place: {missing}")
    for p in (0, 1):
        if not 0 <= s.mindbugs[p] <= 2:
            out.append(f"player {p} has {s.mindbugs[p]} Mindbugs")
        if s.life[p] < 0:
            out.append(f"player {p} has negative life")
        if g.profile.life_cards and s.life[p] != len(s.life_pile[p]):
            out.append(f"player {p}: life {s.life[p]} but {len(s.life_pile[p])} life cards")
    if s.set_aside or s.stages:
        defs = g.table.defs
        for zone, p, cards in s.zones():                      # later.evolve.faces-in-play
            if zone in ("deck", "hand", "play", "discard", "life_pile", "unused", "played"):
                faces = sorted(c for c in cards if defs[c].stage >= 2)
                if faces:
                    out.append(f"stage faces in {zone}{'' if p is None else f' of player {p}'}: {faces} "
                               "(later.evolve.faces-in-play)")
    in_play = set(s.play[0]) | set(s.play[1])
    if not s.exhausted <= in_play and choice(g.profile, "terms.leave-play") == "resets":
        out.append(f"exhausted cards out of play: {sorted(s.exhausted - in_play)}")
    floor = g.profile.power_floor
    if floor:
        power = g.stats()[0]
        low = sorted(c for c, v in power.items() if v < floor)
        if low:
            out.append(f"power below {floor}: {low}")
    out += later_zones(g)
    out += stale_stats(g)
    if s.winner is None and s.pending is None:
        out.append("no decision pending and no winner")
    if s.pending is not None and not s.pending.options:
        out.append("a decision with no legal option")
    return out


def stale_stats(g) -> list[str]:
    """The powers and keywords a game keeps from one step to the next
    (`Game.stats`, forgotten by `Game.changed`), and those built from what it
    keeps to build them from (`board.Base`, kept up to date by power.entered
    and power.left), are those the rules give now, and so are the kept
    base's rules that forbid attacks: a change that kept either when it
    should have forgotten it shows here. Looking does not change the game."""
    turn_free = g._turn_free
    kept = [] if g._stats is None else [("kept powers, keywords or block rules", g._stats)]
    out = []
    if g._base is not None:
        kept.append(("powers, keywords or block rules built from the kept base", apply(g, g._base)))
        if g._base.bars != base(g).bars:
            out.append("the kept base's rules that forbid attacks differ from the rules' own")
    if not kept:
        return out
    fresh = compute(g)
    g._turn_free = turn_free
    for what, st in kept:
        wrong = sorted(c for c in set(st[0]) | set(fresh[0])
                       if st[0].get(c) != fresh[0].get(c) or st[1].get(c) != fresh[1].get(c))
        if wrong or st[2] != fresh[2]:
            out.append(f"{what} differ from the rules' own for {wrong or 'the block rules'}")
    return out


def later_zones(g) -> list[str]:
    """The later sets' zones (later.evolve, later.boost), beside the stage
    faces out of place (`violations`, later.evolve.faces-in-play): boost
    cards lie only under creatures in play; an evolved creature is in play,
    its stage is of its line, and the set-aside card it shows is not also
    set aside."""
    s = g.state
    if not (s.set_aside or s.stages or s.boosts):
        return []
    out = []
    defs = g.table.defs
    in_play = set(s.play[0]) | set(s.play[1])
    # later.boost.defeated: under a card whose Defeated effect uses them, they
    # wait in its discard pile until that effect is done (the designs the
    # engine lets keep them: leaving.KEEPS_BOOSTS).
    piles = set(s.discard[0]) | set(s.discard[1])
    stray = sorted(c for c, under in s.boosts if c not in in_play
                   and not (c in piles and not leaving.KEEPS_BOOSTS.isdisjoint(_line_names(defs[c]))))
    if stray:
        out.append(f"boost cards under creatures not in play: {stray}")
    empty = sorted(c for c, under in s.boosts if not under)
    if empty:
        out.append(f"boost entries with no card: {empty}")
    gone = sorted(c for c, _aside, _n in s.stages if c not in in_play)
    if gone:
        out.append(f"evolved creatures not in play: {gone}")
    aside = set(s.set_aside)
    both = sorted(a for _c, a, _n in s.stages if a in aside)
    if both:
        out.append(f"set-aside cards shown by an evolved creature and still set aside: {both}")
    wrong = sorted(c for c, a, n in s.stages if n not in (2, 3) or defs[a].stage != 2
                   or defs[a].line != defs[c].name)
    if wrong:
        out.append(f"evolved creatures with a stage not of their line: {wrong}")
    return out


def _line_names(d) -> set:
    """The design and the stage faces it can evolve into (a stage III face that
    keeps its boost cards left play as its stage I card: later.evolve.leave)."""
    names = set()
    while d is not None and d.name not in names:
        names.add(d.name)
        d = next_stage(d)
    return names
