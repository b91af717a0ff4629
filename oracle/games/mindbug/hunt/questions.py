"""The combat, blocking and keyword clauses a second time, as constraints.

The engine applies the rules step by step. Here each clause is read on its
own, as a constraint on the outcome of one *question* about a situation:

- ``block``: may this creature block this attacker (the defender's choice)?
- ``block-none``: may the defender decline to block?
- ``hunt-offered``: does the attacker's controller get a HUNTER choice?
- ``hunt``: may HUNTER name this enemy creature? ``hunt-none``: may it name none?
- ``defender-chooses``: after HUNTER named a creature, does the defender still decide?
- ``fate``: is this creature defeated, exhausted, or does it stay, given
  what would defeat it (a lost fight, POISONOUS, a card effect)?
- ``life``: how much life does the defender lose to the attack itself?
- ``order``: which comes first, HUNTER's choice or an Attack effect that
  may act on a creature HUNTER could name?
- ``attack-goes-on``: does an attack go on once its attacker has left play?
- ``frenzy``: may the attacker attack a second time this turn?
- ``play-effect``: does a Play effect happen?
- ``target``: may this effect pick (or hit) this creature?
- ``order-chooser``: who orders effects that wait at the same time?

A clause *speaks* to a question by naming the answers it admits (a
``Voice``); a clause that names every answer speaks without settling. A
clause applies in an edition when the catalogue gives it as ``states`` (or,
for its variant, ``varies``); a clause an edition is ``silent`` on does not
constrain that edition, but its voice is kept to say what it would settle.

The clauses that speak are clause_rules.py; the verdicts they give, by
edition, constraints.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .facts import Board

YES, NO = "yes", "no"
STAYS, EXHAUSTED, DEFEATED = "stays", "exhausted", "defeated"
FATES = (STAYS, EXHAUSTED, DEFEATED)

# -- questions -------------------------------------------------------------------


@dataclass(eq=False)
class Question:
    """One thing the rules must decide about a situation. `facts` holds what
    the question needs beyond the board (the causes of a defeat, whether the
    attack was blocked...)."""

    kind: str
    subject: tuple
    answers: tuple
    board: Board
    default: object = None          # the answer when no clause speaks; None: all stay open
    facts: dict = field(default_factory=dict)
    where: str = ""                 # for people: what was happening

    @property
    def key(self) -> tuple:
        return (self.kind, self.subject)

    def describe(self, name: Callable[[int], str]) -> str:
        n = [name(c) if isinstance(c, int) else str(c) for c in self.subject]
        return QUESTION_TEXT[self.kind].format(*n, **{k: v for k, v in self.facts.items() if isinstance(v, str)})


QUESTION_TEXT = {
    "block": "may {1} block {0}?",
    "block-none": "may the defender decline to block {0}?",
    "hunt-offered": "does {0} get a HUNTER choice?",
    "hunt": "may HUNTER ({0}) name {1} as the blocker?",
    "hunt-none": "may the attacker decline to use HUNTER ({0})?",
    "defender-chooses": "after HUNTER ({0}) named a blocker, does the defender still choose?",
    "fate": "is {0} defeated, exhausted, or does it stay in play?",
    "life": "how much life does player {0} lose to the attack itself?",
    "order": "which comes first: HUNTER's choice for {0} or its Attack effect?",
    "attack-goes-on": "does the attack of {0} go on after it left play?",
    "frenzy": "may {0} attack a second time this turn?",
    "play-effect": "does the Play effect of {0} happen?",
    "target": "may the effect of {0} pick {1}?",
    "order-chooser": "who picks the order of effects waiting at the same time?",
}


@dataclass(frozen=True)
class Voice:
    """What one clause says about one question: the answers it admits."""

    ref: str                 # the clause id, or clause@card for a card's ability
    clause: str
    admitted: frozenset
    rule: Rule


@dataclass(frozen=True)
class Rule:
    clause: str
    kinds: tuple[str, ...]
    speak: Callable[[Question], Iterable[tuple[str, frozenset]]]
    statuses: frozenset = frozenset({"states"})
    overrides: frozenset = frozenset()
    yields_to: frozenset = frozenset()
    says: str = ""
