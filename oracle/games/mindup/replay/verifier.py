"""Verifying one recorded game of Mind Up! (mu-replay/1) against the rules.

The log's inputs (the deal, each round's Score order, draws and objectives,
every player's card) drive the engine; its claims (state lines, `last`
lines, the end line) are compared with what the rules say. The report is
the shared GameReport with Findings, so every output, `--expect`, `-j` and
`--cluster` treat a Mind Up! game as they treat a Mindbug one.

With `keep_going`, a claim that differs does not stop the game (the rules'
state is still right); after a refused decision, verification resumes at
the next full state claim (round, hands, line, columns, order, scores),
whose state is taken as it stands.
"""

from __future__ import annotations

import msgspec

from ....replay.findings import (MALFORMED, Finding, GameReport, event_views, repeated,
                                 say_keys_twice, say_unknown_fields)
from ....replay.limits import decode_line, error_field
from ....replay.reader import RawGame
from ....replay.twice import given_twice
from ....reading_type import UnknownReading
from .. import readings as rd
from ..cards import is_objective, player_name
from ..engine import Game, RuleError, SetupError
from . import format as fmt
from .diff import is_full, record_parts
from .verifier_claims import SHOWN_EVENTS, ClaimChecks

U = msgspec.UNSET


def _line_error(lineno: int, raw: bytes, exc: Exception) -> Finding:
    text = fmt.explain(str(exc))
    code = getattr(exc, "code", None)
    log = raw[:200].decode("utf-8", "replace")
    if code:                                    # a limit (oracle.replay.limits)
        return Finding(code, [], lineno, exc.message, log=log)
    if not isinstance(exc, msgspec.ValidationError):
        return Finding("BAD_JSON", [], lineno, f"not valid JSON: {text}", log=log)
    if "at `$.t`" in text:
        return Finding("UNKNOWN_LINE_TYPE", [], lineno,
                       f"unknown line type; expected one of {', '.join(fmt.LINE_TYPES)}", log=log)
    if "at `$.format`" in text:
        return Finding("BAD_VERSION", [], lineno, f"this oracle reads Mind Up! logs in {fmt.FORMAT}", log=log,
                       rules=fmt.FORMAT)
    return Finding("BAD_LINE", [], lineno, f"field {error_field(text)}: {text}", log=log)


# mu-replay/1 has no object in a list: every line is settled by counting its keys (oracle.replay.twice).
NO_LISTS_OF_OBJECTS: frozenset = frozenset()
_encode = msgspec.json.Encoder().encode


