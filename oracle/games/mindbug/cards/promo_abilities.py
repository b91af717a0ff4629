"""What each promo card does (2022, 2023 and the later ones), written with the
engine's effect verbs, as the First Contact abilities are.

Triggered abilities take (verbs, game, controller, card). An ability that
goes on after a choice or a chance outcome names its next step with
`step(name, what, me, card)`; the engine calls STEPS[(name, what)] with the
answer. Constant abilities are the layers and tables of oracle.games.mindbug.cards.abilities
(registered there), and the name sets below, read by the small engine modules
of the promos' effects (promo.* clauses).
"""

from __future__ import annotations

from . import FRENZY, HUNTER, SNEAKY
from ..readings import choice
from .later_helpers import action_useful, boost_or, can_evolve

# -- constant abilities read by the engine's promo modules -------------------

LIFE_LOCKS = frozenset({"Knightmare"})                # promo.cannot-lose-life
HAND_LOCKS = frozenset({"Alien Brain"})               # promo.hand-closed
MINDBUG_BANS = frozenset({"Bug Catcher"})             # promo.mindbug-ban
MINDBUG_WATCHERS = frozenset({"Mindbug Bug"})         # promo.mindbug-used
LIFE_AS_MINDBUGS = frozenset({"Ivybug"})              # promo.life-as-mindbugs (unconfirmed card)
PLAY_LIMITS = {"Wolfman Steve": 4}                    # promo.play-limit: the opponent may not play power <= this
SIDE_MARKERS = frozenset({"Sluggernaut"})             # promo.side-markers
BLOCK_READERS = frozenset({"Jazz Dog"})               # promo.blocked-this-turn
DEFEAT_READERS = frozenset({"\"One-Eye\" Felix"})      # promo.felix-defeated
# "At the end of a turn" (any player's turn), not only its controller's: promo.felix-defeated.
ANY_TURN_END = DEFEAT_READERS
# promo.granted-attack: cards in play that give every enemy creature an Attack
# ability (TRIGGERED[(name, "granted-attack")]).
GRANTED_ATTACK = frozenset({"Jean-Claw Pandamme"})


# -- constant abilities: power and keyword layers ----------------------------

def ram_hopper(g, me, card, mine, power, kw):
    """The other allied creatures have FRENZY."""
    for c in mine:
        if c != card:
            kw[c] |= FRENZY


def sluggernaut(g, me, card, mine, power, kw):
    """promo.side-markers: the side picked when its TOUGH was used, or (another
    reading) both marker keywords always."""
    how = choice(g.profile, "promo.side-markers")
    if how == "all-keywords":
        kw[card] |= HUNTER | FRENZY
    elif how == "side-on-tough":
        for c, side in g.state.sides:
            if c == card:
                power[card] += side - g.table.defs[card].power
                kw[card] |= HUNTER if side == 5 else FRENZY


def the_pack(g, me, card, mine, power, kw):
    """SNEAKY while exhausted."""
    if card in g.state.exhausted:
        kw[card] |= SNEAKY


POWER_LAYER = {"Ram Hopper": ram_hopper, "Sluggernaut": sluggernaut}


def cursed_goblin_werewolf(g, owner, card, player, attackers):
    """later.in-discard: the pile owner's creatures with FRENZY or HUNTER cannot attack."""
    if player != owner:
        return frozenset()
    return frozenset(c for c in attackers if g.keywords(c) & (FRENZY | HUNTER))


IN_DISCARD_ATTACK = {"Cursed Goblin Werewolf": cursed_goblin_werewolf}
# The pile owner's creatures have "Attack: gain 1 life" (TRIGGERED[(name, "attack")]).
IN_DISCARD_GRANTS = {"Blessed Axolotl Healer": "attack"}
# A Defeated effect that uses the boost cards that were under it (later.boost.defeated).
KEEPS_BOOSTS = frozenset({"Big Box Mimic"})
GRANT_LAYER = {"The Pack": the_pack}


# -- constant abilities: blocks ------------------------------------------------

def boar_zooka(g, holder, side, attacker, blocker):
    """It cannot block."""
    return blocker == holder


def watts_dog(g, holder, side, attacker, blocker):
    """Creatures with one keyword or more cannot block it."""
    return attacker == holder and g.keywords(blocker) != 0


