"""One game of Mind Up! played on the reference engine and on an engine
adapter at once (mb-engine/1, oracle.games.mindup.harness.protocol),
compared after the deal and after every step: a refusal, the state claim,
the result, what the game waits for and each player's cards to choose
from. The first difference is a Finding with the codes of Mindbug's
lockstep (oracle.harness.lockstep) and the clauses verify gives a claim.

A step is a `round` line (the chance of a round) or a `turn` line (every
player's hidden choice at once: the adapter receives the joint choice and
reveals it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from ....harness.engine_client import Engine
from ....harness.lockstep import ENGINE_REFUSED, OPTIONS_DIFFER, STATE_MISMATCH, WRONG_RESULT, engine_words
from ....replay.findings import DiffEntry, Finding, event_views
from ..engine import Game
from ..replay import format as fmt
from ..replay.diff import claim_diff, clauses_of, record_parts, score_part_first
from . import play
from . import protocol as pr

U = msgspec.UNSET
SHOWN_EVENTS = 12


@dataclass
class Divergence:
    """Where the sides first differ: after `steps` (the lines both applied), the finding, the engine's reply."""

    steps: list[dict]
    finding: Finding
    reply: pr.EngineReply
    events: list = field(default_factory=list)

    @property
    def signature(self) -> tuple:
        f = self.finding
        return (f.code, f.clauses[0] if f.clauses else None)


def _pending_clauses(g: Game) -> list[str]:
    return list(play.pending_view(g).clauses)


def compare(g: Game, reply: pr.EngineReply, step: int, since: list) -> Finding | None:
    """The first difference between the rules' game and the engine's reply
    after `step` steps (`since`: the rules' events since the sides agreed)."""
    events = event_views(since[-SHOWN_EVENTS:])
    if reply.error is not U:
        clauses = ["mu.setup.deal"] if step == 0 else _pending_clauses(g)
        return Finding(ENGINE_REFUSED, clauses, step, f"the engine refused what the rules accept: {reply.error}",
                       events=events)
    if reply.state is not U:
        diff = claim_diff(reply.state, g.state)
        if diff:
            clauses = list(dict.fromkeys(c for d in diff for c in clauses_of(d, since, bool(g.state.objectives),
                                                                               g.state)))
            clauses = score_part_first(clauses, diff, record_parts({}, since, g.state.round, g.state.objectives))
            diff = engine_words(diff)
            fields = sorted({d.field.split("[")[0] if d.field else "cards" for d in diff})
            return Finding(STATE_MISMATCH, clauses, step,
                           f"the engine's state differs from the rules ({', '.join(fields)}): {diff[0].text}"
                           + (f" (and {len(diff) - 1} more)" if len(diff) > 1 else ""),
                           log=msgspec.to_builtins(reply.state), rules=play.state_claim(g), diff=diff, events=events)
    theirs = None if reply.over is U or reply.over is None else (list(reply.over.scores), sorted(reply.over.winners))
    mine = (g.totals(), sorted(g.winners())) if g.is_over else None
    if theirs != mine:
        return Finding(WRONG_RESULT, _result_clauses(theirs, mine), step,
                       f"the engine says {_result(theirs)}; the rules say {_result(mine)}",
                       log={"over": _over(theirs)}, rules={"over": _over(mine)}, events=events)
    kind = g.pending.kind
    if reply.pending is not U and reply.pending != kind:
        clauses = {"round": ["mu.round.last-card"], "over": ["mu.game.rounds"]}.get(kind, _pending_clauses(g))
        return Finding(OPTIONS_DIFFER, clauses, step, f"the engine waits for {_waits(reply.pending)}; the rules wait "
                       f"for {_waits(kind)}", log={"pending": reply.pending}, rules={"pending": kind}, events=events)
    if kind == "choose" and reply.options is not U:
        diff = []
        for p in range(g.state.players):
            ours = sorted(g.legal(p))
            got = sorted(reply.options[p]) if p < len(reply.options) else []
            if got != ours:
                diff.append(DiffEntry(f"player {p}: the engine lets them choose {got}; the rules {ours}",
                                      field=f"options[{p}]", log=got, rules=ours))
        if diff:
            return Finding(OPTIONS_DIFFER, ["mu.turn.choose"], step, "the cards a player may choose differ: "
                           + diff[0].text, diff=diff, events=events,
                           rules={"options": [g.legal(p) for p in range(g.state.players)]},
                           log={"options": [list(o) for o in reply.options]})
    return None


