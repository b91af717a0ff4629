"""What must hold after every step of every game, checked from the outside.

`step_violations(before, decision, events, after)` looks at one step: the
game before it, the decision, the events it returned and the game after
it. Each check reads the events and the states, and the clause catalogue
for what each edition states; none of them asks the engine how it applied
a rule. The messages name the clause that was broken.

The checks:

- every card is in exactly one place;
- life changes only through events citing a life clause, by the amounts
  they name (life.lose, life.gain);
- no power below 1 where the edition states the floor (cards.power-minimum);
- a TOUGH creature that was not exhausted just before is never defeated:
  in combat (keywords.tough), against card effects (keywords.tough.effects)
  and against POISONOUS (keywords.tough.poisonous), wherever the edition
  states it or the engine's declared reading for the edition applies it;
- a SNEAKY attacker is blocked by the defender's choice only with a
  SNEAKY creature (keywords.sneaky); HUNTER's named blocker is exempt;
- the opponent's Mindbug decision only follows a card played from hand
  (mindbug.only-from-hand), and a Mindbug is only used at that decision;
- the step is deterministic: the same decision on a copy of the game
  gives the same events and the same state;
- the state survives a round trip through its serialised (JSON) form;
- the engine's own invariants (`oracle.games.mindbug.engine.invariants`).
"""

from __future__ import annotations

from collections import Counter

import msgspec

from ..cards import SNEAKY, TOUGH
from ..engine import Game, State
from ..engine.invariants import violations
from .constraints import status


def card_places(g: Game) -> list[str]:
    s = g.state
    seen = Counter()
    for _zone, _p, cards in s.zones():
        seen.update(cards)
    out = []
    twice = sorted(c for c, n in seen.items() if n > 1)
    if twice:
        out.append(f"setup.components: cards in two places: {twice}")
    missing = sorted(set(g.table.defs) - set(seen))
    if missing:
        out.append(f"setup.components: cards in no place: {missing}")
    extra = sorted(set(seen) - set(g.table.defs))
    if extra:
        out.append(f"setup.components: unknown cards in play: {extra}")
    return out


def power_floor(g: Game) -> list[str]:
    if status("cards.power-minimum", g.profile.edition) != "states":
        return []
    s = g.state
    low = [c for p in (0, 1) for c in s.play[p] if g.power(c) < 1]
    return [f"cards.power-minimum: power below 1: {low}"] if low else []


def life_changes(before: Game, events, after: Game) -> list[str]:
    out = []
    for x in events:
        if x.kind == "lose-life" and "life.lose" not in x.clauses:
            out.append(f"life.lose: a lose-life event cites {x.clauses}")
        if x.kind == "gain-life" and "life.gain" not in x.clauses:
            out.append(f"life.gain: a gain-life event cites {x.clauses}")
    for p in (0, 1):
        delta = after.state.life[p] - before.state.life[p]
        told = sum(x.amount or 0 for x in events if x.player == p and x.kind == "gain-life") - sum(
            x.amount or 0 for x in events if x.player == p and x.kind == "lose-life")
        if delta != told:
            out.append(f"life.lose/life.gain: player {p}'s life moved by {delta}, the events say {told}")
    return out


def _tough_applies(g: Game, clause: str, switch: str) -> bool:
    st = status(clause, g.profile.edition)
    return st in ("states", "implied") or (st == "silent" and bool(getattr(g.profile, switch)))


