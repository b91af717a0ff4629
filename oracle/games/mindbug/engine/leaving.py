"""Leaving play and arriving in a discard pile, as the later sets need them
(Beyond Evolution, Beyond Eternity, the promos).

- later.evolve.leave: an evolved creature that leaves play is its stage I
  card again; its line's double-sided card goes back aside.
- later.boost.leave: the boost cards under a creature that leaves play go to
  the discard pile of the player who controlled it (a reading: or each
  card's owner's); later.boost.defeated: for a design whose Defeated effect
  uses them, they wait under the defeated card until that effect is done.
- triggers.to-discard: a card with a "when this is put into your discard
  pile" ability that arrives in a discard pile, from anywhere, triggers for
  the player whose pile it is.

Games whose cards have none of these mechanics never get here (the callers
test the state's `stages` and `boosts`, and `table.flags.to_discard`).
"""

from __future__ import annotations

from ..cards.abilities import KEEPS_BOOSTS
from ..readings import choice
from .sides import leave as leave_side


def left_play(g, card: int, ctrl: int, shown=None) -> None:
    """`card` has just left `ctrl`'s play area (to a discard pile, a hand, or
    aside). `shown`: the design it showed, when it left defeated."""
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
        if shown is not None and shown.name in KEEPS_BOOSTS and \
                choice(g.profile, "later.boost.defeated") == "stay-under":
            pass                                               # later.boost.defeated: released by its effect
        else:
            release(g, card, ctrl)
    g.changed()


def release_pile(g, ctrl: int, card: int) -> int:
    """later.boost.leave: the discard pile a boost card goes to when its
    creature, controlled by `ctrl`, leaves play: the controller's (the team's
    reading) or the card's owner's."""
    if choice(g.profile, "later.boost.leave") == "owner":
        return g.table.owner.get(card, ctrl)
    return ctrl


def release(g, creature: int, ctrl: int, clauses: tuple = ()) -> None:
    """The boost cards still under `creature` go to a discard pile
    (later.boost.leave); they arrive there from anywhere (triggers.to-discard,
    later.boost.pile)."""
    s = g.state
    cards: tuple = ()
    for c, under in s.boosts:
        if c == creature:
            cards = under
            break
    if not cards:
        return
    s.boosts = tuple(b for b in s.boosts if b[0] != creature)
    piles: dict[int, list] = {}
    for c in cards:
        piles.setdefault(release_pile(g, ctrl, c), []).append(c)
    for pile, those in sorted(piles.items()):
        s.discard[pile].extend(those)
        g.emit("boost-released", clauses + ("later.boost.leave",), player=pile, card=creature, cards=tuple(those))
    g.changed()
    for pile, those in sorted(piles.items()):
        arrived(g, pile, those)


def arrived(g, player: int, cards) -> bool:
    """`cards` were just put into `player`'s discard pile: queue the
    triggers.to-discard abilities among them (for `player`); say whether any waits."""
    f = g.table.flags
    if f.piles:
        g.changed()                                            # later.in-discard: powers read the piles
    if not f.to_discard:
        return False
    queued = False
    defs = g.table.defs
    own_only = choice(g.profile, "triggers.to-discard") == "own-pile-only"
    for c in cards:
        if "to-discard" in defs[c].triggers:
            if own_only and g.table.owner.get(c, player) != player:
                continue                                       # triggers.to-discard: "your" pile as its owner's
            g.state.triggers.append((c, player, "to-discard"))
            queued = True
    if queued:
        g.push_next(("resolve-triggers",))
    return queued
