"""Abilities that work from the discard pile when their player loses life
(triggers.from-discard; Hyenix).

Each time a player loses life (life.lose, an amount of one or more at once),
every card of that player's discard pile with such an ability waits to
resolve like any triggered effect, for that player: the one whose pile it is
in. A loss that ends the game triggers nothing (winning.life comes first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board


def life_lost(g: Board, player: int) -> None:
    if not g.table.flags.from_discard:
        return
    s = g.state
    defs = g.table.defs
    queued = False
    for c in s.discard[player]:
        if "when" in defs[c].triggers:
            s.triggers.append((c, player, "when"))
            queued = True
    if queued:
        g.emit("from-discard", ("triggers.from-discard",), player=player)
        g.push_next(("resolve-triggers",))
