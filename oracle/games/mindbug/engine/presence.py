"""Which mechanics beyond First Contact a game can meet at all, worked out
when its `Table` is made (`Table.flags`), so that games without those cards
pay nothing for them: attack bans (Hamster Lion), powers that follow life
(Bugserker), abilities that wait in discard piles (Hyenix), the later sets'
abilities that work from a discard pile (Blessed and Cursed cards), and the
hooks of single promo designs."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

from ..cards import next_stage
from ..cards.abilities import ANY_SIDE_ATTACK_RULES, ATTACK_RULES, IN_DISCARD_GRANTS, LIFE_READERS, PILE_READERS
from ..cards.abilities import IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_LIFE, IN_DISCARD_POWER
from ..cards.abilities import HUNT_RULES, REVERSED_FIGHTS
from ..cards.promo_abilities import BLOCK_READERS, DEFEAT_READERS, GRANTED_ATTACK, HAND_LOCKS, LIFE_LOCKS
from ..cards.promo_abilities import LIFE_AS_MINDBUGS, MINDBUG_BANS, MINDBUG_WATCHERS, PLAY_LIMITS, SIDE_MARKERS
from .records import Flags

EVENT_TRIGGERS = ("when-ally-defeated", "when-enemy-defeated", "when-you-gain-life", "when-you-lose-life")


# Flags by the designs a game deals (their ids; the designs are kept with
# them, so no id is reused while its entry lives): games dealt from the same
# sets share one answer. Bounded: emptied when full.
_KNOWN: dict[frozenset, tuple] = {}
_MAX_KNOWN = 256


def flags_of(defs: dict) -> Flags:
    """The Flags of a game whose cards are `defs` (card id -> design); a
    `Table` works them out when it is made (its `flags`)."""
    key = frozenset(map(id, defs.values()))
    known = _KNOWN.get(key)
    if known is None:
        if len(_KNOWN) >= _MAX_KNOWN:
            _KNOWN.clear()
        dealt = tuple({id(d): d for d in defs.values()}.values())
        known = _KNOWN[key] = (dealt, _flags_of(list(dealt)))
    return known[1]


def _flags_of(designs: list) -> Flags:
    designs += [n for n in map(next_stage, designs) if n is not None]   # the backs of set-aside cards
    names = {d.name for d in designs}
    triggers = {t for d in designs for t in d.triggers}
    in_discard = "in-discard" in triggers and any(
        not names.isdisjoint(t) for t in (IN_DISCARD_POWER, IN_DISCARD_ATTACK, IN_DISCARD_BLOCK,
                                          IN_DISCARD_GRANTS, IN_DISCARD_LIFE))

    def meets(hooks) -> bool:
        return not names.isdisjoint(hooks)

    return Flags(meets(LIFE_READERS),
                 "when" in triggers, "end-of-turn" in triggers, "action" in triggers,
                 not triggers.isdisjoint(EVENT_TRIGGERS), "to-discard" in triggers,
                 in_discard, in_discard or meets(PILE_READERS), frozenset(names),
                 play_limits=meets(PLAY_LIMITS), hand_locks=meets(HAND_LOCKS), life_locks=meets(LIFE_LOCKS),
                 mindbug_hooks=meets(MINDBUG_BANS) or meets(MINDBUG_WATCHERS) or meets(LIFE_AS_MINDBUGS),
                 side_markers=meets(SIDE_MARKERS), granted_attack=meets(GRANTED_ATTACK),
                 block_readers=meets(BLOCK_READERS), defeat_readers=meets(DEFEAT_READERS),
                 hunt_rules=meets(HUNT_RULES), reversed=meets(REVERSED_FIGHTS),
                 lines=any(d.stage for d in designs),
                 enemy_attack_rules=meets(ATTACK_RULES), any_side_attack_rules=meets(ANY_SIDE_ATTACK_RULES))


def holder(g: Game, side: int, names):
    """The first creature of `side` in play whose design is one of `names`
    (a constant ability of a single card: the promos), or None; nothing is
    looked at in a game none of those designs can reach."""
    if g.table.flags.names.isdisjoint(names):
        return None
    for c in g.state.play[side]:
        if g.design(c).name in names:
            return c
    return None
