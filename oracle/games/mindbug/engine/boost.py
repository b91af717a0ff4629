"""Boost (Beyond Eternity; later.boost and its readings later.boost.*).

To boost is to take cards from either discard pile and put them face down
under creatures in play; each adds 1 to its creature's power (power.compute).
The cards under each creature are `State.boosts`: (creature, (cards...))
pairs, replaced, never changed in place.

The decisions of "boost up to X", one card at a time, each a `choose`:

1. the controller picks one card of either discard pile, or none (`[]`),
   which ends the boost (later.boost: "up to" allows fewer);
2. for a boost "to a creature" or "to 1 or more creatures", the controller
   then picks the creature that receives it, among every creature in play,
   allied or enemy (later.boost.split); with a single creature in play
   there is nothing to ask. "Boost X to this" has no second question.

This repeats until X cards went or the controller stops, so X cards may be
split between creatures as wished. Any creature may receive cards, exhausted
or TOUGH, and holds any number (later.boost.limits). The cards are kept by
creature, so they follow it when its control changes (later.boost.control).

A Defeated effect that uses "the boost cards from this" (Big Box Mimic)
names its design in `abilities.KEEPS_BOOSTS`: with the team's reading of
later.boost.defeated its cards then wait under the defeated card, and its
ability reads them with the verb `boost_cards(g, card)`, takes each one it
uses with `take_from_under(g, card, c)`, and ends with `release(g, card,
player)`, which sends what is left to the discard pile as for a creature
leaving play. Under the other reading nothing is under the card by then.
"""

from __future__ import annotations

from ..readings import choice
from .hand_lock import refused
from .leaving import release  # noqa: F401  (a verb of Big Box Mimic's Defeated effect)
from .registry import resume

THIS, ANY = "this", "any"


def pile_cards(g, source: int) -> list[int]:
    """The cards a boost may take now: every card of both discard piles
    (later.boost.empty: none when both are empty). With the `not-the-source`
    reading the card whose ability boosts may not be one of them."""
    s = g.state
    cards = s.discard[0] + s.discard[1]
    if choice(g.profile, "later.boost.empty") == "not-the-source":
        cards = [c for c in cards if c != source]
    return sorted(cards)


def under(g, creature: int) -> tuple[int, ...]:
    """The boost cards under `creature` (in play, or a defeated card whose
    Defeated effect still waits: later.boost.defeated)."""
    for c, cards in g.state.boosts:
        if c == creature:
            return cards
    return ()


def boosted(g) -> list[int]:
    """Boosted creatures (later.boost: at least one card under them), in play."""
    s = g.state
    return sorted(c for c, cards in s.boosts if cards and (c in s.play[0] or c in s.play[1]))


def _set_under(g, creature: int, cards: tuple) -> None:
    s = g.state
    rest = tuple(b for b in s.boosts if b[0] != creature)
    s.boosts = rest + ((creature, cards),) if cards else rest
    g.changed()


def boost(g, player: int, source: int, up_to: int, to: str, clauses: tuple = ()) -> None:
    """later.boost: `player` boosts up to `up_to` cards to `source` itself
    (`to` THIS) or to any creatures in play (`to` ANY, later.boost.split)."""
    s = g.state
    if up_to <= 0:
        return
    if to == THIS and g.controller(source) is None:
        g.emit("no-effect", clauses + ("later.boost", "effects.as-much-as-possible"), player=player, source=source)
        return
    if to == ANY and not (s.play[0] or s.play[1]):
        g.emit("no-effect", clauses + ("later.boost", "effects.as-much-as-possible"), player=player, source=source)
        return
    cards = pile_cards(g, source)
    if not cards:                                                # later.boost.empty
        g.emit("no-effect", clauses + ("later.boost.empty", "effects.as-much-as-possible"),
               player=player, source=source)
        return
    options = [("choose", ())] + [("choose", (c,)) for c in cards]
    g.ask("choose", player, options, ("boost-card", player, source, up_to, to) + tuple(clauses),
          clauses + ("later.boost", "effects.chooser"), source,
          "a card of a discard pile to boost with, or none to stop")


@resume("boost-card")
def _boost_card(g, kind, arg, player, source, left, to, *clauses) -> None:
    if not arg:
        return                                                   # later.boost: up to, so none stops
    place(g, player, source, arg[0], left, to, tuple(clauses))


def place(g, player: int, source: int, card: int, left: int, to: str, clauses: tuple = ()) -> None:
    """`card` (in a discard pile) is the next boost card of a boost of `left`
    cards: it goes under `source` (THIS) or under the creature `player` picks (ANY)."""
    s = g.state
    if to == THIS:
        _put(g, player, source, card, source, left, to, clauses)
        return
    targets = sorted(s.play[0] + s.play[1])
    if len(targets) == 1:
        _put(g, player, source, card, targets[0], left, to, clauses)
        return
    g.ask("choose", player, [("choose", (c,)) for c in targets],
          ("boost-to", player, source, card, left, to) + tuple(clauses),
          clauses + ("later.boost.split", "effects.chooser"), source, "the creature the boost card goes under")


@resume("boost-to")
def _boost_to(g, kind, arg, player, source, card, left, to, *clauses) -> None:
    _put(g, player, source, card, arg[0], left, to, tuple(clauses))


def _put(g, player, source, card, creature, left, to, clauses) -> None:
    s = g.state
    pile = 0 if card in s.discard[0] else 1
    s.discard[pile].remove(card)                                 # later.boost.pile: its in-discard ability ends
    _set_under(g, creature, under(g, creature) + (card,))
    g.emit("boost", clauses + ("later.boost",), player=player, card=creature, cards=(card,), source=source)
    if left > 1:
        boost(g, player, source, left - 1, to, clauses)


def take_to_hand(g, player: int, card: int, source=None, clauses: tuple = ()) -> None:
    """later.boost.take: a boost card from under whichever creature holds it
    goes into `player`'s hand, whoever owned it."""
    s = g.state
    if refused(g, player, clauses, source):                      # promo.hand-closed: it stays under
        return
    for creature, cards in s.boosts:
        if card in cards:
            _set_under(g, creature, tuple(c for c in cards if c != card))
            s.hand[player].append(card)
            g.emit("boost-taken", clauses + ("later.boost.take",), player=player, card=creature, cards=(card,),
                   source=source)
            return


def take_from_under(g, creature: int, card: int) -> None:
    """Take `card` from under `creature` (for an effect that then puts it
    somewhere, as Big Box Mimic's Defeated effect does)."""
    _set_under(g, creature, tuple(c for c in under(g, creature) if c != card))