def ghost_hand(g, holder, side, attacker, blocker):
    """Boosted creatures (either side) cannot block (later.boost)."""
    return any(c == blocker and under for c, under in g.state.boosts)


BLOCK_RULES = {"Boar-Zooka": boar_zooka, "Watts Dog": watts_dog, "Ghost Hand": ghost_hand}


# -- triggered abilities -----------------------------------------------------

def step(name: str, what: str, me: int, card: int) -> tuple:
    """The continuation of `name`'s ability after the answer to a choice
    (abilities.STEPS["name: what"], given the answer)."""
    return ("ability-chose", f"{name}: {what}", me, card)


def _enemies(g, me, test=lambda p: True):
    return [c for c in g.state.play[1 - me] if test(g.power(c))]


# Promo 2022

def slugapult(fx, g, me, card):
    others = [c for c in g.state.play[me] if c != card]
    fx.choose(g, me, others, 0, 1, step("Slugapult", "ally", me, card), ("triggers.attack",), card,
              "another creature of yours to defeat (or none)")


def slugapult_ally(fx, g, me, card, arg):
    if not arg:
        return
    fx.defeat(g, list(arg), ("triggers.attack",), card)
    # promo.if-you-did: only a creature that was defeated (left play) counts.
    if g.controller(arg[0]) is not None and choice(g.profile, "promo.if-you-did") == "left-play":
        g.emit("no-effect", ("promo.if-you-did",), player=me, source=card)
        return
    fx.choose(g, me, _enemies(g, me), 1, 1, ("defeat", card, "triggers.attack"), ("triggers.attack",
              "promo.if-you-did"), card, "an enemy creature to defeat")


def ratomancer(fx, g, me, card):
    s = g.state
    low = [c for c in s.discard[me] if g.table.defs[c].power <= 4]
    fx.choose(g, me, low, 0, 1, step("Ratomancer", "put", me, card), ("triggers.play", "promo.no-play-effect"),
              card, "a card of power 4 or less from your discard pile to put into play (none: stop)")


def ratomancer_put(fx, g, me, card, arg):
    if not arg:
        return
    fx.put_into_play(g, me, arg[0], g.state.discard[me], ("triggers.play",), card)
    ratomancer(fx, g, me, card)


def boar_zooka_defeated(fx, g, me, card):
    fx.defeat(g, list(g.state.play[1 - me]), ("triggers.defeated",), card)


def chuck(fx, g, me, card):
    fx.roll(g, step("Chuck", "rolled", me, card), ("triggers.play",), card)


def chuck_rolled(fx, g, me, card, arg):
    face = arg[0]
    if face <= 3:
        g.emit("no-effect", ("promo.die-roll",), player=me, source=card, amount=face)
        return
    fx.choose(g, me, _enemies(g, me), 1, 1, step("Chuck", "hit", me, card), ("triggers.play", "promo.die-roll"),
              card, "an enemy creature to defeat")


def chuck_hit(fx, g, me, card, arg):
    fx.defeat(g, list(arg), ("triggers.play", "promo.die-roll"), card)
    if g.state.winner is None and g.state.play[1 - me]:
        chuck(fx, g, me, card)                       # roll again while an enemy creature is left


def jazz_dog(fx, g, me, card):
    s = g.state
    taken = [c for c, what in s.lasting if what == "blocked" and c in s.play[1 - me]]
    if not taken:
        g.emit("no-effect", ("effects.as-much-as-possible", "promo.blocked-this-turn"), player=me, source=card)
        return
    fx.take_control(g, me, taken, card)


def macaw_dagon(fx, g, me, card):
    fx.swap_hands(g, me, ("triggers.attack",), card)


def unigon(fx, g, me, card):
    if not g.state.hand[me]:
        fx.win(g, me, ("triggers.attack",), card)


# Promo 2023

def suspicious_gift(fx, g, me, card):
    if card in g.state.play[me]:
        fx.take_control(g, 1 - me, [card], card)


def suspicious_gift_defeated(fx, g, me, card):
    # promo.gift-loser: the player who controlled it as it was defeated (the
    # trigger's controller), or its owner.
    who = me if choice(g.profile, "promo.gift-loser") == "controller" else g.table.owner.get(card, me)
    fx.lose_life(g, who, 2, ("triggers.defeated", "promo.gift-loser"), card)


