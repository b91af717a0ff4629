"""What creatures did this turn, for the promos that ask at the end of a
turn (promo.blocked-this-turn: Jazz Dog; promo.felix-defeated: "One-Eye"
Felix).

- A creature that blocks, or is named by HUNTER and so blocks, is marked
  "blocked" until the turn ends (effects.this-turn).
- A creature whose fight defeated the enemy creature it fought (the enemy
  left play; a TOUGH one exhausted instead was not defeated) is marked
  "defeated-enemy" until the turn ends.
Only games with a card that reads a record keep it.
"""

from __future__ import annotations

from ..cards.promo_abilities import ANY_TURN_END, BLOCK_READERS, DEFEAT_READERS
from ..readings import choice


def _mark(s, card: int, what: str) -> None:
    if (card, what) not in s.lasting:
        s.lasting = s.lasting + ((card, what),)


def record_block(g, blocker: int) -> None:
    """promo.blocked-this-turn."""
    if not g.table.flags.names.isdisjoint(BLOCK_READERS):
        _mark(g.state, blocker, "blocked")


def record_fight(g, a: int, b: int) -> None:
    """promo.felix-defeated: after the fight of `a` and `b`, each creature
    still in play whose foe left play defeated an enemy creature."""
    if g.table.flags.names.isdisjoint(DEFEAT_READERS):
        return
    s = g.state
    for mine, foe in ((a, b), (b, a)):
        if g.controller(mine) is not None and g.controller(foe) is None:
            _mark(s, mine, "defeated-enemy")


def marked(s, card: int, what: str) -> bool:
    return (card, what) in s.lasting


def end_of_turn_waiting(g, active: int) -> list:
    """(creature, controller) of every "at the end of turn" ability that
    waits as `active`'s turn ends: the active player's creatures', and the
    other player's whose ability is for any turn. One whose condition reads
    what it did this turn waits only if it did it (promo.felix-defeated)."""
    s = g.state
    out = [(c, active) for c in s.play[active] if "end-of-turn" in g.design(c).triggers]
    if not g.table.flags.names.isdisjoint(ANY_TURN_END):
        if choice(g.profile, "promo.felix-defeated") == "any-turn":
            out += [(c, 1 - active) for c in s.play[1 - active] if g.design(c).name in ANY_TURN_END]
        out = [(c, p) for c, p in out if g.design(c).name not in DEFEAT_READERS or marked(s, c, "defeated-enemy")]
    return out
