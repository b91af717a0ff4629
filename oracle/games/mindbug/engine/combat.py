"""Attacking, blocking and combat, with the combat keywords (rulebook:
Attack with a Creature; Keywords)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from ..cards import FRENZY, HUNTER, POISONOUS, SNEAKY
from ..cards.abilities import HUNT_RULES, REVERSED_FIGHTS
from ..readings import choice
from . import in_discard
from .effects import defeat, queue_trigger
from .granted import attack_grants
from .lasting import barred_from_blocking
from .life import lose_life
from .registry import TASKS, resume, task
from .restrictions import attack_barred
from .state import (ATTACK_ANSWERS, BLOCK_ANSWERS, COMPILED, HUNT_ANSWERS, NO_BLOCK, NO_HUNT, PASS, State, answer, holds,
                    next_task)
from .turn_record import record_block, record_fight


def declare_attack(g: Board, card: int, forced: tuple = ()) -> None:
    """combat.attack: an allied creature attacks. Its Attack effect resolves
    (triggers.attack) and HUNTER's choice is made, in the order of the
    effects.hunter-order reading (the team's: the Attack effect first), then
    the block, then combat. `forced`: the clauses of an attack the other
    player's creature makes during this turn (later.forced.cake): no second
    attack follows it."""
    s = g.state
    p = s.active if not forced else 1 - s.active
    s.attacks[card] = s.attacks.get(card, 0) + 1
    s.combat = [card, None, False] if not forced else [card, None, False, p]
    g.emit("attack", _ATTACK + forced if forced else _ATTACK, player=p, card=card)
    queued = "attack" in g.design(card).triggers
    if queued:
        queue_trigger(g, card, p, "attack")
    if g.table.flags.in_discard:
        for c in in_discard.granted(g, p, "attack"):           # later.in-discard: an Attack ability given
            queue_trigger(g, c, p, "attack")
            queued = True
    if g.table.flags.granted_attack:
        for h in attack_grants(g, card, p):                     # promo.granted-attack
            queue_trigger(g, h, p, "granted-attack")
            queued = True
    # The steps, in order: HUNTER's choice, the block, the fight, then (not
    # for a forced attack) what follows the attack; a waiting Attack effect
    # resolves before HUNTER's choice or after it (effects.hunter-order).
    stack = s.stack
    if not forced:
        stack.append(("after-attack", card))
    stack.append(_FIGHT)
    stack.append(_BLOCK)
    if queued:
        if choice(g.profile, "effects.hunter-order") != "hunter-first":
            stack.append(_HUNT)
            stack.append(_RESOLVE)
            return
        stack.append(_RESOLVE)
    # The first step: Game.run would pop it at once, so it runs now.
    if _COMPILED and _TASKS["hunt"] is _HUNT_STEP:
        hunt_step(g)
    else:
        _TASKS["hunt"](g)


# The steps of an attack as declare_attack schedules them: these very
# tuples, so that a step can tell which one waits next.
_HUNT: Final[tuple] = ("hunt",)
_BLOCK: Final[tuple] = ("block",)
_FIGHT: Final[tuple] = ("fight",)
_RESOLVE: Final[tuple] = ("resolve-triggers",)
_TASKS: Final = TASKS
_COMPILED: Final = COMPILED      # compiled, the steps below are called directly while _TASKS holds them
# The clauses of every attack, each one object typed `tuple`: the compiled
# build makes a tuple written out in a call anew each time it runs.
_ATTACK: Final[tuple] = ("combat.attack",)
_HUNTER: Final[tuple] = ("keywords.hunter", "keywords.hunter.optional")
_BLOCK_CLAUSES: Final[tuple] = ("combat.block",)
_UNBLOCKED: Final[tuple] = ("combat.unblocked",)
_LOWER: Final[tuple] = ("combat.lower-defeated",)
_EQUAL: Final[tuple] = ("combat.equal-defeated",)
_POISONOUS: Final[tuple] = ("keywords.poisonous",)
_MUTUAL: Final[tuple] = ("keywords.poisonous", "keywords.poisonous.mutual")


def side(s: State) -> int:
    """The attacking player: the active one, unless the attack is forced on
    the other player's creature (later.forced.cake)."""
    c = s.combat
    return c[3] if c is not None and len(c) > 3 else s.active


def attack_goes_on(g: Board) -> bool:
    """combat.attacker-gone: an attacker that left play or changed sides
    before combat ends the attack: no block, no combat, no life lost (the
    team's reading); with the `unblocked` reading the defender still loses 1
    life, as for an attack nobody blocked."""
    s = g.state
    if s.combat is None:
        return False
    me = side(s)
    if holds(s.play[me], s.combat[0]):
        return True
    gone = s.combat[0]
    g.emit("attack-ends", ("combat.attacker-gone",), player=me, card=gone)
    s.combat = None
    if choice(g.profile, "combat.attacker-gone") == "unblocked":
        lose_life(g, 1 - me, 1, ("combat.attacker-gone", "combat.unblocked"), source=gone)
    return False


def block_forbidden(g: Board, attacker: int, blocker: int):
    """Why `blocker` may not block `attacker`: (clause, card holding the
    restricting ability or None), or None when it may."""
    # Only the attacker's SNEAKY restricts; a SNEAKY blocker may block any
    # attacker (keywords.sneaky.can-block), exhausted or not (keywords.tough.exhausted).
    stats = g._stats             # tested against None: `or` would build the tuple again (compiled)
    if stats is None:
        stats = g.stats()
    kw = stats[1]
    if kw[attacker] & SNEAKY and not kw[blocker] & SNEAKY:
        return "keywords.sneaky", None
    s = g.state
    if s.lasting and barred_from_blocking(s, blocker):
        return "effects.this-turn", None
    for side, c, rule in stats[2]:                             # constant abilities in play, in play order
        if rule(g, c, side, attacker, blocker):
            return "abilities.constant", c
    return in_discard.block_ban(g, attacker, blocker)          # later.in-discard


def hunt_step(g: Board) -> None:
    """keywords.hunter: the attacker's controller may name an enemy creature
    that must block; keywords.hunter.override: any enemy creature."""
    s = g.state
    if not attack_goes_on(g) or not g.has(s.combat[0], HUNTER):
        if next_task(s, _BLOCK):        # HUNTER asks nothing: the block runs now, as Game.run would run it
            if _COMPILED and _TASKS["block"] is _BLOCK_STEP:
                block_step(g)
            else:
                _TASKS["block"](g)
        return
    a = s.combat[0]
    me = side(s)
    enemies = s.play[1 - me]
    # With no enemy creature the only answer is "none": a forced decision,
    # which a log may write or leave out.
    clauses: tuple[str, ...] = _HUNTER
    if "attack" in g.design(a).triggers:
        clauses += ("effects.hunter-order",)
    if not g.hunter_override:
        # An edition where HUNTER cannot override blocking restrictions.
        enemies = [c for c in enemies if block_forbidden(g, a, c) is None]
    options = [answer(HUNT_ANSWERS, "hunt", c) for c in enemies] + [NO_HUNT]
    if g.table.flags.hunt_rules and g.later_sets:
        options, clauses = _hunt_rules(g, a, me, options, clauses)   # later.forced.hippo
    g.ask("hunt", me, options, _HUNT, clauses,
          source=a, prompt="name an enemy creature that must block, or none")


task("hunt")(hunt_step)
_HUNT_STEP: Final = hunt_step


def _hunt_rules(g: Board, a, me, options, clauses):
    """Enemy constant abilities that say which creature HUNTER names (Captain Hippo)."""
    for c in g.state.play[1 - me]:
        rule = HUNT_RULES.get(g.design(c).name)
        if rule is not None:
            options, why = rule(g, c, 1 - me, a, options)
            clauses += tuple(w for w in why if w not in clauses)
    return options, clauses


@resume("hunt")
def _hunt(g: Board, kind, arg) -> None:
    if arg is None:
        return
    s = g.state
    s.combat[1] = arg
    s.combat[2] = True
    if g.table.flags.block_readers:
        record_block(g, arg)                                 # promo.blocked-this-turn
    clauses: tuple[str, ...] = ("keywords.hunter",)
    if block_forbidden(g, s.combat[0], arg) is not None:
        clauses += ("keywords.hunter.override",)
    g.emit("hunt", clauses, player=side(s), card=arg, source=s.combat[0])


def block_step(g: Board) -> None:
    """combat.block: the defender blocks with one eligible creature, or not."""
    if not attack_goes_on(g):
        return
    s = g.state
    if s.combat[2]:
        return  # HUNTER already named the blocker
    a = s.combat[0]
    opp = 1 - side(s)
    options: list[tuple] = [answer(BLOCK_ANSWERS, "block", c) for c in s.play[opp]
                                             if block_forbidden(g, a, c) is None]
    options.append(NO_BLOCK)
    g.ask("block", opp, options, _BLOCK, _BLOCK_CLAUSES, source=a,
          prompt="block with a creature, or take the hit")


task("block")(block_step)
_BLOCK_STEP: Final = block_step


def _block(g: Board, kind, arg) -> None:
    s = g.state
    s.combat[1] = arg
    if arg is not None:
        if g.table.flags.block_readers:
            record_block(g, arg)                             # promo.blocked-this-turn
        g.emit("block", _BLOCK_CLAUSES, player=1 - side(s), card=arg, source=s.combat[0])
    if next_task(g.state, _FIGHT):
        if _COMPILED and _TASKS["fight"] is _FIGHT_STEP:
            fight_step(g)
        else:
            _TASKS["fight"](g)


resume("block")(_block)


def fight_step(g: Board) -> None:
    """The fight, then what follows the attack when it waits next (Game.run
    would pop it at once): it runs now."""
    fight(g)
    s = g.state
    st = s.stack
    if st and s.pending is None and s.winner is None:
        t = st[-1]
        if len(t) == 2 and t[0] == "after-attack":
            st.pop()
            if _COMPILED and _TASKS["after-attack"] is _AFTER_ATTACK:
                after_attack(g, t[1])
            else:
                _TASKS["after-attack"](g, t[1])


task("fight")(fight_step)
_FIGHT_STEP: Final = fight_step


def fight(g: Board) -> None:
    """combat.unblocked, combat.lower-defeated, combat.equal-defeated,
    keywords.poisonous, keywords.poisonous.mutual."""
    if not attack_goes_on(g):
        return
    s = g.state
    combat = s.combat
    a, b, hunted = combat[0], combat[1], combat[2]
    opp = 1 - side(s)
    s.combat = None
    if b is not None and hunted and not holds(s.play[opp], b):
        # effects.hunter-order (hunter-first): the Attack effect removed the
        # creature HUNTER named. An attack that used HUNTER may not hit the
        # opponent directly (keywords.hunter), so it ends here.
        g.emit("attack-ends", ("effects.hunter-order", "keywords.hunter"), player=1 - opp, card=a)
        return
    if b is None or not holds(s.play[opp], b):
        lose_life(g, opp, 1, _UNBLOCKED, source=a)
        return
    pa, pb = g.power(a), g.power(b)
    g.emit("combat", _BLOCK_CLAUSES, card=a, cards=(a, b), amount=pa - pb)
    losers: dict[int, tuple] = {}
    lower: tuple = _LOWER
    if g.table.flags.reversed and (g.design(a).name in REVERSED_FIGHTS or g.design(b).name in REVERSED_FIGHTS):
        # Sawn: the higher power loses, once (later.reversed.combat-only: here only)
        pa, pb, lower = pb, pa, ("later.reversed",)
    if pa < pb:
        losers[a] = lower
    elif pb < pa:
        losers[b] = lower
    else:
        losers[a] = losers[b] = _EQUAL
    poison: list[int] = []
    if g.has(a, POISONOUS):
        _poisoned(losers, poison, b)
    if g.has(b, POISONOUS):
        _poisoned(losers, poison, a)
    # Both creatures leave at the same moment; their Defeated effects wait
    # until both have moved (effects.simultaneous).
    defeat(g, list(losers), (), None, combat_poison=poison, per_card=losers)
    if g.table.flags.defeat_readers:
        record_fight(g, a, b)                                   # promo.felix-defeated


def _poisoned(losers: dict[int, tuple], poison: list[int], enemy: int) -> None:
    """keywords.poisonous: `enemy` fought a POISONOUS creature, and is defeated."""
    poison.append(enemy)
    if enemy in losers:
        losers[enemy] += _MUTUAL
    else:
        losers[enemy] = _POISONOUS


def after_attack(g: Board, card: int) -> None:
    """keywords.frenzy: after its first attack of the turn a FRENZY creature
    still in play may attack again (keywords.frenzy.same-creature)."""
    s = g.state
    s.combat = None
    p = s.active
    # "Survives its first attack" (English first edition) and "is still in
    # play" (the others) are the same test here: a creature that left play
    # during the attack cannot be back in play before this point.
    if (s.attacks.get(card) == 1 and holds(s.play[p], card) and g.has(card, FRENZY)
            and card not in attack_barred(g, p)):                 # abilities.cannot-attack
        g.ask("frenzy", p, [answer(ATTACK_ANSWERS, "attack", card), PASS], ("frenzy", card),
              ("keywords.frenzy", "keywords.frenzy.same-creature"), source=card,
              prompt="attack a second time with this FRENZY creature, or pass")
        return
    _TASKS["end-turn"](g)       # turns.end: the next task Game.run would pop; it runs now


task("after-attack")(after_attack)
_AFTER_ATTACK: Final = after_attack


@resume("frenzy")
def _frenzy(g: Board, kind, arg, card) -> None:
    if kind == "attack":
        declare_attack(g, card)
    else:
        g.push_next(("end-turn",))
