"""Octonite counters on creatures (later.octonite; English revised edition).

The counters are plain data on the state (`State.octonite`, a tuple of
(card, count) pairs, replaced when it changes). A creature with Octonite
comes into play with its counters, before its Play effect; a creature that
comes into play anew keeps none it had before (they stayed behind when it
left play). Its controller may then hand them out (Battlefruit Galaxy,
later.octonite.distribute), and some effects are paid for with one of the
creature's own counters (later.octonite.spend).
"""

from __future__ import annotations

from ..cards.abilities import OCTONITE
from .registry import resume, task


def counters(s, card: int) -> int:
    for c, n in s.octonite:
        if c == card:
            return n
    return 0


def set_counters(s, card: int, n: int) -> None:
    s.octonite = tuple((c, k) for c, k in s.octonite if c != card) + (((card, n),) if n else ())


def arrive(g, card: int, controller: int) -> None:
    """later.octonite: the creature comes into play with its counters (and
    with no other: counters from an earlier stay in play are gone)."""
    n = OCTONITE.get(g.table.defs[card].name, 0)
    set_counters(g.state, card, n)
    if n:
        g.emit("octonite", ("later.octonite",), player=controller, card=card, amount=n)


@task("octonite-distribute")
def distribute(g, card: int, controller: int) -> None:
    """later.octonite.distribute: as it comes into play, the creature's
    controller may move its counters, one at a time, onto any other creature
    in play (allied or enemy); choosing none keeps the rest on the creature.
    Only now: the chance ends with this choice."""
    s = g.state
    if counters(s, card) == 0 or g.controller(card) is None:
        return
    others = sorted(c for c in s.play[0] + s.play[1] if c != card)
    if not others:
        return
    g.ask("choose", controller, [("choose", ())] + [("choose", (c,)) for c in others],
          ("octonite-give", card, controller), ("later.octonite.distribute", "effects.chooser"), card,
          "put one of its Octonite counters on another creature, or keep the rest on it")


@resume("octonite-give")
def _give(g, kind, arg, card, controller) -> None:
    s = g.state
    if not arg:
        return
    target = arg[0]
    set_counters(s, card, counters(s, card) - 1)
    set_counters(s, target, counters(s, target) + 1)
    g.emit("octonite-moved", ("later.octonite.distribute",), player=controller, card=target, source=card,
           amount=counters(s, target))
    g.push_next(("octonite-distribute", card, controller))


def spend(g, card: int, clauses: tuple = ()) -> bool:
    """later.octonite.spend: pay one of the creature's own counters for its
    effect; False (and nothing happens) when it has none."""
    s = g.state
    n = counters(s, card)
    if n == 0:
        g.emit("no-effect", clauses + ("later.octonite.spend",), card=card, source=card)
        return False
    set_counters(s, card, n - 1)
    g.emit("octonite-spent", clauses + ("later.octonite.spend",), card=card, source=card, amount=n - 1)
    return True
