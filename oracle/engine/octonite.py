"""Octonite counters on creatures (later.octonite; English revised edition).

The counters are plain data on the state (`State.octonite`, a tuple of
(card, count) pairs, replaced when it changes). A creature with Octonite
comes into play with its counters, before its Play effect.
"""

from __future__ import annotations

from ..cards.abilities import OCTONITE


def counters(s, card: int) -> int:
    for c, n in s.octonite:
        if c == card:
            return n
    return 0


def set_counters(s, card: int, n: int) -> None:
    s.octonite = tuple((c, k) for c, k in s.octonite if c != card) + (((card, n),) if n else ())


def arrive(g, card: int, controller: int) -> None:
    """later.octonite: the creature comes into play with its counters."""
    n = OCTONITE.get(g.table.defs[card].name, 0)
    if n:
        set_counters(g.state, card, n)
        g.emit("octonite", ("later.octonite",), player=controller, card=card, amount=n)
