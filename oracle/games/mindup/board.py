"""Mind Up!'s board on the HTML report (oracle.report), its registry entry
BOARD: a game's log replayed through the rules (the game's own verifier,
with a recorder), with the board after the deal, after each round's start,
after each choice and after each reveal; a failing scenario's boards; what
a page carries once for them.

A board is plain data the page's script draws (`muBoard` in board.js
beside this module, SCRIPT, its part of the page's script):

    {"game": "mind-up", "players": n, "round": r, "turn": t,
     "line": [cards], "under": [[card, player], ...],  # the cards played this turn, under the line card each took
     "order": [values], "columns": [[[cards] x 5] per player], "hands": [[cards] per player],
     "chosen": [bool per player], "scores": [[each round's score] per player], "totals": [...],
     "objectives": [ids], "pile": n or null, "pending": {"kind", "players"}, "winners": [...] or null}

After a reveal, `line` is the line the cards were played for and `under`
the played cards in ascending order (the k-th under the k-th line card);
the state's new line is those played cards. Cards are their numbers; the
page gets every card's colour and bubble once (`page_data`).
"""

from __future__ import annotations

from pathlib import Path

from msgspec import UNSET

from ...report.steps import MAX_STEPS
from . import NAME
from .cards import CARDS, OBJECTIVES, player_name
from .replay.verifier import Verifier, verify_game

SCRIPT = Path(__file__).with_name("board.js")


def card_names() -> list[str]:
    """The names the page's card filter offers: none, a card is its number."""
    return []


def page_data() -> dict:
    """What a page holding a game of Mind Up! carries once: each card's
    colour and bubble, each objective's letter, value and condition."""
    return {"mind_up": {
        "cards": {str(n): [c, b] for n, (c, b) in CARDS.items()},
        "objectives": {str(i): [letter, value, text] for i, (letter, value, text) in OBJECTIVES.items()}}}


def board(g, line=None, under=()) -> dict:
    """The board of game `g` (see the module); `line` and `under` for the
    step that revealed a turn."""
    s = g.state
    pend = g.pending
    return {
        "game": "mind-up", "players": s.players, "round": s.round, "turn": s.turn,
        "line": list(s.line if line is None else line), "under": [list(x) for x in under],
        "order": list(s.order), "columns": [[list(col) for col in cols] for cols in s.columns],
        "hands": [list(h) for h in s.hands], "chosen": [c is not None for c in s.chosen],
        "scores": [list(x) for x in s.scores], "totals": s.totals(), "objectives": list(s.objectives),
        "pile": None if s.pile is None else len(s.pile),
        "pending": {"kind": pend.kind, "players": sorted(pend.players)},
        "winners": g.winners() if s.over else None,
    }


def _events(events) -> list:
    return [[e.kind, list(e.clauses), e.text] for e in events]


class Stepper(Verifier):
    """The Mind Up! verifier, recording a step at each thing the rules do."""

    def __init__(self, raw, keep_going=False, readings=None, *, strict=False):
        super().__init__(raw, keep_going, readings, strict=strict)
        self.steps: list[dict] = []
        self.cut = False

    def _record(self, lineno: int, decision, events, line=None, under=()) -> None:
        if len(self.steps) >= MAX_STEPS:
            self.cut = True
            return
        self.steps.append({"line": lineno, "decision": decision, "forced": False, "events": _events(events),
                           "board": board(self.g, line, under)})

    def _setup(self, line, lineno) -> bool:
        ok = super()._setup(line, lineno)
        if ok:
            self._record(lineno, None, [])
        return ok

    def _round(self, line, lineno) -> None:
        before = len(self.since)
        super()._round(line, lineno)
        if len(self.since) > before:            # the round started
            self._record(lineno, f"round {self.g.state.round}: Score order {'-'.join(map(str, self.g.state.order))}",
                         self.since[before:])

    def _choose(self, line, lineno) -> None:
        chosen = [c is not None for c in self.g.state.chosen]
        before = len(self.steps)
        super()._choose(line, lineno)
        if (len(self.steps) == before and line.p < len(chosen) and not chosen[line.p]
                and self.g.state.chosen[line.p] is not None):   # a player not in the game: refused
            self._record(lineno, f"{player_name(line.p)} chooses a card (face down)", [])

    def _apply(self, step, lineno, log, decisions: int) -> None:
        s = self.g.state
        line, hands = list(s.line), [list(h) for h in s.hands]
        before = len(self.since)
        super()._apply(step, lineno, log, decisions)
        events = self.since[before:]
        if not any(e.kind == "reveal" for e in events):
            return
        under = played_under(hands, self.g.state)
        text = "reveal: " + ", ".join(f"{player_name(p)} {c}" for c, p in under)
        self._record(lineno, text, events, line, under)


