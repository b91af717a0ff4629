"""How Mindbug's board in the browser (oracle.games.mindbug.board.edit)
writes a decision: a card by the name scenarios give it (`Name`, `Name#2`),
and a decision of the service as the scenario step it is (`{attack: Spider
Owl}`, `{mindbug: null, by: 0}`, `{random: [4]}` for a die's face)."""

from __future__ import annotations

from ..engine.state import asks_number
from ..scenarios.cards import card_name

ZONES = ("hand", "play", "discard", "deck")       # each player's zones, as a scenario's `given` names them


def numbers(g, decision: dict) -> bool:
    """Whether the decision's picks are numbers (a die's face, a named power), not cards."""
    return decision.get("t") in ("choose", "random") and asks_number(g.pending)


def name(cid) -> str:
    """A card by its scenario name (its id as text when it has none)."""
    try:
        return card_name(cid)
    except (KeyError, TypeError):
        return str(cid)


def note(g, decision: dict):
    """The decision as a scenario step writes it (by card name)."""
    kind = decision.get("t")
    if kind in ("mindbug", "pass"):
        return _by(g, decision, kind)
    if kind in ("choose", "random"):
        picks = decision.get("cards") or []
        return _by(g, decision, {kind: list(picks) if numbers(g, decision) else [name(c) for c in picks]})
    card = decision.get("card")
    step = {kind: None if card is None else name(card)}
    return _by(g, decision, step)


def _by(g, decision: dict, step):
    """A step made by another player than the one the game waits for (a
    ruling that they may not) names them: `{mindbug: null, by: 0}`."""
    p, pending = decision.get("p"), g.pending
    if p is None or pending is None or (not pending.is_chance and pending.player == p):
        return step
    return {**({step: None} if isinstance(step, str) else step), "by": p}
