"""The clauses of combat, blocking and the keywords, each as a constraint
on the questions of questions.py (`rule`, registered in RULES).

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

from ..cards import HUNTER, POISONOUS, SNEAKY, TOUGH
from .facts import Effect, ref
from .questions import DEFEATED, EXHAUSTED, NO, YES, Rule

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
