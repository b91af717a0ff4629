"""Creatures set aside by a creature and brought back (promo.set-aside;
Alpacoodle).

Setting a creature aside takes it out of play (terms.leave-play: it is not
defeated, so no Defeated effect; an evolved creature is its stage I card
again and its boost cards go to the discard pile, leaving.left_play; its
exhaustion goes as for any card leaving play, terms.leave-play). The
cards wait in `State.held` under the creature that set them aside. When
that creature's effect puts them back, they come into play without their
Play effects, under the control the promo.set-aside.return reading gives.
"""

from __future__ import annotations

from ..readings import choice
from . import leaving
from .restrictions import came_into_play


def set_aside(g, holder: int, cards, clauses=(), source=None) -> None:
    """Take `cards` (creatures in play) out of play and keep them under `holder`."""
    s = g.state
    kept = []
    for c in cards:
        ctrl = g.controller(c)
        if ctrl is None:
            continue
        s.play[ctrl].remove(c)
        if c in s.exhausted and choice(g.profile, "terms.leave-play") == "resets":   # a reading
            s.exhausted.discard(c)
        kept.append((c, ctrl))
        leaving.left_play(g, c, ctrl)
    if not kept:
        g.emit("no-effect", clauses + ("effects.as-much-as-possible",), source=source)
        return
    s.held = s.held + ((holder, tuple(kept)),)
    g.changed()
    g.emit("set-aside", clauses + ("promo.set-aside", "terms.leave-play"), cards=tuple(c for c, _ in kept),
           source=source)


def bring_back(g, holder: int, holder_ctrl: int, clauses=(), source=None) -> None:
    """Every card `holder` set aside comes back into play, Play effects
    silent; promo.set-aside.return says under whose control."""
    s = g.state
    kept = ()
    for h, cs in s.held:
        if h == holder:
            kept = cs
    if not kept:
        g.emit("no-effect", clauses + ("effects.as-much-as-possible",), player=holder_ctrl, source=source)
        return
    s.held = tuple(e for e in s.held if e[0] != holder)
    how = choice(g.profile, "promo.set-aside.return")
    for c, ctrl in kept:
        if how == "holder-controller":
            p = holder_ctrl
        elif how == "owner":
            p = g.table.owner.get(c, ctrl)
        else:
            p = ctrl
        s.play[p].append(c)
        came_into_play(g, c)                                 # later.action.fresh
        g.emit("enter-play", clauses + ("promo.set-aside.return", "promo.no-play-effect"), player=p, card=c,
               source=source)
    g.changed()


def put_into_play(g, player: int, card: int, pile, clauses=(), source=None) -> None:
    """promo.no-play-effect: `card` goes from `pile` (a discard pile, or None
    for a card already taken out, as a boost card is) into `player`'s play
    area; its Play effect does not happen and no Mindbug can be used on it
    (mindbug.only-from-hand)."""
    s = g.state
    if pile is not None:
        pile.remove(card)
    s.play[player].append(card)
    came_into_play(g, card)                                  # later.action.fresh
    g.changed()
    g.emit("enter-play", clauses + ("promo.no-play-effect", "mindbug.only-from-hand"), player=player, card=card,
           source=source)
