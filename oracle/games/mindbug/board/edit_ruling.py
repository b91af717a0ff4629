"""What a position played on Mindbug's board in the browser makes a
ruling of (oracle.games.mindbug.board.edit): the expectations the page may
tick, a scenario's steps as the service's decision lines, the ruling's
document; and a game of a replay log as a position to start from.
"""

from __future__ import annotations

from msgspec import UNSET

from ..cards import CARDS
from ..harness.views import pending_view
from ..scenarios.cards import references
from ..scenarios.format import FORMAT
from .edit_steps import ZONES, name, note

_KEPT = ("sets", "exact_sets", "card_file", "readings")     # the keys of the document a ruling keeps


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
    return lambda cid: cid in ids or CARDS[name(cid).split("#")[0]].stage >= 2


def _zone_value(cards: list, placed):
    """A zone as `expect` writes it: its cards by name, or, when one of them
    is not placed by the position, how many there are."""
    return [name(c) for c in cards] if all(map(placed, cards)) else len(cards)


def _player_items(g, p: int, placed) -> list[dict]:
    s = g.state
    items = [{"key": f"players[{p}].life", "label": f"player {p} has {s.life[p]} life", "value": s.life[p]},
             {"key": f"players[{p}].mindbugs", "label": f"player {p} has {s.mindbugs[p]} Mindbugs left",
              "value": s.mindbugs[p]}]
    for zone, what in (("hand", "hand"), ("discard", "discard pile"), ("deck", "draw pile")):
        cards = getattr(s, zone)[p]
        value = _zone_value(cards, placed)
        shown = ", ".join(name(c) for c in cards) or "nothing"
        items.append({"key": f"players[{p}].{zone}", "value": value,
                      "label": f"player {p}'s {what} holds " + (shown if isinstance(value, list)
                                                               else f"{value} cards ({shown})")})
    play = []
    for c in s.play[p]:
        entry = {"card": name(c), "exhausted": c in s.exhausted}
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
            out[k] = name(view[k])
    if view.get("cards") and all(map(placed, view["cards"])):
        out["cards"] = [name(c) for c in view["cards"]]
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
        names = [name(c) for c in tired]
        items.append({"key": "exhausted", "value": names,
                      "label": "exhausted: " + (", ".join(names) if names else "no creature")})
    for p in (0, 1):
        for c in s.play[p]:
            if placed(c):
                items.append({"key": f"power[{name(c)}]", "label": f"{name(c)} has power {g.power(c)}",
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
    steps = [n for _d, n, _words in session.taken]
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
    named = references(g.table.names)
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
