"""Side markers (promo.side-markers; Sluggernaut).

The card prints TOUGH in its text box and two side markers on its edges,
"5 HUNTER" and "8 FRENZY"; no rules text explains them. The team's reading
(the one public engine's): once its TOUGH is used (it is exhausted instead
of defeated, turned sideways), its controller picks a side, and until it
leaves play it has that side's power and keyword. Other readings: the
markers do nothing (a plain TOUGH creature), or both keywords are always on
(the data of another public engine).
"""

from __future__ import annotations

from ..cards import FRENZY, HUNTER
from ..cards.promo_abilities import SIDE_MARKERS
from ..readings import choice
from .registry import resume, task

SIDES = {5: HUNTER, 8: FRENZY}      # the power printed on a side marker -> its keyword


def tough_used(g, card: int, ctrl: int) -> None:
    """`card` was just exhausted by its TOUGH: a side-marker creature's
    controller picks a side (the choice waits until the defeat is done)."""
    if g.table.flags.names.isdisjoint(SIDE_MARKERS) or g.design(card).name not in SIDE_MARKERS:
        return
    if choice(g.profile, "promo.side-markers") == "side-on-tough":
        g.push_next(("pick-side", card, ctrl))


@task("pick-side")
def _ask(g, card: int, ctrl: int) -> None:
    if g.controller(card) is None:
        return
    g.ask("choose", g.controller(card), [("choose", (p,)) for p in sorted(SIDES)], ("side", card),
          ("promo.side-markers", "effects.chooser"), card,
          "the side marker it turns to: 5 (HUNTER) or 8 (FRENZY)")


@resume("side")
def _picked(g, kind, arg, card: int) -> None:
    s = g.state
    s.sides = tuple(e for e in s.sides if e[0] != card) + ((card, arg[0]),)
    g.changed()
    g.emit("side", ("promo.side-markers",), player=g.controller(card), card=card, amount=arg[0])


def side_of(s, card: int):
    for c, p in s.sides:
        if c == card:
            return p
    return None


def leave(g, card: int) -> None:
    """A creature that leaves play forgets its side."""
    s = g.state
    if s.sides:
        s.sides = tuple(e for e in s.sides if e[0] != card)
