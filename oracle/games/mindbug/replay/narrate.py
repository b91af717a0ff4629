"""Saying in game terms what the rules did and what they wait for, for the
findings of verify: cards by name and id ("Elephantopus (12)").

An evolved creature (later.evolve) is named by the face it shows, with its
own card id: "Frog Prophet (23)" for the Curious Tadpole 23 at stage II,
as the board draws it. An event names a creature by the face it showed
when the event happened (`names_by_event`): the "evolve" event by the face
it evolved from, the events after it by the new one.
"""

from __future__ import annotations

from ....replay.findings import RulesEvent
from ..cards import next_stage

# At most this many of the rules' latest events go with a finding.
MAX_EVENTS = 40

TRIGGER_WORDS = {"triggers.play": "Play", "triggers.attack": "Attack", "triggers.defeated": "Defeated",
                 "triggers.action": "Action", "triggers.to-discard": "put into a discard pile"}
ROMAN = {2: "II", 3: "III"}


def card_label(names: dict, card) -> str:
    return f"{names[card]} ({card})" if card in names else f"card {card}"


def creature_label(g, card) -> str:
    """A card by name and id; a creature that evolved (later.evolve) by the
    face it shows, with its stage, as the board labels it: "Typhoon Princess
    (7, stage II of Cloud Lady)"."""
    names = g.table.names
    if card in names and g.state.stages:
        d = g.design(card)
        if d.name != names[card]:
            return f"{d.name} ({card}, stage {ROMAN.get(d.stage, d.stage)} of {names[card]})"
    return card_label(names, card)


def faces(g) -> dict:
    """The evolved creatures of game `g` (later.evolve), each with the name
    of the face it shows; {} when none has evolved."""
    stages = g.state.stages
    return {c: g.design(c).name for c, _aside, _n in stages} if stages else {}


def shown_names(g, shown: dict | None = None) -> dict:
    """Card id -> the name a report gives it: its printed name, or for an
    evolved creature the face it shows (`shown`: those faces, as `faces`
    gives them; by default the faces in `g` now)."""
    if shown is None:
        shown = faces(g)
    return {**g.table.names, **shown} if shown else g.table.names


def names_by_event(g, events, start: dict) -> tuple[list, dict]:
    """For each of `events` (of game `g`), the names of its cards when it
    happened (`shown_names`), and the faces after the last one. `start`:
    the faces when the first event happened (`faces` of the game then).
    An "evolve" event names the creature by the face it evolved from; an
    "unevolve" event (the creature left play) by the face it left with."""
    names = g.table.names
    shown = dict(start)
    current = shown_names(g, shown)
    out = []
    for ev in events:
        out.append(current)
        kind = ev.kind
        if kind == "evolve" and ev.card is not None and ev.cards:
            shown[ev.card] = _stage_face(g, ev.cards[0], ev.amount)
            current = shown_names(g, shown)
        elif kind == "unevolve" and ev.card in shown:
            del shown[ev.card]
            current = shown_names(g, shown)
    return out, shown


def _stage_face(g, aside: int, stage) -> str:
    """The name of the face that the double-sided card `aside` shows at
    `stage` (2: its face up side; 3: the side it turns to)."""
    d = g.table.defs[aside]
    return d.name if stage == 2 else (next_stage(d) or d).name


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


def rules_events(events, names: dict, each: list | None = None) -> list[RulesEvent]:
    """The latest events (at most MAX_EVENTS), each with its clauses and
    text; `each`: the names of each event's cards (`names_by_event`), else
    `names` for all."""
    out = []
    first = max(0, len(events) - MAX_EVENTS)
    for i in range(first, len(events)):
        ev = events[i]
        out.append(RulesEvent(ev.kind, list(ev.clauses), event_text(ev, names if each is None else each[i]),
                              ev.player, ev.card, list(ev.cards) if ev.cards is not None else None, ev.amount,
                              ev.source))
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
