"""Drawing cards (rulebook: Drawing Cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from .hand_lock import refused

HAND_SIZE: Final = 5
# A refill's clauses, one object typed `tuple`: the compiled build makes a
# tuple written out in a call anew each time it runs.
_BEFORE_EFFECTS: Final[tuple] = ("drawing.refill", "drawing.before-effects")


def refill(g: Board, player: int, why: tuple = _BEFORE_EFFECTS) -> None:
    """drawing.refill: draw from the top of the draw pile until the hand holds 5;
    an empty draw pile gives nothing more (drawing.empty-pile)."""
    s = g.state
    hand, deck = s.hand[player], s.deck[player]
    need = HAND_SIZE - len(hand)
    if need <= 0 or not deck:
        return
    if g.table.flags.hand_locks and refused(g, player, why):     # promo.hand-closed
        return
    drawn = deck[:need]
    del deck[:need]
    hand.extend(drawn)
    g.emit("draw", why, player=player, cards=tuple(drawn))


def after_removal(g: Board, player: int) -> None:
    """The player removed cards from their own hand (played or discarded):
    every edition refills here."""
    refill(g, player)


def after_loss(g: Board, player: int) -> None:
    """Cards left the player's hand by another's doing (stolen, handed over):
    only the editions that refill whenever the hand is short draw here
    (drawing.refill.stolen; the first editions' reading draws nothing)."""
    if g.refill_below_five:
        refill(g, player, ("drawing.refill", "drawing.refill.stolen"))
