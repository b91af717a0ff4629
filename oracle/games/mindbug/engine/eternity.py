"""Effect verbs of Beyond Eternity besides Boost: a whole draw pile put into
the discard pile (later.discard-draw-pile), a card of a hand put into a
discard pile chosen by another player (later.reveal-to-pile), cards taken
from a discard pile into a hand, a choice among given groups of cards (a
pair of equal power, the creatures a named keyword hits), discards whose
draw waits for the end of the effect (later.discard-then-draw).
"""

from __future__ import annotations

from . import drawing
from .hand_lock import refused
from .leaving import arrived


def choose_among(g, chooser: int, groups, then: tuple, clauses: tuple, source: int, prompt: str = "") -> None:
    """Ask `chooser` for one of `groups` (tuples of cards), then apply the
    verb named by `then` to it, as `choose` does; with no group, nothing
    happens (effects.as-much-as-possible)."""
    options = sorted({tuple(sorted(grp)) for grp in groups})
    if not options:
        g.emit("no-effect", ("effects.as-much-as-possible",), player=chooser, source=source)
        return
    g.ask("choose", chooser, [("choose", grp) for grp in options], then, clauses + ("effects.chooser",), source,
          prompt)


def discard_draw_pile(g, player: int, clauses: tuple = (), source=None) -> None:
    """later.discard-draw-pile: every card of `player`'s draw pile goes to
    their discard pile at once (not a discard from hand: terms.discard);
    each arrives there (triggers.to-discard, ordered by the active player:
    triggers.to-discard.together)."""
    s = g.state
    cards = tuple(s.deck[player])
    if not cards:
        g.emit("no-effect", clauses + ("effects.as-much-as-possible",), player=player, source=source)
        return
    s.deck[player].clear()
    s.discard[player].extend(cards)
    g.emit("discard-draw-pile", clauses + ("later.discard-draw-pile",), player=player, cards=cards, source=source)
    arrived(g, player, cards)


def to_discard_from_hand(g, hand_owner: int, pile_owner: int, card: int, clauses: tuple = (), source=None) -> None:
    """later.reveal-to-pile: a card of `hand_owner`'s hand goes to `pile_owner`'s
    discard pile by another player's effect (not a discard by its holder);
    the hand is refilled as after a loss (drawing.refill.stolen)."""
    s = g.state
    s.hand[hand_owner].remove(card)
    s.discard[pile_owner].append(card)
    g.emit("put-in-discard", clauses + ("later.reveal-to-pile",), player=pile_owner, card=card, source=source)
    drawing.after_loss(g, hand_owner)
    arrived(g, pile_owner, (card,))


def discard_then_draw(g, player: int, cards, clauses: tuple = (), source=None) -> None:
    """terms.discard of `cards` from `player`'s hand with the draw back to 5
    left for the end of the effect (later.discard-then-draw: the team's
    reading; `refill_hand` draws)."""
    s = g.state
    for c in cards:
        s.hand[player].remove(c)
        s.discard[player].append(c)
    g.emit("discard", clauses + ("terms.discard", "later.discard-then-draw"), player=player, cards=tuple(cards),
           source=source)
    arrived(g, player, cards)


def refill_hand(g, player: int) -> None:
    """The draw back to 5 after a player's own discards (drawing.refill)."""
    drawing.after_removal(g, player)


def take_from_discard(g, player: int, pile_owner: int, cards, clauses: tuple = (), source=None) -> None:
    """Cards of `pile_owner`'s discard pile go into `player`'s hand (no hand limit: drawing.no-hand-limit)."""
    s = g.state
    if cards and refused(g, player, clauses, source):           # promo.hand-closed
        return
    for c in cards:
        s.discard[pile_owner].remove(c)
        s.hand[player].append(c)
    g.changed()                                                  # later.in-discard: a pile changed
    g.emit("return-to-hand", clauses + ("later.take-from-discard",), player=player, cards=tuple(cards),
           source=source)
