"""A card handed over by the opponent, and cards put into play at a
player's option (cards.hand-over, triggers.from-discard).

Hungry Hungry Hamster: the giving player picks the card (effects.chooser);
it goes from their hand to the receiver's hand, and the giver, who removed
it from their own hand, draws back up (drawing.refill). The receiver then
plays it at once or keeps it. A card played this way comes into play by an
effect: its Play effect happens for the receiver and no Mindbug can be used
on it (effects.play-card, mindbug.only-from-hand).
"""

from __future__ import annotations

from . import drawing
from .hand_lock import refused
from .registry import resume


def _play_or_not(g, player: int, card: int, then: tuple, clauses: tuple, source, prompt: str) -> None:
    """Ask `player` to pick `card` (do it) or nothing (do not): effects.chooser."""
    g.ask("choose", player, [("choose", ()), ("choose", (card,))], then, clauses + ("effects.chooser",), source,
          prompt)


def _enter(g, card: int, player: int, clauses: tuple) -> None:
    """The card came into play: the `enter-play` task of oracle.games.mindbug.engine.effects
    runs next (its Play effect, unless forbidden)."""
    g.push_next(("enter-play", card, player) + clauses)


@resume("hand-over")
def _hand_over(g, kind, arg, giver, receiver, source) -> None:
    s = g.state
    card = arg[0]
    if refused(g, receiver, ("cards.hand-over",), source):        # promo.hand-closed: the giver keeps it
        return
    s.hand[giver].remove(card)
    s.hand[receiver].append(card)
    g.emit("hand-over", ("cards.hand-over",), player=receiver, card=card, source=source)
    drawing.after_removal(g, giver)
    _play_or_not(g, receiver, card, ("play-given", receiver, source), ("cards.hand-over",), source,
                 "play the card you were given now (choose it), or keep it in hand (choose none)")


@resume("play-given")
def _play_given(g, kind, arg, player, source) -> None:
    if not arg:
        g.emit("keep-in-hand", ("cards.hand-over",), player=player, card=None, source=source)
        return
    s = g.state
    card = arg[0]
    s.hand[player].remove(card)
    s.play[player].append(card)
    drawing.after_removal(g, player)
    _enter(g, card, player, ("cards.hand-over", "effects.play-card", "mindbug.only-from-hand"))


def may_play_from_discard(g, player: int, card: int, clauses: tuple, source=None) -> None:
    """The player may put `card` from their discard pile into play (or not)."""
    if card not in g.state.discard[player]:
        g.emit("no-effect", ("effects.as-much-as-possible",), player=player, source=source)
        return
    _play_or_not(g, player, card, ("may-play-from-discard", player, source), clauses, source,
                 "put this card from your discard pile into play (choose it), or leave it there (choose none)")


@resume("may-play-from-discard")
def _may_play(g, kind, arg, player, source) -> None:
    if not arg:
        return
    s = g.state
    card = arg[0]
    s.discard[player].remove(card)
    s.play[player].append(card)
    _enter(g, card, player, ("triggers.from-discard", "effects.play-card", "mindbug.only-from-hand"))
