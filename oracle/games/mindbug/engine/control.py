"""Giving a creature away, copying a Play effect, returning creatures to
hand, emptying a hand and a draw pile (Beyond Evolution).

- later.give-control: "the opponent takes control of this" moves the
  creature to the other player's play area; "the opponent" is read from
  the player the Play effect happens for (the Mindbug user for a
  mindbugged card).
- later.copy-play: Utility Bug resolves another creature's Play effect as
  its own: "this" in the copied text is Utility Bug, and it never copies
  itself.
- later.return-hand: creatures returned to a hand go to their
  controller's hand; they leave play (later.evolve.leave,
  later.boost.leave) without being defeated (triggers.defeated.not).
- later.discard-all: a whole hand and a whole draw pile go to the discard
  pile together, so nothing is drawn between the two.
- later.undefeatable: a creature that cannot be defeated this turn is
  neither defeated nor exhausted by a defeat (`spared`).
"""

from __future__ import annotations

from . import drawing, leaving
from .hand_lock import returned


def give_control(g, player: int, card: int, clauses: tuple, source=None) -> None:
    """later.give-control: `player`'s creature `card` goes to the opponent."""
    s = g.state
    if card not in s.play[player]:
        g.emit("no-effect", clauses + ("later.give-control", "effects.as-much-as-possible"), player=player,
               source=source)
        return
    s.play[player].remove(card)
    s.play[1 - player].append(card)
    g.changed()
    g.emit("take-control", clauses + ("later.give-control", "terms.take-control", "triggers.defeated.not"),
           player=1 - player, card=card, source=source)


def return_to_hand(g, cards, clauses: tuple, source=None) -> None:
    """later.return-hand: each creature goes to its controller's hand."""
    s = g.state
    for c in cards:
        ctrl = g.controller(c)
        if ctrl is None or returned(g, c, ctrl, clauses, source):  # promo.hand-closed.returned
            continue
        s.play[ctrl].remove(c)
        s.exhausted.discard(c)                                  # exhaustion is a state of play only
        leaving.left_play(g, c, ctrl)                            # later.evolve.leave, later.boost.leave
        s.hand[ctrl].append(c)
        g.emit("return-to-hand", clauses + ("later.return-hand", "triggers.defeated.not"), player=ctrl,
               cards=(c,), source=source)
    g.changed()


def discard_all(g, player: int, clauses: tuple, source=None) -> None:
    """later.discard-all: `player`'s hand and draw pile, both at once, into
    their discard pile; the empty draw pile then refills nothing."""
    s = g.state
    cards = s.hand[player] + s.deck[player]
    if not cards:
        g.emit("no-effect", clauses + ("later.discard-all", "effects.as-much-as-possible"), player=player,
               source=source)
        return
    s.hand[player] = []
    s.deck[player] = []
    s.discard[player].extend(cards)
    g.emit("discard-all", clauses + ("later.discard-all",), player=player, cards=tuple(cards), source=source)
    drawing.after_removal(g, player)
    leaving.arrived(g, player, cards)                            # triggers.to-discard


def spared(s, card: int) -> bool:
    """later.undefeatable: `card` cannot be defeated this turn."""
    return (card, "undefeatable") in s.lasting
