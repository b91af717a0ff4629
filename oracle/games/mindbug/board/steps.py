"""A game of Mindbug's steps for the HTML report: the log replayed through
the rules, with the board after the deal and after each decision.

`Stepper` is the verifier with a recorder: each decision the rules apply
(the log's, or a forced one the log left out) adds a step holding the
board as the rules see it, the events it caused with their clauses, and
the log line that caused it. A finding is shown at the last step made at
or before its line: the board where the log and the rules part.

A board is plain data (lists and numbers, card ids for cards); the page's
script draws it, with the card designs and clause texts given once per page.
"""

from __future__ import annotations

import msgspec

from ....replay.basis import classify, replayed
from ....replay.verify import GameReport
from ....report.steps import MAX_STEPS
from .. import NAME
from ..engine import Decision, Game, SetupError
from ..engine.state import asks_number
from ..replay.narrate import card_label, event_text, faces, names_by_event, shown_names
from ..replay.verifier import Verifier


def board(g) -> dict:
    """The board of game `g` as the page draws it: for each player (index 0
    and 1) life, Mindbugs, draw pile size, hand, play area (card, power
    after constant abilities, keywords as a bit mask, exhausted or not, and
    the Octonite counters on it when it has some),
    discard pile; the evolved creatures, boost cards and set-aside cards
    (`later_zones`) when the game has some; the unused pile's size, the card waiting for the Mindbug
    decision, whose turn it is, and the pending decision with its options."""
    s = g.state
    power, keywords = g.stats()[:2]
    play = [[[c, power.get(c, 0), keywords.get(c, 0), int(c in s.exhausted)] for c in s.play[p]] for p in (0, 1)]
    for c, n in s.octonite:                                     # later.octonite: a fifth entry, counters
        for entry in play[0] + play[1]:
            if entry[0] == c:
                entry.append(n)
    b = {
        "life": list(s.life), "mindbugs": list(s.mindbugs),
        "deck": [len(s.deck[0]), len(s.deck[1])], "unused": len(s.unused),
        "hand": [list(s.hand[0]), list(s.hand[1])], "play": play,
        "discard": [list(s.discard[0]), list(s.discard[1])],
        "played": s.played, "active": s.active, "turn": s.turn,
        "pending": None, "over": None,
    }
    if g.profile.life_cards:
        b["life_pile"] = [len(s.life_pile[0]), len(s.life_pile[1])]
    b.update(later_zones(g))
    if g.is_over:
        b["over"] = {"winner": g.winner, "reason": g.reason}
    p = s.pending
    if p is not None:
        names = shown_names(g)
        b["pending"] = {
            "stage": p.stage, "player": None if p.is_chance else p.player, "prompt": p.prompt,
            "clauses": list(p.clauses), "source": p.source,
            "options": [option_text(k, a, names, asks_number(p)) for k, a in p.options],
        }
    return b


def later_zones(g) -> dict:
    """The later sets' part of a board, only where a game has it: `evolved`,
    each evolved creature (later.evolve) as [card, stage, name of the face it
    shows]; `boosts`, each creature with boost cards (later.boost) as [card,
    [the cards under it]]; `set_aside`, the double-sided cards set aside
    (setup.set-aside)."""
    s = g.state
    out: dict = {}
    if s.stages:
        out["evolved"] = [[c, n, g.design(c).name] for c, _aside, n in s.stages]
    if s.boosts:
        out["boosts"] = [[c, list(under)] for c, under in s.boosts if under]
    if s.set_aside:
        out["set_aside"] = list(s.set_aside)
    return out


def option_text(kind: str, arg, names: dict, number: bool = False) -> str:
    """One legal answer in words: "play Elephantopus (12)", "block: none";
    with `number`, an answer that is a number (a die's face, a named power,
    a side marker's power: state.asks_number) as the number: "choose 5"."""
    label = str if number else (lambda c: card_label(names, c))
    if isinstance(arg, tuple):
        return f"{kind} " + (", ".join(label(c) for c in arg) if arg else "nothing")
    if arg is None:
        return kind if kind in ("mindbug", "pass") else f"{kind}: none"
    return f"{kind} {label(arg)}"


def decision_text(d: dict, names: dict, number: bool = False) -> str:
    """A decision (its JSON form) in words, with the player (`number`: as option_text)."""
    kind = d["t"]
    if kind in ("choose", "random"):
        arg = tuple(d.get("cards") or ())
    else:
        arg = d.get("card")
    who = "random outcome: " if kind == "random" else (f"player {d['p']}: " if "p" in d else "")
    return who + option_text(kind, arg, names, number)


