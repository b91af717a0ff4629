"""The full verifier of one recorded game (`Verifier`): every line form the
rules and the accepted forms allow (`decisions`), findings with what the
rules did, per-card diffs and clauses, and with `keep_going` the
resynchronisation after a divergence. `verify.verify_game` sends plain games
through the fast lane first.

This module holds the line loop (the game line, the setup, the end line and
what follows it, the report); decision lines are read by
`verifier_decisions`, state claims by `verifier_claims`, both parts of the
one `Verifier`."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from ....replay.findings import (MALFORMED, NO_REVEALS_NOTE, Finding, GameReport, name_cards, repeated, say_keys_twice,
                                 say_unknown_fields)
from ....replay.limits import decode_line
from ....replay.lines import loose_head
from ....replay.reader import RawGame
from ....replay.twice import given_twice
from ..cards import DEFAULT_SETS, UnknownSet, check_sets, version as cards_version
from ..editions import DEFAULT_EDITION, EDITIONS, UnknownEdition, profile as get_profile
from ..engine import Game, SetupError
from ..engine.outcome import end_clause
from ..readings import UnknownReading, check as check_readings, differing, with_readings
from . import decisions
from . import format as fmt
from .lines import line_error, read_line
from .narrate import faces, names_by_event, rules_events
from .resync import TURN_ACTIONS, seen_turn_line, try_resync
from .verifier_claims import ClaimChecks
from .verifier_decisions import INVARIANT_BROKEN, DecisionChecks, line_json

_encode = msgspec.json.Encoder().encode


class Verifier(DecisionChecks, ClaimChecks):
    """Verifies one game. Construct, then call `run()` for its report. How
    it reads decision lines is `DecisionChecks` (verifier_decisions), state
    claims `ClaimChecks` (verifier_claims)."""

    game_class = Game                   # the fast lane needs no events: QuietGame
    until: int | None = None            # LeanVerifier: the last line whose reading counts
    # What every game starts with and most never change, read from the class
    # until a game sets its own: an instance's dict then holds few enough
    # keys (at most 30) for CPython to share its keys among all verifiers.
    at_line = 0                         # the line of the decision being applied
    on_claim = None                     # called with a state claim's line before it is read (fork.Checkpoints)
    end_line = None                     # the line of the end line, once read
    _index = None                       # line number -> position in raw.lines, built when needed
    g: Game | None = None
    lost = False                        # after a violation, waiting to resynchronise
    ended = False                       # an end line was read
    base_decks = None
    prev = None                         # the last decision applied
    attacker = None                     # who made the last turn action, if it was an attack
    attacked = None                     # the creature of that attack
    # With keep_going (`resync`): the full claim verification
    # may resume at, the last turn action line read, and the rules' own
    # game beside a resumption at a claim that differed from it.
    _resync_claim = None
    _turn_line = None
    _rules_alt = None

    def __init__(self, raw: RawGame, edition: str | None = None, keep_going: bool = False,
                 readings: dict | None = None, *, strict: bool = False, check_invariants: bool = False):
        self.raw = raw
        self.check_invariants = check_invariants   # the engine's own invariants after every decision
        self.reading = raw.first_line   # the line being read (readings.consulted: where a reading is first asked)
        self.edition_override = edition
        self.readings_override = readings or {}
        self.readings: dict[str, str] = {}  # the readings in force (game line, then overrides)
        self.lenient = decisions.Leniency()
        self.keep_going = keep_going
        self.strict = strict            # fields mb-replay/1 does not define are findings, not notes
        self._seen: dict = {}           # signature -> the first finding of each divergence
        self.report = GameReport(file=raw.file, line=raw.first_line, id="?")
        self.since_claim: list = []     # events since the last state claim
        self.cards: dict[int, str] = {}
        self.sets = DEFAULT_SETS           # the card sets of the game line (setup.sets)
        self.order_queue: list[int] = []  # the rest of an order of waiting effects given at once
        # The effects that put cards under a draw pile, kept past the claims that agree (a claim of
        # draw pile sizes cannot see the order) while a card of theirs is still in a draw pile.
        self.under_deck: list = []
        # The lines read in step with the log, each with the line its stretch
        # began at (the game line, or the claim verification resumed at), and
        # the lines a finding was made at: what `basis.classify` compares.
        self.stretch: dict[int, int] = {}
        self.flagged: set[int] = set()
        self._anchor = raw.first_line

    # -- findings ----------------------------------------------------------
    def find(self, code, clauses, line, message, events=None, **kw) -> None:
        """Report a finding. A rules finding carries what the rules did since
        log and rules last agreed (`events`, default: since the last claim
        that agreed). The same divergence again in one game (`signature`)
        only counts the line on its first finding."""
        f = Finding(code, list(dict.fromkeys(clauses)), line, message, **kw)
        self.flagged.add(line)
        shown = None                    # the evolved creatures' faces where the finding stands
        if code not in MALFORMED:
            self.lost = True
            if self.g is not None:
                evs = self.since_claim if events is None else events
                each, shown = names_by_event(self.g, evs, self._claim_faces)
                f.events = rules_events(evs, self.g.table.names, each)
        if repeated(self._seen, f, line):
            return
        if self.cards:
            if shown is None and self.g is not None:
                shown = faces(self.g)
            name_cards(f, {**self.cards, **shown} if shown else self.cards)
        self.report.findings.append(f)

    @property
    def since_claim(self) -> list:
        """The events since the last state claim that agreed (or the deal)."""
        return self._since_claim

    @since_claim.setter
    def since_claim(self, events: list) -> None:
        # Set when log and rules agree: the evolved creatures' faces then,
        # from which the findings name each event's creatures (narrate).
        self._since_claim = events
        g = getattr(self, "g", None)
        self._claim_faces = faces(g) if g is not None else {}

    def options(self) -> list:
        return [d.to_json() for d in self.g.legal_decisions()] if self.g else []

    # -- the game ------------------------------------------------------------
    def run(self) -> GameReport:
        raw = self.raw
        rep = self.report
        if raw.kind == "empty":
            rep.id = raw.file
            self.find("EMPTY_INPUT", [], 0, "the input holds no line")
            return self._finish()
        if raw.kind.startswith("unreadable"):
            rep.id = raw.file
            what = "folder" if raw.kind.startswith("unreadable-folder") else "file"
            self.find("UNREADABLE", [], raw.first_line, f"cannot read the {what}: {raw.kind.split(':', 1)[1]}")
            return self._finish()
        if raw.kind == "orphan":
            rep.id = f"{raw.file}:{raw.first_line}"
            self.find("LINE_OUTSIDE_GAME", [], raw.first_line,
                      f"{len(raw.lines) + raw.more} line(s) before the first game line belong to no game")
            return self._finish()
        if raw.kind == "text":
            rep.id = raw.file
            first = bytes(raw.lines[0][1][:60]).decode("utf-8", "replace")
            self.find("NOT_JSON_LINES", [], raw.first_line,
                      f"the input is not JSON Lines: none of its {len(raw.lines) + raw.more} non-blank line(s) "
                      f"is a JSON object (an mb-replay/1 log holds one JSON object a line); line {raw.first_line} "
                      f"begins {first!r}")
            return self._finish()
        lines = iter(raw.lines)
        lineno, raw_line = next(lines)
        try:
            head, extra = read_line(raw_line)     # a game line (oracle.replay.reader)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            rep.id = loose_head(raw_line).id   # name the game even when its line is broken
            rep.findings.append(line_error(lineno, raw_line, e))
            return self._finish()
        rep.id = head.id
        # A line that is the bytes of what it decodes to gives no key twice
        # (the encoder writes each key once): the game line self-play writes.
        if raw_line != _encode(head):
            twice = given_twice(raw_line, head)
            if twice:
                say_keys_twice(self, twice, lineno)
        if extra:
            say_unknown_fields(self, fmt.FORMAT, "game", extra, lineno)
        if head.impl is not msgspec.UNSET:
            rep.impl = f"{head.impl.name} {head.impl.version}".strip()
        edition = self.edition_override or (head.edition if head.edition is not msgspec.UNSET else None)
        if edition is None:
            edition = DEFAULT_EDITION
            self.report.notes.append(f"line {lineno}: the game line names no edition: verified under "
                                     f"{DEFAULT_EDITION}, the default (--edition chooses another)")
        try:
            prof = get_profile(edition)
        except UnknownEdition:
            self.find("UNKNOWN_EDITION", [], lineno, f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}",
                      log=edition)
            return self._finish()
        rep.edition = prof.edition
        declared = {} if head.readings is msgspec.UNSET else head.readings
        try:
            chosen = check_readings(declared) if declared else {}     # most games declare none
        except UnknownReading as e:
            self.find("BAD_LINE", [], lineno, f"field readings: {e}", log=declared)
            return self._finish()
        chosen.update(self.readings_override)
        self.readings = chosen
        if chosen:
            prof = with_readings(prof, chosen)      # the team's readings: the edition's own profile
        rep.readings = (differing(chosen) or None) if chosen else None
        try:
            self.sets = _checked_sets(tuple(head.sets), cards_version())   # setup.sets
        except UnknownSet as e:
            self.find("UNKNOWN_SET", ["setup.sets"], lineno,
                      f"field sets: {e} (a set declared in a card file needs --cards FILE)", log=head.sets)
            return self._finish()
        return self._read(lines, prof, lineno)

    def _read(self, lines, prof, last_line) -> GameReport:
        """The lines after the game line, in order."""
        rep = self.report
        for lineno, raw_line in lines:
            last_line = self.reading = lineno
            try:
                line = decode_line(fmt.decoder, raw_line)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                rep.findings.append(line_error(lineno, raw_line, e))
                return self._finish()
            t = line.__struct_config__.tag
            if t == "state" and self.on_claim is not None:
                self.on_claim(lineno)
            twice = given_twice(raw_line, line)
            if twice:
                say_keys_twice(self, twice, lineno)
            if t == "note":
                continue
            if self.until is not None and lineno > self.until and self.report.findings:
                return self._finish()       # a LeanVerifier: the lines after `until` do not count
            if not self.lost:
                self.stretch[lineno] = self._anchor
            if t in fmt.KNOWN_FIELDS:
                extra = fmt.unknown_fields(t, raw_line)
                if extra:
                    say_unknown_fields(self, fmt.FORMAT, t, extra, lineno)
            if self.g is None:
                if t != "setup":
                    self.find("MISSING_SETUP", [], lineno, f"a setup line must follow the game line, not a {t!r} line")
                    return self._finish()
                if not self._setup(line, lineno, prof):
                    return self._finish()
                continue
            if t == "setup":
                self.find("BAD_LINE", [], lineno, "a second setup line in one game")
                return self._finish()
            if t == "game":
                self.find("BAD_LINE", [], lineno, "a game line inside a game")
                return self._finish()
            if not self._check_refs(line, lineno):
                return self._finish()
            if self.end_line is not None and t != "state" and not self._after_end(line, t, lineno):
                return self._finish()
            if self.lost:
                self._try_resync(line, lineno)
            elif t == "state":
                self._claim(line, lineno)
            elif t == "end":
                self._end(line, lineno)
            else:
                self._decision(line, t, lineno)
            if t in TURN_ACTIONS or t == "mindbug":
                seen_turn_line(self, line, t)
            if self.lost and not self.keep_going:
                return self._finish()
        if not self.ended and not self.lost:
            self.find("MISSING_END", [], last_line, "the game has no end line (a truncated log?)")
        return self._finish()

    def _after_end(self, line, t, lineno) -> bool:
        """A line after the end line: a state claim is still compared with the
        final position; a second end line or a decision is reported, and the
        game is not read further. Returns whether to go on."""
        if t == "end":
            msg = f"a second end line: the game already ended at line {self.end_line}"
        elif self.report.aborted:
            msg = (f"the implementation stopped the game at line {self.end_line} (aborted), "
                   f"yet the log goes on with '{t}'")
        else:
            msg = f"the game ended at line {self.end_line}, yet the log goes on with '{t}'"
        self.find("LINE_AFTER_END", [end_clause(self.g.reason)]
                  if self.g.is_over else [], lineno, msg, log=line_json(line))
        return False

    def _finish(self) -> GameReport:
        rep = self.report
        if not self.ended:          # verification stopped before the end line, at the deal or later
            rep.aborted = self.raw.ends_aborted(fmt.decoder)
        if any(f.code == INVARIANT_BROKEN for f in rep.findings):
            rep.verdict = "error"       # the rules engine itself broke: the game is not verified
        elif any(f.malformed for f in rep.findings):
            rep.verdict = "malformed"
        elif rep.findings:
            rep.verdict = "violates"
        g = self.g
        if g is not None and g.is_over:
            rep.result = {"winner": g.winner, "reason": g.reason}
        return rep

    # -- setup -------------------------------------------------------------
    def _setup(self, line, lineno, prof) -> bool:
        self.cards = line.cards
        reveals = [] if line.reveals is msgspec.UNSET else line.reveals
        first = None if line.first is msgspec.UNSET else line.first
        if first is None and not reveals:
            self.find("BAD_LINE", ["setup.first-player"], lineno, "field first: the setup names no starting player and no reveals")
            return False
        if first is not None and not reveals:
            self.report.notes.append(NO_REVEALS_NOTE)
        life_cards = None if line.life_cards is msgspec.UNSET else line.life_cards
        if life_cards is not None and not prof.life_cards:
            self.report.notes.append(f"line {lineno}: field life_cards is not read: the {prof.edition} edition counts "
                                     "life, it takes no life cards from the unused pile (life.cards)")
        # With keep_going, a deal that breaks the setup rules but leaves a game
        # to play is reported and then played as given: the rest of the game is
        # still checked.
        faults: list | None = [] if self.keep_going else None
        try:
            self.g = self.game_class.deal(prof, line.cards, line.decks, line.unused, first, reveals, life_cards,
                               tolerate=faults, sets=self.sets,
                               set_aside=None if line.set_aside is msgspec.UNSET else line.set_aside)
        except SetupError as e:
            for kept in faults or ():
                self._setup_fault(kept, lineno)     # found before the fault that leaves no game
            if e.code == "UNKNOWN_CARD":
                self.find("UNKNOWN_CARD", [e.clause], lineno, f"field cards.{e.details['card']}: {e.message}",
                          log=e.details["name"])
                return False
            self._setup_fault(e, lineno)
            return False
        for e in faults or ():
            self._setup_fault(e, lineno)
        if faults:
            self.lost = False
            self.report.notes.append(f"line {lineno}: the deal breaks the setup rules; the game is played "
                                     "as dealt (--keep-going)")
        self._dealt(line)
        return True

    def _dealt(self, line) -> None:
        """What a verifier keeps of a deal it made: the draw piles as dealt
        (resync), and the deal's events, which a finding shows."""
        self.base_decks = [list(d[5:]) for d in line.decks]
        self.since_claim = list(self.g.events)

    def _setup_fault(self, e: SetupError, lineno: int) -> None:
        code = "WRONG_FIRST_PLAYER" if e.code == "WRONG_FIRST_PLAYER" else "BAD_SETUP"
        self.find(code, [e.clause], lineno, e.message, log=e.details.get("actual"),
                  rules=e.details.get("expected"))

    def _check_refs(self, line, lineno) -> bool:
        """Card ids of a decision must be cards of the setup (players are 0 or 1
        by the line's own type: `format`)."""
        tag = line.__struct_config__.tag
        if tag in ("state", "end"):
            return True
        cards = self.cards
        if tag in ("choose", "random"):
            refs = line.cards
        else:
            c = getattr(line, "card", None)
            refs = () if c is None else (c,)
        for cid in refs:
            if cid not in cards:
                self.find("BAD_REFERENCE", [], lineno, f"card id {cid} is not among the cards of the setup line",
                          log=cid)
                return False
        return True

    def _mark_end(self, line, lineno) -> None:
        self.ended = True
        self.end_line = lineno
        if line.reason == "aborted":
            self.report.aborted = True

    def _end(self, line, lineno) -> None:
        g = self.g
        self._mark_end(line, lineno)
        while not g.is_over and (step := decisions.one_outcome(g)) is not None:
            self._apply(*step)
        claimed = {"winner": line.winner, "reason": line.reason}
        if line.reason == "aborted":
            detail = "" if line.detail is msgspec.UNSET else f": {line.detail}"
            self.report.notes.append(f"the implementation stopped the game before its end{detail}")
            if g.is_over:
                self.find("WRONG_RESULT", [end_clause(g.reason)], lineno,
                          f"the log says the game was stopped, but the rules ended it: player {g.winner} won ({g.reason})",
                          log=claimed, rules={"winner": g.winner, "reason": g.reason})
            return
        if not g.is_over:
            clause = end_clause(line.reason)
            self.find("WRONG_RESULT", [clause], lineno,
                      f"the log says player {line.winner} won ({line.reason}), but the game goes on: "
                      f"{g.pending.prompt} (player {g.pending.player})",
                      log=claimed, rules={"winner": None, "pending": g.pending.stage, "player": g.pending.player},
                      options=self.options())
            return
        rules = {"winner": g.winner, "reason": g.reason}
        if rules != claimed:
            clause = end_clause(g.reason)
            self.find("WRONG_RESULT", [clause], lineno,
                      f"the log says player {line.winner} won ({line.reason}); the rules say player {g.winner} ({g.reason})",
                      log=claimed, rules=rules)

    # -- keep going ----------------------------------------------------------
    def _try_resync(self, line, lineno) -> None:
        """After a violation: resume at a full state claim where the rules
        can go on from it (resync.try_resync)."""
        try_resync(self, line, lineno)


