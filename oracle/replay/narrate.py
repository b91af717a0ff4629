"""Saying in game terms what the rules did and what they wait for, for the
findings of verify: cards by name and id ("Elephantopus (12)")."""

from __future__ import annotations

from .findings import RulesEvent

# At most this many of the rules' latest events go with a finding.
MAX_EVENTS = 40

TRIGGER_WORDS = {"triggers.play": "Play", "triggers.attack": "Attack", "triggers.defeated": "Defeated",
                 "triggers.action": "Action", "triggers.to-discard": "put into a discard pile"}
ROMAN = {2: "II", 3: "III"}


def card_label(names: dict, card) -> str:
    return f"{names[card]} ({card})" if card in names else f"card {card}"


def creature_label(g, card) -> str:
    """A card by name and id; a creature that evolved (later.evolve) with the
    face it shows: "Cloud Lady (7, stage II: Typhoon Princess)"."""
    names = g.table.names
    if card in names and g.state.stages:
        d = g.design(card)
        if d.name != names[card]:
            return f"{names[card]} ({card}, stage {ROMAN.get(d.stage, d.stage)}: {d.name})"
    return card_label(names, card)


def event_text(ev, names: dict) -> str:
    parts = [ev.kind]
    if ev.card is not None:
        parts.append(card_label(names, ev.card))
    if ev.cards is not None:
        parts.append("[" + ", ".join(card_label(names, c) for c in ev.cards) + "]")
    if ev.amount is not None and ev.kind != "turn":
        parts.append(str(ev.amount))
    if ev.player is not None:
        parts.append(f"(player {ev.player})")
    if ev.source is not None:
        parts.append(f"from {card_label(names, ev.source)}")
    return " ".join(parts)


def rules_events(events, names: dict) -> list[RulesEvent]:
    """The latest events (at most MAX_EVENTS), each with its clauses and text."""
    out = []
    for ev in events[-MAX_EVENTS:]:
        out.append(RulesEvent(ev.kind, list(ev.clauses), event_text(ev, names), ev.player, ev.card,
                              list(ev.cards) if ev.cards is not None else None, ev.amount, ev.source))
    return out


def waiting_text(g) -> str | None:
    """What the rules wait for, when it is a decision inside a turn (not the
    turn action): "player 1's choice for Explosive Toad (24)'s Defeated
    effect (...)". None when the game waits for a turn action or is over."""
    pend = g.pending
    if pend is None or pend.stage == "action":
        return None
    src = creature_label(g, pend.source) if pend.source is not None else None
    who = f"player {pend.player}'s"
    if pend.stage == "choose":
        trigger = next((TRIGGER_WORDS[c] for c in pend.clauses if c in TRIGGER_WORDS), None)
        what = f"{who} choice for {src}'s {trigger} effect" if src and trigger else \
            (f"{who} choice for {src}'s effect" if src else f"{who} choice")
    elif pend.stage == "random":
        what = f"the random outcome of {src}'s effect" if src else "a random outcome"
    elif pend.stage == "order":
        what = f"{who} choice of the waiting effect that resolves next"
    elif pend.stage == "mindbug":
        what = f"{who} Mindbug decision on {src}" if src else f"{who} Mindbug decision"
    elif pend.stage == "hunt":
        what = f"{who} HUNTER choice for {src}" if src else f"{who} HUNTER choice"
    elif pend.stage == "block":
        what = f"{who} block decision against {src}" if src else f"{who} block decision"
    elif pend.stage == "frenzy":
        what = f"{who} decision on a second FRENZY attack"
    elif pend.stage == "fast":
        what = f"{who} decision on an attack with the FAST creature {src}" if src else f"{who} FAST decision"
    else:
        what = f"{who} {pend.stage} decision"
    if pend.prompt:
        what += f" ({pend.prompt})"
    return what
