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

Exceptions are data too: a rule lists the clauses it takes precedence over
(``overrides``) and the clauses it gives way to (``yields_to``). Only
precedence the rulebooks give is encoded: the blocking restrictions over
the plain right to block, HUNTER's note over the restrictions, TOUGH over
the power comparison (every edition illustrates TOUGH with a fight), and
the later notes on TOUGH against card effects and against POISONOUS.
Nothing else is ranked: where two applicable clauses disagree and neither
gives way, the edition admits no outcome (a contradiction); where the
applicable clauses leave several answers, it admits more than one (an
ambiguity).

The verdict of an edition on a question is ``settled`` (one answer),
``contradiction`` (none) or ``ambiguity`` (several). The clauses in tension
are the smallest set of voices with no common answer (a contradiction) or
the voices that speak without settling (an ambiguity). `verdict(...,
readings=True)` also counts the clauses the edition is silent on, as the
catalogue's readings do: that is what the engine declares it does there.

Each clause is taken at its word. POISONOUS says the enemy creature is
always defeated, TOUGH says a creature that would be defeated is exhausted
instead, a card effect says the creature is defeated: with no stated
precedence between them, they disagree. HUNTER says any enemy creature may
be named and must block, SNEAKY that only SNEAKY creatures block. FRENZY
gives a second attack to the creature's controller, so it says nothing
about a creature that changed sides. Card abilities speak through the
clause of their trigger (or `abilities.constant`) with the card named in
the reference: ``triggers.play@kangasaurus-rex``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from ..games.mindbug.cards import HUNTER, POISONOUS, SNEAKY, TOUGH
from ..clauses import load_catalogue
from ..games.mindbug.editions import EDITIONS
from .facts import Board, Effect, ref

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


RULES: list[Rule] = []


def rule(clause: str, *kinds: str, statuses=("states",), overrides=(), yields_to=(), says=""):
    """Register a clause's constraint on the questions of `kinds`. The
    function yields (ref, admitted answers) pairs; a plain set or None may
    be returned for a single voice under the clause id itself."""

    def register(fn):
        def speak(q):
            out = fn(q)
            if out is None:
                return ()
            if isinstance(out, (set, frozenset)):
                return ((clause, frozenset(out)),)
            return tuple((r, frozenset(a)) for r, a in out)

        RULES.append(Rule(clause, kinds, speak, frozenset(statuses), frozenset(overrides),
                          frozenset(yields_to), says or (fn.__doc__ or "").strip()))
        return fn

    return register


# -- blocking ---------------------------------------------------------------------


@rule("combat.block", "block", "block-none")
def _may_block(q):
    """The defender may block with any of their creatures, or decline."""
    return {YES}


@rule("combat.block", "defender-chooses")
def _defender_decides(q):
    """The defender decides whether and with what to block."""
    return {YES}


@rule("keywords.sneaky", "block", "hunt", overrides=("combat.block",))
def _sneaky(q):
    """A SNEAKY creature can be blocked only by a SNEAKY creature."""
    a, b = q.subject
    if q.board.has(a, SNEAKY) and not q.board.has(b, SNEAKY):
        return {NO}
    return None


@rule("keywords.sneaky.can-block", "block", yields_to=("abilities.constant", "keywords.sneaky"))
def _sneaky_blocks(q):
    """A SNEAKY creature blocks like any other creature."""
    _, b = q.subject
    return {YES} if q.board.has(b, SNEAKY) else None


@rule("keywords.tough.exhausted", "block", yields_to=("abilities.constant", "keywords.sneaky"))
def _exhausted_blocks(q):
    """An exhausted creature can still block."""
    _, b = q.subject
    return {YES} if b in q.board.exhausted else None


@rule("abilities.constant", "block", "hunt",
      overrides=("combat.block", "keywords.sneaky.can-block", "keywords.tough.exhausted"))
def _restrictions(q):
    """A blocking restriction of a card (power too low to block)."""
    a, b = q.subject
    return [(ref("abilities.constant", q.board.defs[h]), {NO}) for h, _ in q.board.restrictions(a, b)]


# -- HUNTER ---------------------------------------------------------------------


