"""Running a Mind Up! scenario: build the position through the engine
(oracle.games.mindup.engine: Game.deal, or position for a game in the
middle of a round), play the turns (each player's choice, then the reveal),
start each round the scenario reaches with the chance `next_rounds` gives,
and compare what follows with the expectation.

A round's score part by part (`expect.parts`) is the engine's own
breakdown (scoring.score_round), taken when the round is scored, before
the next round takes the cards back.
"""

from __future__ import annotations

import traceback
from collections import Counter
from time import perf_counter

from msgspec import UNSET

from ....scenarios.result import Difference, Result
from ..cards import colour
from ..engine import Game, RuleError
from ..engine.position import position
from ..engine.scoring import score_round
from .format import MuExpect, MuIllegal

PLACE_LAST = "mu.round.last-card"


class _Fail(Exception):
    """A failed run, with the Mind Up! events of the failing turn in words."""

    def __init__(self, step, text, message, clause=None, differences=(), events=(), round_entry=None,
                 line=None):
        Exception.__init__(self, message)
        self.line = line                       # the expectation that does not hold, when not `expect`
        self.round_entry = round_entry         # the next_rounds entry whose round start failed
        self.step, self.text, self.message, self.clause = step, text, message, clause
        self.differences = list(differences)
        self.events = list(events)
        self.happened = [e.text + " [" + ", ".join(e.clauses) + "]" for e in self.events]


def turn_text(turn: dict) -> str:
    """A turn as the scenario writes it: {0: 27, 1: [18, 30]}."""
    return "{" + ", ".join(f"{p}: {c}" for p, c in sorted(turn.items())) + "}"


def build(sc) -> Game:
    """The game the scenario starts from; raises SetupError (or RuleError
    for the first round's chance of a deal)."""
    d = sc.doc
    g = d.given
    readings = {} if d.readings is UNSET else dict(d.readings)
    if g.deal is not UNSET:
        deal = g.deal
        named = set(c for h in deal.hands for c in h) | set(deal.line) | set(deal.pile)
        pile = list(deal.pile) + [c for c in range(1, 61) if c not in named]
        game = Game.deal(len(deal.hands), [list(h) for h in deal.hands], list(deal.line), pile,
                         objectives=len(g.objectives), readings=readings)
        game.start_round(list(g.order), objectives=list(g.objectives))
        return game
    scores = [list(r) for r in g.scores] or [[0] * len(g.hands) for _ in range(g.round - 1)]
    columns = [[list(c) for c in cols] for cols in g.columns]
    for p, won in sorted(g.scored.items()):
        columns += [[] for _ in range(p + 1 - len(columns))]
        columns[p] = _placed(won)
    return position([list(h) for h in g.hands], list(g.line), columns,
                    list(g.order), round=g.round, pile=list(g.pile), scores=scores,
                    objectives=list(g.objectives), shown_before=list(g.shown_before), readings=readings,
                    last_card=True)


def _placed(won) -> list[list[int]]:
    """mu.score-cards.place: the cards won, in the order won, on a player's
    Score cards: each joins the Score card holding its colour, else the
    first empty one from the left."""
    cols: list[list[int]] = []
    for c in won:
        here = next((col for col in cols if colour(col[0]) == colour(c)), None)
        if here is None:
            cols.append([c])
        else:
            here.append(c)
    return cols


def run(sc, edition: str, sets=()) -> Result:
    """The scenario in one edition (`sets`: Mind Up! has no card sets; they
    are not read)."""
    d = sc.doc
    res = Result(d.id, d.title, sc.file, sc.line, edition, clauses=list(d.clauses), draft=d.status == "draft")
    start = perf_counter()
    expect, illegal = sc.expectation(edition)
    try:
        _Run(sc, expect, illegal).run()
    except _Fail as f:
        res.status = "fail"
        res.step, res.step_text, res.message = f.step, f.text, f.message
        res.differences, res.happened = f.differences, f.happened
        res.at_line = _failing_line(sc, f)
        fired = {c for e in f.events for c in e.clauses}
        res.clause = f.clause or next((c for c in d.clauses if c in fired), d.clauses[0])
    res.time = perf_counter() - start
    return res


def _failing_line(sc, f: _Fail) -> int:
    if f.line is not None:
        return f.line
    if f.differences:
        return sc.line_of("illegal" if all(x.field.startswith("illegal.") for x in f.differences) else "expect")
    k = getattr(f, "round_entry", None)
    if k is not None:                               # the start of a round: its next_rounds entry
        return sc.round_lines[k] if k < len(sc.round_lines) else sc.line_of("next_rounds")
    if f.step:
        return sc.line_of("step", f.step)
    return sc.line_of("given")


