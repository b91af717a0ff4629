"""Evolve (Beyond Evolution): a creature of an evolution line turns into
its next stage (later.evolve).

- later.evolve: stage I -> II lays the line's set-aside double-sided card
  on the stage I creature, stage II face up (`State.stages` gets
  `(creature, card, 2)`); stage II -> III turns that card over (stage 3).
  Same creature: same controller, same place, no Play effect and no
  Mindbug (later.evolve.not-play); "this turn" marks and boost cards stay
  on it (later.evolve.keeps).
- later.evolve.tough: its exhaustion carries over (the team's reading);
  other engines' readings are switches.
- later.evolve.control: a creature that changes sides keeps its `stages`
  entry; a stage I creature taken evolves with the line's one card.
- later.evolve.unavailable: with the line's card in use on another
  creature (a second copy of the stage I card), or not in the game,
  evolving does nothing.
- later.evolve.order: an Action "X, then evolve" evolves once its first
  part is done, choices included (`then_evolve`).

Leaving play (later.evolve.leave) is oracle.games.mindbug.engine.leaving's.
"""

from __future__ import annotations

from ..cards import TOUGH, next_stage
from ..cards.later_helpers import line_card
from ..readings import choice
from .registry import RESUMES, resume


def evolve(g, card: int, clauses: tuple = (), source=None) -> None:
    """later.evolve: `card`, a creature in play, goes to its next stage, if
    it has one and its line's card is free (later.evolve.unavailable)."""
    s = g.state
    ctrl = g.controller(card)
    if ctrl is None:
        g.emit("no-effect", clauses + ("later.evolve", "effects.as-much-as-possible"), source=source or card)
        return
    before = g.design(card)
    entry = next((e for e in s.stages if e[0] == card), None)
    if entry is None:
        aside = line_card(g, card)
        if aside is None:
            g.emit("no-effect", clauses + ("later.evolve.unavailable",), player=ctrl, card=card,
                   source=source or card)
            return
        s.set_aside.remove(aside)
        s.stages = s.stages + ((card, aside, 2),)
    elif entry[2] == 2 and next_stage(before) is not None:
        aside = entry[1]
        s.stages = tuple((c, a, 3) if c == card else (c, a, n) for c, a, n in s.stages)
    else:
        g.emit("no-effect", clauses + ("later.evolve", "effects.as-much-as-possible"), player=ctrl, card=card,
               source=source or card)
        return
    g.changed()
    after = g.design(card)
    why = clauses + ("later.evolve", "later.evolve.not-play", "later.evolve.keeps")
    if g.table.owner.get(card, ctrl) != ctrl:
        why += ("later.evolve.control",)                        # taken from its owner: the same line's card
    g.emit("evolve", why, player=ctrl, card=card, cards=(aside,), amount=after.stage, source=source or card)
    if card in s.exhausted:
        _exhaustion(g, card, before, after, ctrl)


def _exhaustion(g, card: int, before, after, ctrl: int) -> None:
    """later.evolve.tough: what becomes of an exhausted creature's exhaustion."""
    how = choice(g.profile, "later.evolve.tough")
    if how == "keeps":
        return
    if how == "both-tough" and before.keywords & TOUGH and after.keywords & TOUGH:
        return
    g.state.exhausted.discard(card)
    g.changed()
    g.emit("ready", ("later.evolve.tough",), player=ctrl, card=card)


def then_evolve(g, card: int, then: tuple) -> tuple:
    """later.evolve.order: the resume that applies the first part's choice
    (the resume `then` names), then evolves `card`."""
    return ("then-evolve", card) + then


@resume("then-evolve")
def _then_evolve(g, kind, arg, card, verb, *rest) -> None:
    RESUMES[verb](g, kind, arg, *rest)
    if g.state.winner is None:
        evolve(g, card, ("later.evolve.order",), card)
