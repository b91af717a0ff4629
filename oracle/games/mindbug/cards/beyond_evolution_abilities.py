"""What each Beyond Evolution card does, written with the engine's effect
verbs (`fx`, handed in as for every ability), and its constant abilities
in the layers of oracle.games.mindbug.cards.abilities, which registers them
(`register`). Every rule cites its clause (spec/beyond/evolution.yaml).

Action effects (later.action): an Action that would change nothing is not
offered (later.action.useful; `USEFUL`). "X, then evolve" evolves once X
is done, its choice included (later.evolve.order).
"""

from __future__ import annotations

from . import FRENZY, HUNTER, SNEAKY
from ..readings import choice
from .later_helpers import action_useful, can_evolve, useful_only

# The merged tables of oracle.games.mindbug.cards.abilities, handed in by `register`.
_TABLES = None


def register(tables) -> None:
    """Add this set's abilities to the tables of oracle.games.mindbug.cards.abilities
    (the module, handed in: this one never imports it)."""
    global _TABLES
    _TABLES = tables
    tables.TRIGGERED.update(TRIGGERED)
    tables.POWER_LAYER.update(POWER_LAYER)
    tables.BLOCK_RULES.update(BLOCK_RULES)
    tables.ATTACK_RULES.update(ATTACK_RULES)
    tables.HUNT_RULES.update(HUNT_RULES)
    tables.REVERSED_FIGHTS.update(REVERSED_FIGHTS)
    tables.ACTION_USEFUL.update(USEFUL)
    tables.STEPS.update(FOLLOW_UPS)


# -- what abilities read -------------------------------------------------------

def _enemies(g, me, test=lambda p: True):
    return [c for c in g.state.play[1 - me] if test(g.power(c))]


def _all(g):
    s = g.state
    return s.play[0] + s.play[1]


def can_attack(g, player: int) -> list:
    """`player`'s creatures that could attack now: none barred by a constant
    ability of either side or from a discard pile (abilities.cannot-attack,
    later.in-discard), none come into play this turn without FAST
    (later.action.fresh)."""
    barred = g.attack_barred(player)
    return [c for c in g.state.play[player] if c not in barred]


# -- Action effects --------------------------------------------------------------

def _then_evolve(fx, g, me, card, chooser, candidates, count, then, clauses, prompt):
    """later.evolve.order: the first part (a pick of `count` among
    `candidates`, then the resume `then`), then the evolve."""
    if not candidates:
        g.emit("no-effect", clauses + ("effects.as-much-as-possible",), player=me, source=card)
        fx.evolve(g, card, ("later.evolve.order",), card)
        return
    fx.choose(g, chooser, candidates, count, count, fx.then_evolve(g, card, then), clauses, card, prompt)


def cake_trickster(fx, g, me, card):
    # later.forced.cake: the picked enemy creature attacks at once, if it can.
    opp = 1 - me
    pool = can_attack(g, opp) if useful_only(g) else list(g.state.play[opp])
    fx.choose(g, me, pool, 1, 1, ("force-attack", me, card), ("triggers.action", "later.forced.cake"), card,
              "an enemy creature that must attack now")


def cloud_lady(fx, g, me, card, most=4):
    _then_evolve(fx, g, me, card, me, _enemies(g, me, lambda p: p <= most), 1,
                 ("defeat", card, "triggers.action"), ("triggers.action",),
                 f"an enemy creature with power {most} or less to defeat")


def typhoon_princess(fx, g, me, card):
    cloud_lady(fx, g, me, card, 6)


def curious_tadpole(fx, g, me, card):
    # Frog Prophet too: gain 1 life, then evolve (later.evolve.order).
    fx.gain_life(g, me, 1, ("triggers.action",), card)
    fx.evolve(g, card, ("later.evolve.order",), card)


def dragon_inn(fx, g, me, card):
    s = g.state
    if len(s.play[me]) < len(s.play[1 - me]):
        fx.lose_life(g, 1 - me, 1, ("triggers.action",), card)
    else:
        g.emit("no-effect", ("triggers.action", "later.action.useful"), player=me, source=card)


def infernostrich(fx, g, me, card):
    fx.choose(g, me, _enemies(g, me, lambda p: p >= 7), 1, 1, ("defeat", card, "triggers.action"),
              ("triggers.action",), card, "an enemy creature with power 7 or more to defeat")


