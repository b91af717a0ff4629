"""What each First Contact card does, written with the engine's effect verbs.

Triggered abilities take (verbs, game, controller, card): `verbs` is the
engine's module of effect verbs (engine/verbs.py), handed in by the engine
when it runs an ability, so that card data never imports the engine above it. Constant abilities are
small functions in three layers (power, keywords that depend on power,
keywords copied from enemies), plus the blocking restrictions and the one
ability that stops Play effects.
"""

from __future__ import annotations

from typing import Final

from . import FRENZY, HUNTER, POISONOUS, SNEAKY
from . import beyond_eternity_abilities as _eternity      # the later sets' abilities, merged in below
from . import promo_abilities as _promo                   # the promos', likewise
from ..readings import choice

# -- constant abilities: power layer ---------------------------------------


def goblin_werewolf(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """+6 power during its controller's turn."""
    if g.state.active == me:
        power[card] += 6


def shield_bugs(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """The other allied creatures (not itself) get +1 power."""
    for c in mine:
        if c != card:
            power[c] += 1


def urchin_hurler(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """During its controller's turn the other allied creatures get +2 power."""
    if g.state.active == me:
        for c in mine:
            if c != card:
                power[c] += 2


def lone_yeti(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """While it is the only allied creature: +5 power and FRENZY (never stored)."""
    if len(mine) == 1:
        power[card] += 5
        kw[card] |= FRENZY


def bugserker(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """+8 power while its controller has exactly 1 life (abilities.constant-counts)."""
    if g.state.life[me] == 1:
        power[card] += 8


def froblin_instigator(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """+2 power for each other allied creature (abilities.constant-counts)."""
    power[card] += 2 * (len(mine) - 1)


# Designs whose power follows their controller's life (a life change must
# forget cached powers when one is in the game).
LIFE_READERS: Final[set] = {"Bugserker"}

POWER_LAYER: Final[dict] = {
    "Goblin Werewolf": goblin_werewolf,
    "Shield Bugs": shield_bugs,
    "Urchin Hurler": urchin_hurler,
    "Lone Yeti": lone_yeti,
    "Bugserker": bugserker,
    "Froblin Instigator": froblin_instigator,
}

# -- constant abilities: keywords granted by power ---------------------------


def snail_thrower(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """The other allied creatures with power 4 or less have HUNTER and POISONOUS."""
    for c in mine:
        if c != card and power[c] <= 4:
            kw[c] |= HUNTER | POISONOUS


GRANT_LAYER: Final[dict] = {"Snail Thrower": snail_thrower}

# -- constant abilities: keywords copied from enemies ------------------------

SHARKY_COPIES: Final = HUNTER | SNEAKY | FRENZY | POISONOUS


def sharky(g, me: int, card: int, mine: list[int], power: dict[int, int], kw: dict[int, int]) -> None:
    """Has each of HUNTER, SNEAKY, FRENZY, POISONOUS while an enemy creature has it."""
    for c in g.state.play[1 - me]:
        kw[card] |= kw[c] & SHARKY_COPIES


COPY_LAYER: Final[dict] = {"Sharky Crab-Dog-Mummypus": sharky}

# The constant abilities above that never read whose turn it is: a new turn
# leaves the powers and keywords they give as they were (engine.turns keeps
# them). The functions themselves, so that a card that borrows one (a
# declared card) is known by it; any other ability is taken to read it.
TURN_FREE: Final[frozenset] = frozenset((shield_bugs, lone_yeti, bugserker, froblin_instigator, snail_thrower,
                                         sharky))

# The power-layer abilities above that never lower a power: a game whose
# printed powers are all at or above the floor needs no floor with these
# alone (engine.power keeps to them then).
RAISES_ONLY: Final[frozenset] = frozenset((goblin_werewolf, shield_bugs, urchin_hurler, lone_yeti, bugserker,
                                           froblin_instigator))

# -- constant abilities: blocking and Play effects ---------------------------


def bee_bear(g, holder, side, attacker, blocker):
    """It cannot be blocked by creatures with power 6 or less."""
    return attacker == holder and g.power(blocker) <= 6


def elephantopus(g, holder, side, attacker, blocker):
    """The opponent of its controller cannot block with power 4 or less."""
    return g.controller(attacker) == side and g.power(blocker) <= 4


def _extreme_scope(g, side: int) -> list:
    """cards.extreme-power: the creatures the highest or lowest power is taken
    over, for an ability held by `side`: enemy creatures (the team's
    reading) or every creature in play."""
    s = g.state
    if choice(g.profile, "cards.extreme-power") == "among-enemies":
        return s.play[1 - side]
    return s.play[0] + s.play[1]


def _extreme_power(power: dict[int, int], scope: list, highest: bool) -> int:
    """The highest (or lowest) power of the creatures of `scope`, which
    holds at least one: a loop, where the compiled build would step a
    generator for max() or min() (about 300 instructions a creature)."""
    best = power[scope[0]]
    for c in scope:
        v = power[c]
        if (v > best) if highest else (v < best):
            best = v
    return best


def ferret_pacifier(g, holder, side, attacker, blocker):
    """Enemy creatures with the highest power among enemy creatures cannot block."""
    if blocker not in g.state.play[1 - side]:
        return False
    power = g.stats()[0]                                        # one call for all the powers read
    return power[blocker] == _extreme_power(power, _extreme_scope(g, side), True)


BLOCK_RULES: Final[dict] = {"Bee Bear": bee_bear, "Elephantopus": elephantopus, "Ferret Pacifier": ferret_pacifier}


# -- constant abilities: creatures that cannot attack -------------------------


def hamster_lion(g, holder, side, attackers):
    """Enemy creatures with the lowest power among enemy creatures cannot
    attack; powers are read on the enemy's turn, when it would attack."""
    if not attackers:
        return frozenset()
    power = g.stats()[0]                                        # one call for all the powers read
    low = _extreme_power(power, _extreme_scope(g, side), False)
    return frozenset(c for c in attackers if power[c] == low)


ATTACK_RULES: Final[dict] = {"Hamster Lion": hamster_lion}
# Rules, same signature, held by a creature of either side: they may bar its
# own side's creatures too (Hypnotic Mouse, Cave Lizard).
ANY_SIDE_ATTACK_RULES: Final[dict] = {}

# -- abilities that work from a discard pile (later.in-discard) --------------
# Keyed by design name; each works for the player whose discard pile holds
# the card (the pile owner), and only while it lies there.
IN_DISCARD_POWER: Final[dict] = {}     # fn(g, owner, card, owner's creatures, power): changes powers
IN_DISCARD_ATTACK: Final[dict] = {}    # fn(g, owner, card, player, attackers) -> the attackers of `player` barred
IN_DISCARD_BLOCK: Final[dict] = {}     # fn(g, owner, card, attacker, blocker) -> True when the block is forbidden
IN_DISCARD_GRANTS: Final[dict] = {}    # trigger ("attack") of the pile owner's creatures whose effect is
                                # TRIGGERED[(name, trigger)], resolved for the creature's controller
IN_DISCARD_LIFE: Final[dict] = {}      # extra life the pile owner's opponent loses each time they lose life
# Designs in play whose power reads a discard pile (Berserker Rabbit).
PILE_READERS: Final[set] = set()
# Designs whose Defeated effect uses the boost cards that were under them
# (later.boost.defeated: they wait under the card until that effect is done).
KEEPS_BOOSTS: Final[set] = set()

# Constant abilities that say which creature an enemy HUNTER names (Captain
# Hippo: later.forced.hippo), and the designs that reverse a fight they are
# part of (Sawn: later.reversed).
HUNT_RULES: Final[dict] = {}
REVERSED_FIGHTS: Final[set[str]] = set()

# Octonite counters a card comes into play with (later.octonite): declared cards only.
OCTONITE: Final[dict[str, int]] = {}
# Declared cards whose controller may hand out their counters as they come
# into play (later.octonite.distribute).
DISTRIBUTE: Final[set[str]] = set()
# Declared Action effects: whether activating one would do something now
# (an Action that would do nothing may not be activated).
ACTION_USEFUL: Final[dict] = {}

# Declared cards that use later-set mechanics, with the mechanics (FAST, Harvest...).
LATER: Final[dict[str, tuple[str, ...]]] = {}


# Designs whose constant ability stops the opponent's Play effects.
PLAY_BLOCKERS: Final[set] = {"Deathweaver"}


def play_blocker(enemies: list[int], defs: dict) -> int | None:
    """The Deathweaver that stops a player's Play effects, if any: it stops
    the Play effects of its controller's opponent. `enemies`: that
    player's opponent's creatures, whose designs are `defs` (the engine
    passes them typed, where the game, which this module may not name,
    would be read attribute by attribute)."""
    for c in enemies:
        if defs[c].name in PLAY_BLOCKERS:
            return c
    return None


# -- triggered abilities -----------------------------------------------------


def creatures(g):
    s = g.state
    return s.play[0] + s.play[1]


def enemies_with(g, me, test):
    """Enemy creatures (terms.allied-enemy) of `me`; "the opponent" is always
    the other player (terms.opponent)."""
    return [c for c in g.state.play[1 - me] if test(g.power(c))]


def axolotl_healer(fx, g, me, card):
    fx.gain_life(g, me, 2, ("triggers.play",), card)


def compost_dragon(fx, g, me, card):
    fx.choose(g, me, g.state.discard[me], 1, 1, ("play-from-discard", me, me, card),
              ("effects.play-card",), card, "a card of your discard pile to play")


def explosive_toad(fx, g, me, card):
    # Any creature in play, allied ones included.
    fx.choose(g, me, creatures(g), 1, 1, ("defeat", card, "triggers.defeated"),
              ("triggers.defeated",), card, "a creature to defeat")


def ferret_bomber(fx, g, me, card):
    opp = 1 - me
    hand = g.state.hand[opp]
    fx.choose(g, opp, hand, 2, 2, ("discard", opp, card), ("terms.discard", "effects.chooser"), card,
              "two cards to discard")


def grave_robber(fx, g, me, card):
    fx.choose(g, me, g.state.discard[1 - me], 1, 1, ("play-from-discard", me, 1 - me, card),
              ("effects.play-card",), card, "a card of the opponent's discard pile to play")


def kangasaurus_rex(fx, g, me, card):
    fx.defeat(g, enemies_with(g, me, lambda p: p <= 4), ("triggers.play",), card)


def killer_bee(fx, g, me, card):
    fx.lose_life(g, 1 - me, 1, ("triggers.play",), card)


def snail_hydra(fx, g, me, card):
    s = g.state
    if len(s.play[me]) < len(s.play[1 - me]):
        fx.choose(g, me, creatures(g), 1, 1, ("defeat", card, "triggers.attack"),
                  ("triggers.attack",), card, "a creature to defeat")


def tiger_squirrel(fx, g, me, card):
    fx.choose(g, me, enemies_with(g, me, lambda p: p >= 7), 1, 1, ("defeat", card, "triggers.play"),
              ("triggers.play",), card, "an enemy creature with power 7 or more to defeat")


def tusked_extorter(fx, g, me, card):
    opp = 1 - me
    fx.choose(g, opp, g.state.hand[opp], 1, 1, ("discard", opp, card), ("terms.discard", "effects.chooser"),
              card, "a card to discard")


def brain_fly(fx, g, me, card):
    fx.choose(g, me, enemies_with(g, me, lambda p: p >= 6), 1, 1, ("take-control", me, card),
              ("terms.take-control",), card, "an enemy creature with power 6 or more to take")


def chameleon_sniper(fx, g, me, card):
    fx.lose_life(g, 1 - me, 1, ("triggers.attack",), card)


def giraffodile(fx, g, me, card):
    fx.to_hand_from_discard(g, me, card)


def harpy_mother(fx, g, me, card):
    # "Up to two": none, one or two.
    fx.choose(g, me, enemies_with(g, me, lambda p: p <= 5), 0, 2, ("take-control", me, card),
              ("terms.take-control", "triggers.defeated"), card, "up to two enemy creatures with power 5 or less")


def mysterious_mermaid(fx, g, me, card):
    fx.set_life(g, me, g.state.life[1 - me], ("triggers.play",), card)


def shark_dog(fx, g, me, card):
    fx.choose(g, me, enemies_with(g, me, lambda p: p >= 6), 1, 1, ("defeat", card, "triggers.attack"),
              ("triggers.attack",), card, "an enemy creature with power 6 or more to defeat")


def strange_barrel(fx, g, me, card):
    fx.pick_at_random(g, g.state.hand[1 - me], 2, ("steal", me, card), ("terms.steal", "triggers.defeated"),
                      card, "two random cards of the opponent's hand")


def turbo_bug(fx, g, me, card):
    opp = 1 - me
    fx.lose_life(g, opp, g.state.life[opp] - 1, ("triggers.attack",), card)


# -- New Servants ----------------------------------------------------------


def any_creature(g, me):
    """cards.any-creature: 'a creature' is one of either side (the team's
    reading), or an enemy creature only."""
    if choice(g.profile, "cards.any-creature") == "either-side":
        return creatures(g)
    return list(g.state.play[1 - me])


def count_draculeech(fx, g, me, card):
    # Both parts are mandatory, the life first (life.lose.own-effect): at 1
    # life its controller loses before anything is defeated.
    fx.lose_life(g, me, 1, ("triggers.attack", "life.lose.own-effect"), card)
    if g.state.winner is not None:
        return
    fx.choose(g, me, any_creature(g, me), 1, 1, ("defeat", card, "triggers.attack"),
              ("triggers.attack", "cards.any-creature"), card, "a creature to defeat")


def goreagle_alpha(fx, g, me, card):
    fx.lose_life(g, me, 1, ("triggers.play", "life.lose.own-effect"), card)


def hungry_hungry_hamster(fx, g, me, card):
    opp = 1 - me
    fx.choose(g, opp, g.state.hand[opp], 1, 1, ("hand-over", opp, me, card), ("cards.hand-over", "effects.chooser"),
              card, "a card of your hand to give to the opponent")


def hyenix(fx, g, me, card):
    fx.may_play_from_discard(g, me, card, ("triggers.from-discard",), card)


def majestic_manticore(fx, g, me, card):
    # Every creature tied for the lowest power at once (cards.extreme-power),
    # powers read now, on the attacker's turn.
    pool = any_creature(g, me)
    if not pool:
        g.emit("no-effect", ("effects.as-much-as-possible",), player=me, source=card)
        return
    low = min(g.power(c) for c in pool)
    fx.defeat(g, [c for c in pool if g.power(c) == low], ("triggers.attack", "cards.extreme-power",
                                                          "cards.any-creature"), card)


def the_lurker(fx, g, me, card):
    # The count is taken once, now, The Lurker included.
    s = g.state
    if card in s.play[me] and len(s.play[me]) > len(s.play[1 - me]):
        fx.mark_this_turn(g, card, "sneaky", ("triggers.attack", "abilities.granted-this-turn"), card)


def turf_the_surfer(fx, g, me, card):
    fx.choose(g, me, any_creature(g, me), 1, 1, ("bar-block", card, "triggers.attack", "cards.any-creature"),
              ("triggers.attack", "cards.any-creature"), card, "a creature that cannot block this turn")


TRIGGERED: Final[dict] = {
    ("Axolotl Healer", "play"): axolotl_healer,
    ("Compost Dragon", "play"): compost_dragon,
    ("Explosive Toad", "defeated"): explosive_toad,
    ("Ferret Bomber", "play"): ferret_bomber,
    ("Grave Robber", "play"): grave_robber,
    ("Kangasaurus Rex", "play"): kangasaurus_rex,
    ("Killer Bee", "play"): killer_bee,
    ("Snail Hydra", "attack"): snail_hydra,
    ("Tiger Squirrel", "play"): tiger_squirrel,
    ("Tusked Extorter", "attack"): tusked_extorter,
    ("Brain Fly", "play"): brain_fly,
    ("Chameleon Sniper", "attack"): chameleon_sniper,
    ("Giraffodile", "play"): giraffodile,
    ("Harpy Mother", "defeated"): harpy_mother,
    ("Mysterious Mermaid", "play"): mysterious_mermaid,
    ("Shark Dog", "attack"): shark_dog,
    ("Strange Barrel", "defeated"): strange_barrel,
    ("Turbo Bug", "attack"): turbo_bug,
    ("Count Draculeech", "attack"): count_draculeech,
    ("Goreagle Alpha", "play"): goreagle_alpha,
    ("Hungry Hungry Hamster", "play"): hungry_hungry_hamster,
    ("Hyenix", "when"): hyenix,
    ("Majestic Manticore", "attack"): majestic_manticore,
    ("The Lurker", "attack"): the_lurker,
    ("Turf the Surfer", "attack"): turf_the_surfer,
}

# Later parts of a triggered ability (effects.then; triggers: `ability-then`, `ability-chose`):
# name -> fn(verbs, game, controller, card, *args).
STEPS: Final[dict] = {}


def _merge(pairs: tuple[tuple[dict, dict], ...]) -> None:
    """Each table of this module with the rows another module adds to it."""
    for table, more in pairs:
        table.update(more)


# -- the later sets' abilities, written in modules of their own ---------------
_merge(((TRIGGERED, _eternity.TRIGGERED), (POWER_LAYER, _eternity.POWER_LAYER),
        (GRANT_LAYER, _eternity.GRANT_LAYER), (BLOCK_RULES, _eternity.BLOCK_RULES),
        (ANY_SIDE_ATTACK_RULES, _eternity.ANY_SIDE_ATTACK_RULES), (STEPS, _eternity.STEPS),
        (IN_DISCARD_POWER, _eternity.IN_DISCARD_POWER), (IN_DISCARD_ATTACK, _eternity.IN_DISCARD_ATTACK),
        (IN_DISCARD_BLOCK, _eternity.IN_DISCARD_BLOCK), (IN_DISCARD_LIFE, _eternity.IN_DISCARD_LIFE)))
PILE_READERS.update(_eternity.PILE_READERS)


def _register_later_sets() -> None:
    """Beyond Evolution's abilities, from its own module, into these tables
    (the module is handed this one: it never imports it)."""
    import sys

    from . import beyond_evolution_abilities
    beyond_evolution_abilities.register(sys.modules[__name__])


_register_later_sets()


# -- the promos (oracle.games.mindbug.cards.promo_abilities), registered into the tables ----
_merge(((TRIGGERED, _promo.TRIGGERED), (POWER_LAYER, _promo.POWER_LAYER),
        (GRANT_LAYER, _promo.GRANT_LAYER), (BLOCK_RULES, _promo.BLOCK_RULES), (STEPS, _promo.STEPS),
        (IN_DISCARD_ATTACK, _promo.IN_DISCARD_ATTACK), (IN_DISCARD_GRANTS, _promo.IN_DISCARD_GRANTS),
        (ACTION_USEFUL, _promo.ACTION_USEFUL)))
KEEPS_BOOSTS.update(_promo.KEEPS_BOOSTS)