class LeanVerifier(Verifier):
    """A replay under another reading, with keep_going, for basis.classify:
    only the lines it reads in step and the lines of its findings count, so
    a finding carries no detail (no diff, no events, no card names). It
    stops after line `until` once it has found something (it can no longer
    conform)."""

    def __init__(self, *args, until: int | None = None, **kw):
        super().__init__(*args, **kw)
        self.until = until

    def find(self, code, clauses, line, message, events=None, **kw) -> None:
        self.flagged.add(line)
        if code not in MALFORMED:
            self.lost = True
        self.report.findings.append(Finding(code, [], line, ""))

    def _mismatch(self, line, lineno, g, events, diff) -> None:
        self.find("STATE_MISMATCH", [], lineno, "")

    @staticmethod
    def _claim_diff(g, line, card_diff) -> list:
        """Only whether the claim differs: a life or Mindbug count that
        differs says so without the cards' diff."""
        s = g.state
        if any(v is not msgspec.UNSET and v != list(mine) for v, mine in ((line.life, s.life),
                                                                           (line.mindbugs, s.mindbugs))):
            return [None]
        return card_diff(g, line)


@lru_cache(maxsize=64)
def _checked_sets(names: tuple, db_version: int) -> tuple:
    """`check_sets` of a game line's sets, kept while the card database stays
    as it is (`db_version`); an unknown set raises every time."""
    return check_sets(names)