def octocopter(fx, g, me, card):
    # "Defeat this" first, then the take (effects.finish-one keeps the order).
    fx.defeat(g, [card], ("triggers.action",), card)
    fx.choose(g, me, _enemies(g, me), 1, 1, ("take-control", me, card), ("triggers.action", "terms.take-control"),
              card, "an enemy creature to take control of")


def waddling_recruit(fx, g, me, card):
    # Veteran Penguin too: the opponent discards a card of their choice, then evolve.
    opp = 1 - me
    _then_evolve(fx, g, me, card, opp, g.state.hand[opp], 1, ("discard", opp, card),
                 ("triggers.action", "terms.discard"), "a card to discard")


def wildsprout(fx, g, me, card):
    # Bigroot too: a card of one's own discard pile comes into play (its Play
    # effect waits until this effect is done: effects.finish-one), then evolve.
    _then_evolve(fx, g, me, card, me, g.state.discard[me], 1, ("play-from-discard", me, me, card),
                 ("triggers.action", "effects.play-card"), "a card of your discard pile to put into play")


# -- Play, Attack and Defeated effects ---------------------------------------

def blastfish(fx, g, me, card):
    if card in g.state.play[me]:
        fx.mark_this_turn(g, card, "undefeatable", ("triggers.attack", "later.undefeatable"), card)


def bullet_train(fx, g, me, card):
    fx.choose(g, me, _enemies(g, me, lambda p: p <= 3), 1, 1, ("defeat", card, "triggers.attack"),
              ("triggers.attack",), card, "an enemy creature with power 3 or less to defeat")


def cheeky_chimpborg(fx, g, me, card):
    opp = 1 - me
    n = len(g.state.play[opp])
    if n == 0:
        g.emit("no-effect", ("triggers.play", "effects.as-much-as-possible"), player=opp, source=card)
        return
    fx.choose(g, opp, g.state.hand[opp], n, n, ("discard", opp, card), ("triggers.play", "terms.discard"), card,
              f"{n} card{'s' * (n != 1)} to discard")


def chuckling_chimpborg(fx, g, me, card):
    # later.unused-mindbugs: the Mindbugs the opponent has not used yet.
    opp = 1 - me
    n = g.state.mindbugs[opp]
    if n == 0:
        g.emit("no-effect", ("triggers.play", "later.unused-mindbugs"), player=opp, source=card)
        return
    fx.lose_life(g, opp, n, ("triggers.play", "later.unused-mindbugs"), card)


def dr_orange(fx, g, me, card):
    # later.return-hand: an optional payment; picking this card pays it.
    fx.choose(g, me, [card], 0, 1, ("ability-chose", "dr-orange", me, card), ("triggers.play", "later.return-hand"), card,
              "lose 1 life to send every enemy creature back to its hand (pick this card), or not (none)")


def _dr_orange_paid(fx, g, me, card, picked):
    if not picked:
        g.emit("no-effect", ("later.return-hand", "effects.chooser"), player=me, source=card)
        return
    before = g.state.life[me]
    fx.lose_life(g, me, 1, ("triggers.play", "later.return-hand", "life.lose.own-effect"), card)
    if g.state.winner is not None:
        return
    if g.state.life[me] >= before:
        # "if you did": the life was not lost (promo.cannot-lose-life), so nothing returns
        g.emit("no-effect", ("later.return-hand", "promo.cannot-lose-life"), player=me, source=card)
        return
    fx.return_to_hand(g, list(g.state.play[1 - me]), ("triggers.play",), card)


def earwig_assassin(fx, g, me, card):
    fx.choose(g, me, g.state.hand[me], 0, 1, ("ability-chose", "earwig", me, card), ("triggers.play", "terms.discard"),
              card, "a card to discard so as to defeat a creature, or none")


def _earwig_discarded(fx, g, me, card, picked):
    if not picked:
        g.emit("no-effect", ("triggers.play", "effects.chooser"), player=me, source=card)
        return
    fx.discard(g, me, picked, card)
    fx.choose(g, me, _all(g), 1, 1, ("defeat", card, "triggers.play"), ("triggers.play", "cards.any-creature"),
              card, "a creature to defeat")


def puffermech(fx, g, me, card):
    fx.defeat(g, _enemies(g, me, lambda p: p >= 8), ("triggers.defeated",), card)


def radioactive_rabbit_play(fx, g, me, card):
    # later.give-control: "this" is the creature whose Play effect it is.
    fx.give_control(g, me, card, ("triggers.play",), card)


def radioactive_rabbit_defeated(fx, g, me, card):
    # `me`: the player who controlled it when it was defeated.
    fx.defeat(g, [c for c in g.state.play[me] if c != card], ("triggers.defeated",), card)