class _Run:
    def __init__(self, sc, expect: MuExpect | None, illegal: MuIllegal | None):
        self.sc, self.d, self.expect, self.illegal = sc, sc.doc, expect, illegal
        n = len(self.d.turns)
        self.refuse_turn = None if illegal is None or illegal.round is not UNSET else (
            n if illegal.turn is UNSET else illegal.turn)
        self.refuse_round = None if illegal is None or illegal.round is UNSET else illegal.round
        self.events: list = []
        self.last: list = []
        self.parts: list[dict] | None = None
        self.won: dict[int, int] | None = None     # the card each player took in the last turn revealed
        self.after = {} if self.d.expect_after_turn is UNSET else dict(self.d.expect_after_turn)
        self.checked: set[int] = set()
        self.next_round = 0          # the next entry of next_rounds to use
        self.at = (0, "the setup")

    def run(self) -> None:
        try:
            self.g = build(self.sc)
        except RuleError as e:   # SetupError, or the first round's chance of a deal
            if self.refuse_turn == 0:
                self.check_refusal(0, "the setup", e, None)
                return
            raise _Fail(0, "the setup", f"the position cannot be set up: {e.code} [{e.clause}] {e.message}",
                        clause=e.clause) from None
        except Exception as e:  # an engine crash fails this run, not the whole library
            where = traceback.extract_tb(e.__traceback__)[-1]
            raise _Fail(0, "the setup", f"engine crash: {type(e).__name__}: {e} ({where.filename}:{where.lineno})") \
                from None
        if self.refuse_turn == 0:
            raise _Fail(0, "the setup", "the setup was accepted, but a refusal was expected",
                        clause=None if self.illegal.clause is UNSET else self.illegal.clause)
        try:
            if all(len(h) == 1 for h in self.g.state.hands):      # the moment of the round's last cards
                self.at = (0, "the last cards of the position")
                self.last = self.g.place_last_cards()
                self.events += self.last
                self.parts = self.breakdown(self.last)
            self.check_after(0, self.at[1])
            if self.play():
                self.unchecked_after()
                return
        except (_Fail, RuleError):
            raise
        except Exception as e:  # an engine crash fails this run, not the whole library
            where = traceback.extract_tb(e.__traceback__)[-1]
            raise _Fail(*self.at, f"engine crash: {type(e).__name__}: {e} ({where.filename}:{where.lineno})") \
                from None
        if self.next_round < len(self.d.next_rounds):
            raise _Fail(*self.at, f"next_rounds gives {len(self.d.next_rounds)} round(s), and the turns reach "
                                  f"only {self.next_round} new round(s)")
        if self.refuse_round is not None:
            raise _Fail(*self.at, f"round {self.refuse_round} never started, but its start was expected to be "
                                  "refused")
        self.unchecked_after()
        if self.expect is not None:
            self.compare(*self.at)

    def unchecked_after(self) -> None:
        """An expect_after_turn entry the run never reached fails it (a
        refusal ended the run before that turn)."""
        left = sorted(set(self.after) - self.checked)
        if left:
            n = left[0]
            raise _Fail(*self.at, f"expect_after_turn {n} was never checked: the run ended before turn {n} was "
                                  "played", line=self.sc.after_lines.get(n))

    def play(self) -> bool:
        """The turns; True when a refusal the scenario expects ended the run."""
        g = self.g
        for i, turn in enumerate(self.d.turns, 1):
            if self.start_rounds():
                return True
            text = turn_text(turn)
            self.at = (i, text)
            for p in sorted(turn):
                cards = turn[p] if isinstance(turn[p], list) else [turn[p]]
                for c in cards:
                    if self.attempt(i, text, p, lambda: g.choose(p, c)):
                        return True
            result = self.attempt(i, text, None, g.reveal)
            if result is True:
                return True
            if self.refuse_turn == i:
                raise _Fail(i, text, f"turn {i} ({text}) was accepted, but a refusal was expected",
                            clause=None if self.illegal.clause is UNSET else self.illegal.clause, events=result)
            self.last = result
            self.events += result
            self.won = {e.player: e.card for e in result if e.kind == "place" and "mu.turn.take" in e.clauses}
            if any(e.kind == "score" for e in result):
                self.parts = self.breakdown(result)
            self.check_after(i, text)
        return self.start_rounds()

    def attempt(self, i, text, player, call):
        """Make one engine call of turn i; True when it was the refusal the
        scenario expects, else its events (a choice has none)."""
        before = self.g.state.copy()
        try:
            return call() or []
        except RuleError as e:
            if self.refuse_turn != i:
                who = f" (player {player})" if player is not None else " (the reveal)"
                raise _Fail(i, text, f"turn {i} ({text}) was refused{who}: {e.code} [{e.clause}] {e.message}"
                            + (f"; legal here: {e.options}" if e.options else ""), clause=e.clause) from None
            if self.g.state != before:
                raise _Fail(i, text, "the refused choice changed the game", clause=e.clause) from None
            self.check_refusal(i, text, e, player)
            if self.expect is not None:
                self.compare(i, text)
            return True

    def start_rounds(self) -> bool:
        """Start the round the game waits for, with the chance of the next
        next_rounds entry; True when its refusal was the one expected."""
        g = self.g
        # After round 3 only a ruling that a fourth round is refused starts one.
        while ((g.pending.kind == "round" or (g.pending.kind == "over" and self.refuse_round == g.state.round + 1))
               and self.next_round < len(self.d.next_rounds)):
            k = self.next_round
            nr = self.d.next_rounds[k]
            number = g.state.round + 1
            last = self.at[0] if self.at[0] > 0 else 0
            text = f"the start of round {number}" + (f", after turn {last}" if last else "")
            where = dict(round_entry=k)
            draws = None if nr.draws is UNSET else list(nr.draws)
            objectives = None if nr.objectives is UNSET else list(nr.objectives)
            before = g.state.copy()
            try:
                events = g.start_round(list(nr.order), draws, objectives)
            except RuleError as e:
                if self.refuse_round != number:
                    raise _Fail(last, text, f"{text} was refused: {e.code} [{e.clause}] {e.message}",
                                clause=e.clause, **where) from None
                if g.state != before:
                    raise _Fail(last, text, "the refused round start changed the game", clause=e.clause, **where)
                self.check_refusal(last, text, e, None, where)
                if self.expect is not None:
                    self.compare(last, text)
                return True
            if self.refuse_round == number:
                raise _Fail(last, text, f"{text} was accepted, but a refusal was expected",
                            clause=None if self.illegal.clause is UNSET else self.illegal.clause, events=events,
                            **where)
            self.next_round += 1
            self.events += events
            self.last = self.last + events
        return False

    def breakdown(self, events) -> list[dict]:
        """Every player's score of the round just scored, part by part, as
        the engine counts it (the columns before the last cards rebuilt from
        the events that placed them)."""
        s = self.g.state
        before = [[list(col) for col in cols] for cols in s.columns]
        for e in events:
            if e.kind == "place" and PLACE_LAST in e.clauses:
                before[e.player][e.column].remove(e.card)
        parts = score_round(s, self.g.readings, before)
        return [{"columns": sum(x["columns"]), "bubbles": x["bubbles"],
                 "objectives": sum(x["objectives"].values()), "met": sorted(x["objectives"]),
                 "total": s.scores[p][-1]} for p, x in enumerate(parts)]

    def check_refusal(self, i, text, e: RuleError, player, where=None) -> None:
        il = self.illegal
        diffs = []
        if e.code != il.code:
            diffs.append(Difference("illegal.code", il.code, e.code))
        if il.clause is not UNSET and e.clause != il.clause:
            diffs.append(Difference("illegal.clause", il.clause, e.clause))
        if il.player is not UNSET and player != il.player:
            diffs.append(Difference("illegal.player", str(il.player),
                                    "the reveal" if player is None else str(player)))
        if diffs:
            raise _Fail(i, text, f"{text} was refused, but not as expected: {e.message}", clause=e.clause,
                        differences=diffs, **(where or {}))

    # -- comparing -------------------------------------------------------------------
    def check_after(self, i, text) -> None:
        """expect_after_turn: what must hold right after turn i."""
        if i in self.after:
            self.checked.add(i)
            self.compare(i, text, self.after[i], f"expect_after_turn.{i}.", self.sc.after_lines.get(i))

    def compare(self, i, text, e=None, prefix="", line=None) -> None:
        e, g = e or self.expect, self.g
        s = g.state
        diffs: list[Difference] = []

        def differ(name, want, have, values=None):
            if want != have:
                diffs.append(Difference(prefix + name, str(want), str(have), values=values or (want, have)))

        if e.round is not UNSET:
            differ("round", e.round, s.round)
        if e.turn is not UNSET:
            differ("turn", e.turn, s.turn)
        if e.order is not UNSET:
            differ("order", list(e.order), list(s.order))
        if e.line is not UNSET:
            differ("line", list(e.line), list(s.line))
        if e.objectives is not UNSET:
            differ("objectives", sorted(e.objectives), sorted(s.objectives))
        if e.pile is not UNSET:
            have = s.pile or []
            if isinstance(e.pile, int):
                differ("pile", f"{e.pile} cards", f"{len(have)} cards")
            else:
                differ("pile", list(e.pile), list(have))
        for p, want in (e.hands or {}).items():
            have = s.hands[p] if p < s.players else []
            if isinstance(want, int):
                if want != len(have):
                    diffs.append(Difference(f"{prefix}hands[{p}]", f"{want} cards",
                                            f"{len(have)} cards {sorted(have)}"))
            elif Counter(want) != Counter(have):
                missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
                diffs.append(Difference(f"{prefix}hands[{p}]", str(sorted(want)), f"{sorted(have)} (missing {missing}; "
                                        f"unexpected {extra})", values=(sorted(want), sorted(have))))
        for p, want in (e.hands_include or {}).items():
            have = s.hands[p] if p < s.players else []
            missing = sorted((Counter(want) - Counter(have)).elements())
            if missing:
                diffs.append(Difference(f"{prefix}hands_include[{p}]", f"a hand including {sorted(want)}",
                                        f"{sorted(have)} (missing {missing})", values=(sorted(want), sorted(have))))
        for p, want in (e.won or {}).items():
            if self.won is None:
                diffs.append(Difference(f"{prefix}won[{p}]", f"card {want} won in a turn revealed during the "
                                                             "scenario", "no turn was revealed"))
            else:
                differ(f"won[{p}]", want, self.won.get(p))
        for p, want in (e.columns or {}).items():
            have = [sorted(col) for col in s.columns[p]] if p < s.players else []
            want = [sorted(col) for col in want] + [[] for _ in range(5 - len(want))]
            differ(f"columns[{p}]", _columns(want), _columns(have), (_laid(want), _laid(have)))
        for p, want in (e.rounds or {}).items():
            differ(f"rounds[{p}]", list(want), list(s.scores[p]) if p < s.players else None)
        for p, want in (e.scores or {}).items():
            differ(f"scores[{p}]", want, s.totals()[p] if p < s.players else None)
        if e.winners is not UNSET:
            differ("winners", sorted(e.winners), sorted(g.winners()))
        for p, want in (e.parts or {}).items():
            if self.parts is None:
                diffs.append(Difference(f"{prefix}parts[{p}]", "a round scored during the scenario",
                                        "no round was scored"))
                continue
            have = self.parts[p] if p < len(self.parts) else {}
            for key in ("columns", "bubbles", "objectives", "met", "total"):
                w = getattr(want, key)
                if w is not UNSET:
                    differ(f"parts[{p}].{key}", sorted(w) if key == "met" else w, have.get(key))
        if e.pending is not UNSET:
            pend = g.pending
            if e.pending.kind is not UNSET:
                differ("pending.kind", e.pending.kind, pend.kind)
            if e.pending.players is not UNSET:
                differ("pending.players", sorted(e.pending.players), sorted(pend.players))
        for k, m in enumerate(e.events or ()):
            if not any(_matches(m, ev) for ev in self.events):
                diffs.append(Difference(f"{prefix}events[{k}]", _pattern(m), "no such event"))
        for k, m in enumerate(e.no_events or ()):
            hits = [ev for ev in self.events if _matches(m, ev)]
            if hits:
                diffs.append(Difference(f"{prefix}no_events[{k}]", f"no event {_pattern(m)}", hits[0].text))
        if diffs:
            where = f"after turn {i} ({text})" if text.startswith("{") else f"after {text}"
            raise _Fail(i, text, f"{where}: {len(diffs)} difference{'s' * (len(diffs) != 1)}", differences=diffs,
                        events=self.last, line=line)


def _laid(cols) -> list:
    """The Score columns up to the last that holds a card."""
    while cols and not cols[-1]:
        cols = cols[:-1]
    return cols


def _columns(cols) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, c)) + "]" for c in _laid(cols)) + "]"


def _matches(m, ev) -> bool:
    if m.kind is not UNSET and ev.kind != m.kind:
        return False
    if m.clause is not UNSET and m.clause not in ev.clauses:
        return False
    for key in ("player", "card", "column", "amount"):
        want = getattr(m, key)
        if want is not UNSET and getattr(ev, key) != want:
            return False
    return True


def _pattern(m) -> str:
    return "{" + ", ".join(f"{f}={getattr(m, f)}" for f in m.__struct_fields__ if getattr(m, f) is not UNSET) + "}"
