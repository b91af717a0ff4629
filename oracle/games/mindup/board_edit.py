"""Mind Up!'s part of the board in the browser (`mb-oracle board`, its
registry entry's BOARD_EDIT): what the page may set up, the game as the
page draws it (hands, line, Score cards, objectives, scores; cards are
their numbers), each player's hidden choice and the round's chance in
words, the expectations the page may tick, and the ruling a position and
its decisions make: the choices of a turn are one `turns` entry (a player
choosing twice changed their mind: a list), each round started a
`next_rounds` entry.

Its part of the page's script is `board_edit.js` (SCRIPT).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import UNSET

from . import EDITIONS, NAME
from .cards import CARD_COUNT, OBJECTIVES, SCORE_VALUES, bubble, colour, player_name, seat_letter
from .harness.play import pending_view
from .readings import READINGS

SCRIPT = Path(__file__).with_name("board_edit.js")
DEFAULT_EDITION = "fr"
_PLACEHOLDER = {"id": "board.position", "title": "The position set up on the board", "clauses": ["mu.turn.choose"],
                "source": {"kind": "team ruling", "ref": "set up on the board"}}
_DROPPED = ("turns", "next_rounds", "expect", "expect_after_turn", "illegal", "status")
_KEPT = ("readings",)
_BY_SEAT = ("scored",)             # the mappings of `given` keyed by seat


def hello(card_files) -> dict:
    return {"title": "Mind Up!", "editions": list(EDITIONS), "default_edition": DEFAULT_EDITION, "sets": [],
            "readings": [{"clause": r.clause, "choices": list(r.names()), "default": r.team} for r in READINGS],
            "zones": ["hands", "line", "columns", "pile", "objectives", "shown_before"], "players": [3, 4, 5, 6],
            "declared_cards": False, "score_cards": list(SCORE_VALUES),
            "objectives": [{"id": i, "letter": ltr, "value": v, "condition": text}
                           for i, (ltr, v, text) in OBJECTIVES.items()]}


def cards(sets, card_files) -> list[dict]:
    """The 60 cards: number (its name), colour and bubble."""
    if sets:
        raise ValueError(f"{NAME} has one deck and no card sets")
    return [{"name": str(n), "number": n, "set": "", "colour": colour(n), "bubble": bubble(n),
             "text": f"{n}, {colour(n)}" + (f", bubble {bubble(n):+d}" if bubble(n) else "")}
            for n in range(1, CARD_COUNT + 1)]


def size_problem(document: dict) -> str | None:
    """A position naming more cards than the game has, in words."""
    given = document.get("given")
    if not isinstance(given, dict):
        return None
    where = [given.get(k) for k in ("hands", "line", "columns", "pile")]
    scored = given.get("scored")
    if isinstance(scored, dict):
        where += list(scored.values())
    deal = given.get("deal")
    if isinstance(deal, dict):
        where += [deal.get(k) for k in ("hands", "line", "pile")]
    n = sum(_count(w) for w in where)
    return f"the position names {n} cards; the game has {CARD_COUNT}" if n > CARD_COUNT else None


def _count(value) -> int:
    """The cards in nested lists."""
    if isinstance(value, list):
        return sum(_count(v) if isinstance(v, list) else 1 for v in value)
    return 0


def _seats(mapping):
    """A mapping by seat as JSON gives it ("0": ...) with whole-number keys, as the scenario writes them."""
    if not isinstance(mapping, dict):
        return mapping
    return {int(k) if isinstance(k, str) and k.isdigit() else k: v for k, v in mapping.items()}


def _given(document: dict):
    given = document.get("given", {})
    if isinstance(given, dict):
        given = {k: _seats(v) if k in _BY_SEAT else v for k, v in given.items()}
    return given


def complete(document: dict) -> dict:
    doc = {k: v for k, v in document.items() if k not in _DROPPED}
    doc.setdefault("format", "mb-scenario/1")
    doc["game"] = NAME
    for k, v in _PLACEHOLDER.items():
        doc.setdefault(k, v)
    doc["given"] = _given(document)
    doc["expect"] = {"round": 1}
    return doc


# -- the game in words --------------------------------------------------------------------------------


def note(g, decision: dict):
    """The decision as the ruling writes it: ("choose", seat, card),
    ("turn", cards), ("round", next_rounds entry) or ("reveal",)."""
    kind = decision.get("t")
    if kind == "choose":
        return ("choose", decision.get("p"), decision.get("card"))
    if kind == "turn":
        return ("turn", list(decision.get("cards") or []))
    if kind == "round":
        entry = {"order": list(decision.get("order") or [])}
        for k in ("draws", "objectives"):
            if decision.get(k) is not None:
                entry[k] = list(decision[k])
        return ("round", entry)
    return ("reveal",)


def words(g, decision: dict) -> str:
    kind = decision.get("t")
    if kind == "choose":
        return f"{player_name(decision.get('p', -1))} chooses {decision.get('card')} (face down)"
    if kind == "turn":
        cards = decision.get("cards") or []
        return "the cards played: " + ", ".join(f"{seat_letter(p)} {c}" for p, c in enumerate(cards))
    if kind == "round":
        text = "a new round: Score order " + " ".join(map(str, decision.get("order") or []))
        if decision.get("draws"):
            text += ", drawn " + ", ".join(map(str, decision["draws"]))
        if decision.get("objectives"):
            text += ", objectives " + ", ".join(map(str, decision["objectives"]))
        return text
    return "the cards are revealed"


def event(view: dict) -> dict:
    return {k: v for k, v in view.items() if v is not None}


def pending(g) -> dict:
    """Who must decide: each player still to choose, their options (the
    cards of their hand), then the reveal, which the last choice makes; or
    the chance of the next round (one option: the Score order 1 to 5, the
    pile's top cards drawn; the page may write another)."""
    view = pending_view(g)
    out = {"kind": view.kind, "players": list(view.players), "clauses": list(view.clauses), "options": []}
    if view.kind == "choose":
        for p in view.players:
            out["options"] += [{"player": p, "decision": {"t": "choose", "p": p, "card": c},
                                "words": f"{player_name(p)} chooses {c}"} for c in view.options[p]]
    elif view.kind == "round":
        d = {"t": "round", "order": [1, 2, 3, 4, 5]}
        if view.draws is not None:
            d["draws"] = list(view.draws)
        out["round"] = view.round
        out["draws"] = view.draws
        out["options"].append({"decision": d, "words": words(g, d)})
    return out


def refusal(g, view: dict) -> dict:
    return dict(view)


def board(g) -> dict:
    """The game as the page draws it, cards by number."""
    s = g.state
    players = []
    for p in range(s.players):
        players.append({"seat": p, "letter": seat_letter(p), "hand": list(s.hands[p]),
                        "columns": [list(c) for c in s.columns[p]] if p < len(s.columns) else [],
                        "chosen": s.chosen[p] if p < len(s.chosen) else None,
                        "rounds": list(s.scores[p]) if p < len(s.scores) else [],
                        "score": sum(s.scores[p]) if p < len(s.scores) else 0})
    return {"players": players, "line": list(s.line), "order": list(s.order), "round": s.round, "turn": s.turn,
            "pile": None if s.pile is None else len(s.pile), "objectives": list(s.objectives),
            "shown": list(s.shown), "over": s.over, "winners": g.winners() if g.is_over else []}


# -- expectations and the ruling ------------------------------------------------------------------------


def expectations(session) -> list[dict]:
    """What the board of `session` allows a ruling to expect, each a
    tickable item: key (where it goes in `expect`), label (in words), value
    (as `expect` writes it)."""
    g = session.now()
    s = g.state
    items = [{"key": "round", "label": f"round {s.round}", "value": s.round},
             {"key": "turn", "label": f"{s.turn} turns revealed this round", "value": s.turn},
             {"key": "line", "label": "the line: " + (", ".join(map(str, s.line)) or "empty"), "value": list(s.line)}]
    if s.order:
        items.append({"key": "order", "label": "the Score order " + " ".join(map(str, s.order)),
                      "value": list(s.order)})
    for p in range(s.players):
        hand = sorted(s.hands[p])
        items.append({"key": f"hands.{p}", "value": hand,
                      "label": f"{player_name(p)}'s hand: " + (", ".join(map(str, hand)) or "empty")})
        cols = [list(c) for c in s.columns[p]] if p < len(s.columns) else []
        while cols and not cols[-1]:
            cols.pop()
        items.append({"key": f"columns.{p}", "value": cols,
                      "label": f"{player_name(p)}'s Score cards: " + (" | ".join(" ".join(map(str, c)) for c in cols)
                                                                       or "none")})
        if p < len(s.scores) and s.scores[p]:
            items.append({"key": f"rounds.{p}", "value": list(s.scores[p]),
                          "label": f"{player_name(p)}'s round scores: " + ", ".join(map(str, s.scores[p]))})
            items.append({"key": f"scores.{p}", "value": sum(s.scores[p]),
                          "label": f"{player_name(p)}'s game score is {sum(s.scores[p])}"})
    if s.pile is not None:
        items.append({"key": "pile", "label": f"{len(s.pile)} cards in the pile", "value": len(s.pile)})
    winners = g.winners() if g.is_over else []
    items.append({"key": "winners", "value": winners, "label": "the game goes on" if not winners else
                  "the winners: " + ", ".join(seat_letter(p) for p in winners)})
    view = pending_view(g)
    value = {"kind": view.kind}
    if view.kind == "choose":
        value["players"] = list(view.players)
    items.append({"key": "pending", "value": value, "label": f"the game waits for: {view.kind}"})
    for i, e in enumerate(session.events):
        pat = {"kind": e["kind"]}
        for k in ("player", "card", "amount"):
            if e.get(k) is not None:
                pat[k] = e[k]
        if e.get("clauses"):
            pat["clause"] = e["clauses"][0]
        items.append({"key": f"events[{i}]", "label": e.get("text") or e["kind"], "value": pat})
    return items


def decisions(session, apply) -> list[dict]:
    """The turns and round starts of the scenario `session` started from as
    the service's decision lines, each applied with `apply(k, line)` (the
    service's reply), as the scenario runner takes them: each turn's choices
    in seat order (a list: one after the other), then the reveal when a
    player was left out; a round's start from the next `next_rounds` entry
    whenever the game waits for one. Up to the first the rules refuse."""
    out: list[dict] = []
    doc = session.scenario.doc
    rounds = list(doc.next_rounds)

    def take(line: dict) -> bool:
        out.append(line)
        return bool(apply(len(out) - 1, line).get("applied"))

    def start_rounds() -> bool:
        while session.now().pending.kind == "round" and rounds:
            nr = rounds.pop(0)
            line = {"t": "round", "order": list(nr.order)}
            for k in ("draws", "objectives"):
                if getattr(nr, k) is not UNSET:
                    line[k] = list(getattr(nr, k))
            if not take(line):
                return False
        return True

    for turn in doc.turns:
        if not start_rounds():
            return out
        for p in sorted(turn):
            for c in turn[p] if isinstance(turn[p], list) else [turn[p]]:
                if not take({"t": "choose", "p": p, "card": c}):
                    return out
        if session.now().pending.kind == "choose" and len(turn) < session.now().state.players:
            if not take({"t": "reveal"}):
                return out
    start_rounds()
    return out


def ruling(document: dict, top: dict, session, refused, expect: dict) -> dict:
    """The ruling as an mb-scenario/1 mapping: the position, the turns and
    round starts taken (`session.taken`), the refused last one as `illegal`,
    and `expect`."""
    doc = {"format": "mb-scenario/1", "game": NAME, **top}
    doc.update({k: document[k] for k in _KEPT if k in document})
    editions = document.get("editions")
    doc["editions"] = editions if isinstance(editions, list) else [session.edition]
    doc["given"] = _given(document)
    notes = [n for _d, n, _words in session.taken]
    if refused is not None:
        notes.append(note(session.now(), refused[1]))
    turns, rounds, illegal = [], [], None
    current: dict = {}
    for i, n in enumerate(notes):
        last = refused is not None and i == len(notes) - 1
        if n[0] == "choose":
            p, card = n[1], n[2]
            current[p] = card if p not in current else (
                current[p] + [card] if isinstance(current[p], list) else [current[p], card])
            if len(current) == session.now().state.players or last:
                turns.append(current)
                current = {}
        elif n[0] == "turn":
            turns.append(dict(enumerate(n[1])))
        elif n[0] == "round":
            rounds.append(n[1])
        if last:
            r = refused[2]
            if current:                 # the turn whose reveal is refused, a player left out
                turns.append(current)
                current = {}
            if n[0] == "round":
                illegal = {"round": session.now().state.round + 1, "code": r["code"], "clause": r["clause"]}
            else:
                illegal = {"turn": len(turns), "code": r["code"], "clause": r["clause"]}
                if n[0] == "choose":
                    illegal["player"] = n[1]
    if turns:
        doc["turns"] = turns
    if rounds:
        doc["next_rounds"] = rounds
    if expect:
        doc["expect"] = {k: _seats(v) for k, v in expect.items()}
    if illegal is not None:
        doc["illegal"] = illegal
    return doc


# -- a game of a replay log as a position ---------------------------------------------------------------


def log_position(raw, step: int) -> dict:
    """The game of a replay log (`raw`, oracle.replay.reader.RawGame) at the
    start of the turn at or before its `step`-th step line (round, turn,
    choose), as a document's `given` (with its readings): {"document",
    "step"}. ValueError when the game reaches no such turn."""
    from .replay.verifier import Verifier

    class Stops(Verifier):
        def __init__(self):
            super().__init__(raw)
            self.taken = 0
            self.kept = None

        def keep(self) -> None:
            g = self.g
            if (self.taken <= step and g is not None and g.pending.kind == "choose"
                    and all(c is None for c in g.state.chosen)):
                self.kept = (self.taken, g.copy())

        def _stepped(self, method, line, lineno) -> None:
            self.keep()
            self.taken += 1
            method(line, lineno)

        def _round(self, line, lineno) -> None:
            self._stepped(super()._round, line, lineno)

        def _turn(self, line, lineno) -> None:
            self._stepped(super()._turn, line, lineno)

        def _choose(self, line, lineno) -> None:
            if self.g is not None and any(c is not None for c in self.g.state.chosen):
                self.taken += 1         # within a turn: the turn's start is kept already
                return super()._choose(line, lineno)
            self._stepped(super()._choose, line, lineno)

    v = Stops()
    rep = v.run()
    v.keep()
    if v.kept is None:
        raise ValueError(f"game {rep.id}: no turn starts at or before step {step}")
    taken, g = v.kept
    s = g.state
    given = {"round": s.round, "order": list(s.order), "hands": [list(h) for h in s.hands], "line": list(s.line),
             "columns": [[list(c) for c in cols] for cols in s.columns]}
    if s.pile is not None:
        given["pile"] = list(s.pile)
    if s.round > 1:
        given["scores"] = [[s.scores[p][r] for p in range(s.players)] for r in range(s.round - 1)]
    if s.objectives:
        given["objectives"] = list(s.objectives)
        before = [o for o in s.shown if o not in s.objectives]
        if before:
            given["shown_before"] = before
    doc = {"format": "mb-scenario/1", "game": NAME}
    if rep.readings:
        doc["readings"] = dict(rep.readings)
    doc["given"] = given
    return {"document": doc, "step": taken}


__all__ = ["DEFAULT_EDITION", "SCRIPT", "board", "cards", "complete", "decisions", "event", "expectations", "hello",
           "log_position", "note", "pending", "refusal", "ruling", "size_problem", "words"]