class Stepper(Verifier):
    """Verifies a game and records its steps (`steps`). A step is `forced`
    when its decision is not the one its line writes: a decision with one
    legal option the log left out, or a decline the log wrote before the
    rules asked for it."""

    def __init__(self, raw, edition=None, keep_going=False, readings=None, *, strict=False):
        super().__init__(raw, edition, keep_going, readings, strict=strict)
        self.steps: list[dict] = []
        self.cut = False                # more than MAX_STEPS steps: the rest is left out
        self._line = 0                  # the log line being read
        self._wrote = None              # (kind, player) of the decision that line writes, until applied

    def _record(self, decision: dict | None, events, forced: bool = False, g=None, number: bool = False,
                before: dict | None = None) -> None:
        """A step: `decision` and the `events` it caused, then the board of `g`
        (default: the game). `before`: the evolved creatures' faces before the
        decision (narrate.faces), by which the decision and its events name
        them; default: those of `g` now."""
        if len(self.steps) >= MAX_STEPS:
            self.cut = True
            return
        g = g or self.g
        if before is None:
            before = faces(g)
        each, _after = names_by_event(g, events, before)
        self.steps.append({
            "line": self._line,
            "decision": None if decision is None else decision_text(decision, shown_names(g, before), number),
            "forced": forced,
            "events": [[e.kind, list(e.clauses), event_text(e, names)] for e, names in zip(events, each)],
            "board": board(g),
        })

    def _setup(self, line, lineno, prof) -> bool:
        self._line = lineno
        ok = super()._setup(line, lineno, prof)
        if ok:
            self._record(None, self.g.events)
        elif self.g is None:
            # A deal the rules refuse: its board is still drawn, dealt as given.
            reveals = [] if line.reveals is msgspec.UNSET else line.reveals
            first = None if line.first is msgspec.UNSET else line.first
            life = None if line.life_cards is msgspec.UNSET else line.life_cards
            try:
                g = Game.deal(prof, line.cards, line.decks, line.unused, first, reveals, life, tolerate=[])
            except (SetupError, ValueError, KeyError, IndexError, TypeError):
                return ok
            self._record(None, g.events, g=g)
        return ok

    def _decision(self, line, t, lineno) -> None:
        self._line = lineno
        self._wrote = (t, getattr(line, "p", None))
        super()._decision(line, t, lineno)

    def _claim(self, line, lineno) -> None:
        self._line = lineno
        self._wrote = None
        super()._claim(line, lineno)

    def _end(self, line, lineno) -> None:
        self._line = lineno
        self._wrote = None
        super()._end(line, lineno)

    def _step(self, kind, arg) -> None:
        pend = self.g.pending
        player = None if pend.is_chance else pend.player
        wrote = self._wrote
        forced = wrote is None or wrote[0] != kind or wrote[1] != player
        number = asks_number(pend)
        before = faces(self.g)
        super()._step(kind, arg)
        self._record(Decision(kind, player, arg).to_json(), self.g.events, forced, number=number, before=before)
        if not forced:
            self._wrote = None          # a later step caused by the same line is the rules' own


def game_steps(raw, edition=None, keep_going=False, readings=None, strict=False) -> tuple[GameReport, dict]:
    """The report of one game and its steps: {"game", "cards": {id: name},
    "steps": [...], "cut": bool}. The report carries no `basis` (see
    oracle.replay.basis): `shown_game` gives it."""
    st = Stepper(raw, edition, keep_going, readings, strict=strict)
    rep = st.run()
    cards = {int(k): v for k, v in st.cards.items()} if st.steps else {}
    return rep, {"game": NAME, "cards": cards, "steps": st.steps, "cut": st.cut}


def shown_game(raw, edition=None, keep_going=False) -> tuple[GameReport, dict]:
    """The report of one game, with its `basis` when it violates the rules,
    and its steps (`mb-oracle show`)."""
    st = Stepper(raw, edition, keep_going)
    rep = st.run()
    if rep.verdict == "violates":
        classify(lambda ed, rd: replayed(Verifier(raw, ed, keep_going, rd)), st, edition, keep_going, st.readings)
    return rep, {"game": NAME, "cards": {int(k): v for k, v in st.cards.items()}, "steps": st.steps, "cut": st.cut}
