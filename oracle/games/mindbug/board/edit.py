"""Mindbug's part of the board in the browser (`mb-oracle board`, its
registry entry's BOARD_EDIT): what the page may set up, the game as the
page draws it (every zone by card name, as scenarios write them, with the
ids the service's decisions carry), the options and events in words, the
expectations the page may tick, and the ruling a position and its
decisions make (steps by card name, `settle: false`: it ends where the
board stands).

Its part of the page's script is `edit.js` (SCRIPT).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import UNSET

from ..cards import CARDS, SETS
from ..editions import EDITIONS
from ..engine.state import asks_number
from ..harness.views import pending_view
from ..readings import READINGS
from ..scenarios.cards import all_ids, card_name
from ..scenarios.format import FORMAT

SCRIPT = Path(__file__).with_name("edit.js")
DEFAULT_EDITION = "en-revised"
ZONES = ("hand", "play", "discard", "deck")
# What a document needs beyond its position to be read as a scenario, and the keys of a scenario it drops
# (the board plays its own decisions).
_PLACEHOLDER = {"id": "board.position", "title": "The position set up on the board", "clauses": ["turns.action"],
                "source": {"kind": "team ruling", "ref": "set up on the board"}}
_DROPPED = ("steps", "expect", "illegal", "expect_by_edition", "settle", "status")
_KEPT = ("sets", "exact_sets", "card_file", "readings")


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


def _numbers(g, decision: dict) -> bool:
    """Whether the decision's picks are numbers (a die's face, a named power), not cards."""
    return decision.get("t") in ("choose", "random") and asks_number(g.pending)


def _name(cid) -> str:
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
        return _by(g, decision, {kind: list(picks) if _numbers(g, decision) else [_name(c) for c in picks]})
    card = decision.get("card")
    step = {kind: None if card is None else _name(card)}
    return _by(g, decision, step)


def _by(g, decision: dict, step):
    """A step made by another player than the one the game waits for (a
    ruling that they may not) names them: `{mindbug: null, by: 0}`."""
    p, pending = decision.get("p"), g.pending
    if p is None or pending is None or (not pending.is_chance and pending.player == p):
        return step
    return {**({step: None} if isinstance(step, str) else step), "by": p}


def words(g, decision: dict) -> str:
    """The decision for people: "player 0: attack with Spider Owl"."""
    kind = decision.get("t")
    who = f"player {decision['p']}: " if decision.get("p") is not None else "chance: "
    card = decision.get("card")
    name = None if card is None else _name(card)
    if kind in ("choose", "random"):
        picks = decision.get("cards") or []
        shown = ", ".join(map(str, picks)) if _numbers(g, decision) else ", ".join(_name(c) for c in picks)
        return who + (f"{'choose' if kind == 'choose' else 'the outcome is'} {shown}" if picks else "choose nothing")
    text = {"play": f"play {name}", "attack": f"attack with {name}", "activate": f"activate {name}",
            "mindbug": "use a Mindbug on " + (_name(g.state.played) if g.state.played is not None else "the card played"),
            "pass": "pass", "hunt": f"hunt {name}" if name else "do not hunt",
            "block": f"block with {name}" if name else "do not block"}.get(kind, kind)
    return who + text


def event(view: dict) -> dict:
    """An event of the service, with its cards' names."""
    out = {k: v for k, v in view.items() if v is not None}
    for k in ("card", "source"):
        if view.get(k) is not None:
            out[k + "_name"] = _name(view[k])
    if view.get("cards"):
        out["card_names"] = [_name(c) for c in view["cards"]]
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
            "source": None if view.source is None else _name(view.source),
            "options": [_option(g, o) for o in view.options]}


def refusal(g, view: dict) -> dict:
    """The service's refusal, its message and options naming cards by name."""
    from ..scenarios.wording import _named

    out = dict(view)
    out["message"] = _named(view.get("message", ""))
    out["options"] = [{"decision": o, "words": words(g, o)} for o in view.get("options", [])]
    if view.get("card") is not None and not isinstance(view["card"], str):
        out["card"] = _name(view["card"])
    return out


def _card(g, cid: int) -> dict:
    s = g.state
    item = {"id": cid, "name": _name(cid)}
    if g.controller(cid) is not None:
        item["power"] = g.power(cid)
        item["exhausted"] = cid in s.exhausted
        counters = dict(s.octonite).get(cid)
        if counters:
            item["octonite"] = counters
        stage = next((st for c, _aside, st in s.stages if c == cid), None)
        if stage:
            item["stage"] = stage
        under = dict(s.boosts).get(cid)
        if under:
            item["boosts"] = [{"id": b, "name": _name(b)} for b in under]
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


# -- expectations and the ruling ------------------------------------------------------------------------


