"""Resynchronising after a divergence (`verify --keep-going`): a new game at
the position a full state claim describes."""

from __future__ import annotations

import msgspec

from ..engine import Game


def resync(g: Game, claim, player: int, base_decks) -> Game | None:
    """A new game at the claimed position, about to take `player`'s turn action."""
    if any(len(getattr(claim, f)) != 2 for f in ("life", "mindbugs", "hand", "play", "discard", "deck")):
        return None   # not a position: every pair must have one entry per player

    pairs = (claim.life, claim.mindbugs, claim.hand, claim.play, claim.discard, claim.deck)
    if any(not isinstance(x, list) or len(x) != 2 for x in pairs):
        return None     # not one value per player: no position to rebuild (never an exception)
    s = g.state.copy()
    try:
        s.life = list(claim.life)
        s.mindbugs = list(claim.mindbugs)
        s.hand = [list(h) for h in claim.hand]
        s.play = [[c.card for c in side] for side in claim.play]
        s.exhausted = {c.card for side in claim.play for c in side if c.exhausted is True}
        s.discard = [list(d) for d in claim.discard]
        s.deck = [list(base_decks[p][len(base_decks[p]) - n:]) if isinstance(n, int) and n <= len(base_decks[p])
                  else list(n) for p, n in enumerate(claim.deck)]
    except (TypeError, IndexError):
        return None
    s.played = None
    s.pending = None
    s.combat = None
    s.triggers = []
    s.stack = [("action", False)]
    s.active = player
    if claim.turn is not msgspec.UNSET:
        s.turn = claim.turn
    s.attacks = {}
    s.arrived = ()      # later.action.fresh: a claim does not say what came into play this turn
    placed = [c for _, _, cards in s.zones() for c in cards]
    if len(placed) != len(set(placed)) or set(placed) != set(g.table.defs):
        return None
    ng = Game(g.table, g.profile, s)
    ng.run()
    return ng