def tough_defeats(before: Game, events) -> list[str]:
    """A defeat of a TOUGH creature that was not exhausted just before."""
    out = []
    bs = before.state
    in_play = set(bs.play[0]) | set(bs.play[1])
    exhausted = set(bs.exhausted)
    for x in events:
        if x.kind == "exhaust":
            exhausted.add(x.card)
            continue
        if x.kind != "defeat":
            continue
        c = x.card
        tough = before.has(c, TOUGH) if c in in_play else bool(before.table.defs[c].keywords & TOUGH)
        if not tough or c in exhausted:
            continue
        if x.source is not None:
            if _tough_applies(before, "keywords.tough.effects", "tough_effects"):
                out.append(f"keywords.tough.effects: card {c} was defeated by an effect of card {x.source} "
                           "though TOUGH and not exhausted")
        elif "keywords.poisonous" in x.clauses and not (
                "combat.lower-defeated" in x.clauses or "combat.equal-defeated" in x.clauses):
            if _tough_applies(before, "keywords.tough.poisonous", "tough_poisonous"):
                out.append(f"keywords.tough.poisonous: card {c} was defeated by POISONOUS though TOUGH and not exhausted")
        elif "keywords.poisonous" in x.clauses:
            out.append(f"keywords.tough: card {c} lost a fight against POISONOUS and was defeated though TOUGH "
                       "and not exhausted")
        else:
            out.append(f"keywords.tough: card {c} was defeated in combat though TOUGH and not exhausted")
    return out


def sneaky_blocks(before: Game, events, after: Game) -> list[str]:
    out = []
    hunted = set()
    for x in events:
        if x.kind == "hunt":
            hunted.add(x.card)
        if x.kind == "block":
            a, b = x.source, x.card
            if before.has(a, SNEAKY) and not before.has(b, SNEAKY):
                out.append(f"keywords.sneaky: card {b} without SNEAKY blocked the SNEAKY attacker {a}")
    p = after.pending
    if p is not None and p.stage == "block" and p.source is not None:
        a = p.source
        if a in after.state.play[0] or a in after.state.play[1]:
            for _, b in p.options:
                if b is not None and after.has(a, SNEAKY) and not after.has(b, SNEAKY):
                    out.append(f"keywords.sneaky: card {b} without SNEAKY is offered as a blocker of SNEAKY card {a}")
    return out


def mindbug_timing(before: Game, d, events, after: Game) -> list[str]:
    out = []
    p = after.pending
    if p is not None and p.stage == "mindbug":
        card = after.state.played
        played = [x for x in events if x.kind == "play" and x.card == card]
        if d.kind != "play" or d.arg != card or not played or card not in before.state.hand[d.player] \
                or p.player != 1 - d.player:
            out.append(f"mindbug.only-from-hand: a Mindbug decision for player {p.player} on card {card} "
                       f"follows {d.kind} {d.arg}, not a card played from the opponent's hand")
    for x in events:
        if x.kind == "mindbug" and d.kind != "mindbug":
            out.append(f"mindbug.use: a Mindbug was used without a mindbug decision ({d.kind})")
    return out


def determinism(before: Game, d, events, after: Game) -> list[str]:
    again = before.copy()
    ev2 = again.apply_unchecked(d.kind, d.arg)
    out = []
    if [x.to_json() for x in ev2] != [x.to_json() for x in events]:
        out.append("determinism: the same decision on a copy gave other events")
    if again.state.to_builtins() != after.state.to_builtins():
        out.append("determinism: the same decision on a copy gave another state")
    return out


def round_trip(g: Game) -> list[str]:
    data = msgspec.json.encode(g.state.to_builtins())
    back = Game(g.table, g.profile, State.from_builtins(msgspec.json.decode(data)))
    out = []
    if back.state.to_builtins() != g.state.to_builtins():
        out.append("round trip: the state read back from JSON differs")
    if back.legal_decisions() != g.legal_decisions():
        out.append("round trip: the state read back from JSON offers other decisions")
    return out


def state_violations(g: Game) -> list[str]:
    return card_places(g) + power_floor(g) + [f"engine invariant: {v}" for v in violations(g)] + round_trip(g)


def step_violations(before: Game, d, events, after: Game) -> list[str]:
    return (state_violations(after) + life_changes(before, events, after) + tough_defeats(before, events)
            + sneaky_blocks(before, events, after) + mindbug_timing(before, d, events, after)
            + determinism(before, d, events, after))