class Verifier(ClaimChecks):
    """Verifies one game of Mind Up!. Construct, then call `run()`."""

    def __init__(self, raw: RawGame, keep_going: bool = False, readings: dict | None = None, *,
                 strict: bool = False):
        self.raw = raw
        self.keep_going = keep_going
        self.override = {k: v for k, v in (readings or {}).items() if k.startswith("mu.")}
        self.readings: dict[str, str] = {}
        self.strict = strict
        self.report = GameReport(file=raw.file, line=raw.first_line, id="?", edition="fr", game=fmt.GAME)
        self.g: Game | None = None
        self.players = 0
        self.objectives = 0
        self.since: list = []           # the rules' events since the last claim that agreed
        self.lost = False
        self.end_line: int | None = None
        self.last_cards: list[int] | None = None    # the last cards of the round that just ended
        self.revealed: int | None = None     # the line whose choice made the reveal, until the next step
        # After a round's last turn, until the next line that is not a claim: the position
        # before the last cards were placed, and the rules' events since it (mu.round.last-card).
        self.pre_last: tuple | None = None
        self.parts: dict[int, list[dict | None]] = {}     # player -> the rules' parts of each round scored
        self._seen: dict = {}
        # The objectives the log's latest round line shows (accepted, refused or read while lost):
        # what a full claim that leaves them out is taken with, in a round the rules did not start.
        self.log_objectives: tuple | None = None
        # The lines read in step with the log, each with the line its stretch began at (the game
        # line, or the claim taken as it stands), and the lines of findings (replay.basis).
        self.stretch: dict[int, int] = {}
        self.flagged: set[int] = set()
        self._anchor = raw.first_line

    # -- findings -------------------------------------------------------------------
    def find(self, code, clauses, line, message, events=None, **kw) -> None:
        """Report a finding, with what the rules did since log and rules last
        agreed (`events`, default: the last SHOWN_EVENTS of them)."""
        f = Finding(code, list(dict.fromkeys(clauses)), line, message, **kw)
        self.flagged.add(line)
        if code not in MALFORMED:
            self.lost = True
            f.events = event_views(self.since[-SHOWN_EVENTS:] if events is None else events)
        if not repeated(self._seen, f, line):
            self.report.findings.append(f)

    def options(self) -> list:
        g = self.g
        if g is None:
            return []
        pend = g.pending
        if pend.kind == "choose":
            return [{"t": "choose", "p": p, "hand": g.legal(p)} for p in sorted(pend.players)]
        if pend.kind == "round":
            return [{"t": "round", "round": g.state.round + 1}]
        return []

    def refused(self, e: RuleError, lineno: int, log) -> None:
        code = "MISSING_SETUP" if e.code == "MISSING_INPUT" else e.code
        self.find(code, [e.clause], lineno, e.message, log=log, options=self.options(),
                  rules={"waiting": self._waiting()})

    def _waiting(self) -> str:
        g = self.g
        pend = g.pending
        if pend.kind == "choose":
            return "a card from " + ", ".join(player_name(p) for p in sorted(pend.players))
        if pend.kind == "round":
            return f"the start of round {g.state.round + 1} (its Score order)"
        return "nothing: the game is over"

    # -- the game ---------------------------------------------------------------------
    def run(self) -> GameReport:
        lines = iter(self.raw.lines)
        lineno, raw_line = next(lines)
        try:
            head = decode_line(fmt.decoder, raw_line)
            if not isinstance(head, fmt.GameLine):
                raise msgspec.ValidationError("expected a game line - at `$.t`")
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            self.report.id = _loose_id(raw_line)
            self.report.findings.append(_line_error(lineno, raw_line, e))
            return self._finish()
        rep = self.report
        rep.id = head.id
        self._fields("game", raw_line, lineno)
        self._twice(raw_line, head, lineno)
        if head.impl is not U:
            rep.impl = f"{head.impl.name} {head.impl.version}".strip()
        try:
            chosen = rd.check({} if head.readings is U else dict(head.readings))
        except UnknownReading as e:
            self.find("BAD_LINE", [], lineno, f"field readings: {e}", log=head.readings)
            return self._finish()
        chosen.update(self.override)
        self.readings = chosen
        rep.readings = rd.differing(chosen) or None
        self.players, self.objectives = head.players, head.objectives
        last = lineno
        for lineno, raw_line in lines:
            last = lineno
            try:
                line = decode_line(fmt.decoder, raw_line)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                rep.findings.append(_line_error(lineno, raw_line, e))
                return self._finish()
            t = line.__struct_config__.tag
            plain = self._twice(raw_line, line, lineno)
            if t == "note":
                continue
            if not self.lost:
                self.stretch[lineno] = self._anchor
            if not plain:
                self._fields(t, raw_line, lineno, line)
            if t == "game":
                self.find("BAD_LINE", [], lineno, "a game line inside a game")
                return self._finish()
            if self.g is None:
                if t != "setup":
                    self.find("MISSING_SETUP", [], lineno, f"a setup line must follow the game line, not {t!r}")
                    return self._finish()
                if not self._setup(line, lineno):
                    return self._finish()
                continue
            if t == "setup":
                self.find("BAD_LINE", [], lineno, "a second setup line in one game")
                return self._finish()
            if self.end_line is not None and t != "state":
                self.find("LINE_AFTER_END", ["mu.game.rounds"], lineno,
                          f"the game ended at line {self.end_line}, yet the log goes on with {t!r}")
                return self._finish()
            if t == "round" and line.objectives is not U:
                # Ids that are no objective (refused: mu.objectives.cards) leave them unknown.
                shown = tuple(line.objectives)
                self.log_objectives = shown if all(map(is_objective, shown)) else None
            if self.lost:
                if t == "state" and is_full(line) and self._fits(line):
                    self._resync(line)
                    self._anchor = lineno
                elif t == "end":
                    self.end_line = lineno
                continue
            # The position before the last cards stays claimable up to the next line that is not a
            # state claim; a `reveal` line that writes out the reveal the last choice made is part
            # of the turn that ended the round. After a `last` line the last cards are placed.
            if t != "state" and not (t == "reveal" and self.revealed is not None):
                self.pre_last = None
            getattr(self, "_" + t)(line, lineno)
            if self.lost and not self.keep_going:
                return self._finish()
        if self.end_line is None and not self.lost:
            self.find("MISSING_END", [], last, "the game has no end line (a truncated log?)")
        return self._finish()

    def _fields(self, t, raw_line, lineno, line=None) -> None:
        extra = fmt.unknown_fields(t, raw_line, line)
        if extra:
            say_unknown_fields(self, fmt.FORMAT, t, extra, lineno)

    def _twice(self, raw_line, line, lineno) -> bool:
        """Keys a line gives twice in one object (the decoder took the last
        value of each): a note, or with `strict` a finding, as in Mindbug's logs.
        Returns whether the line is the bytes of what it decodes to: the
        encoder writes each key once, and no key its line type lacks."""
        if raw_line == _encode(line):
            return True
        keys = given_twice(raw_line, line, NO_LISTS_OF_OBJECTS)
        if keys:
            say_keys_twice(self, keys, lineno)
        return False

    def _setup(self, line, lineno) -> bool:
        n = self.players
        if line.deck is not U:
            if any(f is not U for f in (line.hands, line.line, line.pile)):
                self.find("BAD_LINE", [], lineno, "a setup line gives either `deck` or `hands` and `line`")
                return False
            deck = list(line.deck)
            hands, cards, pile = [deck[7 * p:7 * p + 7] for p in range(n)], deck[7 * n:8 * n], deck[8 * n:]
        elif line.hands is U or line.line is U:
            self.find("BAD_LINE", [], lineno, "a setup line gives `deck`, or `hands` and `line`")
            return False
        else:
            hands, cards = [list(h) for h in line.hands], list(line.line)
            pile = None if line.pile is U else list(line.pile)
        try:
            self.g = Game.deal(n, hands, cards, pile, self.objectives, self.readings)
        except SetupError as e:
            self.find("BAD_SETUP", [e.clause], lineno, e.message)
            return False
        return True

    # -- inputs and decisions -----------------------------------------------------------
    def _round(self, line, lineno) -> None:
        self.revealed = None
        g = self.g
        log = msgspec.to_builtins(line)
        if g.pending.kind != "round":
            where = "the round is not over" if g.pending.kind == "choose" else "the game is over"
            self.find("ILLEGAL_RANDOM", ["mu.round.last-card" if g.pending.kind == "choose" else "mu.game.rounds"],
                      lineno, f"a new round starts, but {where}", log=log, options=self.options())
            return
        if line.round is not U and line.round != g.state.round + 1:
            self.find("ILLEGAL_RANDOM", ["mu.game.rounds"], lineno,
                      f"the log starts round {line.round}; the next round is {g.state.round + 1}", log=log)
            return
        try:
            events = g.start_round(list(line.order), None if line.draws is U else list(line.draws),
                                   None if line.objectives is U else list(line.objectives))
        except RuleError as e:
            self.refused(e, lineno, log)
            return
        self.since += events
        self.last_cards = None

    def _turn(self, line, lineno) -> None:
        self.revealed = None
        g = self.g
        if self.last_cards is not None and g.pending.kind == "round":
            self.find("ILLEGAL_DECISION", ["mu.round.last-card"], lineno,
                      "the log plays a turn with each player's last card; the rules put the last card straight "
                      "on the Score cards, and the round is over", log=msgspec.to_builtins(line),
                      options=self.options(), rules={"last": self.last_cards})
            return
        before = self.report.decisions
        self._apply(lambda: g.play_turn(list(line.cards)), lineno, line, len(line.cards))
        if self.report.decisions != before:
            self.revealed = lineno      # a turn line reveals its cards: a reveal line after it writes that out

    def _choose(self, line, lineno) -> None:
        self.revealed = None
        g = self.g
        try:
            g.choose(line.p, line.card)
        except RuleError as e:
            if g.pending.kind == "round" and self.last_cards is not None:
                e = RuleError("mu.round.last-card", f"{player_name(line.p)} plays a card after the round's "
                              "last turn; the last card goes straight to the Score cards")
            self.refused(e, lineno, msgspec.to_builtins(line))
            return
        self.report.decisions += 1
        if not g.pending.players:
            self._apply(g.reveal, lineno, line, 0)
            self.revealed = lineno

    def _reveal(self, line, lineno) -> None:
        if self.revealed is not None:
            self.revealed = None        # the reveal the last choice made: written out, nothing to do
            return
        self._apply(self.g.reveal, lineno, line, 0)

    def _apply(self, step, lineno, line, decisions: int) -> None:
        """Run a step of the log's `line`; a refusal is a finding on it."""
        try:
            events = step()
        except RuleError as e:
            self.refused(e, lineno, msgspec.to_builtins(line))
            return
        self.revealed = None
        self.report.decisions += decisions
        self.since += events
        if not events or events[-1].kind == "line":
            return      # a turn within a round: no score, no last card
        # Each round's score by part, to tell which part a claim misses.
        record_parts(self.parts, events, self.g.state.round, self.g.state.objectives)
        last = [e for e in events if e.kind == "place" and "mu.round.last-card" in e.clauses]
        if last:
            self.pre_last = (self.g.before_last, events[events.index(last[0]):])
            cards = [0] * self.g.state.players
            for e in last:
                cards[e.player] = e.card
            self.last_cards = cards

    def _last(self, line, lineno) -> None:
        self.revealed = None
        log = msgspec.to_builtins(line)
        if self.last_cards is None:
            self.find("ILLEGAL_DECISION", ["mu.round.last-card"], lineno,
                      "a `last` line, but the players do not hold their last card: the round goes on",
                      log=log, options=self.options())
        elif list(line.cards) != self.last_cards:
            self.find("STATE_MISMATCH", ["mu.round.last-card"], lineno,
                      f"the last cards: the log says {list(line.cards)}; each player's last card is "
                      f"{self.last_cards}", log=log, rules={"cards": self.last_cards}, options=self.options())

    def _score_clauses(self) -> list[str]:
        out = ["mu.scoring.columns", "mu.scoring.bubbles"]
        return out + (["mu.scoring.objectives"] if self.objectives else [])

    def _end(self, line, lineno) -> None:
        g = self.g
        self.end_line = lineno
        log = msgspec.to_builtins(line)
        if line.reason is not U:
            self.report.aborted = True
            return
        if not g.is_over:
            self.find("WRONG_RESULT", ["mu.game.rounds"], lineno,
                      f"the log ends the game; the rules wait for {self._waiting()}", log=log,
                      options=self.options())
            return
        totals, winners = g.totals(), g.winners()
        if line.scores is not U and list(line.scores) != totals:
            self.find("WRONG_RESULT", ["mu.game.rounds"] + self._score_clauses(), lineno,
                      f"game scores: the log says {list(line.scores)}; the rules say {totals}",
                      log=log, rules={"scores": totals, "winners": winners})
        if line.winners is not U and sorted(set(line.winners)) != winners:
            self.find("WRONG_RESULT", ["mu.game.winner"], lineno,
                      "the winners: the log says " + (", ".join(player_name(p) for p in sorted(set(line.winners)))
                                                      or "none")
                      + "; the rules say " + ", ".join(player_name(p) for p in winners)
                      + f" (game scores {totals}; a tie goes to the last round's score)",
                      log=log, rules={"scores": totals, "winners": winners})

    def _finish(self) -> GameReport:
        rep = self.report
        if not rep.aborted:         # an end line not read, or read while lost
            rep.aborted = self.raw.ends_aborted(fmt.decoder)
        if any(f.malformed for f in rep.findings):
            rep.verdict = "malformed"
        elif rep.findings:
            rep.verdict = "violates"
        g = self.g
        if g is not None and g.is_over:
            rep.result = {"winners": g.winners(), "scores": g.totals()}
        return rep


