"""`mb-oracle perft --game mind-up`: how many distinct sequences of N turns
lead on from a deal or a position.

A step is a turn: one joint choice, a card from every player's hand,
revealed together. The last card of a round is not a step (the rules place
it), nor is the chance of a new round: the Score order, drawn from the seed
(`orders`), changes no hand, so it is not expanded; the draws come from the
pile in seat order. A sequence counts only with exactly N turns: the game
ends after the third round's last turn.
"""

from __future__ import annotations

import itertools
import random

from ..engine import Game, RuleError


def orders(seed: int) -> list[list[int]]:
    """The Score order of each round for a seed's perft."""
    rng = random.Random(seed)
    out = []
    for _ in range(3):
        order = [1, 2, 3, 4, 5]
        rng.shuffle(order)
        out.append(order)
    return out


def _ready(g: Game, chance: list[list[int]]) -> Game | None:
    """The game at its next turn (the next round started), or None once over."""
    while g.pending.kind == "round":
        try:
            g.start_round(chance[g.state.round])
        except RuleError:       # a ruling's position whose players took back unequal hands: no turn follows
            return None
    return None if g.is_over else g


def joint_choices(g: Game):
    """Every turn the rules allow now: a card for each player, by seat."""
    return itertools.product(*(g.legal(p) for p in range(g.state.players)))


def count(g: Game, depth: int, chance: list[list[int]]) -> int:
    if depth <= 0:
        return 1
    g = _ready(g.copy(), chance)
    if g is None:
        return 0
    if depth == 1:
        total = 1
        for p in range(g.state.players):
            total *= len(g.legal(p))
        return total
    total = 0
    for cards in joint_choices(g):
        nxt = g.copy()
        nxt.play_turn(list(cards))
        total += count(nxt, depth - 1, chance)
    return total


def divide(g: Game, depth: int, chance: list[list[int]]) -> list[tuple[list[int], int]]:
    """(first turn, sequences under it) for every legal first turn."""
    g = _ready(g.copy(), chance)
    if g is None or depth <= 0:
        return []
    out = []
    for cards in joint_choices(g):
        nxt = g.copy()
        nxt.play_turn(list(cards))
        out.append((list(cards), count(nxt, depth - 1, chance)))
    return out