@rule("keywords.hunter", "hunt-offered")
def _hunter_offered(q):
    """An attacking HUNTER may name an enemy creature."""
    (a,) = q.subject
    return {YES} if q.board.has(a, HUNTER) else None


@rule("keywords.hunter", "hunt")
def _hunter(q):
    """HUNTER: the attacker's controller may choose an enemy creature, which must block."""
    a, _ = q.subject
    return {YES} if q.board.has(a, HUNTER) else None


@rule("keywords.hunter.override", "hunt", overrides=("keywords.sneaky", "abilities.constant"))
def _hunter_override(q):
    """HUNTER may name any enemy creature, even one that could not block normally."""
    a, _ = q.subject
    return {YES} if q.board.has(a, HUNTER) else None


@rule("keywords.hunter.optional", "hunt-none")
def _hunter_optional(q):
    """Using HUNTER is optional."""
    return {YES}


@rule("keywords.hunter", "defender-chooses", overrides=("combat.block",))
def _hunter_instead(q):
    """The creature HUNTER names blocks: the defender has no choice."""
    return {NO} if q.facts.get("hunted") else None


# -- fights and defeats -------------------------------------------------------------


def _causes(q, kind):
    return [c for c in q.facts.get("causes", ()) if c[0] == kind]


@rule("combat.lower-defeated", "fate")
def _lower(q):
    """The creature with the lower power is defeated."""
    return {DEFEATED} if _causes(q, "weaker") else None


@rule("combat.equal-defeated", "fate")
def _equal(q):
    """With equal power both creatures are defeated."""
    return {DEFEATED} if _causes(q, "equal") else None


@rule("keywords.poisonous", "fate")
def _poisonous(q):
    """The enemy creature a POISONOUS creature fights is always defeated."""
    return {DEFEATED} if _causes(q, "poison") else None


@rule("keywords.poisonous.mutual", "fate")
def _poisonous_mutual(q):
    """A POISONOUS creature is defeated too when the enemy's power is equal or higher."""
    (x,) = q.subject
    other = q.facts.get("fought")
    if other is None or not q.board.has(x, POISONOUS):
        return None
    return {DEFEATED} if q.board.power(other) >= q.board.power(x) else None


@rule("triggers.play", "fate")
def _play_defeat(q):
    """A Play effect defeats the creature."""
    return [(r, {DEFEATED}) for _, r, trig in _causes(q, "effect") if trig == "play"]


@rule("triggers.attack", "fate")
def _attack_defeat(q):
    """An Attack effect defeats the creature."""
    return [(r, {DEFEATED}) for _, r, trig in _causes(q, "effect") if trig == "attack"]


@rule("triggers.defeated", "fate")
def _defeated_defeat(q):
    """A Defeated effect defeats the creature."""
    return [(r, {DEFEATED}) for _, r, trig in _causes(q, "effect") if trig == "defeated"]


def _tough_ready(q) -> bool:
    (x,) = q.subject
    return q.board.has(x, TOUGH) and x not in q.board.exhausted


@rule("keywords.tough", "fate",
      overrides=("combat.lower-defeated", "combat.equal-defeated", "keywords.poisonous.mutual"))
def _tough(q):
    """A TOUGH creature that is not exhausted and would be defeated is exhausted instead."""
    return {EXHAUSTED} if _tough_ready(q) and q.facts.get("causes") else None


@rule("keywords.tough.effects", "fate", overrides=("triggers.play", "triggers.attack", "triggers.defeated"))
def _tough_effects(q):
    """TOUGH works against card effects as well as in combat."""
    return {EXHAUSTED} if _tough_ready(q) and _causes(q, "effect") else None


@rule("keywords.tough.poisonous", "fate",
      overrides=("keywords.poisonous", "combat.lower-defeated", "combat.equal-defeated"))
def _tough_poisonous(q):
    """A TOUGH creature fighting a POISONOUS one is exhausted, not defeated."""
    return {EXHAUSTED} if _tough_ready(q) and _causes(q, "poison") else None


@rule("combat.unblocked", "life")
def _unblocked(q):
    """An unblocked attack costs the defender 1 life."""
    return None if q.facts.get("blocked") else {1}


