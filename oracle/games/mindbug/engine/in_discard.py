"""Abilities that work from a discard pile (Beyond Eternity's Blessed and
Cursed cards, promo cards of the same kind; later.in-discard).

Such an ability works only while its card lies in a discard pile, and for
the player whose pile it is (the pile owner): "allied", "enemy" and "the
opponent" are read from that player. Several such cards each apply
(later.in-discard.stacking); a power they lower never goes below the floor
(cards.power-minimum, applied by power.compute after them).

The tables of the ability module (oracle.games.mindbug.cards.abilities) say
what each design does (IN_DISCARD_POWER, IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_GRANTS,
IN_DISCARD_LIFE); a promo card adds a row, not code here. Games whose
cards have none of them never get here (`table.flags.in_discard`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board

from ..cards.abilities import (IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_GRANTS, IN_DISCARD_LIFE,
                               IN_DISCARD_POWER)
from ..readings import choice

_EMPTY: frozenset[int] = frozenset()
CLAUSE = "later.in-discard"


def _cards(g: Board, table):
    """(pile owner, card, rule) for every card of a discard pile whose design is in `table`."""
    s = g.state
    names = g.table.names
    for owner in (0, 1):
        for c in s.discard[owner]:
            rule = table.get(names[c])
            if rule is not None:
                yield owner, c, rule


def power(g: Board, power: dict) -> None:
    """later.in-discard: the power changes of the cards in discard piles."""
    play = g.state.play
    for owner, c, rule in _cards(g, IN_DISCARD_POWER):
        rule(g, owner, c, play[owner], power)


def attack_barred(g: Board, player: int) -> frozenset:
    """The creatures of `player` that an ability in a discard pile forbids to attack."""
    out = _EMPTY
    attackers = g.state.play[player]
    if not attackers:
        return out
    for owner, c, rule in _cards(g, IN_DISCARD_ATTACK):
        out = out | rule(g, owner, c, player, attackers)
    return out


def attack_barred_by(g: Board, player: int, card: int):
    """The card in a discard pile whose ability forbids `card` of `player` to attack, or None."""
    for owner, c, rule in _cards(g, IN_DISCARD_ATTACK):
        if card in rule(g, owner, c, player, g.state.play[player]):
            return c
    return None


def block_forbidden(g: Board, attacker: int, blocker: int):
    """The card in a discard pile whose ability forbids `blocker` to block
    `attacker`, or None."""
    for owner, c, rule in _cards(g, IN_DISCARD_BLOCK):
        if rule(g, owner, c, attacker, blocker):
            return c
    return None


def _ban(c):
    return None if c is None else (CLAUSE, c)


def attack_ban(g: Board, player: int, card: int):
    """("later.in-discard", the card) when a card in a discard pile forbids
    `card` of `player` to attack; None otherwise, and in a game none of
    whose cards works from a discard pile (restrictions.barred_by)."""
    return _ban(attack_barred_by(g, player, card)) if g.table.flags.in_discard else None


def block_ban(g: Board, attacker: int, blocker: int):
    """("later.in-discard", the card) when a card in a discard pile forbids
    `blocker` to block `attacker`; None otherwise (combat.block_forbidden)."""
    return _ban(block_forbidden(g, attacker, blocker)) if g.table.flags.in_discard else None


def granted(g: Board, player: int, trigger: str) -> list[int]:
    """The cards of `player`'s discard pile that give `player`'s creatures a
    `trigger` ability (Blessed Axolotl Healer: Attack: gain 1 life)."""
    names = g.table.names
    return [c for c in g.state.discard[player] if IN_DISCARD_GRANTS.get(names[c]) == trigger]


def more_loss(g: Board, player: int, source) -> tuple[tuple[int, int], ...]:
    """later.in-discard.life: the extra life `player` loses as they lose life
    (Blessed Killer Bee in the opponent's pile: 2 more each), and the cards
    that add it, as (amount, card) pairs. A loss such a card adds adds nothing
    more (once per event)."""
    names = g.table.names
    if source is not None and names.get(source) in IN_DISCARD_LIFE and source in g.state.discard[1 - player]:
        return ()
    return tuple((IN_DISCARD_LIFE[names[c]], c) for c in g.state.discard[1 - player] if names[c] in IN_DISCARD_LIFE)


def life_reading(g: Board) -> str:
    """later.in-discard.life: the extra loss is part of the same loss (one
    event) or a loss of its own that follows."""
    return choice(g.profile, "later.in-discard.life")
