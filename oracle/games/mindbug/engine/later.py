"""Effect verbs of the later card sets (English revised edition: Game Terms
and Octonite Counters): steal life, draw from the unused pile, refresh a
Mindbug. No published card uses them; declared cards (spec/card-format.md)
do. A game deals such cards only in an edition that has the mechanics
(setup: later.octonite)."""

from __future__ import annotations

from .hand_lock import refused
from .life import gain_life, lose_life


def steal_life(g, player: int, amount: int, clauses=(), source=None) -> None:
    """later.steal-life: the opponent loses the life and the player gains
    what was actually lost (never more than the opponent had): nothing when
    the loss was prevented (promo.cannot-lose-life), and only the amount
    stolen when an ability made the loss larger (later.in-discard.life)."""
    s = g.state
    opp = 1 - player
    taken = min(amount, s.life[opp])
    if taken <= 0:
        return
    before = s.life[opp]
    lose_life(g, opp, taken, clauses + ("later.steal-life",), source)
    taken = min(taken, before - s.life[opp])
    if s.winner is None and taken > 0:
        gain_life(g, player, taken, clauses + ("later.steal-life",), source)


def draw_unused(g, player: int, count: int, clauses=(), source=None) -> None:
    """later.unused-draw: the top cards of the unused pile go into the
    player's hand, as many as there are (effects.as-much-as-possible)."""
    s = g.state
    if refused(g, player, clauses + ("later.unused-draw",), source):   # promo.hand-closed
        return
    drawn = s.unused[:count]
    if not drawn:
        g.emit("no-effect", ("effects.as-much-as-possible", "later.unused-draw"), player=player, source=source)
        return
    del s.unused[:len(drawn)]
    s.hand[player].extend(drawn)
    g.emit("draw", clauses + ("later.unused-draw",), player=player, cards=tuple(drawn), source=source)


def refresh(g, player: int, clauses=(), source=None) -> None:
    """later.refresh: one of the player's used Mindbugs is available again."""
    s = g.state
    if s.mindbugs[player] >= 2:
        g.emit("no-effect", ("effects.as-much-as-possible", "later.refresh"), player=player, source=source)
        return
    s.mindbugs[player] += 1
    g.emit("refresh", clauses + ("later.refresh",), player=player, source=source)
