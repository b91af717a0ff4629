"""What each Beyond Eternity card does, written with the engine's effect verbs.

Triggered abilities take (verbs, game, controller, card), as in
the ability module (oracle.games.mindbug.cards.abilities), which merges the tables below into its own.
Their later parts (after a boost or a choice) are STEPS, run through the
verbs `then` and the `ability-chose` answer. Constant abilities are the
power and keyword layers, the block and attack rules, and the rows of the
abilities that work from a discard pile (later.in-discard).
"""

from __future__ import annotations

from itertools import combinations

from ..readings import choice
from . import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH
from .later_helpers import boost_or

# -- helpers -----------------------------------------------------------------


def _creatures(g):
    s = g.state
    return s.play[0] + s.play[1]


def _a_creature(g, me):
    """cards.any-creature: "a creature" is one of either side (the team's reading) or an enemy one."""
    if choice(g.profile, "cards.any-creature") == "either-side":
        return _creatures(g)
    return list(g.state.play[1 - me])


def _boost_cards(g):
    """Every boost card under a creature in play (later.boost.take)."""
    s = g.state
    return [c for holder, under in s.boosts if holder in s.play[0] or holder in s.play[1] for c in under]


# -- constant abilities ------------------------------------------------------


def agile_rooster(g, holder, side, attacker, blocker):
    """Only a creature whose power is within 1 of its own may block it (later.boost.counts: boosts count)."""
    return attacker == holder and abs(g.power(blocker) - g.power(holder)) > 1


def squirtoise_scout(g, holder, side, attacker, blocker):
    """While two allied creatures (itself included) share a power, the opponent blocks with none."""
    if g.controller(attacker) != side:
        return False
    powers = [g.power(c) for c in g.state.play[side]]
    return len(powers) != len(set(powers))


def hypnotic_mouse(g, holder, side, attackers):
    """Any creature (either side, itself included) whose power equals another creature's cannot attack."""
    everyone = _creatures(g)
    return frozenset(a for a in attackers if any(c != a and g.power(c) == g.power(a) for c in everyone))


def cave_lizard(g, holder, side, attackers):
    """It may never attack (it still blocks)."""
    return frozenset((holder,)) if holder in attackers else frozenset()


def berserker_rabbit(g, me, card, mine, power, kw):
    """+4 power while its controller's discard pile holds no card."""
    if not g.state.discard[me]:
        power[card] += 4


def porcupine_teacher(g, me, card, mine, power, kw):
    """The other allied creatures have POISONOUS."""
    for c in mine:
        if c != card:
            kw[c] |= POISONOUS


# -- in a discard pile (later.in-discard), for the pile owner -----------------


def blessed_shield_bugs(g, owner, card, mine, power):
    """The pile owner's creatures in play have +1 power."""
    for c in mine:
        power[c] += 1


def cursed_gorillion(g, owner, card, mine, power):
    """The pile owner's creatures in play have -2 power (never below the floor: cards.power-minimum)."""
    for c in mine:
        power[c] -= 2


def blessed_tiger_squirrel_attack(g, owner, card, player, attackers):
    """The pile owner's enemy creatures of power 7 or more cannot attack."""
    if player == owner:
        return frozenset()
    return frozenset(a for a in attackers if g.power(a) >= 7)


def blessed_tiger_squirrel_block(g, owner, card, attacker, blocker):
    """... nor block."""
    return blocker in g.state.play[1 - owner] and g.power(blocker) >= 7


# -- triggered abilities -----------------------------------------------------


def ant_zombie_horde(fx, g, me, card):
    fx.boost(g, me, card, 2, fx.THIS, ("triggers.attack",))


def sea_rex(fx, g, me, card):
    fx.boost(g, me, card, 1, fx.THIS, ("triggers.attack",))


def hiss_holiness(fx, g, me, card):
    # later.boost.split: up to 4 cards, each under the creature chosen for it.
    fx.boost(g, me, card, 4, fx.ANY, ("triggers.play", "later.boost.split"))


def water_antler(fx, g, me, card):
    fx.gain_life(g, me, 1, ("triggers.play",), card)
    fx.boost(g, me, card, 1, fx.ANY, ("triggers.play",))


def fire_antler(fx, g, me, card):
    # `me`: the player whose pile it went to (mindbug.defeated-controller); the
    # card itself lies in a discard pile and may be a boost card (later.boost.empty).
    fx.lose_life(g, 1 - me, 1, ("triggers.defeated",), card)
    if g.state.winner is None:
        fx.boost(g, me, card, 1, fx.ANY, ("triggers.defeated",))


def catalisk(fx, g, me, card):
    fx.discard_draw_pile(g, 1 - me, ("triggers.attack",), card)


def duckdra(fx, g, me, card):
    # Optional; "a creature" with POISONOUS: either side (cards.any-creature).
    fx.choose(g, me, [c for c in _a_creature(g, me) if g.has(c, POISONOUS)], 0, 1,
              ("defeat", card, "triggers.attack"), ("triggers.attack", "cards.any-creature"), card,
              "a creature with POISONOUS to defeat, or none")