def future_eric(fx, g, me, card):
    fx.unused_to_deck_bottom(g, me, 2, ("triggers.play", "promo.future-eric"), card)


def jean_claw_granted(fx, g, me, card):
    fx.choose(g, me, g.state.hand[me], 1, 1, ("discard", me, card), ("promo.granted-attack", "terms.discard"),
              card, "a card to discard")


def blessed_axolotl_granted(fx, g, me, card):
    fx.gain_life(g, me, 1, ("promo.granted-attack",), card)


def ghost_hand(fx, g, me, card):
    fx.boost(g, me, card, 1, fx.ANY, ("triggers.play",))


def solar_bear(fx, g, me, card):
    # One choice says the mode (later.boost.mode): a card of a discard pile is
    # the boost card; an enemy boosted creature is the one to take.
    boosted = [c for c in fx.boosted(g) if g.controller(c) != me]
    boost_or(fx, g, me, card, boosted, "Solar Bear: chose",
             "a card of a discard pile to boost with, or a boosted creature to take")


def solar_bear_chose(fx, g, me, card, chosen):
    if not chosen:
        return
    c = chosen[0]
    if g.controller(c) is not None:
        fx.take_control(g, me, [c], card)
    else:
        fx.boost_with(g, me, card, c, 1, fx.ANY, ("later.boost.mode",))


def big_box_mimic(fx, g, me, card):
    # later.boost.defeated: the boost cards wait under the defeated card; its
    # controller puts any number of them into play, one at a time, then the
    # rest go to the discard pile.
    held = list(fx.boost_cards(g, card))
    if not held:
        fx.release(g, card, me)
        return
    fx.choose(g, me, held, 0, 1, step("Big Box Mimic", "put", me, card), ("triggers.defeated",
              "promo.no-play-effect", "later.boost.defeated"), card,
              "a card that boosted it to put into play (none: stop)")


def big_box_put(fx, g, me, card, arg):
    if not arg:
        fx.release(g, card, me)
        return
    fx.take_from_under(g, card, arg[0])
    fx.put_into_play(g, me, arg[0], None, ("triggers.defeated",), card)
    big_box_mimic(fx, g, me, card)


def tuckbox_mimic(fx, g, me, card):
    # later.evolve.order: the boost first (its choices included), then the evolution.
    fx.then(g, "Tuckbox Mimic: evolve", me, card)
    fx.boost(g, me, card, 1, fx.THIS, ("triggers.action",))


def tuckbox_evolve(fx, g, me, card):
    fx.evolve(g, card, ("triggers.action", "later.evolve.order"), card)


def deckbox_mimic(fx, g, me, card):
    fx.then(g, "Deckbox Mimic: may evolve", me, card)
    fx.boost(g, me, card, 1, fx.THIS, ("triggers.action",))


def deckbox_may_evolve(fx, g, me, card):
    # "You may evolve": asked only when it can.
    if g.controller(card) is None or not can_evolve(g, card):
        return
    fx.choose(g, me, [card], 0, 1, step("Deckbox Mimic", "evolve", me, card), ("triggers.action", "later.evolve"),
              card, "evolve it into Big Box Mimic (choose it) or not (choose none)")


def deckbox_evolve(fx, g, me, card, arg):
    if arg:
        fx.evolve(g, card, ("triggers.action", "later.evolve.order"), card)


def mimic_useful(g, player, card):
    """later.action.useful: a Mimic's Action changes something while a
    discard pile holds a card to boost with, or while it can evolve."""
    s = g.state
    return bool(s.discard[0] or s.discard[1]) or can_evolve(g, card)


def one_eye_felix(fx, g, me, card):
    fx.evolve(g, card, ("promo.felix-defeated",), card)


def silver_whiskers(fx, g, me, card):
    s = g.state
    pool = [c for c in s.play[0] + s.play[1] if g.power(c) <= 5]
    fx.choose(g, me, pool, 1, 1, ("take-control", me, card), ("triggers.attack", "terms.take-control"), card,
              "a creature with power 5 or less to take")


# Later promos

