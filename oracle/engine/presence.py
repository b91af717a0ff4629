"""Which New Servants mechanics a game can meet at all, worked out once per
game (kept on its `Table`), so that games without those cards pay nothing for them:
attack bans (Hamster Lion), powers that follow life (Bugserker), abilities
that wait in discard piles (Hyenix)."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import next_stage
from ..cards.abilities import ATTACK_RULES, LIFE_READERS

EVENT_TRIGGERS = ("when-ally-defeated", "when-enemy-defeated", "when-you-gain-life", "when-you-lose-life")


class Flags(NamedTuple):
    attack_rules: bool
    life_readers: bool
    from_discard: bool
    end_of_turn: bool
    action: bool
    events: bool          # "when ..." abilities of creatures in play (triggers.when.events)
    to_discard: bool      # abilities that trigger as their card arrives in a discard pile (triggers.to-discard)
    names: frozenset      # every design name the game can show (hooks of single cards test it: promos)


def flags(table) -> Flags:
    f = table.flags
    if f is None:
        designs = list(table.defs.values())
        designs += [n for n in map(next_stage, designs) if n is not None]   # the backs of set-aside cards
        names = {d.name for d in designs}
        triggers = {t for d in designs for t in d.triggers}
        f = table.flags = Flags(not names.isdisjoint(ATTACK_RULES), not names.isdisjoint(LIFE_READERS),
                                "when" in triggers, "end-of-turn" in triggers, "action" in triggers,
                                not triggers.isdisjoint(EVENT_TRIGGERS), "to-discard" in triggers,
                                frozenset(names))
    return f


def holder(g, side: int, names):
    """The first creature of `side` in play whose design is one of `names`
    (a constant ability of a single card: the promos), or None; nothing is
    looked at in a game none of those designs can reach."""
    if flags(g.table).names.isdisjoint(names):
        return None
    for c in g.state.play[side]:
        if g.design(c).name in names:
            return c
    return None