def played_under(hands, s) -> list[list[int]]:
    """[card, player] for each card played in the reveal that just happened,
    lowest first (`hands`: the hands before it; the played cards are the new line)."""
    under = []
    for p in range(s.players):
        played = [c for c in hands[p] if c not in s.hands[p] and c in s.line]
        if played:
            under.append([played[0], p])
    return sorted(under)


def scenario_steps(sc, edition: str | None = None) -> dict | None:
    """The boards of a Mind Up! scenario's run, as the page draws them: the
    position, each round started, each turn revealed, up to the first one
    the rules refuse. None when the position cannot be set up. (`edition`
    is not read: Mind Up! has one.)"""
    from .scenarios.runner import build, turn_text
    from .engine import RuleError

    try:
        g = build(sc)
    except RuleError:
        return None
    d = sc.doc
    steps: list[dict] = []
    at = {0: 0}

    def record(line, decision, events, before=None, under=()):
        steps.append({"line": line, "decision": decision, "forced": False, "events": _events(events),
                      "board": board(g, before, under)})

    record(sc.line_of("given"), None, [])
    if all(len(h) == 1 for h in g.state.hands):       # one card each: the round's last cards go down first
        record(sc.line_of("given"), "the last cards", g.place_last_cards())
    rounds = iter(zip(d.next_rounds, sc.round_lines))

    def start() -> bool:
        while g.pending.kind == "round":
            nxt = next(rounds, None)
            if nxt is None:
                return True
            nr, line = nxt
            try:
                events = g.start_round(list(nr.order), None if nr.draws is UNSET else list(nr.draws),
                                       None if nr.objectives is UNSET else list(nr.objectives))
            except RuleError:
                return False
            record(line, f"round {g.state.round}: Score order {'-'.join(map(str, g.state.order))}", events)
        return True

    for i, turn in enumerate(d.turns, 1):
        if not start():
            break
        line, hands = list(g.state.line), [list(h) for h in g.state.hands]
        try:
            for p in sorted(turn):
                for c in (turn[p] if isinstance(turn[p], list) else [turn[p]]):
                    g.choose(p, c)
            events = g.reveal()
        except RuleError:
            break
        record(sc.line_of("step", i), f"turn {i}: {turn_text(turn)}", events, line, played_under(hands, g.state))
        at[i] = len(steps) - 1
    else:
        start()
    return {"game": NAME, "cards": {}, "steps": steps, "at": at}


def game_steps(raw, edition=None, keep_going=False, readings=None, strict=False):
    """The report of one game of Mind Up! and its steps: {"game", "cards": {},
    "steps": [...], "cut": bool}. (`edition` is not read: Mind Up! has one.)"""
    st = Stepper(raw, keep_going, readings, strict=strict)
    rep = st.run()
    return rep, {"game": NAME, "cards": {}, "steps": st.steps, "cut": st.cut}


def shown_game(raw, edition=None, keep_going=False):
    """The report of one game, with its `basis`, and its steps (`mb-oracle show`)."""
    return verify_game(raw, None, keep_going), game_steps(raw, None, keep_going)[1]


__all__ = ["SCRIPT", "Stepper", "board", "card_names", "game_steps", "page_data", "played_under", "scenario_steps",
           "shown_game"]