def battle_beetle(fx, g, me, card):
    s = g.state
    if s.mindbugs[0] == s.mindbugs[1]:
        fx.lose_life(g, 1 - me, 2, ("triggers.attack",), card)
    else:
        g.emit("no-effect", ("triggers.attack",), player=me, source=card)


def knightmare_defeated(fx, g, me, card):
    fx.lose_game(g, me, ("triggers.defeated",), card)


def alpacoodle(fx, g, me, card):
    s = g.state
    fx.set_aside(g, card, [c for c in s.play[0] + s.play[1] if c != card], ("triggers.play",), card)


def alpacoodle_defeated(fx, g, me, card):
    fx.bring_back(g, card, me, ("triggers.defeated",), card)


def steamforger(fx, g, me, card):
    s = g.state
    if len(s.play[me]) >= len(s.play[1 - me]) + 3:
        fx.win(g, me, ("triggers.attack",), card)


def wheatle(fx, g, me, card):
    fx.choose(g, me, fx.power_choices(g), 1, 1, step("Wheatle", "named", me, card),
              ("triggers.attack", "promo.name-a-power"), card, "a power to name")


def wheatle_named(fx, g, me, card, arg):
    fx.hand_over_power(g, me, arg[0], ("triggers.attack",), card)


def evilcat(fx, g, me, card):
    fx.win(g, me, ("triggers.attack",), card)


def short_neck_giraffodile(fx, g, me, card):
    fx.choose(g, me, g.state.discard[me], 2, 2, step("Short-Neck Giraffodile", "take", me, card),
              ("triggers.attack",), card, "two cards of your discard pile to take into your hand")


def short_neck_take(fx, g, me, card, arg):
    fx.take_from_discard(g, me, me, list(arg), ("triggers.attack",), card)


TRIGGERED = {
    ("Slugapult", "attack"): slugapult,
    ("Ratomancer", "play"): ratomancer,
    ("Boar-Zooka", "defeated"): boar_zooka_defeated,
    ("Chuck", "play"): chuck,
    ("Jazz Dog", "end-of-turn"): jazz_dog,
    ("Macaw Dagon", "attack"): macaw_dagon,
    ("Unigon", "attack"): unigon,
    ("Suspicious Gift", "play"): suspicious_gift,
    ("Suspicious Gift", "defeated"): suspicious_gift_defeated,
    ("Future Eric", "play"): future_eric,
    ("Jean-Claw Pandamme", "granted-attack"): jean_claw_granted,
    ("Blessed Axolotl Healer", "attack"): blessed_axolotl_granted,
    ("Silver Whiskers", "attack"): silver_whiskers,
    ("Ghost Hand", "play"): ghost_hand,
    ("Solar Bear", "attack"): solar_bear,
    ("Big Box Mimic", "defeated"): big_box_mimic,
    ("Tuckbox Mimic", "action"): tuckbox_mimic,
    ("Deckbox Mimic", "action"): deckbox_mimic,
    ("\"One-Eye\" Felix", "end-of-turn"): one_eye_felix,
    ("Battle Beetle", "attack"): battle_beetle,
    ("Knightmare", "defeated"): knightmare_defeated,
    ("Alpacoodle", "play"): alpacoodle,
    ("Alpacoodle", "defeated"): alpacoodle_defeated,
    ("Steamforger", "attack"): steamforger,
    ("Wheatle", "attack"): wheatle,
    ("Evilcat", "attack"): evilcat,
    ("Short-Neck Giraffodile", "attack"): short_neck_giraffodile,
}

STEPS = {
    "Slugapult: ally": slugapult_ally,
    "Ratomancer: put": ratomancer_put,
    "Chuck: rolled": chuck_rolled,
    "Chuck: hit": chuck_hit,
    "Wheatle: named": wheatle_named,
    "Short-Neck Giraffodile: take": short_neck_take,
    "Solar Bear: chose": solar_bear_chose,
    "Big Box Mimic: put": big_box_put,
    "Tuckbox Mimic: evolve": tuckbox_evolve,
    "Deckbox Mimic: may evolve": deckbox_may_evolve,
    "Deckbox Mimic: evolve": deckbox_evolve,
}

ACTION_USEFUL = {"Tuckbox Mimic": action_useful(mimic_useful), "Deckbox Mimic": action_useful(mimic_useful)}
