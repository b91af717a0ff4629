"""Which mechanics beyond First Contact a game can meet at all, worked out
when its `Table` is made (`Table.flags`), so that games without those cards
pay nothing for them: attack bans (Hamster Lion), powers that follow life
(Bugserker), abilities that wait in discard piles (Hyenix), the later sets'
abilities that work from a discard pile (Blessed and Cursed cards), and the
hooks of single promo designs."""

from __future__ import annotations

from ..cards import next_stage
from ..cards.abilities import ANY_SIDE_ATTACK_RULES, ATTACK_RULES, IN_DISCARD_GRANTS, LIFE_READERS, PILE_READERS
from ..cards.abilities import IN_DISCARD_ATTACK, IN_DISCARD_BLOCK, IN_DISCARD_LIFE, IN_DISCARD_POWER
from ..cards.abilities import HUNT_RULES, REVERSED_FIGHTS
from ..cards.promo_abilities import BLOCK_READERS, DEFEAT_READERS, GRANTED_ATTACK, HAND_LOCKS, LIFE_LOCKS
from ..cards.promo_abilities import LIFE_AS_MINDBUGS, MINDBUG_BANS, MINDBUG_WATCHERS, PLAY_LIMITS, SIDE_MARKERS


class Flags:
    """What a table's cards can meet, each a bool unless said otherwise.

    A plain class, not a named tuple: in the compiled build its fields are
    read directly, as the engine's hot paths read them at every decision."""

    __slots__ = ("life_readers", "from_discard", "end_of_turn", "action", "events", "to_discard", "in_discard",
                 "piles", "names", "play_limits", "hand_locks", "life_locks", "mindbug_hooks", "side_markers",
                 "granted_attack", "block_readers", "defeat_readers", "hunt_rules", "reversed", "lines",
                 "enemy_attack_rules", "any_side_attack_rules")

    def __init__(self, *, life_readers: bool, from_discard: bool, end_of_turn: bool, action: bool, events: bool,
                 to_discard: bool, in_discard: bool, piles: bool, names: frozenset, play_limits: bool,
                 hand_locks: bool, life_locks: bool, mindbug_hooks: bool, side_markers: bool,
                 granted_attack: bool, block_readers: bool, defeat_readers: bool, hunt_rules: bool,
                 reversed: bool, lines: bool, enemy_attack_rules: bool, any_side_attack_rules: bool):
        self.life_readers = life_readers    # powers that follow life (abilities.constant-counts)
        self.from_discard = from_discard    # abilities that work from a discard pile as life is lost (Hyenix)
        self.end_of_turn = end_of_turn      # "at the end of turn" effects (triggers.when)
        self.action = action                # Action effects (triggers.action)
        self.events = events                # "when ..." abilities of creatures in play (triggers.when.events)
        self.to_discard = to_discard        # abilities that trigger as their card arrives in a discard pile
        self.in_discard = in_discard        # abilities that work from a discard pile (later.in-discard)
        self.piles = piles                  # ... or powers that read a discard pile: a pile change forgets powers
        self.names = names                  # every design name the game can show (hooks of single cards test it)
        # Whether any design of the game has the ability a hook looks for: with
        # none, the hot paths of the engine do not call the hook at all (each
        # hook tests `names` itself too, and answers "nothing" in such a game).
        self.play_limits = play_limits      # promo.play-limit (engine.play_limits)
        self.hand_locks = hand_locks        # promo.hand-closed (engine.hand_lock)
        self.life_locks = life_locks        # promo.cannot-lose-life (engine.outcome)
        self.mindbug_hooks = mindbug_hooks  # promo.mindbug-ban, promo.mindbug-used, promo.life-as-mindbugs
        self.side_markers = side_markers    # promo.side-markers (engine.sides)
        self.granted_attack = granted_attack    # promo.granted-attack (engine.granted)
        self.block_readers = block_readers  # promo.blocked-this-turn (engine.turn_record)
        self.defeat_readers = defeat_readers    # promo.felix-defeated (engine.turn_record)
        self.hunt_rules = hunt_rules        # later.forced.hippo (engine.forced, combat)
        self.reversed = reversed            # later.reversed (combat)
        self.lines = lines                  # designs of evolution lines (later.evolve): creatures with a stage
        self.enemy_attack_rules = enemy_attack_rules    # abilities.cannot-attack: bans on enemy creatures
        self.any_side_attack_rules = any_side_attack_rules  # ... and bans on either side's creatures


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

    return Flags(life_readers=meets(LIFE_READERS), from_discard="when" in triggers,
                 end_of_turn="end-of-turn" in triggers, action="action" in triggers,
                 events=not triggers.isdisjoint(EVENT_TRIGGERS), to_discard="to-discard" in triggers,
                 in_discard=in_discard, piles=in_discard or meets(PILE_READERS), names=frozenset(names),
                 play_limits=meets(PLAY_LIMITS), hand_locks=meets(HAND_LOCKS), life_locks=meets(LIFE_LOCKS),
                 mindbug_hooks=meets(MINDBUG_BANS) or meets(MINDBUG_WATCHERS) or meets(LIFE_AS_MINDBUGS),
                 side_markers=meets(SIDE_MARKERS), granted_attack=meets(GRANTED_ATTACK),
                 block_readers=meets(BLOCK_READERS), defeat_readers=meets(DEFEAT_READERS),
                 hunt_rules=meets(HUNT_RULES), reversed=meets(REVERSED_FIGHTS),
                 lines=any(d.stage for d in designs),
                 enemy_attack_rules=meets(ATTACK_RULES), any_side_attack_rules=meets(ANY_SIDE_ATTACK_RULES))
