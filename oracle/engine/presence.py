"""Which New Servants mechanics a game can meet at all, worked out once per
game (kept on its `Table`), so that games without those cards pay nothing for them:
attack bans (Hamster Lion), powers that follow life (Bugserker), abilities
that wait in discard piles (Hyenix), and the later sets' abilities that work
from a discard pile (Blessed and Cursed cards)."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import next_stage
from ..cards.abilities import ANY_SIDE_ATTACK_RULES, ATTACK_RULES, IN_DISCARD_GRANTS, LIFE_READERS, PILE_READERS
from ..cards.abilities import IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_LIFE, IN_DISCARD_POWER
from ..cards.abilities import HUNT_RULES, REVERSED_FIGHTS
from ..cards.promo_abilities import BLOCK_READERS, DEFEAT_READERS, GRANTED_ATTACK, HAND_LOCKS, LIFE_LOCKS
from ..cards.promo_abilities import LIFE_AS_MINDBUGS, MINDBUG_BANS, MINDBUG_WATCHERS, PLAY_LIMITS, SIDE_MARKERS

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
    # Whether any design of the game has the ability a hook looks for: with
    # none, the hot paths of the engine do not call the hook at all (each
    # hook tests `names` itself too, and answers "nothing" in such a game).
    play_limits: bool     # promo.play-limit (engine.play_limits)
    hand_locks: bool      # promo.hand-closed (engine.hand_lock)
    life_locks: bool      # promo.cannot-lose-life (engine.outcome)
    mindbug_hooks: bool   # promo.mindbug-ban, promo.mindbug-used, promo.life-as-mindbugs (engine.mindbug_rules)
    side_markers: bool    # promo.side-markers (engine.sides)
    granted_attack: bool  # promo.granted-attack (engine.granted)
    block_readers: bool   # promo.blocked-this-turn (engine.turn_record)
    defeat_readers: bool  # promo.felix-defeated (engine.turn_record)
    hunt_rules: bool      # later.forced.hippo (engine.forced, combat)
    reversed: bool        # later.reversed (combat)
    lines: bool           # designs of evolution lines (later.evolve): creatures with a stage
    enemy_attack_rules: bool      # abilities.cannot-attack: bans on enemy creatures (Hamster Lion)
    any_side_attack_rules: bool   # ... and bans on either side's creatures (the later sets)


# Flags by the designs a game deals (their ids; the designs are kept with
# them, so no id is reused while its entry lives): games dealt from the same
# sets share one answer. Bounded: emptied when full.
_KNOWN: dict[frozenset, tuple] = {}
_MAX_KNOWN = 256


def flags(table) -> Flags:
    f = table.flags
    if f is None:
        dealt = tuple({id(d): d for d in table.defs.values()}.values())
        key = frozenset(map(id, dealt))
        known = _KNOWN.get(key)
        if known is None:
            if len(_KNOWN) >= _MAX_KNOWN:
                _KNOWN.clear()
            known = _KNOWN[key] = (dealt, _flags_of(list(dealt)))
        f = table.flags = known[1]
    return f


def _flags_of(designs: list) -> Flags:
    designs += [n for n in map(next_stage, designs) if n is not None]   # the backs of set-aside cards
    names = {d.name for d in designs}
    triggers = {t for d in designs for t in d.triggers}
    in_discard = "in-discard" in triggers and any(
        not names.isdisjoint(t) for t in (IN_DISCARD_POWER, IN_DISCARD_ATTACK, IN_DISCARD_BLOCK,
                                          IN_DISCARD_GRANTS, IN_DISCARD_LIFE))
    return Flags(not names.isdisjoint(ATTACK_RULES) or not names.isdisjoint(ANY_SIDE_ATTACK_RULES),
                 not names.isdisjoint(LIFE_READERS),
                 "when" in triggers, "end-of-turn" in triggers, "action" in triggers,
                 not triggers.isdisjoint(EVENT_TRIGGERS), "to-discard" in triggers,
                 in_discard, in_discard or not names.isdisjoint(PILE_READERS),
                 frozenset(names),
                 *(not names.isdisjoint(t) for t in (
                     PLAY_LIMITS, HAND_LOCKS, LIFE_LOCKS,
                     MINDBUG_BANS | MINDBUG_WATCHERS | LIFE_AS_MINDBUGS, SIDE_MARKERS,
                     GRANTED_ATTACK, BLOCK_READERS, DEFEAT_READERS, HUNT_RULES, REVERSED_FIGHTS)),
                 any(d.stage for d in designs),
                 not names.isdisjoint(ATTACK_RULES), not names.isdisjoint(ANY_SIDE_ATTACK_RULES))


def holder(g, side: int, names):
    """The first creature of `side` in play whose design is one of `names`
    (a constant ability of a single card: the promos), or None; nothing is
    looked at in a game none of those designs can reach."""
    if g.table.flags.names.isdisjoint(names):
        return None
    for c in g.state.play[side]:
        if g.design(c).name in names:
            return c
    return None