def _result_clauses(theirs, mine) -> list[str]:
    """The clauses of a result that differs, as verify names them on an end
    line: the scores (and an ending at another point) mu.game.rounds, the
    winners alone mu.game.winner."""
    if theirs is None or mine is None or theirs[0] != mine[0]:
        return ["mu.game.rounds"] + (["mu.game.winner"] if theirs and mine and theirs[1] != mine[1] else [])
    return ["mu.game.winner"]


def _result(r) -> str:
    return "the game goes on" if r is None else f"the game is over: scores {r[0]}, winners {r[1]}"


def _over(r):
    return None if r is None else {"scores": r[0], "winners": r[1]}


def _waits(kind: str) -> str:
    return {"choose": "the players' cards", "round": "the next round's chance", "over": "nothing (over)"}.get(
        kind, repr(kind))


class Run:
    """One game in lockstep: the rules' game, the engine, the steps so far, the first divergence."""

    def __init__(self, engine: Engine, g: Game, reply: pr.EngineReply):
        self.engine = engine
        self.g = g
        self.steps: list[dict] = []
        self.since: list = []
        self.divergence: Divergence | None = None
        self._check(reply)

    def _check(self, reply: pr.EngineReply) -> None:
        f = compare(self.g, reply, len(self.steps), self.since)
        if f is not None:
            self.divergence = Divergence(list(self.steps), f, reply, list(self.since))
        else:
            self.since = []

    def step(self, line: dict) -> None:
        """Apply a step the rules allow, on both sides, then compare."""
        self.since += play.apply_step(self.g, pr.step_decoder.decode(msgspec.json.encode(line)))
        self.steps.append(line)
        self._check(self.engine.send(pr.EngineApply(decision=line), pr.engine_reply_decoder))

    @property
    def going(self) -> bool:
        return self.divergence is None and not self.g.is_over


def start_deal(engine: Engine, players: int, setup: dict, objectives: int = 0, readings: dict | None = None) -> Run:
    g = play.game_from_deal(players, setup, objectives, readings)
    reply = engine.send(pr.EngineDeal(players=players, objectives=objectives, readings=dict(readings or {}),
                                      setup=setup), pr.engine_reply_decoder)
    return Run(engine, g, reply)


def start_position(engine: Engine, position: dict, readings: dict | None = None) -> Run:
    g = play.game_from_position(position, readings)
    reply = engine.send(pr.EnginePosition(position=position, readings=dict(readings or {})), pr.engine_reply_decoder)
    return Run(engine, g, reply)


def replay(run: Run, steps: list[dict]) -> Run:
    """Apply `steps` in lockstep until they end or the sides differ."""
    for line in steps:
        if not run.going:
            break
        run.step(line)
    return run


def position_of(g: Game) -> dict:
    """The game at the start of a turn as a position (a scenario's `given`):
    all an engine needs to go on from there under any reading."""
    s = g.state
    pos = {"round": s.round, "order": list(s.order), "hands": [list(h) for h in s.hands], "line": list(s.line),
           "columns": [[list(c) for c in cols if c] for cols in s.columns]}
    if s.pile:
        pos["pile"] = list(s.pile)
    if any(s.scores):
        pos["scores"] = [[s.scores[p][r] for p in range(s.players)] for r in range(len(s.scores[0]))]
    if s.objectives:
        pos["objectives"] = list(s.objectives)
    before = [o for o in s.shown if o not in s.objectives]
    if before:
        pos["shown_before"] = before        # discarded: they may not come back (mu.objectives.renew)
    return pos


def line_of_claim(state) -> dict:
    return msgspec.to_builtins(state) if isinstance(state, fmt.StateLine) else dict(state)
