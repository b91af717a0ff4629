"""The state of a game as plain data.

Every card of a game is an instance id (an int). A card is in exactly one
place: a draw pile, a hand, a play area, a discard pile, a life pile (English
first edition), the unused pile, out of the game, or waiting for the Mindbug
decision (`played`). Every zone is known to the oracle: discard piles are
public anyway (combat.discards-public), and logs give every deck order.
The control of the game (what happens next) is plain
data too: a stack of tasks, a queue of triggered effects and the pending
decision, so a state can be copied, serialised and restored at any point.
"""

from __future__ import annotations

import operator
import types
from typing import Any, Final

from .records import Event, Pending, _tuplify

# Stages of a pending decision; each names the kinds of decision that answer it.
STAGE_KINDS = {
    "action": ("play", "attack", "activate"),   # the turn action (activate: an Action effect, later sets)
    "mindbug": ("mindbug", "pass"),   # the opponent uses a Mindbug on the played card, or not
    "frenzy": ("attack", "pass"),     # FRENZY's second attack, or not
    "fast": ("attack", "activate", "pass"),   # a FAST creature just played attacks (or acts) at once, or not
    "hunt": ("hunt",),                # HUNTER's target, or None
    "block": ("block",),              # the blocker, or None
    "choose": ("choose",),            # the cards picked for an effect
    "order": ("choose",),             # which waiting effect resolves next
    "random": ("random",),            # a chance event: the outcome of a random effect
}


# The answers that name a card, each made once for the usual card ids (0 to
# ANSWER_IDS - 1): every decision lists its answers, and the one a log gives
# is looked for among them; an answer listed as the very object the log's
# line was read into (`listed`) is found without comparing its fields.
ANSWER_IDS: Final = 256
PLAY_ANSWERS: Final[list] = [("play", c) for c in range(ANSWER_IDS)]
ATTACK_ANSWERS: Final[list] = [("attack", c) for c in range(ANSWER_IDS)]
HUNT_ANSWERS: Final[list] = [("hunt", c) for c in range(ANSWER_IDS)]
BLOCK_ANSWERS: Final[list] = [("block", c) for c in range(ANSWER_IDS)]
_ANSWERS: Final[dict] = {"play": PLAY_ANSWERS, "attack": ATTACK_ANSWERS, "hunt": HUNT_ANSWERS,
                         "block": BLOCK_ANSWERS}
# ... and those that name none (typed `tuple`: the compiled build keeps each as
# this very object, where a tuple of fixed length would be made anew at each use)
PASS: Final[tuple] = ("pass", None)
MINDBUG: Final[tuple] = ("mindbug", None)
NO_HUNT: Final[tuple] = ("hunt", None)
NO_BLOCK: Final[tuple] = ("block", None)
_NO_CARD: Final[dict] = {"pass": PASS, "mindbug": MINDBUG, "hunt": NO_HUNT, "block": NO_BLOCK}


def answer(answers: list, kind: str, card: int) -> tuple:
    """(kind, card), from `answers` (the made answers of `kind`) for a usual id."""
    return answers[card] if 0 <= card < ANSWER_IDS else (kind, card)


def listed(kind: str, arg: Any) -> tuple:
    """The answer (kind, arg): the made one where there is one."""
    if type(arg) is int and 0 <= arg < ANSWER_IDS:
        answers = _ANSWERS.get(kind)
        if answers is not None:
            return answers[arg]
    elif arg is None:
        made = _NO_CARD.get(kind)
        if made is not None:
            return made
    return (kind, arg)


def decision_words(stage: str, player: int) -> str:
    """'an action decision by player 0', 'a block decision by player 1'."""
    return f"{'an' if stage[:1] in 'aeiou' else 'a'} {stage} decision by player {player}"


# A zone of a player's in words ("player 1's draw pile"), in the order a card is looked for.
ZONE_WORDS: Final = {"hand": "hand", "play": "play area", "discard": "discard pile", "deck": "draw pile",
                     "life_pile": "life cards"}

# The decisions answered with a number, not with cards (spec/scenario-format.md,
# steps: `choose: [5]`, `random: [4]`): by stage, the clause that asks for it.
NUMBER_PICKS = {"random": frozenset({"promo.die-roll"}),
                "choose": frozenset({"promo.name-a-power", "promo.side-markers"})}


def asks_number(pending) -> bool:
    """Whether `pending` waits for a number (a die's face, a named power, a
    side marker's power) rather than for cards."""
    return pending is not None and not NUMBER_PICKS.get(pending.stage, frozenset()).isdisjoint(pending.clauses)