# -- timing -----------------------------------------------------------------------


@rule("keywords.hunter", "order")
def _hunter_when(q):
    """HUNTER's choice is made when attacking, instead of the defender's block decision."""
    return {"effect-first", "hunt-first"}


@rule("triggers.attack", "order")
def _attack_when(q):
    """An Attack effect happens when the creature attacks, before the defender decides on blocking."""
    return {"effect-first", "hunt-first"}


@rule("effects.hunter-order", "order")
def _hunter_order(q):
    """The Attack effect resolves first; HUNTER then names among the creatures still in play."""
    return {"effect-first"}


@rule("combat.attack", "attack-goes-on")
def _attack_declared(q):
    """An attack is declared with an allied creature (nothing on one that leaves)."""
    return {"stops", "goes-on"}


@rule("combat.unblocked", "attack-goes-on")
def _unblocked_when_gone(q):
    """An unblocked attack costs a life (nothing on an attacker that left)."""
    return {"stops", "goes-on"}


@rule("combat.attacker-gone", "attack-goes-on")
def _attacker_gone(q):
    """An attacker that left play ends its attack: no block, no fight, no life lost."""
    return {"stops"}


# FRENZY gives a second attack to the creature's controller, in their turn:
# about a creature the active player no longer controls it says nothing
# (combat.attack answers then).

@rule("keywords.frenzy", "frenzy")
def _frenzy(q):
    """FRENZY: a second attack this turn if it is still in play."""
    if not q.facts.get("frenzy") or not q.facts["allied"]:
        return None
    if q.facts["attacks"] >= 2:
        return {NO}
    return {YES} if q.facts["in_play"] else {NO}


@rule("keywords.frenzy", "frenzy", statuses=("varies",))
def _frenzy_survives(q):
    """FRENZY (first edition wording): a second attack if it survived the first."""
    if not q.facts.get("frenzy") or not q.facts["allied"]:
        return None
    if q.facts["attacks"] >= 2:
        return {NO}
    return {YES} if q.facts["survived"] else {NO}


@rule("combat.attack", "frenzy")
def _only_allied_attack(q):
    """Only an allied creature in play can attack."""
    return None if q.facts["in_play"] else {NO}


@rule("triggers.play", "play-effect")
def _play_happens(q):
    """A Play effect happens whenever its creature comes into play."""
    return {YES}


@rule("abilities.constant", "play-effect", overrides=("triggers.play",))
def _play_stopped(q):
    """A card that stops the opponent's Play effects."""
    holder = q.board.play_stopper(q.facts["controller"])
    if holder is None:
        return None
    return [(ref("abilities.constant", q.board.defs[holder]), {NO})]


def _target_rule(trigger):
    def speak(q):
        source, x = q.subject
        e: Effect = q.facts["effect"]
        if e.trigger != trigger:
            return None
        ok = x in q.board.targets(source, q.facts["controller"], e)
        return [(ref(f"triggers.{trigger}", q.board.defs[source]), {YES if ok else NO})]
    speak.__doc__ = f"What the card's {trigger.title()} effect may act on."
    return speak


for _t in ("play", "attack", "defeated"):
    rule(f"triggers.{_t}", "target")(_target_rule(_t))


@rule("effects.simultaneous", "order-chooser")
def _active_orders(q):
    """The active player orders effects that happen at the same time."""
    return {q.board.active}


# -- verdicts -----------------------------------------------------------------------


@cache
def statuses() -> dict[tuple[str, str], str]:
    cat = load_catalogue()
    return {(cid, e): c.editions[e].status for cid, c in cat.items() for e in EDITIONS}


def status(clause: str, edition: str) -> str:
    return statuses()[(clause, edition)]


@cache
def implied_by(clause: str, edition: str) -> str:
    """The catalogue's account of how the edition's text implies `clause`."""
    return " ".join((load_catalogue()[clause].editions[edition].text or "").split())


@cache
def rules_for(kind: str) -> tuple[Rule, ...]:
    return tuple(r for r in RULES if kind in r.kinds)


