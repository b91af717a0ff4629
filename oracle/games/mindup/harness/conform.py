"""`mb-oracle conform --game mind-up`: games of Mind Up! dealt and played
from seeds on the reference engine and an adapter's engine in lockstep
(oracle.games.mindup.harness.lockstep), each divergence shrunk and written
as a replay log and a draft scenario. The settings, the engine process, the
reports and their formats are every game's (oracle.harness.conform,
oracle.harness.engine_client, oracle.replay.outputs).

Shrinking: a game of Mind Up! cannot be cut short of its turns (every turn
takes one card from every hand), so the game is cut from its start: the
position at the start of a turn before the divergence (hands, line, Score
cards, order, pile, scores, objectives, those discarded before) is set up on both sides with
`position`, and the remaining steps replayed; the latest start that still
shows the same divergence (code and first clause) wins. An adapter that
cannot set up positions keeps the whole game.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import yaml

from ....draftfile import DraftRefused, refusal, write_draft
from ....harness.conform import Settings, engine_fault, timed, why_not_written
from ....harness.engine_client import Engine, EngineFault
from ....harness.lockstep import ENGINE_REFUSED, OPTIONS_DIFFER, STATE_MISMATCH, WRONG_RESULT
from ....replay.findings import GameReport
from ....replay.reader import split_games
from ....safefile import OutputError, write_file
from ....term import visible
from ..engine import Game
from ..replay.format import FORMAT, GAME
from ..replay.selfplay import choose, draw_objectives
from ..replay.verifier import verify_game
from . import lockstep as ls
from .play import seeded_deal

PLAYERS = (3, 4, 5, 6)


@dataclass
class _Game:
    report: GameReport
    players: int
    setup: dict
    objectives: int
    divergence: ls.Divergence | None = None
    states: list | None = None      # the rules' game before each step (to cut the game short)


class Campaign:
    def __init__(self, engine: Engine, settings: Settings, players: tuple[int, ...] = PLAYERS):
        self.engine = engine
        self.settings = settings
        self.players = players
        self.skipped: list = []     # scenario runs left out: none (Mind Up! conform plays seeded games)
        self.seconds: dict[str, float] = {}     # each game's time to play, by id, for the reports

    def run(self) -> Iterator[GameReport]:
        s = self.settings
        games = [timed(self.seconds, self._game, i) for i in range(s.budget)]
        if s.shrink:
            self._shrink(games)
        for g in games:
            yield g.report

    def _game(self, i: int) -> _Game:
        s = self.settings
        n = self.players[i % len(self.players)]
        bot = s.bots[(i // len(self.players)) % len(s.bots)]
        seed = s.seed * 1_000_003 + i
        objectives = (0, 2, 3)[i % 3]
        rng = random.Random(seed)
        setup = seeded_deal(seed, n)
        pile = list(range(1, 15))
        rng.shuffle(pile)
        rep = GameReport(file=self.engine.name, line=0, id=f"mind-up-{n}p{objectives}o-{bot}-s{seed}", edition="fr",
                         impl=f"{self.engine.name} {getattr(self.engine, 'version', '')}".strip())
        rep.game = GAME
        out = _Game(rep, n, setup, objectives, states=[])
        try:
            run = ls.start_deal(self.engine, n, setup, objectives)
            while run.going and len(run.steps) < s.max_decisions:
                out.states.append(run.g.copy())
                run.step(_next_step(run.g, bot, rng, pile))
        except EngineFault as e:
            rep.decisions = max(0, len(out.states) - 1)    # the steps both sides applied before the fault
            engine_fault(self.engine, rep, e, rep.decisions)
            return out
        rep.decisions = len(run.steps)
        if run.g.is_over:
            rep.result = {"winners": run.g.winners(), "scores": run.g.totals()}
        if run.divergence is not None:
            out.states.append(run.g.copy())     # the position where the sides part (a start of no steps)
            out.divergence = run.divergence
            rep.verdict = "violates"
            rep.findings.append(run.divergence.finding)
        return out

    # -- shrinking ------------------------------------------------------------------
    def _shrink(self, games: list[_Game]) -> None:
        kinds: dict[tuple, list[_Game]] = {}
        for g in games:
            if g.divergence is not None:
                kinds.setdefault(g.divergence.signature, []).append(g)
        for sig, members in kinds.items():
            first = min(members, key=lambda g: (len(g.divergence.steps), g.report.id))
            try:
                position, steps = self._cut(first, sig)
            except EngineFault as e:
                position, steps = None, first.divergence.steps
                first.report.notes.append(f"shrinking stopped: {e}")
                self._restart()
            note = (f"shrunk from {len(first.divergence.steps)} step(s) from the deal to {len(steps)} from a position "
                    f"of round {position['round']}" if position is not None else
                    f"not shrunk ({'the engine sets up no position' if not self.engine.positions else 'no shorter start shows it'})")
            if self.settings.out is not None:
                try:
                    note += ": " + self._write(first, position, steps)
                except (DraftRefused, OutputError, OSError) as e:
                    note += f": not written: {why_not_written(e)}"
            first.report.notes.append(note)
            for g in members:
                if g is not first:
                    g.report.notes.append(f"the same divergence as {first.report.id}, shrunk there")

    def _restart(self) -> None:
        try:
            self.engine.restart()
        except EngineFault:
            pass

    def _cut(self, game: _Game, sig: tuple) -> tuple[dict | None, list[dict]]:
        """The latest turn start before the divergence from which a position
        and the steps after it still show it."""
        div = game.divergence
        if not self.engine.positions:
            return None, div.steps
        budget = self.settings.shrink_budget
        # From the latest start (states[-1]: the position where the sides part, no step left).
        for k in range(len(div.steps), -1, -1):
            if budget <= 0:
                break
            g = game.states[k]
            if g.pending.kind != "choose" or k == 0:
                continue
            budget -= 1
            position = ls.position_of(g)
            run = ls.replay(ls.start_position(self.engine, position), div.steps[k:])
            if run.divergence is not None and run.divergence.signature == sig:
                return position, div.steps[k:]
        return None, div.steps

    # -- what is written ------------------------------------------------------------
    def _write(self, game: _Game, position: dict | None, steps: list[dict]) -> str:
        out = self.settings.out
        div = game.divergence
        stem = f"{game.report.id}-{div.finding.code.lower()}"
        lines = [{"t": "game", "game": GAME, "format": FORMAT, "id": f"conform-{stem}", "players": game.players,
                  "objectives": game.objectives,
                  "impl": {"name": self.engine.name, "version": getattr(self.engine, "version", "")}},
                 game.setup, *div.steps]
        if div.finding.code == STATE_MISMATCH:
            last = {e.player: e.card for e in div.events if e.kind == "place" and "mu.round.last-card" in e.clauses}
            if len(last) == game.players:
                # The engine states the position after the last cards are placed: a claim
                # right after the last turn could be the one before (mu.round.last-card).
                lines.append({"t": "last", "cards": [last[p] for p in range(game.players)]})
            lines.append(ls.line_of_claim(div.reply.state))
        elif div.finding.code == WRONG_RESULT and div.reply.over:
            # The engine's result, as a log's end line claims one (verify compares it).
            lines.append({"t": "end", "scores": list(div.reply.over.scores),
                          "winners": list(div.reply.over.winners)})
        else:
            lines.append({"t": "note", "text": f"{div.finding.code} [{', '.join(div.finding.clauses)}] "
                                               f"{div.finding.message}"})
        if lines[-1]["t"] != "end":
            lines.append({"t": "end", "reason": "aborted", "detail": "written by mb-oracle conform: the engine and "
                                                                     f"the rules part here ({div.finding.code})"})
        log = _write_log(out, out / f"{stem}.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
        checked = verify_lines(lines)
        flagged = "; ".join(f"{f.code} [{', '.join(f.clauses)}]" for f in checked.findings) or "nothing"
        if div.finding.code in (STATE_MISMATCH, WRONG_RESULT):
            text = f"{log} (mb-oracle verify on it: {checked.verdict}, {flagged})"
        else:
            why = {OPTIONS_DIFFER: "the cards an engine lets a player choose",
                   ENGINE_REFUSED: "a step an engine refuses"}.get(div.finding.code, "what an engine waits for")
            text = f"{log} (the game up to there, which mb-oracle verify accepts: no replay log can show {why})"
        if position is not None:
            doc = draft_scenario(game, position, steps, self.engine.name)
            name = visible(self.engine.name)         # one line of the draft's comment
            header = (f"# Draft written by mb-oracle conform: {name} parts from the rules "
                      f"({div.signature[0]} [{div.signature[1]}]) within {len(steps)} step(s) of this position;\n"
                      f"# the whole game from its deal is {stem}.jsonl.\n")
            yml = write_draft(out / f"{stem}.yaml", out, header + yaml.safe_dump(
                doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None), "conform",
                self.settings.force)
            text += f" and {yml}"
        return text


def _write_log(folder: Path, path: Path, text: str) -> Path:
    """A shrunk game's log, written whole and renamed into place; never
    through a link out of `folder` (DraftRefused, as for drafts; a log
    carries no stamp, so it is not checked for edits)."""
    folder.mkdir(parents=True, exist_ok=True)
    why = refusal(path, folder, edited_check=lambda _: False)
    if why is not None:
        raise DraftRefused(why)
    write_file(path, text)
    return path


def verify_lines(lines: list[dict]) -> GameReport:
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r) for r in split_games(io.BytesIO(data), "shrunk.jsonl")][0]


def draft_scenario(game: _Game, position: dict, steps: list[dict], engine: str) -> dict:
    """The shrunk game as a draft scenario: the position, its turns and
    rounds, and what the rules say where the engine parts from them."""
    from .play import game_from_position
    g = game_from_position(position)
    turns, rounds = [], []
    for line in steps:
        if line["t"] == "turn":
            turns.append({p: c for p, c in enumerate(line["cards"])})
            g.play_turn(line["cards"])
        else:
            rounds.append({k: v for k, v in line.items() if k not in ("t", "round")})
            g.start_round(line["order"], line.get("draws"), line.get("objectives"))
    f = game.divergence.finding
    s = g.state
    expect: dict = {"round": s.round, "hands": {p: list(h) for p, h in enumerate(s.hands)},
                    "columns": {p: [list(c) for c in cols if c] for p, cols in enumerate(s.columns)}}
    if any(s.scores):
        expect["rounds"] = {p: list(sc) for p, sc in enumerate(s.scores)}
    doc: dict = {"format": "mb-scenario/1", "game": GAME,
                 "id": f"conform.{game.report.id.lower()}.{f.code.lower().replace('_', '-')}",
                 "title": f"{engine} and the rules part after {len(steps)} step(s): {f.code}",
                 "clauses": list(f.clauses) or ["mu.turn.choose"],
                 "source": {"kind": "rulebook", "ref": f"found by mb-oracle conform; {f.message}"[:300]},
                 "status": "draft", "given": position}
    if turns:
        doc["turns"] = turns
    if rounds:
        doc["next_rounds"] = rounds
    doc["expect"] = expect
    return doc


def _next_step(g: Game, bot: str, rng: random.Random, pile: list[int]) -> dict:
    """The next step a seeded game takes: the chance of a round, or a turn of the bot's choices."""
    if g.pending.kind == "round":
        order = [1, 2, 3, 4, 5]
        rng.shuffle(order)
        line = {"t": "round", "round": g.state.round + 1, "order": order}
        if g.state.round > 0:
            line["draws"] = list(g.state.pile[:g.state.players])
        shown = draw_objectives(pile, g)
        if shown:
            line["objectives"] = shown
        return line
    return {"t": "turn", "cards": [choose(g, p, bot, rng) for p in range(g.state.players)]}


def campaign(command: str, settings: Settings, players: tuple[int, ...] = PLAYERS) -> Campaign:
    engine = Engine(command, settings.timeout, GAME)
    engine.start()
    if GAME not in getattr(engine, "games", []):
        engine.stop()
        raise ValueError(f"the engine plays {', '.join(engine.games)}, not {GAME} (its hello names the games it "
                         "plays in `games`)")
    return Campaign(engine, settings, players)
