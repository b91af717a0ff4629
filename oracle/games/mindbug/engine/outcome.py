"""Games won or lost by a card's text, and a player who cannot lose life
(the promos; beyond-sheet M10).

- promo.win-lose: a card that says its controller wins (Unigon, Steamforger,
  Evilcat) or loses (Knightmare) the game ends it at once; the end line's
  reason is "card", an ending the rulebook's list does not have.
- promo.cannot-lose-life: while its controller has a creature that says so
  (Knightmare), any life they would lose is not lost.
"""

from __future__ import annotations

from ..cards.promo_abilities import LIFE_LOCKS
from .holders import holder

REASON = "card"


def win(g, player: int, clauses: tuple, source=None) -> None:
    """promo.win-lose: `player` wins the game now."""
    g.emit("card-win", clauses + ("promo.win-lose",), player=player, source=source)
    g.end_game(player, REASON, clauses + ("promo.win-lose",))


def lose(g, player: int, clauses: tuple, source=None) -> None:
    """promo.win-lose: `player` loses the game now (the opponent wins)."""
    g.emit("card-loss", clauses + ("promo.win-lose",), player=player, source=source)
    g.end_game(1 - player, REASON, clauses + ("promo.win-lose",))


def life_locked(g, player: int):
    """promo.cannot-lose-life: the creature of `player` that keeps them from
    losing life, or None."""
    return holder(g, player, LIFE_LOCKS)


END_CLAUSES = {"life": "winning.life", "no-action": "turns.no-action", REASON: "promo.win-lose"}


def end_clause(reason) -> str:
    """The clause behind a game's end `reason` (an end line's reason)."""
    return END_CLAUSES.get(reason, "turns.no-action")
