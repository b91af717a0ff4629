"""The creature in play that holds a single design's constant ability (the
promos' play limits, closed hands and life locks): looked for only in a
game whose table can show one of those designs (presence.Flags.names)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board


def holder(g: Board, side: int, names):
    """The first creature of `side` in play whose design is one of `names`
    (a constant ability of a single card: the promos), or None; nothing is
    looked at in a game none of those designs can reach."""
    if g.table.flags.names.isdisjoint(names):
        return None
    for c in g.state.play[side]:
        if g.design(c).name in names:
            return c
    return None
