"""Cards moved between hands and draw piles by the promos (beyond-sheet
M10): swapping hands, a named power handed over, the unused pile under a
draw pile.

- promo.swap-hands (Macaw Dagon): the two players exchange their whole
  hands at once. Then a player with fewer than 5 cards draws up to 5; a
  player with more keeps them all (drawing.no-hand-limit). If either hand is
  closed (promo.hand-closed), there is no exchange at all.
- promo.name-a-power (Wheatle): the controller names a power; every card of
  that printed power in the opponent's hand goes into the controller's hand.
"""

from __future__ import annotations

from . import drawing
from .hand_lock import refused


def swap(g, player: int, clauses=(), source=None) -> None:
    """promo.swap-hands, for `player` and the opponent."""
    s = g.state
    why = clauses + ("promo.swap-hands",)
    if refused(g, player, why, source) or refused(g, 1 - player, why, source):
        return
    s.hand[0], s.hand[1] = s.hand[1], s.hand[0]
    g.emit("swap-hands", why, player=player, cards=tuple(s.hand[player]), source=source)
    for p in (player, 1 - player):
        drawing.refill(g, p, ("drawing.refill", "promo.swap-hands"))


def power_choices(g) -> list[int]:
    """The powers a player may name (promo.name-a-power): 1 up to the highest
    printed power among the game's cards. Naming another number could never
    take anything."""
    top = max((d.power for d in g.table.defs.values()), default=1)
    return list(range(1, max(top, 1) + 1))


def hand_over_power(g, player: int, power: int, clauses=(), source=None) -> None:
    """promo.name-a-power: every card of printed power `power` in the
    opponent's hand goes into `player`'s hand; the opponent then draws as
    after a steal (drawing.refill.stolen)."""
    s = g.state
    opp = 1 - player
    why = clauses + ("promo.name-a-power",)
    cards = [c for c in s.hand[opp] if g.table.defs[c].power == power]
    g.emit("name-power", why, player=player, amount=power, source=source)
    if not cards:
        g.emit("no-effect", why + ("effects.as-much-as-possible",), player=player, source=source)
        return
    if refused(g, player, why, source):
        return
    for c in cards:
        s.hand[opp].remove(c)
        s.hand[player].append(c)
    g.emit("hand-over", why, player=player, cards=tuple(cards), source=source)
    drawing.after_loss(g, opp)


def unused_to_deck_bottom(g, player: int, count: int, clauses=(), source=None) -> None:
    """The top `count` cards of the unused pile go, unseen, under `player`'s
    draw pile (as many as there are: effects.as-much-as-possible)."""
    s = g.state
    moved = s.unused[:count]
    if not moved:
        g.emit("no-effect", clauses + ("effects.as-much-as-possible",), player=player, source=source)
        return
    del s.unused[:len(moved)]
    s.deck[player].extend(moved)
    g.emit("unused-to-deck", clauses, player=player, cards=tuple(moved), source=source)
