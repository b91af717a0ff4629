"""`mb-oracle hunt --game mind-up`: the invariants checked over random
games, and a search for the places where a reading of a silence of the
rulebook changes an outcome, each shrunk by Hypothesis to a small position
and written as a draft scenario.

The reading points searched (oracle.games.mindup.readings):
- mu.round.order-repeat: a new round draws the last round's Score order again;
- mu.round.draw-order: the pile's top cards go to the players in another order;
- mu.objectives.all-zero: an objective comparing players' counts when every
  count is 0;
- mu.objectives.relative-timing: the comparative objectives checked before
  or after the later players' last cards;
- mu.objectives.no-green: 'no colour right of green' scored by a player
  holding no green card;
- mu.objectives.letters-later: a renewed objective with the letter of one
  shown in an earlier round.

    run(budget, seed) -> Report
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from random import Random

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from .. import readings as rd
from ..engine.position import position
from ..engine.state import RuleError
from .invariants import problems, score_problems
from .strategies import Situation, situations

COMPARATIVE = (5, 6, 10)
# The reading points searched, in this order.
POINTS = (rd.ORDER_REPEAT, rd.DRAW, rd.ZERO, rd.TIMING, rd.NO_GREEN, rd.LETTERS_LATER)


@dataclass(frozen=True)
class Point:
    """A reading point: the reading, the alternative tried against the
    team's, and the situations that can reach it."""

    clause: str
    alternative: str
    strategy: object
    what: str


def _point_strategies():
    short = st.integers(2, 3)
    rounds12 = st.integers(1, 2)
    comparative = st.lists(st.sampled_from(COMPARATIVE), min_size=1, max_size=1)
    return (
        Point(rd.ORDER_REPEAT, "must-differ",
              situations(rounds=rounds12, hand_sizes=short, objectives=st.just([])),
              "a new round draws the last round's Score order again"),
        Point(rd.DRAW, "top-cards-any",
              situations(rounds=rounds12, hand_sizes=short, objectives=st.just([])),
              "the pile's top cards are drawn by other players than seat order gives them to"),
        Point(rd.ZERO, "nobody",
              situations(hand_sizes=short, objectives=comparative, rounds=st.just(3),
                         scarce=st.sampled_from(["pink", "purple"])),
              "an objective comparing players' counts, every count 0"),
        Point(rd.TIMING, "placement-order",
              situations(hand_sizes=short, objectives=comparative, rounds=st.just(3)),
              "an objective comparing players' counts, changed by a later player's last card"),
        Point(rd.NO_GREEN, "bonus",
              situations(hand_sizes=short, objectives=st.just([7]), rounds=st.just(3), scarce=st.just("green")),
              "'no colour to the right of green' scored by a player without green"),
        Point(rd.LETTERS_LATER, "letter-retired",
              situations(rounds=rounds12, hand_sizes=short, objectives=st.lists(st.sampled_from((1, 2)), min_size=1,
                                                                                max_size=1)),
              "a new round shows the other objective of a letter shown in the round before"),
    )


class Played:
    """A situation played under some readings: the game, where it stopped
    and why (a refusal's code and clause), the invariants broken on the way."""

    def __init__(self, sit: Situation, readings: dict):
        self.refusal: tuple | None = None
        self.where: tuple | None = None
        self.broken: list[str] = []
        try:
            self._play(sit, dict(sit.readings) | readings)
        except Exception as e:  # noqa: BLE001  (an engine crash is a finding, not the end of the hunt)
            self.broken.append(f"engine crash: {type(e).__name__}: {e}")

    def _play(self, sit: Situation, chosen: dict) -> None:
        g = self.game = position(**_position_args(sit.given), readings=chosen)
        self._check("the position")
        rounds = iter(sit.next_rounds)
        for i, turn in enumerate(sit.turns, 1):
            try:
                before = len(g.state.scores[0])
                g.play_turn([turn[p] for p in range(g.state.players)])
            except RuleError as e:
                self.refusal, self.where = (e.code, e.clause), ("turn", i)
                return
            self._check(f"turn {i}", before)
        for k, nr in enumerate(rounds):
            if g.pending.kind != "round":
                break
            try:
                g.start_round(nr["order"], nr.get("draws"), nr.get("objectives"))
            except RuleError as e:
                self.refusal, self.where = (e.code, e.clause), ("round", g.state.round + 1)
                return
            self._check(f"the start of round {g.state.round}")

    def _check(self, step: str, scored_before: int | None = None) -> None:
        found = problems(self.game)
        if scored_before is not None:
            found += score_problems(self.game, scored_before)
        self.broken += [f"after {step}: {p}" for p in found]

    def outcome(self) -> tuple:
        s = self.game.state
        return (self.refusal, s.round, tuple(s.order), tuple(map(tuple, s.hands)), tuple(map(tuple, s.scores)))


