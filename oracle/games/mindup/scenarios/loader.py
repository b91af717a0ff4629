"""Reading a Mind Up! scenario document (`game: mind-up`): the structs of
`format`, then the checks beyond the structure (clause ids of the Mind Up!
catalogue, readings, seats, a card placed twice, the refused step), each a
ScenarioError naming the file, line and field.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cache

import msgspec
from msgspec import UNSET

from .... import games
from ....scenarios.located import ScenarioError, check_editions_and_readings
from ....scenarios.structure import msgspec_location
from ....structure import field_name
from ....reading_type import UnknownReading
from ..readings import check as check_readings
from .format import EDITIONS, GAME, MindUpScenario, MuExpect, MuIllegal


@dataclass
class LoadedMindUp:
    """A Mind Up! scenario as loaded: the document, where it is, the line of
    each turn and of the top-level keys."""

    doc: MindUpScenario
    file: str
    line: int
    step_lines: list[int] = field(default_factory=list)    # the line of each turn
    key_lines: dict[str, int] = field(default_factory=dict)
    round_lines: list[int] = field(default_factory=list)   # the line of each next_rounds entry
    after_lines: dict[int, int] = field(default_factory=dict)  # the line of each expect_after_turn entry
    game = GAME

    @property
    def id(self) -> str:
        return self.doc.id

    def line_of(self, part: str, step: int | None = None) -> int:
        if part == "step" and step and step <= len(self.step_lines):
            return self.step_lines[step - 1]
        return self.key_lines.get(part, self.line)

    def editions(self) -> list[str]:
        d = self.doc
        return list(EDITIONS) if d.editions == "all" else [e for e in EDITIONS if e in d.editions]

    def expectation(self, edition: str) -> tuple[MuExpect | None, MuIllegal | None]:
        d = self.doc
        return (None if d.expect is UNSET else d.expect), (None if d.illegal is UNSET else d.illegal)


@cache
def catalogue() -> frozenset[str]:
    return frozenset(games.entry(GAME).load_catalogue())


def load_document(data: dict, name: str, loc, folders=None, card_files=()) -> tuple[LoadedMindUp | None, list]:
    """A Mind Up! document: (the scenario, []) or (None, its errors).
    `folders`, `card_files`: Mind Up! scenarios name no card file; they are
    not read."""
    try:
        doc = msgspec.convert(data, MindUpScenario)
    except msgspec.ValidationError as e:
        path, at, message = msgspec_location(str(e), data, loc, EDITIONS, root=MindUpScenario)
        sid = data.get("id") if isinstance(data.get("id"), str) else None
        return None, [ScenarioError(name, at, field_name(path), (f"scenario {sid}: " if sid else "") + message)]
    errors = _Checker(doc, loc, name).check()
    if errors:
        return None, errors
    keys = {k: loc.key_line([], k) for k in ("given", "expect", "illegal", "next_rounds", "expect_after_turn")
            if k in data}
    turns = [loc.line(["turns", i]) for i in range(len(doc.turns))]
    rounds = [loc.line(["next_rounds", i]) for i in range(len(doc.next_rounds))]
    after = {n: loc.key_line(["expect_after_turn"], n) for n in doc.expect_after_turn or {}}
    return LoadedMindUp(doc, name, loc.line([]), turns, keys, rounds, after), []


def _near(word: str, known) -> str:
    near = difflib.get_close_matches(word, sorted(known), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


class _Checker:
    def __init__(self, doc: MindUpScenario, loc, name: str):
        self.doc, self.loc, self.name = doc, loc, name
        self.errors: list = []
        g = doc.given
        self.players = len(g.deal.hands if g.deal is not UNSET else g.hands if g.hands is not UNSET else [])

    def fail(self, path: list, message: str, key=None) -> None:
        at = self.loc.key_line(path, key) if key is not None else self.loc.line(path)
        self.errors.append(ScenarioError(self.name, at, field_name(path + ([key] if key is not None else [])),
                                         f"scenario {self.doc.id}: {message}"))

    def clause(self, path: list, cid: str) -> None:
        if cid in catalogue():
            return
        if cid in games.entry("mindbug").load_catalogue():
            self.fail(path, f"{cid!r} is a clause of Mindbug, not of Mind Up! (see spec/mind-up/clauses.yaml)")
        else:
            self.fail(path, f"unknown clause id {cid!r}{_near(cid, catalogue())} (see spec/mind-up/clauses.yaml)")

    def seat(self, path: list, p: int, key=None) -> None:
        if self.players and p >= self.players:
            self.fail(path, f"there is no player {p}: the position has {self.players} players (0 to "
                            f"{self.players - 1})", key=key)

    def check(self) -> list:
        d = self.doc
        for i, c in enumerate(d.clauses):
            self.clause(["clauses", i], c)
        if len(set(d.clauses)) != len(d.clauses):
            self.fail(["clauses"], "a clause is cited twice")
        check_editions_and_readings(d, self.fail, check_readings, UnknownReading)
        self.check_given()
        for i, t in enumerate(d.turns):
            if not t:
                self.fail(["turns", i], "a turn names at least one player's card")
            for p in t:
                self.seat(["turns", i], p, key=p)
        if d.expect is UNSET and d.illegal is UNSET and not d.expect_after_turn:
            self.fail([], "the scenario checks nothing: give expect or illegal (or expect_after_turn)")
        if d.expect is not UNSET:
            self.check_expect(["expect"], d.expect)
        if d.expect_after_turn is not UNSET:
            self.check_after_turns()
        if d.illegal is not UNSET:
            self.check_illegal(["illegal"], d.illegal)
        return self.errors

    def check_given(self) -> None:
        g = self.doc.given
        path = ["given"]
        if g.players is not UNSET and g.players != self.players:
            self.fail(path, f"{g.players} players, and {self.players} hands", key="players")
        if g.deal is not UNSET:
            for key in ("hands", "line"):
                if getattr(g, key) is not UNSET:
                    self.fail(path, f"'{key}' does not go with 'deal'", key=key)
            for key in ("columns", "scored", "pile", "scores", "shown_before"):
                if getattr(g, key):
                    self.fail(path, f"'{key}' does not go with 'deal'", key=key)
            if g.round != 1:
                self.fail(path, "a deal starts round 1", key="round")
            zones = [(["given", "deal", "hands", p], h) for p, h in enumerate(g.deal.hands)]
            zones += [(["given", "deal", "line"], g.deal.line), (["given", "deal", "pile"], g.deal.pile)]
        else:
            for key in ("hands", "line"):
                if getattr(g, key) is UNSET:
                    self.fail(path, f"missing required key {key!r} (or give a 'deal')")
            if self.errors:
                return
            zones = [(["given", "hands", p], h) for p, h in enumerate(g.hands)]
            zones.append((["given", "line"], g.line))
            if len(g.columns) > len(g.hands):
                self.fail(path, f"Score cards for {len(g.columns)} players, hands for {len(g.hands)}", key="columns")
            for p, cols in enumerate(g.columns):
                zones += [(["given", "columns", p, i], col) for i, col in enumerate(cols)]
            self.check_scored(zones)
            zones.append((["given", "pile"], g.pile))
            for r, scores in enumerate(g.scores):
                if len(scores) != self.players:
                    self.fail(["given", "scores", r], f"round {r + 1} gives {len(scores)} scores for "
                                                      f"{self.players} players")
            if g.scores and len(g.scores) != g.round - 1:
                self.fail(path, f"round {g.round} follows {g.round - 1} scored round(s); `scores` gives "
                                f"{len(g.scores)}", key="scores")
        seen: dict[int, list] = {}
        for zpath, cards in zones:
            for i, c in enumerate(cards):
                if c in seen:
                    first = seen[c]
                    self.fail(zpath + [i], f"card {c} is already placed at {field_name(first)} (line "
                                           f"{self.loc.line(first)}); a card is in one place only")
                else:
                    seen[c] = zpath + [i]

    def check_scored(self, zones: list) -> None:
        """`given.scored`: a player's cards won this round, in the order won,
        for a player `columns` leaves without Score cards."""
        g = self.doc.given
        for p, cards in g.scored.items():
            path = ["given", "scored"]
            self.seat(path, p, key=p)
            if p < len(g.columns) and any(g.columns[p]):
                self.fail(path, f"player {p}'s Score cards are given twice, in `columns` and in `scored`; give "
                                "them in one", key=p)
            if not cards:
                self.fail(path, f"player {p} won no card: leave the player out of `scored`", key=p)
            zones.append((["given", "scored", p], cards))

    def check_after_turns(self) -> None:
        """`expect_after_turn`: each entry names a turn the scenario plays
        through (0: the position as set up) and checks something."""
        d = self.doc
        n = len(d.turns)
        refused = None
        if d.illegal is not UNSET and d.illegal.round is UNSET:
            refused = n if d.illegal.turn is UNSET else d.illegal.turn
        for turn, e in d.expect_after_turn.items():
            path = ["expect_after_turn"]
            if turn > n:
                self.fail(path, f"turn {turn} does not exist: the scenario has {n} turn{'s' * (n != 1)}",
                          key=turn)
            elif refused is not None and turn >= refused:
                what = "the setup" if refused == 0 else f"turn {refused}"
                self.fail(path, f"{what} is refused, so the game never gets past turn {turn}; check the refused "
                                "state with `expect`", key=turn)
            self.check_expect(path + [turn], e)

    def check_expect(self, path: list, e: MuExpect) -> None:
        if all(getattr(e, f) is UNSET for f in e.__struct_fields__):
            self.fail(path, "this expect checks nothing")
        for key in ("hands", "hands_include", "columns", "won", "rounds", "parts", "scores"):
            table = getattr(e, key)
            if table is not UNSET:
                for p in table:
                    self.seat(path + [key], p, key=p)
        for key in ("winners",):
            value = getattr(e, key)
            if value is not UNSET:
                for i, p in enumerate(value):
                    self.seat(path + [key, i], p)
        if e.pending is not UNSET and e.pending.players is not UNSET:
            for i, p in enumerate(e.pending.players):
                self.seat(path + ["pending", "players", i], p)
        for key in ("events", "no_events"):
            for i, m in enumerate(getattr(e, key) or ()):
                if all(getattr(m, f) is UNSET for f in m.__struct_fields__):
                    self.fail(path + [key, i], "an event pattern needs at least one field")
                if m.clause is not UNSET:
                    self.clause(path + [key, i, "clause"], m.clause)
                if m.player is not UNSET:
                    self.seat(path + [key, i, "player"], m.player)

    def check_illegal(self, path: list, il: MuIllegal) -> None:
        d = self.doc
        n = len(d.turns)
        if il.clause is not UNSET:
            self.clause(path + ["clause"], il.clause)
        if il.player is not UNSET:
            self.seat(path + ["player"], il.player, key=None)
        if il.turn is not UNSET and il.round is not UNSET:
            self.fail(path, "give the refused turn or the refused round start, not both")
            return
        if il.round is not UNSET:
            if not d.next_rounds:
                self.fail(path, f"the start of round {il.round} needs its chance in `next_rounds`", key="round")
            return
        turn = n if il.turn is UNSET else il.turn
        if turn == 0:
            if n:
                self.fail(path, "the setup is refused, so no turn can follow it", key="turn")
            if d.given.deal is not UNSET and il.code not in ("BAD_SETUP", "ILLEGAL_RANDOM"):
                self.fail(path, f"turn 0 is the deal and the first round's chance: its refusal is BAD_SETUP "
                                f"or ILLEGAL_RANDOM, not {il.code}", key="code")
            elif d.given.deal is UNSET and il.code != "BAD_SETUP":
                why = " (ILLEGAL_RANDOM is the refusal of a deal's first round chance)" \
                    if il.code == "ILLEGAL_RANDOM" else ""
                self.fail(path, f"turn 0 is the setup of a position: its refusal is BAD_SETUP, not {il.code}"
                                + why, key="code")
        elif turn > n:
            self.fail(path, f"turn {turn} does not exist: the scenario has {n} turn{'s' * (n != 1)}", key="turn")
        elif turn < n:
            self.fail(path, f"turns after the refused turn {turn} would never run; end the turns there", key="turn")
