"""Mindbug's part of the board in the browser (`mb-oracle board`, its
registry entry's BOARD_EDIT): what the page may set up, the game as the
page draws it (every zone by card name, as scenarios write them, with the
ids the service's decisions carry), the options and events in words, the
expectations the page may tick, and the ruling a position and its
decisions make (steps by card name, `settle: false`: it ends where the
board stands). The ruling's side (the expectations, a scenario's steps as
decisions, the ruling, a game of a log as a position) is `edit_ruling`;
how a decision is written as a scenario step, `edit_steps`.

Its part of the page's script is `edit.js` (SCRIPT).
"""

from __future__ import annotations

from pathlib import Path

from ..cards import CARDS, SETS
from ..editions import EDITIONS
from ..harness.views import pending_view
from ..readings import READINGS
from ..scenarios.cards import all_ids
from ..scenarios.format import FORMAT
from .edit_ruling import decisions, expectations, log_position, ruling
from .edit_steps import ZONES, name, note, numbers

SCRIPT = Path(__file__).with_name("edit.js")
DEFAULT_EDITION = "en-revised"
# What a document needs beyond its position to be read as a scenario, and the keys of a scenario it drops
# (the board plays its own decisions).
_PLACEHOLDER = {"id": "board.position", "title": "The position set up on the board", "clauses": ["turns.action"],
                "source": {"kind": "team ruling", "ref": "set up on the board"}}
_DROPPED = ("steps", "expect", "illegal", "expect_by_edition", "settle", "status")


def hello(card_files) -> dict:
    return {"title": "Mindbug", "editions": list(EDITIONS), "default_edition": DEFAULT_EDITION,
            "sets": _sets(card_files),
            "readings": [{"clause": r.clause, "choices": list(r.names()), "default": r.team} for r in READINGS],
            "zones": [*ZONES, "unused"], "players": [2], "declared_cards": True}


def _sets(card_files) -> list[dict]:
    """The sets a game may be dealt from: the shipped ones and those of the --cards files."""
    from ..cards.compiled import load_file
    from ..cards.declared import CardFileError

    ids = [s for s, card_set in SETS.items() if card_set.later or s in ("first-contact", "new-servants")]
    for f in card_files:
        try:
            sid = load_file(f).set.id
        except (CardFileError, OSError):
            continue
        if sid not in ids:
            ids.append(sid)
    return [{"id": s, "name": SETS[s].name} for s in ids]


def cards(sets, card_files) -> list[dict]:
    """The cards of `sets` (all without), each with the names its copies take in a scenario."""
    from ..cards import UnknownSet, check_sets

    _sets(card_files)                   # the declared sets known
    try:
        keep = set(check_sets(sets)) if sets else set(SETS)
    except UnknownSet as e:
        raise ValueError(str(e)) from None
    out = []
    for c in CARDS.values():
        if c.card_set not in keep:
            continue
        item = c.to_json()
        item["text"] = c.text
        item["names"] = [c.name] + [f"{c.name}#{k}" for k in range(2, c.copies + 1)]
        out.append(item)
    return out


def size_problem(document: dict) -> str | None:
    """A position naming more cards than the game has (every set's), in words."""
    given = document.get("given")
    n = _count(given)
    most = len(all_ids(tuple(SETS)))
    return f"the position names {n} cards; the game has {most}" if n > most else None


def _count(value) -> int:
    if isinstance(value, str):
        return 1
    if isinstance(value, list):
        return sum(_count(v) for v in value)
    if isinstance(value, dict):
        return sum(_count(v) for k, v in value.items() if k not in ("life", "mindbugs", "active", "turn"))
    return 0


def complete(document: dict) -> dict:
    """The document as a scenario the loader reads: its position, game,
    sets, editions and readings, what else a scenario needs filled in."""
    doc = {k: v for k, v in document.items() if k not in _DROPPED}
    doc.setdefault("format", FORMAT)
    for k, v in _PLACEHOLDER.items():
        doc.setdefault(k, v)
    doc.setdefault("given", {})
    doc["expect"] = {"turn": 1}
    return doc


