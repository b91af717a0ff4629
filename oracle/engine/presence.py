"""Which New Servants mechanics a game can meet at all, worked out once per
game (kept on its `Table`), so that games without those cards pay nothing for them:
attack bans (Hamster Lion), powers that follow life (Bugserker), abilities
that wait in discard piles (Hyenix), and the later sets' abilities that work
from a discard pile (Blessed and Cursed cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

from typing import NamedTuple

from ..cards import next_stage
from ..cards.abilities import ANY_SIDE_ATTACK_RULES, ATTACK_RULES, IN_DISCARD_GRANTS, LIFE_READERS, PILE_READERS
from ..cards.abilities import IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_LIFE, IN_DISCARD_POWER

EVENT_TRIGGERS = ("when-ally-defeated", "when-enemy-defeated", "when-you-gain-life", "when-you-lose-life")


class Flags(NamedTuple):
    attack_rules: bool
    life_readers: bool
    from_discard: bool
    end_of_turn: bool
    action: bool
    events: bool          # "when ..." abilities of creatures in play (triggers.when.events)
    to_discard: bool      # abilities that trigger as their card arrives in a discard pile (triggers.to-discard)
    in_discard: bool      # abilities that work from a discard pile (later.in-discard)
    piles: bool           # ... or powers that read a discard pile: a pile change forgets cached powers
    names: frozenset      # every design name the game can show (hooks of single cards test it: promos)


def flags(table) -> Flags:
    f = table.flags
    if f is None:
        designs = list(table.defs.values())
        designs += [n for n in map(next_stage, designs) if n is not None]   # the backs of set-aside cards
        names = {d.name for d in designs}
        triggers = {t for d in designs for t in d.triggers}
        in_discard = "in-discard" in triggers and any(
            not names.isdisjoint(t) for t in (IN_DISCARD_POWER, IN_DISCARD_ATTACK, IN_DISCARD_BLOCK,
                                              IN_DISCARD_GRANTS, IN_DISCARD_LIFE))
        f = table.flags = Flags(not names.isdisjoint(ATTACK_RULES) or not names.isdisjoint(ANY_SIDE_ATTACK_RULES),
                                not names.isdisjoint(LIFE_READERS),
                                "when" in triggers, "end-of-turn" in triggers, "action" in triggers,
                                not triggers.isdisjoint(EVENT_TRIGGERS), "to-discard" in triggers,
                                in_discard, in_discard or not names.isdisjoint(PILE_READERS),
                                frozenset(names))
    return f


def holder(g: Game, side: int, names):
    """The first creature of `side` in play whose design is one of `names`
    (a constant ability of a single card: the promos), or None; nothing is
    looked at in a game none of those designs can reach."""
    if flags(g.table).names.isdisjoint(names):
        return None
    for c in g.state.play[side]:
        if g.design(c).name in names:
            return c
    return None