def ghostly_underdog(fx, g, me, card):
    # Its power now, boosts and constant abilities included (later.boost.counts).
    if g.controller(card) is None:
        g.emit("no-effect", ("effects.as-much-as-possible",), player=me, source=card)
        return
    mine = g.power(card)
    fx.defeat(g, [c for c in g.state.play[1 - me] if g.power(c) < mine], ("triggers.attack",), card)


def goat_dragon(fx, g, me, card):
    boost_or(fx, g, me, card, fx.boosted(g), "goat-dragon",
              "a card of a discard pile to boost with, or a boosted creature to defeat")


def goat_dragon_chose(fx, g, me, card, chosen):
    if not chosen:
        return
    c = chosen[0]
    if g.controller(c) is not None:
        fx.defeat(g, [c], ("later.boost.mode",), card)
    else:
        fx.boost_with(g, me, card, c, 1, fx.ANY, ("later.boost.mode",))


def soul_manipulator(fx, g, me, card):
    boost_or(fx, g, me, card, _boost_cards(g), "soul-manipulator",
              "a card of a discard pile to boost with, or a boost card to take into your hand")


def soul_manipulator_chose(fx, g, me, card, chosen):
    if not chosen:
        return
    c = chosen[0]
    s = g.state
    if c in s.discard[0] or c in s.discard[1]:
        fx.boost_with(g, me, card, c, 1, fx.ANY, ("later.boost.mode",))
    else:
        fx.take_boost_card(g, me, c, card, ("later.boost.mode",))


def koibra(fx, g, me, card):
    fx.pick_at_random(g, g.state.hand[1 - me], 1, ("ability-chose", "koibra", me, card),
                      ("later.reveal-to-pile",), card, "a random card of the opponent's hand")


def koibra_revealed(fx, g, me, card, chosen):
    # later.reveal-to-pile: the card itself into Koibra's controller's pile, or
    # none: it goes to its holder's pile.
    fx.choose(g, me, list(chosen), 0, 1, ("ability-chose", "koibra-pile", me, card, chosen[0]),
              ("later.reveal-to-pile",), card, "the revealed card to put into your discard pile, or none for "
                                               "the opponent's")


def koibra_pile(fx, g, me, card, chosen, revealed):
    fx.to_discard_from_hand(g, 1 - me, me if chosen else 1 - me, revealed, ("later.reveal-to-pile",), card)


KEYWORDS = (FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH)


def madam_mystique(fx, g, me, card):
    # later.name-keyword: the keyword named is written as the enemy creatures
    # it hits (two keywords that hit the same creatures are the same choice).
    enemies = g.state.play[1 - me]
    groups = [tuple(c for c in enemies if g.has(c, k)) for k in KEYWORDS]
    fx.choose_among(g, me, groups, ("defeat", card, "triggers.defeated", "later.name-keyword"),
                    ("triggers.defeated", "later.name-keyword"), card,
                    "a keyword, as the enemy creatures that have it")


def peacasus(fx, g, me, card):
    fx.gain_life(g, me, 1, ("triggers.to-discard",), card)


def rockyphant(fx, g, me, card):
    opp = 1 - me
    fx.choose(g, opp, g.state.hand[opp], 1, 1, ("discard", opp, card), ("triggers.to-discard", "terms.discard"),
              card, "a card to discard")


def pyro_salamancer(fx, g, me, card):
    # later.equal-pair: the boost comes first, then the pair (later.boost.empty:
    # so a creature the pair defeats cannot be a boost card of this effect).
    fx.then(g, "pyro-pair", me, card)
    fx.boost(g, me, card, 1, fx.ANY, ("triggers.play",))


def pyro_pair(fx, g, me, card):
    pairs = [(a, b) for a, b in combinations(sorted(_creatures(g)), 2) if g.power(a) == g.power(b)]
    fx.choose_among(g, me, pairs, ("defeat", card, "triggers.play", "later.equal-pair"),
                    ("triggers.play", "later.equal-pair"), card, "two creatures of the same power to defeat")


def radioactive_pest(fx, g, me, card):
    fx.choose(g, me, [c for c in g.state.play[1 - me] if g.power(c) >= 7], 1, 1,
              ("defeat", card, "triggers.attack"), ("triggers.attack",), card,
              "an enemy creature with power 7 or more to defeat")


def spirit_cheetah(fx, g, me, card):
    # "A creature": either side (cards.any-creature); taking one's own does nothing.
    fx.choose(g, me, [c for c in _a_creature(g, me) if g.power(c) <= 2], 1, 1, ("take-control", me, card),
              ("triggers.defeated", "terms.take-control", "cards.any-creature"), card,
              "a creature with power 2 or less to take")


def spirit_maki(fx, g, me, card):
    fx.choose(g, me, [c for c in _a_creature(g, me) if g.power(c) >= 9], 1, 1, ("take-control", me, card),
              ("triggers.defeated", "terms.take-control", "cards.any-creature"), card,
              "a creature with power 9 or more to take")


def tiger_wasp(fx, g, me, card):
    fx.pick_at_random(g, g.state.hand[me], 1, ("discard", me, card), ("triggers.play", "terms.discard"), card,
                      "a random card of your hand to discard")