# -- the game in words --------------------------------------------------------------------------------


def words(g, decision: dict) -> str:
    """The decision for people: "player 0: attack with Spider Owl"."""
    kind = decision.get("t")
    who = f"player {decision['p']}: " if decision.get("p") is not None else "chance: "
    card = decision.get("card")
    named = None if card is None else name(card)
    if kind in ("choose", "random"):
        picks = decision.get("cards") or []
        shown = ", ".join(map(str, picks)) if numbers(g, decision) else ", ".join(name(c) for c in picks)
        return who + (f"{'choose' if kind == 'choose' else 'the outcome is'} {shown}" if picks else "choose nothing")
    played = g.state.played
    text = {"play": f"play {named}", "attack": f"attack with {named}", "activate": f"activate {named}",
            "mindbug": "use a Mindbug on " + (name(played) if played is not None else "the card played"),
            "pass": "pass", "hunt": f"hunt {named}" if named else "do not hunt",
            "block": f"block with {named}" if named else "do not block"}.get(kind, kind)
    return who + text


def event(view: dict) -> dict:
    """An event of the service, with its cards' names."""
    out = {k: v for k, v in view.items() if v is not None}
    for k in ("card", "source"):
        if view.get(k) is not None:
            out[k + "_name"] = name(view[k])
    if view.get("cards"):
        out["card_names"] = [name(c) for c in view["cards"]]
    return out


def _option(g, line) -> dict:
    import msgspec

    d = msgspec.to_builtins(line)
    return {"decision": d, "words": words(g, d)}


def pending(g) -> dict | None:
    """Who must decide, and every legal option with its words (the service's pending, as `serve` gives it)."""
    view = pending_view(g)
    if view is None:
        return None
    return {"players": [] if view.player is None else [view.player], "stage": view.stage, "chance": view.chance,
            "prompt": view.prompt, "clauses": list(view.clauses),
            "source": None if view.source is None else name(view.source),
            "options": [_option(g, o) for o in view.options]}


def refusal(g, view: dict) -> dict:
    """The service's refusal, its message and options naming cards by name."""
    from ..scenarios.wording import _named

    out = dict(view)
    out["message"] = _named(view.get("message", ""))
    out["options"] = [{"decision": o, "words": words(g, o)} for o in view.get("options", [])]
    if view.get("card") is not None and not isinstance(view["card"], str):
        out["card"] = name(view["card"])
    return out


def _card(g, cid: int) -> dict:
    s = g.state
    item = {"id": cid, "name": name(cid)}
    if g.controller(cid) is not None:
        item["power"] = g.power(cid)
        item["exhausted"] = cid in s.exhausted
        counters = dict(s.octonite).get(cid)
        if counters:
            item["octonite"] = counters
        stage = next((st for c, _aside, st in s.stages if c == cid), None)
        if stage:
            item["stage"] = stage
            item["face"] = g.name(cid)          # the face an evolved creature shows (later.evolve)
        under = dict(s.boosts).get(cid)
        if under:
            item["boosts"] = [{"id": b, "name": name(b)} for b in under]
    return item


def board(g) -> dict:
    """The game as the page draws it: each player's zones by card name and
    id (draw piles top first), life, Mindbugs; the unused pile, the cards
    out of the game and aside; whose turn, the turn number, the result."""
    s = g.state
    players = []
    for p in (0, 1):
        side = {"life": s.life[p], "mindbugs": s.mindbugs[p]}
        for zone in ZONES:
            side[zone] = [_card(g, c) for c in getattr(s, zone)[p]]
        players.append(side)
    return {"players": players, "unused": [_card(g, c) for c in s.unused],
            "out": [_card(g, c) for c in s.out], "set_aside": [_card(g, c) for c in s.set_aside],
            "active": s.active, "turn": s.turn, "winner": s.winner, "reason": s.reason}


__all__ = ["DEFAULT_EDITION", "SCRIPT", "board", "cards", "complete", "decisions", "event", "expectations", "hello",
           "log_position", "note", "pending", "refusal", "ruling", "size_problem", "words"]
