"""Effects that last "this turn" (effects.this-turn).

An ability can mark a creature until the end of the turn: a keyword it has
for the rest of the turn (The Lurker's SNEAKY, abilities.granted-this-turn)
or a ban on blocking (Turf the Surfer). The marks are plain data on the
state (`State.lasting`, a tuple of (card, what) pairs); the step between one
turn and the next ends them all.
"""

from __future__ import annotations

from ..cards import KEYWORD_NAMES
from .registry import resume

# What a mark does: a keyword bit it grants ("sneaky", ...), or "no-block".
KEYWORD_MARKS = {name.lower(): bit for bit, name in KEYWORD_NAMES.items()}


def mark(g, card: int, what: str, clauses: tuple, source=None) -> None:
    """effects.this-turn: `card` carries `what` until the end of the turn."""
    s = g.state
    if (card, what) not in s.lasting:
        s.lasting = s.lasting + ((card, what),)
        g.changed()
    g.emit("this-turn", clauses + ("effects.this-turn",), card=card, source=source)


@resume("bar-block")
def _bar_block(g, kind, arg, source, *clauses) -> None:
    for c in arg:
        mark(g, c, "no-block", tuple(clauses), source)


def end_of_turn(g) -> None:
    """effects.this-turn: the turn is over, so every mark it made ends."""
    s = g.state
    if s.lasting:
        ended = tuple(sorted({c for c, _ in s.lasting}))
        s.lasting = ()
        g.changed()
        g.emit("this-turn-ends", ("effects.this-turn",), cards=ended)


def keywords(s, kw: dict) -> None:
    """Add the keywords granted this turn to `kw` (creatures in play only)."""
    for c, what in s.lasting:
        bit = KEYWORD_MARKS.get(what)
        if bit and c in kw:
            kw[c] |= bit


def barred_from_blocking(s, card: int) -> bool:
    return (card, "no-block") in s.lasting