class State:
    """Everything that changes during a game. Static facts (which design each
    instance id is, whose deck it came from) live in `Table`."""

    __slots__ = (
        "life", "mindbugs", "deck", "hand", "play", "discard", "life_pile",
        "unused", "out", "exhausted", "played", "active", "turn", "attacks",
        "combat", "stack", "triggers", "pending", "winner", "reason", "actions", "lasting", "octonite",
        "set_aside", "stages", "boosts", "arrived", "held", "sides",
    )

    def __init__(self):
        self.life: list[int] = [3, 3]
        self.mindbugs: list[int] = [2, 2]
        self.deck: list[list[int]] = [[], []]          # top card first
        self.hand: list[list[int]] = [[], []]
        self.play: list[list[int]] = [[], []]          # in the order the creatures arrived
        self.discard: list[list[int]] = [[], []]
        self.life_pile: list[list[int]] = [[], []]     # English first edition: life as cards
        self.unused: list[int] = []              # top card first
        self.out: list[int] = []                 # out of the game (revealed cards, spent life cards)
        self.exhausted: set[int] = set()
        self.played: int | None = None      # card waiting for the Mindbug decision
        self.active: int = 0
        self.turn: int = 0
        self.attacks: dict[int, int] = {}             # creature -> attacks made this turn
        self.combat: Any = None             # [attacker, blocker or None, hunted?] while an attack is under way
        self.stack: list[tuple] = []               # tasks still to run, last one first
        self.triggers: list[tuple] = []            # triggered effects waiting: (card, controller, trigger)
        self.pending: Pending | None = None
        self.winner: int | None = None
        self.reason: str | None = None
        self.actions: int = 0               # turn actions taken this turn
        self.lasting: tuple = ()            # effects that last this turn: (card, what) pairs (effects.this-turn)
        self.octonite: tuple = ()           # Octonite counters: (card, count) pairs (later.octonite)
        self.set_aside: list = []           # double-sided cards of evolution lines, not in use (set aside at the deal)
        self.stages: tuple = ()             # evolved creatures: (creature, its line's set-aside card, stage 2 or 3)
        self.boosts: tuple = ()             # boost cards: (creature, (cards under it...)) pairs
        self.arrived: tuple = ()            # creatures that came into play this turn (later.action.fresh), en-revised
        self.held: tuple = ()               # creatures set aside by a creature (Alpacoodle): (holder, ((card, controller), ...))
        self.sides: tuple = ()              # side markers in use (Sluggernaut): (creature, power of the side) pairs

    def copy(self) -> "State":
        s = State.__new__(State)
        s.life = self.life[:]
        s.mindbugs = self.mindbugs[:]
        s.deck = [self.deck[0][:], self.deck[1][:]]
        s.hand = [self.hand[0][:], self.hand[1][:]]
        s.play = [self.play[0][:], self.play[1][:]]
        s.discard = [self.discard[0][:], self.discard[1][:]]
        s.life_pile = [self.life_pile[0][:], self.life_pile[1][:]]
        s.unused = self.unused[:]
        s.out = self.out[:]
        s.exhausted = set(self.exhausted)
        s.played = self.played
        s.active = self.active
        s.turn = self.turn
        s.attacks = dict(self.attacks)
        s.combat = None if self.combat is None else list(self.combat)
        s.stack = self.stack[:]
        s.triggers = self.triggers[:]
        s.pending = self.pending  # Pending objects are never mutated
        s.winner = self.winner
        s.reason = self.reason
        s.actions = self.actions
        s.lasting = self.lasting    # a tuple, replaced (never changed) when it changes
        s.octonite = self.octonite  # likewise
        s.set_aside = self.set_aside[:]
        s.stages = self.stages      # tuples, replaced when they change
        s.boosts = self.boosts
        s.arrived = self.arrived
        s.held = self.held          # tuples too
        s.sides = self.sides
        return s

    # -- serialised form -------------------------------------------------
    def to_builtins(self) -> dict:
        d = self._builtins()
        # Later-set zones, only when a game has them (older states keep their form).
        if self.set_aside:
            d["set_aside"] = self.set_aside[:]
        if self.stages:
            d["stages"] = [list(x) for x in self.stages]
        if self.boosts:
            d["boosts"] = [[c, list(u)] for c, u in self.boosts]
        if self.arrived:
            d["arrived"] = list(self.arrived)
        if self.held:
            d["held"] = [[h, [list(x) for x in cs]] for h, cs in self.held]
        if self.sides:
            d["sides"] = [list(x) for x in self.sides]
        return d

    def _builtins(self) -> dict:
        return {
            "life": self.life[:], "mindbugs": self.mindbugs[:],
            "deck": [z[:] for z in self.deck], "hand": [z[:] for z in self.hand],
            "play": [z[:] for z in self.play], "discard": [z[:] for z in self.discard],
            "life_pile": [z[:] for z in self.life_pile],
            "unused": self.unused[:], "out": self.out[:],
            "exhausted": sorted(self.exhausted), "played": self.played,
            "active": self.active, "turn": self.turn, "actions": self.actions,
            "attacks": sorted([k, v] for k, v in self.attacks.items()),
            "combat": None if self.combat is None else list(self.combat),
            "stack": [list(t) for t in self.stack],
            "triggers": [list(t) for t in self.triggers],
            "pending": None if self.pending is None else self.pending.to_builtins(),
            "winner": self.winner, "reason": self.reason,
            "lasting": [list(x) for x in self.lasting],
            "octonite": [list(x) for x in self.octonite],
        }

    @classmethod
    def from_builtins(cls, d: dict) -> "State":
        s = cls()
        s.life = list(d["life"])
        s.mindbugs = list(d["mindbugs"])
        s.deck = [list(z) for z in d["deck"]]
        s.hand = [list(z) for z in d["hand"]]
        s.play = [list(z) for z in d["play"]]
        s.discard = [list(z) for z in d["discard"]]
        s.life_pile = [list(z) for z in d.get("life_pile", [[], []])]
        s.unused = list(d["unused"])
        s.out = list(d["out"])
        s.exhausted = set(d["exhausted"])
        s.played = d["played"]
        s.active = d["active"]
        s.turn = d["turn"]
        s.actions = d.get("actions", 0)
        s.attacks = {k: v for k, v in d["attacks"]}
        s.combat = None if d["combat"] is None else list(d["combat"])
        s.stack = [_tuplify(t) for t in d["stack"]]
        s.triggers = [tuple(t) for t in d["triggers"]]
        s.pending = None if d["pending"] is None else Pending.from_builtins(d["pending"])
        s.winner = d["winner"]
        s.reason = d["reason"]
        s.lasting = tuple(tuple(x) for x in d.get("lasting", ()))
        s.octonite = tuple(tuple(x) for x in d.get("octonite", ()))
        s.set_aside = list(d.get("set_aside", ()))
        s.stages = tuple(tuple(x) for x in d.get("stages", ()))
        s.boosts = tuple((c, tuple(u)) for c, u in d.get("boosts", ()))
        s.arrived = tuple(d.get("arrived", ()))
        s.held = tuple((h, tuple(tuple(x) for x in cs)) for h, cs in d.get("held", ()))
        s.sides = tuple(tuple(x) for x in d.get("sides", ()))
        return s

    def zones(self):
        """Every (zone name, player or None, cards) triple, for invariant checks."""
        for p in (0, 1):
            yield "deck", p, self.deck[p]
            yield "hand", p, self.hand[p]
            yield "play", p, self.play[p]
            yield "discard", p, self.discard[p]
            yield "life_pile", p, self.life_pile[p]
        yield "unused", None, self.unused
        yield "out", None, self.out
        yield "set_aside", None, self.set_aside
        for _c, under in self.boosts:
            yield "boost", None, list(under)
        for _c, aside, _n in self.stages:
            yield "stage", None, [aside]
        for _h, cs in self.held:
            yield "held", None, [c for c, _ in cs]
        if self.played is not None:
            yield "played", None, [self.played]


def holds(cards: list[int], card: int) -> bool:
    """`card in cards` for a zone of card ids: compiled, the ids are compared
    as machine integers, where `in` compares them as objects. Interpreted,
    `in` is the faster (a loop in C): `holds` is then operator.contains."""
    for c in cards:
        if c == card:
            return True
    return False


# Whether the engine runs compiled (mypyc makes built-in functions of its
# functions): the rules call some steps directly only then (game.Game._step).
COMPILED: Final = not isinstance(holds, types.FunctionType)
if not COMPILED:
    holds = operator.contains  # type: ignore[assignment]  # noqa: F811  (the same answer, from C)


def next_task(s: State, step: tuple) -> bool:
    """Whether `step` is the task Game.run would pop at once (on top of the
    stack, nothing pending, no winner); popped if so, for the caller to run
    it now instead."""
    st = s.stack
    if st and st[-1] is step and s.pending is None and s.winner is None:
        st.pop()
        return True
    return False
