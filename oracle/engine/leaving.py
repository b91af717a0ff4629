"""Leaving play and arriving in a discard pile, as the later sets need them
(Beyond Evolution, Beyond Eternity, the promos).

- later.evolve.leave: an evolved creature that leaves play is its stage I
  card again; its line's double-sided card goes back aside.
- later.boost.leave: the boost cards under a creature that leaves play go to
  the discard pile of the player who controlled it.
- triggers.to-discard: a card with a "when this is put into your discard
  pile" ability that arrives in a discard pile, from anywhere, triggers for
  the player whose pile it is.

Games whose cards have none of these mechanics never get here (the callers
test the state's `stages` and `boosts`, and `flags(table).to_discard`).
"""

from __future__ import annotations

from .presence import flags
from .sides import leave as leave_side


def left_play(g, card: int, ctrl: int) -> None:
    """`card` has just left `ctrl`'s play area (to a discard pile, a hand, or aside)."""
    s = g.state
    if s.sides:
        leave_side(g, card)                                      # promo.side-markers
    if s.stages:
        for entry in s.stages:
            if entry[0] == card:
                s.stages = tuple(e for e in s.stages if e[0] != card)
                s.set_aside.append(entry[1])
                g.emit("unevolve", ("later.evolve.leave",), player=ctrl, card=card, cards=(entry[1],))
                break
    if s.boosts:
        for c, under in s.boosts:
            if c == card:
                s.boosts = tuple(b for b in s.boosts if b[0] != card)
                s.discard[ctrl].extend(under)
                g.emit("boost-released", ("later.boost.leave",), player=ctrl, card=card, cards=under)
                arrived(g, ctrl, under)
                break
    g.changed()


def arrived(g, player: int, cards) -> bool:
    """`cards` were just put into `player`'s discard pile: queue the
    triggers.to-discard abilities among them (for `player`); say whether any waits."""
    if not flags(g.table).to_discard:
        return False
    queued = False
    defs = g.table.defs
    for c in cards:
        if "to-discard" in defs[c].triggers:
            g.state.triggers.append((c, player, "to-discard"))
            queued = True
    if queued:
        g.push_next(("resolve-triggers",))
    return queued