class _Id(msgspec.Struct):
    id: str = "?"


_id = msgspec.json.Decoder(_Id)


def _loose_id(raw: bytes) -> str:
    try:
        return _id.decode(raw).id
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        return "?"


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False, readings: dict | None = None,
                basis: bool = True, *, strict: bool = False, check_invariants: bool = False) -> GameReport:
    """The report of one game of Mind Up! `edition` (what `--edition` names,
    for the games whose logs may leave theirs out) and `check_invariants`
    are taken as every game's verifier takes them, and not read: Mind Up!
    has one edition, and its engine no invariant check of its own."""
    team = Verifier(raw, keep_going, readings, strict=strict)
    rep = team.run()
    if basis and rep.verdict == "violates":
        from ....replay.basis import classify, replayed
        classify(lambda ed, rd_: replayed(Verifier(raw, keep_going, rd_, strict=strict)), team, edition, keep_going,
                 {**(rep.readings or {}), **{k: v for k, v in (readings or {}).items() if k.startswith("mu.")}},
                 rd.READINGS)
    return rep


def consistency(raw: RawGame, readings: dict, rep: GameReport):
    """--which-editions for a game of Mind Up!: its one edition, and the readings it conforms under."""
    from ....replay.basis import consistency as combos
    return combos(lambda ed, rd_: verify_game(raw, ed, False, rd_, basis=False), readings, rep,
                  book=rd.READINGS, editions=("fr",))