def _placed(session):
    """The test of whether an expectation may name a card: every card when
    the scenario is a deal, else those its `given` places, and the
    double-sided cards of evolution lines (aside unless on a creature); a
    card of the unused pile is not placed unless `given.unused` lists it."""
    from ..scenarios.cards import card_id

    given = session.scenario.doc.given
    if given.deal is not UNSET:
        return lambda cid: True
    refs = [] if given.unused is UNSET else list(given.unused)
    for side in () if given.players is UNSET else given.players:
        for zone in ZONES:
            for entry in getattr(side, zone):
                refs.append(entry if isinstance(entry, str) else entry.card)
                if not isinstance(entry, str) and entry.boosts:
                    refs += list(entry.boosts)
    ids = {card_id(r) for r in refs}
    return lambda cid: cid in ids or CARDS[_name(cid).split("#")[0]].stage >= 2


def _zone_value(cards: list, placed):
    """A zone as `expect` writes it: its cards by name, or, when one of them
    is not placed by the position, how many there are."""
    return [_name(c) for c in cards] if all(map(placed, cards)) else len(cards)


def _player_items(g, p: int, placed) -> list[dict]:
    s = g.state
    items = [{"key": f"players[{p}].life", "label": f"player {p} has {s.life[p]} life", "value": s.life[p]},
             {"key": f"players[{p}].mindbugs", "label": f"player {p} has {s.mindbugs[p]} Mindbugs left",
              "value": s.mindbugs[p]}]
    for zone, what in (("hand", "hand"), ("discard", "discard pile"), ("deck", "draw pile")):
        cards = getattr(s, zone)[p]
        value = _zone_value(cards, placed)
        shown = ", ".join(_name(c) for c in cards) or "nothing"
        items.append({"key": f"players[{p}].{zone}", "value": value,
                      "label": f"player {p}'s {what} holds " + (shown if isinstance(value, list)
                                                               else f"{value} cards ({shown})")})
    play = []
    for c in s.play[p]:
        entry = {"card": _name(c), "exhausted": c in s.exhausted}
        stage = next((st for x, _aside, st in s.stages if x == c), None)
        if stage:
            entry["stage"] = stage
        play.append(entry)
    shown = ", ".join(e["card"] + (" (exhausted)" if e["exhausted"] else "") for e in play) or "nothing"
    whole = all(map(placed, s.play[p]))
    items.append({"key": f"players[{p}].play", "value": play if whole else len(play),
                  "label": f"player {p}'s play area holds " + (shown if whole else f"{len(play)} cards ({shown})")})
    return items


def _pattern(view: dict, placed) -> dict:
    """An event as a pattern of `expect.events`, naming only the cards the position places."""
    out = {"kind": view["kind"]}
    for k in ("card", "source"):
        if view.get(k) is not None and placed(view[k]):
            out[k] = _name(view[k])
    if view.get("cards") and all(map(placed, view["cards"])):
        out["cards"] = [_name(c) for c in view["cards"]]
    for k in ("player", "amount"):
        if view.get(k) is not None:
            out[k] = view[k]
    if view.get("clauses"):
        out["clause"] = view["clauses"][0]
    return out


def expectations(session) -> list[dict]:
    """What the board of `session` allows a ruling to expect, each a
    tickable item: key (where it goes in `expect`), label (in words), value
    (as `expect` writes it). A card the position does not place is never
    named (the loader would refuse it): its zone is checked by its count."""
    g = session.now()
    placed = _placed(session)
    s = g.state
    items = _player_items(g, 0, placed) + _player_items(g, 1, placed)
    items.append({"key": "active", "label": f"it is player {s.active}'s turn", "value": s.active})
    items.append({"key": "turn", "label": f"it is turn {s.turn}", "value": s.turn})
    tired = [c for c in sorted(s.exhausted) if g.controller(c) is not None]
    if all(map(placed, tired)):
        names = [_name(c) for c in tired]
        items.append({"key": "exhausted", "value": names,
                      "label": "exhausted: " + (", ".join(names) if names else "no creature")})
    for p in (0, 1):
        for c in s.play[p]:
            if placed(c):
                items.append({"key": f"power[{_name(c)}]", "label": f"{_name(c)} has power {g.power(c)}",
                              "value": g.power(c)})
    items.append({"key": "winner", "value": s.winner,
                  "label": "the game goes on" if s.winner is None else f"player {s.winner} wins ({s.reason})"})
    if s.winner is not None:
        items.append({"key": "reason", "label": f"the game ends by {s.reason}", "value": s.reason})
    view = pending_view(g)
    if view is not None:
        value = {"stage": view.stage, "player": view.player}
        who = "chance" if view.player is None else f"player {view.player}"
        items.append({"key": "pending", "label": f"{who} must decide ({view.stage})", "value": value})
    for i, e in enumerate(session.events):
        items.append({"key": f"events[{i}]", "label": e.get("text") or e["kind"], "value": _pattern(e, placed)})
    return items