@dataclass
class Verdict:
    edition: str
    kind: str                       # settled | contradiction | ambiguity
    admitted: frozenset
    voices: tuple[Voice, ...]       # applicable and not overridden
    dropped: tuple[tuple[Voice, Voice], ...]   # (voice, the voice it gave way to)
    silent: tuple[Voice, ...]       # voices of clauses this edition is silent on
    tension: frozenset              # refs
    implied: tuple[Voice, ...] = ()  # applicable voices the edition implies without saying

    @property
    def settled(self) -> bool:
        return self.kind == "settled"

    def answer(self):
        return next(iter(self.admitted)) if len(self.admitted) == 1 else None

    def to_json(self) -> dict:
        d = {"verdict": self.kind, "admitted": sorted(map(str, self.admitted))}
        if self.tension:
            d["tension"] = sorted(self.tension)
        if self.dropped:
            d["settled_by"] = sorted({w.ref for _, w in self.dropped})
        if self.silent:
            d["silent"] = sorted({v.ref for v in self.silent})
        if self.implied:
            # Why such a voice counts: the catalogue's account of what implies it.
            d["implied"] = {v.ref: implied_by(v.clause, self.edition) for v in self.implied}
        return d


def voices(q: Question) -> list[tuple[Voice, str]]:
    """Every clause's voice on `q`, with nothing filtered: (voice, statuses it applies in)."""
    out = []
    answers = frozenset(q.answers)
    for r in rules_for(q.kind):
        for rf, admitted in r.speak(q):
            out.append(Voice(rf, r.clause, admitted & answers, r))
    return out


def _gives_way(v: Voice, w: Voice) -> bool:
    return v is not w and (v.clause in w.rule.overrides or w.clause in v.rule.yields_to)


def verdict(q: Question, edition: str, every: list[Voice] | None = None, readings: bool = False) -> Verdict:
    """The edition's verdict on `q`. With `readings`, the clauses the edition
    is silent on count as if stated: the outcome the catalogue's readings
    (the engine's declared reading for that edition) give."""
    every = voices(q) if every is None else every
    applicable, silent, implied = [], [], []
    table = statuses()
    for v in every:
        st = table[(v.clause, edition)]
        if st == "implied" and "states" in v.rule.statuses:
            # The edition's text leads to the rule without saying it: it binds
            # like a stated one, and the verdict says so (`implied`).
            applicable.append(v)
            implied.append(v)
        elif st in v.rule.statuses or (readings and st == "silent" and "states" in v.rule.statuses):
            applicable.append(v)
        elif st == "silent":
            silent.append(v)
    kept, dropped = [], []
    for v in applicable:
        by = next((w for w in applicable if _gives_way(v, w)), None)
        if by is None:
            kept.append(v)
        else:
            dropped.append((v, by))
    admitted = frozenset(q.answers)
    for v in kept:
        admitted &= v.admitted
    if not kept:
        admitted = frozenset(q.answers) if q.default is None else frozenset({q.default})
    if not admitted:
        kind = "contradiction"
        tension = _smallest_conflict(kept, frozenset(q.answers))
    elif len(admitted) > 1:
        kind = "ambiguity"
        tension = frozenset(v.ref for v in kept)
    else:
        kind = "settled"
        tension = frozenset()
    implied = tuple(v for v in implied if v in kept or any(w is v for _, w in dropped))
    return Verdict(edition, kind, admitted, tuple(kept), tuple(dropped), tuple(silent), tension, implied)


def _smallest_conflict(kept: list[Voice], answers: frozenset) -> frozenset:
    for n in range(1, len(kept) + 1):
        for group in combinations(kept, n):
            common = answers
            for v in group:
                common &= v.admitted
            if not common:
                return frozenset(v.ref for v in group)
    return frozenset(v.ref for v in kept)


def verdicts(q: Question, editions=EDITIONS) -> dict[str, Verdict]:
    every = voices(q)
    return {e: verdict(q, e, every) for e in editions}


def how_settled(q: Question, v: Verdict, tension: frozenset) -> list[str]:
    """The voices that made `v` settle what other editions leave in tension:
    those that overrode a voice in tension, or the ones left standing."""
    by = sorted({w.ref for d, w in v.dropped if d.ref in tension})
    return by or sorted({w.ref for w in v.voices})
