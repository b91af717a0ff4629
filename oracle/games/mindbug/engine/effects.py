"""The shared effect verbs (rulebook: Key Concepts, Triggers, Game Terms):
defeat, discard, steal, take control, play a card from a discard pile,
`choose` / `pick_at_random` for the choices abilities need, and how a
creature's arrival and its effects are queued (triggers.py resolves them).
Card abilities take these verbs, with those of the later sets, from
verbs.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from itertools import combinations

from ..cards import TOUGH
from ..cards import abilities
from . import drawing, leaving, octonite, watch
from ..readings import choice
from .control import spared
from .hand_lock import refused
from .power import entered, left
from .registry import resume, task
from .replacement import evolve_instead
from .restrictions import came_into_play
from .sides import tough_used

# Clauses and tasks of the verbs met at every turn, each one object typed
# `tuple`: the compiled build makes a tuple written out in a call anew each
# time it runs.
_TO_DISCARD: Final[tuple] = ("combat.to-discard", "mindbug.defeated-controller")
_RESOLVE: Final[tuple] = ("resolve-triggers",)
_PLAY_PREVENTED: Final[tuple] = ("abilities.constant",)


# -- triggered effects -------------------------------------------------------
def queue_trigger(g: Board, card: int, controller: int, trigger: str, name: str | None = None) -> None:
    """triggers.controller: the effect happens for the creature's controller.
    `name`: the design whose ability it is, when the card no longer shows it
    (an evolved creature that left play is stage I again: later.evolve)."""
    g.state.triggers.append((card, controller, trigger) if name is None else (card, controller, trigger, name))


def enter_play(g: Board, card: int, controller: int, clauses: tuple) -> None:
    """A creature came into play: its Play effect triggers (triggers.play),
    unless a constant ability forbids it (Deathweaver)."""
    entered(g, card, controller)
    d = g.table.defs[card]
    name = d.name
    g.emit("enter-play", clauses, player=controller, card=card)
    came_into_play(g, card)                                  # later.action.fresh
    if g.state.octonite or name in abilities.OCTONITE:
        octonite.arrive(g, card, controller)                 # later.octonite, before the Play effect
    _play_effect(g, card, controller, d)
    if name in abilities.DISTRIBUTE:
        # later.octonite.distribute: runs first, so before the Play effect
        g.push_next(("octonite-distribute", card, controller))


def _play_effect(g: Board, card: int, controller: int, d) -> None:
    if "play" not in d.triggers:
        return
    holder = abilities.play_blocker(g.state.play[1 - controller], g.table.defs)
    if holder is not None:
        g.emit("play-effect-prevented", _PLAY_PREVENTED, player=controller, card=card, source=holder)
        return
    queue_trigger(g, card, controller, "play")
    g.state.stack.append(_RESOLVE)


@task("enter-play")
def _enter_play(g: Board, card: int, controller: int, *clauses) -> None:
    enter_play(g, card, controller, tuple(clauses))


# -- choices -------------------------------------------------------------
def choose(g: Board, chooser: int, candidates, at_least: int, at_most: int, then: tuple,
           clauses: tuple, source: int, prompt: str = "") -> None:
    """Ask `chooser` to pick between `at_least` and `at_most` of `candidates`,
    then apply the verb named by `then`. effects.as-much-as-possible: with
    fewer candidates than asked, fewer are picked; with none, nothing happens."""
    candidates = sorted(candidates)
    at_most = min(at_most, len(candidates))
    at_least = min(at_least, at_most)
    if at_most == 0:
        g.emit("no-effect", ("effects.as-much-as-possible",), player=chooser, source=source)
        return
    options = [("choose", combo) for n in range(at_least, at_most + 1)
               for combo in combinations(candidates, n)]
    g.ask("choose", chooser, options, then, clauses + ("effects.chooser",), source, prompt)


def pick_at_random(g: Board, candidates, count: int, then: tuple, clauses: tuple, source: int, prompt="") -> None:
    """A chance event: which `count` of `candidates` the random effect takes."""
    candidates = sorted(candidates)
    count = min(count, len(candidates))
    if count == 0:
        g.emit("no-effect", ("effects.as-much-as-possible",), source=source)
        return
    g.ask_chance([("random", combo) for combo in combinations(candidates, count)], then, clauses, source, prompt)


# -- the verbs -------------------------------------------------------------
def defeat(g: Board, cards, clauses: tuple, source=None, combat_poison=(), per_card=None) -> None:
    """Defeat creatures at the same time. keywords.tough: a TOUGH creature that
    is not exhausted is exhausted instead (keywords.tough.effects for card
    effects, keywords.tough.poisonous against POISONOUS). Otherwise it goes to
    its controller's discard pile (combat.to-discard,
    mindbug.defeated-controller) and its Defeated effect waits to resolve."""
    s = g.state
    prof = g.profile
    queued = False
    in_combat = source is None  # combat defeats have no source card
    base = clauses
    kw = g.stats()[1]                                            # every creature in play, and only those
    tough_now = {c for c in cards if c in kw and kw[c] & TOUGH}
    losers = []                                                  # controllers of the defeated (triggers.when.events)
    arrivals = []                                                # (pile, card): triggers.to-discard
    for c in cards:
        ctrl = g.controller(c)
        if ctrl is None:
            continue
        clauses = per_card[c] if per_card else base
        if s.lasting and spared(s, c):                           # later.undefeatable: no defeat, TOUGH unused
            g.emit("not-defeated", clauses + ("later.undefeatable",), player=ctrl, card=c, source=source)
            continue
        if "replacement" in g.design(c).triggers and evolve_instead(g, c, clauses, source):
            continue                                             # promo.evolve-instead
        if (c in tough_now and c not in s.exhausted and (in_combat or prof.tough_effects)
                and (c not in combat_poison or prof.tough_poisonous)):
            why: tuple[str, ...] = ("keywords.tough",)
            if not in_combat:
                why += ("keywords.tough.effects",)
            if c in combat_poison:
                why += ("keywords.tough.poisonous",)
            s.exhausted.add(c)
            g.recount()                                          # powers may read it (The Pack)
            g.emit("exhaust", why + clauses + ("triggers.defeated.not",), player=ctrl, card=c, source=source)
            if g.table.flags.side_markers:
                tough_used(g, c, ctrl)                           # promo.side-markers
            continue
        shown = g.design(c)                                      # the face it had in play (later.evolve)
        s.play[ctrl].remove(c)
        left(g, c)
        if c in s.exhausted and choice(prof, "terms.leave-play") == "resets":   # a reading
            s.exhausted.discard(c)
        if s.stages or s.boosts or s.sides:
            leaving.left_play(g, c, ctrl, shown)                 # later.evolve.leave, later.boost.leave
        # mindbug.defeated-controller: every edition reads "its controller's
        # pile"; the switch exists so another reading can be tried.
        dest = ctrl if prof.defeated_to_controller else g.table.owner.get(c, ctrl)
        s.discard[dest].append(c)
        g.emit("defeat", clauses + _TO_DISCARD, player=dest, card=c, source=source)
        if g.table.flags.to_discard:
            arrivals.append((dest, c))
        losers.append(ctrl)
        if "defeated" in shown.triggers:
            queue_trigger(g, c, dest, "defeated", None if shown is g.table.defs[c] else shown.name)
            queued = True
    if losers and watch.defeated(g, losers, source):             # triggers.when.events
        queued = True
    for dest, c in arrivals:
        leaving.arrived(g, dest, (c,))
    if queued:
        g.state.stack.append(_RESOLVE)


@resume("defeat")
def _defeat(g: Board, kind, arg, source, *clauses) -> None:
    defeat(g, list(arg), tuple(clauses), source)


def discard(g: Board, player: int, cards, source=None) -> None:
    """terms.discard: from the player's hand to their discard pile; then draw (drawing.refill)."""
    s = g.state
    for c in cards:
        s.hand[player].remove(c)
        s.discard[player].append(c)
    g.emit("discard", ("terms.discard",), player=player, cards=tuple(cards), source=source)
    drawing.after_removal(g, player)
    f = g.table.flags
    if f.piles or f.to_discard:
        leaving.arrived(g, player, cards)                        # triggers.to-discard