def decisions(session, apply) -> list[dict]:
    """The steps of the scenario `session` started from as the service's
    decision lines, each applied with `apply(k, line)` (the service's
    reply), as the scenario runner takes them: before each step the forced
    decisions it leaves out, after the last those `settle` takes; up to the
    first the rules refuse, which ends the list."""
    import msgspec

    from ..engine import Decision
    from ..engine.state import STAGE_KINDS
    from ..harness.views import line_of
    from ..scenarios.loader import step_kind
    from ..scenarios.runner import SETTLE_LIMIT
    from ..scenarios.wording import _decision

    out: list[dict] = []

    def take(kind, player, arg) -> bool:
        line = msgspec.to_builtins(line_of(Decision.make(kind, player, arg)))
        out.append(line)
        return bool(apply(len(out) - 1, line).get("applied"))

    def forced(stop) -> bool:
        for _ in range(SETTLE_LIMIT):
            p = session.now().pending
            if p is None or len(p.options) != 1 or stop(p):
                return True
            kind, arg = p.options[0]
            if not take(kind, None if p.is_chance else p.player, arg):
                return False
        return False

    doc = session.scenario.doc
    for step in doc.steps:
        kind, arg = _decision(step)
        if not forced(lambda p: kind in STAGE_KINDS[p.stage]):
            return out
        p = session.now().pending
        if p is None:
            return out
        by = step_kind(step)[2]
        if not take(kind, (None if p.is_chance else p.player) if by is None else by, arg):
            return out
    if doc.settle:
        forced(lambda p: p.stage == "action")
    return out


def ruling(document: dict, top: dict, session, refused, expect: dict) -> dict:
    """The ruling as an mb-scenario/1 mapping: the position of `document`,
    the decisions taken (`session.taken`) as steps, the refused last one
    (`refused`: (k, decision, refusal)) as `illegal`, and `expect`."""
    doc = {"format": FORMAT, **top}
    doc.update({k: document[k] for k in _KEPT if k in document})
    editions = document.get("editions")
    doc["editions"] = editions if isinstance(editions, list) else [session.edition]
    doc["given"] = document.get("given", {})
    steps = [n for _d, n in session.taken]
    if refused is not None:
        steps.append(note(session.now(), refused[1]))
    if steps:
        doc["steps"] = steps
    doc["settle"] = False
    if expect:
        doc["expect"] = expect
    if refused is not None:
        r = refused[2]
        doc["illegal"] = {"step": len(steps), "code": r["code"], "clause": r["clause"]}
    return doc



# -- a game of a replay log as a position ---------------------------------------------------------------


def log_position(raw, step: int) -> dict:
    """The game of a replay log (`raw`, oracle.replay.reader.RawGame) at the
    start of the turn at or before decision `step`, as a document's `given`
    (with its sets, edition and readings): {"document", "step"}, `step` the
    decisions played before that turn action. ValueError for a game whose
    setup the rules refuse."""
    from ..replay.verifier import Verifier

    class Stops(Verifier):
        def __init__(self):
            super().__init__(raw)
            self.taken = 0
            self.kept = None

        def keep(self) -> None:
            g = self.g
            if self.taken <= step and g is not None and g.pending is not None and g.pending.stage == "action":
                self.kept = (self.taken, g.copy())

        def _step(self, kind, arg) -> None:
            self.keep()
            self.taken += 1
            super()._step(kind, arg)

    v = Stops()
    rep = v.run()
    v.keep()
    if v.kept is None:
        raise ValueError(f"game {rep.id}: no turn action at or before decision {step} (its setup is refused, "
                         "or it ends first)")
    taken, g = v.kept
    doc = {"format": FORMAT, "sets": list(v.sets), "editions": [rep.edition]}
    if rep.readings:
        doc["readings"] = dict(rep.readings)
    doc["given"] = _given_of(g)
    return {"document": doc, "step": taken}


def _given_of(g) -> dict:
    """A game at a turn action as a scenario's `given`, its cards named as
    scenarios name them: the copies of a design numbered in the order of the
    game's card ids (Name, Name#2)."""
    s = g.state
    names = dict(g.table.names)
    by_design: dict = {}
    for cid in sorted(names):
        by_design.setdefault(names[cid], []).append(cid)
    named = {cid: d if k == 0 else f"{d}#{k + 1}" for d, ids in by_design.items() for k, cid in enumerate(ids)}
    counters = dict(s.octonite)
    stages = {c: st for c, _aside, st in s.stages}
    boosts = {c: under for c, under in s.boosts if under}
    players = []
    for p in (0, 1):
        side = {"life": s.life[p], "mindbugs": s.mindbugs[p]}
        for zone in ("hand", "discard", "deck"):
            side[zone] = [named[c] for c in getattr(s, zone)[p]]
        play = []
        for c in s.play[p]:
            entry = {"card": named[c]}
            if c in s.exhausted:
                entry["exhausted"] = True
            if counters.get(c):
                entry["octonite"] = counters[c]
            if stages.get(c, 1) > 1:
                entry["stage"] = stages[c]
            if c in boosts:
                entry["boosts"] = [named[b] for b in boosts[c]]
            play.append(entry if len(entry) > 1 else entry["card"])
        side["play"] = play
        players.append(side)
    return {"active": s.active, "turn": s.turn, "players": players, "unused": [named[c] for c in s.unused]}


__all__ = ["DEFAULT_EDITION", "SCRIPT", "board", "cards", "complete", "decisions", "event", "expectations", "hello",
           "log_position", "note", "pending", "refusal", "ruling", "size_problem", "words"]