def _position_args(given: dict) -> dict:
    return {"hands": given["hands"], "line": given["line"], "columns": given["columns"], "order": given["order"],
            "round": given["round"], "pile": given.get("pile", ()), "scores": given.get("scores", ()),
            "objectives": given.get("objectives", ())}


@dataclass
class Finding:
    point: Point
    situation: Situation
    team: Played
    other: Played
    scenario: str | None = None

    @property
    def reading(self) -> rd.Reading:
        return rd.BY_CLAUSE[self.point.clause]

    def to_json(self) -> dict:
        r = self.reading
        return {"category": "reading", "clause": r.clause, "team": r.team, "alternative": self.point.alternative,
                "what": self.point.what, "board_game_arena": r.note, "players": self.situation.players,
                "round": self.situation.given["round"], "turns": len(self.situation.turns),
                "scenario": self.scenario}


@dataclass
class Report:
    budget: int
    seed: int
    games: int = 0
    steps: int = 0
    broken: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"game": "mind-up", "budget": self.budget, "seed": self.seed, "games": self.games,
                "steps": self.steps, "invariants_broken": self.broken,
                "findings": [f.to_json() for f in self.findings], "not_found": self.missed}


def _settings(budget: int):
    return settings(max_examples=budget, database=None, deadline=None,
                    phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


def differs(point: Point, sit: Situation) -> tuple[Played, Played] | None:
    team = Played(sit, {})
    other = Played(sit, {point.clause: point.alternative})
    if team.broken or other.broken:
        return None
    if team.outcome() != other.outcome():
        return team, other
    return None


def search_point(point: Point, budget: int, seed: int) -> Finding | None:
    """The smallest situation Hypothesis finds where the point's reading
    changes the outcome (None within the budget)."""
    try:
        sit = find(point.strategy, lambda s: differs(point, s) is not None, settings=_settings(budget),
                   random=Random(seed))
    except NoSuchExample:
        return None
    team, other = differs(point, sit)
    return Finding(point, sit, team, other)


def invariant_games(budget: int, seed: int, report: Report) -> None:
    """Random legal positions and turns under random readings; every step
    checked against the invariants (oracle.games.mindup.hunt.invariants)."""
    readings = st.fixed_dictionaries({}, optional={r.clause: st.sampled_from(r.names()) for r in rd.READINGS
                                                   if r.clause != rd.PLAYERS})
    strategy = situations(readings=readings)

    def broken(sit: Situation) -> bool:
        played = Played(sit, {})
        report.games += 1
        report.steps += len(sit.turns) + len(sit.next_rounds)
        if played.broken:
            report.broken.extend(played.broken[:3])
        return bool(played.broken)
    try:
        find(strategy, broken, settings=_settings(budget), random=Random(seed))
    except NoSuchExample:
        pass


def run(budget: int = 200, seed: int = 0) -> Report:
    start = time.perf_counter()
    rep = Report(budget, seed)
    invariant_games(budget, seed, rep)
    for i, point in enumerate(_point_strategies()):
        f = search_point(point, budget, seed * 101 + i)
        if f is None:
            rep.missed.append(point.clause)
        else:
            rep.findings.append(f)
    rep.seconds = time.perf_counter() - start
    return rep