def tornado_dragon(fx, g, me, card):
    fx.choose(g, me, g.state.hand[me], 0, 2, ("ability-chose", "tornado-dragon", me, card),
              ("triggers.play", "terms.discard"), card, "up to two cards of your hand to discard")


def tornado_dragon_chose(fx, g, me, card, chosen):
    if not chosen:
        return
    at_once = choice(g.profile, "later.discard-then-draw") == "at-once"
    if at_once:
        fx.discard(g, me, list(chosen), card)
    else:
        fx.discard_then_draw(g, me, list(chosen), ("triggers.play",), card)
    n = len(chosen)
    targets = _a_creature(g, me)
    if not targets and not at_once:
        fx.refill_hand(g, me)                                    # nothing to defeat: the effect is done
    fx.choose(g, me, targets, n, n, ("ability-chose", "tornado-defeat", me, card),
              ("triggers.play", "cards.any-creature"), card, "a creature to defeat for each card discarded")


def tornado_dragon_defeat(fx, g, me, card, chosen):
    # later.discard-then-draw: the draw back to 5 ends the effect, so it comes
    # before the effects its discards and defeats woke (effects.finish-one).
    fx.defeat(g, list(chosen), ("triggers.play",), card)
    if choice(g.profile, "later.discard-then-draw") != "at-once" and g.state.winner is None:
        fx.refill_hand(g, me)


def trash_diver(fx, g, me, card):
    pile = g.state.discard[1 - me]
    fx.choose(g, me, pile, 2, 2, ("ability-chose", "trash-diver", me, card), ("triggers.attack",), card,
              "two cards of the opponent's discard pile to take")


def trash_diver_chose(fx, g, me, card, chosen):
    fx.take_from_discard(g, me, 1 - me, chosen, ("triggers.attack",), card)


def trash_flier(fx, g, me, card):
    # effects.play-card: its Play effect resolves; no Mindbug (mindbug.only-from-hand).
    fx.choose(g, me, g.state.discard[1 - me], 1, 1, ("play-from-discard", me, 1 - me, card),
              ("triggers.defeated", "effects.play-card"), card, "a card of the opponent's discard pile to play")


# -- the tables the ability module merges -----------------------------------------

TRIGGERED = {
    ("Ant Zombie Horde", "attack"): ant_zombie_horde,
    ("Catalisk", "attack"): catalisk,
    ("Duckdra", "attack"): duckdra,
    ("Fire Antler", "defeated"): fire_antler,
    ("Ghostly Underdog", "attack"): ghostly_underdog,
    ("Goat Dragon", "play"): goat_dragon,
    ("Goat Dragon", "attack"): goat_dragon,
    ("Hiss Holiness", "play"): hiss_holiness,
    ("Koibra", "play"): koibra,
    ("Koibra", "attack"): koibra,
    ("Madam Mystique", "defeated"): madam_mystique,
    ("Peacasus", "to-discard"): peacasus,
    ("Pyro Salamancer", "play"): pyro_salamancer,
    ("Radioactive Pest", "attack"): radioactive_pest,
    ("Rockyphant", "to-discard"): rockyphant,
    ("Sea-Rex", "attack"): sea_rex,
    ("Soul Manipulator", "play"): soul_manipulator,
    ("Soul Manipulator", "attack"): soul_manipulator,
    ("Spirit Cheetah", "defeated"): spirit_cheetah,
    ("Spirit Maki", "defeated"): spirit_maki,
    ("Tiger Wasp", "play"): tiger_wasp,
    ("Tornado Dragon", "play"): tornado_dragon,
    ("Trash Diver", "attack"): trash_diver,
    ("Trash Flier", "defeated"): trash_flier,
    ("Water Antler", "play"): water_antler,
}

STEPS = {
    "goat-dragon": goat_dragon_chose,
    "soul-manipulator": soul_manipulator_chose,
    "koibra": koibra_revealed,
    "koibra-pile": koibra_pile,
    "pyro-pair": pyro_pair,
    "tornado-dragon": tornado_dragon_chose,
    "tornado-defeat": tornado_dragon_defeat,
    "trash-diver": trash_diver_chose,
}

POWER_LAYER = {"Berserker Rabbit": berserker_rabbit}
GRANT_LAYER = {"Porcupine Teacher": porcupine_teacher}
BLOCK_RULES = {"Agile Rooster": agile_rooster, "Squirtoise Scout": squirtoise_scout}
ANY_SIDE_ATTACK_RULES = {"Hypnotic Mouse": hypnotic_mouse, "Cave Lizard": cave_lizard}
PILE_READERS = {"Berserker Rabbit"}

IN_DISCARD_POWER = {"Blessed Shield Bugs": blessed_shield_bugs, "Cursed Gorillion": cursed_gorillion}
IN_DISCARD_ATTACK = {"Blessed Tiger Squirrel": blessed_tiger_squirrel_attack}
IN_DISCARD_BLOCK = {"Blessed Tiger Squirrel": blessed_tiger_squirrel_block}
IN_DISCARD_LIFE = {"Blessed Killer Bee": 2}