def steelhorn(fx, g, me, card):
    opp = 1 - me
    fx.choose(g, opp, g.state.hand[opp], 3, 3, ("discard", opp, card), ("triggers.defeated", "terms.discard"),
              card, "3 cards to discard")


def sweet_fighter(fx, g, me, card):
    fx.gain_life(g, me, 2, ("triggers.defeated",), card)


def the_experiment(fx, g, me, card):
    fx.give_control(g, me, card, ("triggers.play",), card)
    pool = _enemies(g, me)
    if choice(g.profile, "later.give-control.experiment") == "not-itself":
        pool = [c for c in pool if c != card]
    fx.choose(g, me, pool, 1, 1, ("take-control", me, card),
              ("triggers.play", "terms.take-control", "later.give-control.experiment"), card,
              "an enemy creature to take control of")


def turtle_toaster(fx, g, me, card):
    fx.choose(g, me, _enemies(g, me, lambda p: 4 <= p <= 6), 0, 2, ("defeat", card, "triggers.play"),
              ("triggers.play",), card, "up to 2 enemy creatures with power 4 to 6 to defeat")


def utility_bug(fx, g, me, card):
    # later.copy-play: another creature in play with a Play effect, never itself.
    pool = [c for c in _all(g) if c != card and "play" in g.design(c).triggers]
    fx.choose(g, me, pool, 0, 1, ("ability-chose", "utility-bug", me, card), ("triggers.play", "later.copy-play"), card,
              "a creature whose Play effect to carry out as this one's, or none")


def _utility_bug_picked(fx, g, me, card, picked):
    if not picked:
        g.emit("no-effect", ("later.copy-play", "effects.chooser"), player=me, source=card)
        return
    fx.copy_play(g, me, card, picked[0])


def thunder_queen(fx, g, me, card):
    fx.choose(g, me, _enemies(g, me), 1, 1, ("defeat", card, "triggers.attack"), ("triggers.attack",), card,
              "an enemy creature to defeat")


def world_eater(fx, g, me, card):
    fx.lose_life(g, 1 - me, 1, ("triggers.attack",), card)


def frosty_fortress(fx, g, me, card):
    fx.discard_all(g, 1 - me, ("triggers.attack",), card)


TRIGGERED = {
    ("Blastfish", "attack"): blastfish,
    ("Bullet Train", "attack"): bullet_train,
    ("Cake Trickster", "action"): cake_trickster,
    ("Cheeky Chimpborg", "play"): cheeky_chimpborg,
    ("Chuckling Chimpborg", "play"): chuckling_chimpborg,
    ("Cloud Lady", "action"): cloud_lady,
    ("Curious Tadpole", "action"): curious_tadpole,
    ("Dr. Orange U. Tan", "play"): dr_orange,
    ("Dragon Inn", "action"): dragon_inn,
    ("Earwig Assassin", "play"): earwig_assassin,
    ("Infernostrich", "action"): infernostrich,
    ("Octocopter", "action"): octocopter,
    ("Puffermech", "defeated"): puffermech,
    ("Radioactive Rabbit", "play"): radioactive_rabbit_play,
    ("Radioactive Rabbit", "defeated"): radioactive_rabbit_defeated,
    ("Steelhorn", "defeated"): steelhorn,
    ("Sweet Fighter", "defeated"): sweet_fighter,
    ("The Experiment", "play"): the_experiment,
    ("Turtle Toaster", "play"): turtle_toaster,
    ("Utility Bug", "play"): utility_bug,
    ("Waddling Recruit", "action"): waddling_recruit,
    ("Wildsprout", "action"): wildsprout,
    ("Typhoon Princess", "action"): typhoon_princess,
    ("Thunder Queen", "attack"): thunder_queen,
    ("Frog Prophet", "action"): curious_tadpole,
    ("World Eater", "attack"): world_eater,
    ("Veteran Penguin", "action"): waddling_recruit,
    ("Frosty Fortress", "attack"): frosty_fortress,
    ("Bigroot", "action"): wildsprout,
}

# The next part of an ability, once its choice is made (the engine's "ability-chose" resume).
FOLLOW_UPS = {"dr-orange": _dr_orange_paid, "earwig": _earwig_discarded, "utility-bug": _utility_bug_picked}


# -- whether an Action would change anything (later.action.useful) -------------

def _always(g, player, card):
    return True


