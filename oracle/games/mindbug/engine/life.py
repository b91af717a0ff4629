"""Life and winning (rulebook: Life; Goal of the Game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from ..readings import choice
from . import in_discard
from .outcome import life_locked
from .watch import GAIN_LIFE, LOSE_LIFE, life_changed
from .when import life_lost

# The clauses of a loss, each one object typed `tuple`: the compiled build
# makes a tuple written out in a call anew each time it runs.
_LOSE: Final[tuple] = ("life.lose",)
_LOSE_CARDS: Final[tuple] = ("life.lose", "life.cards")


def gain_life(g: Board, player: int, amount: int, clauses=(), source=None) -> None:
    """life.gain; with life cards (life.cards) a gain takes cards from the unused pile."""
    if amount <= 0:
        return
    s = g.state
    if g.life_cards:
        taken = s.unused[:amount]
        del s.unused[:amount]
        s.life_pile[player].extend(taken)
        amount = len(taken)
        if amount == 0:
            g.emit("no-gain", ("life.cards", "effects.as-much-as-possible"), player=player, source=source)
            return
        s.life[player] = len(s.life_pile[player])
        if g.table.flags.life_readers:
            g.recount()   # abilities.constant-counts: a power follows life (Bugserker)
        g.emit("gain-life", clauses + ("life.gain", "life.cards"), player=player, amount=amount, source=source)
        life_changed(g, player, GAIN_LIFE, source)                     # triggers.when.events
        return
    s.life[player] += amount
    if g.table.flags.life_readers:
        g.recount()
    g.emit("gain-life", clauses + ("life.gain",), player=player, amount=amount, source=source)
    life_changed(g, player, GAIN_LIFE, source)                         # triggers.when.events


def lose_life(g: Board, player: int, amount: int, clauses=(), source=None, loss: bool = True) -> None:
    """life.lose; reaching 0 ends the game at once (winning.life). Otherwise
    the loss triggers the abilities that wait in the player's discard pile
    (triggers.from-discard). `loss` false: the life is only set lower, which
    the reading life.lose.set-lower=not-a-loss does not count as a loss of
    life, so nothing that answers a loss sees it: no trigger, no Blessed
    Killer Bee, no Knightmare (promo.cannot-lose-life)."""
    s = g.state
    more: tuple = ()
    if loss and amount > 0 and g.table.flags.in_discard:
        amount, clauses, more = _more_loss(g, player, amount, clauses, source)   # later.in-discard.life
    amount = min(amount, s.life[player])
    if amount <= 0:
        return
    lock = life_locked(g, player) if loss and g.table.flags.life_locks else None   # promo.cannot-lose-life
    if lock is not None:
        g.emit("no-life-loss", clauses + ("promo.cannot-lose-life",), player=player, card=lock, amount=amount,
               source=source)
        return
    s.life[player] -= amount
    if g.table.flags.life_readers:
        g.recount()
    lost: tuple = _LOSE
    if g.life_cards:
        pile = s.life_pile[player]
        for _ in range(amount):
            if pile:
                s.out.append(pile.pop())
        lost = _LOSE_CARDS
    g.emit("lose-life", clauses + lost, player=player, amount=amount, source=source)
    if s.life[player] <= 0:
        g.end_game(1 - player, "life", ("winning.life",))
    elif loss:
        life_changed(g, player, LOSE_LIFE, source)                     # triggers.when.events
        if g.table.flags.from_discard:
            life_lost(g, player)                                       # triggers.from-discard
        for extra_loss, card in more:                                  # later.in-discard.life: a loss of its own
            if s.winner is None:
                lose_life(g, player, extra_loss, ("later.in-discard.life", "later.in-discard"), card)


def _more_loss(g: Board, player, amount, clauses, source):
    """later.in-discard.life: Blessed Killer Bee in the opponent's pile. The
    team's reading adds its 2 to this loss (one event); the other makes each
    a loss of its own that follows, which adds nothing more."""
    more = in_discard.more_loss(g, player, source)
    if not more:
        return amount, clauses, ()
    if in_discard.life_reading(g) == "same-event":
        return amount + sum(n for n, _c in more), clauses + ("later.in-discard.life", "later.in-discard"), ()
    return amount, clauses, more


def set_life(g: Board, player: int, value: int, clauses=(), source=None) -> None:
    """An effect that makes a life total equal to a number gains or loses the
    difference. Whether a total set lower is a loss of life, which abilities
    such as Hyenix's answer and Knightmare's prevents, is the
    life.lose.set-lower reading."""
    now = g.state.life[player]
    if value > now:
        gain_life(g, player, value - now, clauses, source)
    elif value < now:
        counts = choice(g.profile, "life.lose.set-lower") == "counts"
        lose_life(g, player, now - value, clauses + ("life.lose.set-lower",), source, loss=counts)
