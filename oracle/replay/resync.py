"""Resynchronising after a divergence (`verify --keep-going`): a new game at
the position a full state claim describes."""

from __future__ import annotations

import msgspec

from ..games.mindbug.engine import Game


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
    if not _later_zones(g, s, claim):
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




def _later_zones(g: Game, s, claim) -> bool:
    """The evolved creatures and boost cards of the claimed position
    (later.evolve, later.boost): a creature's claimed `stage` and `boosts`
    where given, else what the rules have for a creature still in play. False
    when the claim cannot be built (a stage with no set-aside card free)."""
    U = msgspec.UNSET
    entries = {c.card: c for side in claim.play for c in side}
    old_stage = {c: (a, n) for c, a, n in s.stages}
    old_boosts = dict(s.boosts)
    free = set(s.set_aside) | {a for a, _n in old_stage.values()}
    stages, boosts = [], []
    for c, e in entries.items():
        n = e.stage if e.stage is not U else old_stage.get(c, (None, 1))[1]
        if n in (2, 3):
            line = g.table.defs[c].name
            aside = old_stage.get(c, (None,))[0]
            if aside is None or aside not in free:
                aside = next((a for a in sorted(free) if g.table.defs[a].line == line), None)
            if aside is None:
                return False
            free.discard(aside)
            stages.append((c, aside, n))
        under = e.boosts if e.boosts is not U else old_boosts.get(c, ())
        if under:
            if not all(isinstance(b, int) for b in under):
                return False
            boosts.append((c, tuple(under)))
    s.stages = tuple(stages)
    s.boosts = tuple(boosts)
    s.set_aside = sorted(free)
    return True