@resume("discard")
def _discard(g: Board, kind, arg, player, source) -> None:
    discard(g, player, arg, source)


def steal(g: Board, thief: int, cards, source=None) -> None:
    """terms.steal: from the opponent's hand into the thief's hand."""
    s = g.state
    victim = 1 - thief
    if g.table.flags.hand_locks and refused(g, thief, ("terms.steal",), source):   # promo.hand-closed
        return
    # The thief's hand may grow past 5: drawing.no-hand-limit.
    for c in cards:
        s.hand[victim].remove(c)
        s.hand[thief].append(c)
    g.emit("steal", ("terms.steal",), player=thief, cards=tuple(cards), source=source)
    drawing.after_loss(g, victim)


@resume("steal")
def _steal(g: Board, kind, arg, thief, source) -> None:
    steal(g, thief, arg, source)


def take_control(g: Board, player: int, cards, source=None) -> None:
    """terms.take-control: the creature moves to the player's play area in its
    current state (exhausted or not); no Play effect."""
    s = g.state
    for c in cards:
        ctrl = g.controller(c)
        if ctrl is None or ctrl == player:
            continue
        s.play[ctrl].remove(c)
        s.play[player].append(c)
        g.emit("take-control", ("terms.take-control", "triggers.defeated.not"), player=player, card=c,
               source=source)
    g.changed()


@resume("take-control")
def _take_control(g: Board, kind, arg, player, source) -> None:
    take_control(g, player, arg, source)


def play_from_discard(g: Board, player: int, card: int, pile_owner: int, source=None) -> None:
    """effects.play-card: the card goes from a discard pile into the player's
    play area; its Play effect triggers; no Mindbug (mindbug.only-from-hand)."""
    s = g.state
    s.discard[pile_owner].remove(card)
    s.play[player].append(card)
    enter_play(g, card, player, ("effects.play-card", "mindbug.only-from-hand"))


@resume("play-from-discard")
def _play_from_discard(g: Board, kind, arg, player, pile_owner, source) -> None:
    play_from_discard(g, player, arg[0], pile_owner, source)


def to_hand_from_discard(g: Board, player: int, source=None) -> None:
    s = g.state
    if g.table.flags.hand_locks and refused(g, player, (), source):   # promo.hand-closed
        return
    cards = s.discard[player][:]
    s.discard[player].clear()
    s.hand[player].extend(cards)
    g.changed()                                                  # powers may read the pile (later.in-discard)
    g.emit("return-to-hand", ("effects.as-much-as-possible",), player=player, cards=tuple(cards), source=source)


# -- abilities in several parts ---------------------------------------------
def then(g: Board, step: str, player: int, card: int, *args) -> None:
    """The ability's later part `abilities.STEPS[step]` runs once what the
    ability starts now (a boost, a choice) is done (effects.finish-one)."""
    g.push_next(("ability-then", step, player, card) + args)