USEFUL = {
    "Cake Trickster": action_useful(lambda g, p, c: bool(can_attack(g, 1 - p))),                   # later.forced.cake.unable
    "Cloud Lady": action_useful(lambda g, p, c: bool(_enemies(g, p, lambda x: x <= 4)) or can_evolve(g, c)),
    "Typhoon Princess": action_useful(lambda g, p, c: bool(_enemies(g, p, lambda x: x <= 6)) or can_evolve(g, c)),
    "Curious Tadpole": _always,                                                               # gains life
    "Frog Prophet": _always,
    "Dragon Inn": action_useful(lambda g, p, c: len(g.state.play[p]) < len(g.state.play[1 - p])),
    "Infernostrich": action_useful(lambda g, p, c: bool(_enemies(g, p, lambda x: x >= 7))),
    "Octocopter": _always,                                                                    # "defeat this"
    "Waddling Recruit": action_useful(lambda g, p, c: bool(g.state.hand[1 - p]) or can_evolve(g, c)),
    "Veteran Penguin": action_useful(lambda g, p, c: bool(g.state.hand[1 - p]) or can_evolve(g, c)),
    "Wildsprout": action_useful(lambda g, p, c: bool(g.state.discard[p]) or can_evolve(g, c)),
    "Bigroot": action_useful(lambda g, p, c: bool(g.state.discard[p]) or can_evolve(g, c)),
}


# -- constant abilities ------------------------------------------------------------

def cheery_chimpborg(g, me, card, mine, power, kw):
    """+5 power while the enemy side has 3 or more creatures."""
    if len(g.state.play[1 - me]) >= 3:
        power[card] += 5


def spiky_shinobi(g, me, card, mine, power, kw):
    """+5 power while its controller has no unused Mindbug (later.unused-mindbugs)."""
    if g.state.mindbugs[me] == 0:
        power[card] += 5


def coach_panda(g, me, card, mine, power, kw):
    """With exactly one other allied creature: that one gets +3 power and FRENZY."""
    if len(mine) == 2:
        other = mine[0] if mine[1] == card else mine[1]
        power[other] += 3
        kw[other] |= FRENZY


def kitsunsei(g, me, card, mine, power, kw):
    """The other allied creatures have SNEAKY (a constant grant, not an Action)."""
    for c in mine:
        if c != card:
            kw[c] |= SNEAKY


def oakenmaster(g, me, card, mine, power, kw):
    """The other allied creatures get +5 power."""
    for c in mine:
        if c != card:
            power[c] += 5


POWER_LAYER = {
    "Cheery Chimpborg": cheery_chimpborg,
    "Spiky Shinobi": spiky_shinobi,
    "Coach Panda": coach_panda,
    "Kitsunsei": kitsunsei,
    "Oakenmaster": oakenmaster,
}


def mole_machine(g, holder, side, attacker, blocker):
    """The opponent may not block with creatures of power 7 or more."""
    return g.controller(blocker) == 1 - side and g.power(blocker) >= 7


def westside_monster_block(g, holder, side, attacker, blocker):
    """Enemy creatures with SNEAKY cannot block."""
    return g.controller(blocker) == 1 - side and g.has(blocker, SNEAKY)


BLOCK_RULES = {"Mole Machine": mole_machine, "Westside Monster": westside_monster_block}


def westside_monster_attack(g, holder, side, attackers):
    """Enemy creatures with SNEAKY cannot attack."""
    return frozenset(c for c in attackers if g.has(c, SNEAKY))


def captain_hippo_attack(g, holder, side, attackers):
    """later.forced.hippo, the non-hunters-barred reading only: on its
    controller's opponent's turns, their creatures without HUNTER cannot attack."""
    if choice(g.profile, "later.forced.hippo") != "non-hunters-barred" or g.state.active == side:
        return frozenset()
    return frozenset(c for c in attackers if not g.has(c, HUNTER))


ATTACK_RULES = {"Westside Monster": westside_monster_attack, "Captain Hippo": captain_hippo_attack}


def captain_hippo_hunt(g, holder, side, attacker, options):
    """later.forced.hippo: on its controller's opponent's turns, a HUNTER of
    theirs that attacks names a Captain Hippo (any of them) as its blocker."""
    if g.state.active == side:
        return options, ()
    hippos = [o for o in options if o[1] is not None and g.design(o[1]).name in HUNT_RULES]
    if not hippos:
        return options, ()
    return hippos, ("later.forced.hippo",)


HUNT_RULES = {"Captain Hippo": captain_hippo_hunt}

# later.reversed: in a fight Sawn is part of, the higher power loses (once, even with two).
REVERSED_FIGHTS = {"Sawn"}
