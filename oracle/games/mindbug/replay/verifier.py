"""The full verifier of one recorded game (`Verifier`): every line form the
rules and the accepted forms allow (oracle.games.mindbug.replay.decisions), findings with
what the rules did, per-card diffs and clauses, and with `keep_going` the
resynchronisation after a divergence. `verify.verify_game` sends plain games
through the fast lane first."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from ....replay.findings import (DUPLICATE_KEYS_NOTE, MALFORMED, NO_REVEALS_NOTE, UNKNOWN_FIELDS_NOTE, Finding,  # noqa: F401
                                 GameReport, Summary, name_cards, report_schema, signature)
from ....replay.limits import decode_line
from ....replay.lines import loose_head
from ....replay.reader import RawGame
from ....replay.twice import given_twice
from ..cards import DEFAULT_SETS, UnknownSet, check_sets, version as cards_version
from ..editions import DEFAULT_EDITION, EDITIONS, UnknownEdition, profile as get_profile
from ..engine import Decision, Game, SetupError
from ..engine.explain import taken_fast
from ..engine.outcome import end_clause
from ..engine.state import STAGE_KINDS, decision_words
from ..readings import UnknownReading, check as check_readings, differing, with_readings
from . import decisions
from . import format as fmt
from .attribution import attribute, buried, choice_clauses, skip_explains
from .claims import claim_matches, claim_views, is_full_claim
from .lines import line_error, read_line
from .narrate import faces, names_by_event, rules_events, waiting_text
from .resync import TURN_ACTIONS, follow_rules, rules_agree, seen_turn_line, try_resync

# --check-invariants: the rules engine broke one of its own invariants (an `error` verdict).
INVARIANT_BROKEN = "INVARIANT_BROKEN"



# What declines the decision the rules wait for, when a log writes 'pass' there.
PASS_HINTS = {"block": ": a block is declined with 'block null'",
              "hunt": ": HUNTER is declined with 'hunt null'",
              "choose": ": an 'up to' choice is declined with 'choose []'"}

class Verifier:
    """Verifies one game. Construct, then call `run()` for its report."""

    game_class = Game                   # the fast lane needs no events: QuietGame
    until: int | None = None            # LeanVerifier: the last line whose reading counts

    def __init__(self, raw: RawGame, edition: str | None = None, keep_going: bool = False,
                 readings: dict | None = None, *, strict: bool = False, check_invariants: bool = False):
        self.raw = raw
        self.check_invariants = check_invariants   # the engine's own invariants after every decision
        self.at_line = 0                # the line of the decision being applied
        self.reading = raw.first_line   # the line being read (readings.consulted: where a reading is first asked)
        self.on_claim = None            # called with a state claim's line before it is read (fork.Checkpoints)
        self.edition_override = edition
        self.readings_override = readings or {}
        self.readings: dict[str, str] = {}  # the readings in force (game line, then overrides)
        self.lenient = decisions.Leniency()
        self.keep_going = keep_going
        self.strict = strict            # fields mb-replay/1 does not define are findings, not notes
        self.end_line = None            # the line of the end line, once read
        self._seen: dict = {}           # signature -> the first finding of each divergence
        self._index = None              # line number -> position in raw.lines, built when needed
        self.report = GameReport(file=raw.file, line=raw.first_line, id="?")
        self.g: Game | None = None
        self.since_claim: list = []     # events since the last state claim
        self.lost = False               # after a violation, waiting to resynchronise
        self.ended = False              # an end line was read
        self.base_decks = None
        self.cards: dict[int, str] = {}
        self.sets = DEFAULT_SETS           # the card sets of the game line (setup.sets)
        self.prev = None                # the last decision applied
        self.attacker = None            # who made the last turn action, if it was an attack
        self.attacked = None            # the creature of that attack
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
        # With keep_going (oracle.games.mindbug.replay.resync): the full claim verification
        # may resume at, the last turn action line read, and the rules' own
        # game beside a resumption at a claim that differed from it.
        self._resync_claim = None
        self._turn_line = None
        self._rules_alt = None

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
        sig = signature(f)
        first = self._seen.get(sig)
        if first is not None:
            first.count += 1
            first.lines = (first.lines or [first.line]) + [line]
            return
        self._seen[sig] = f
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
        twice = given_twice(raw_line, head)
        if twice:
            self._given_twice(twice, lineno)
        if extra:
            self._unknown_fields("game", extra, lineno)
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
            chosen = check_readings(declared)
        except UnknownReading as e:
            self.find("BAD_LINE", [], lineno, f"field readings: {e}", log=declared)
            return self._finish()
        chosen.update(self.readings_override)
        self.readings = chosen
        prof = with_readings(prof, chosen)
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
                self._given_twice(twice, lineno)
            if t == "note":
                continue
            if self.until is not None and lineno > self.until and self.report.findings:
                return self._finish()       # a LeanVerifier: the lines after `until` do not count
            if not self.lost:
                self.stretch[lineno] = self._anchor
            if t in fmt.KNOWN_FIELDS:
                extra = fmt.unknown_fields(t, raw_line)
                if extra:
                    self._unknown_fields(t, extra, lineno)
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

    def _unknown_fields(self, t, extra, lineno) -> None:
        """Fields of a game, setup, state or end line that mb-replay/1 does not
        define: a note, or with `strict` a finding (a misspelt claim field
        would otherwise go unchecked)."""
        if self.strict:
            lost = self.lost
            self.find("UNKNOWN_FIELD", [], lineno,
                      f"fields not in {fmt.FORMAT} on a {t!r} line: {', '.join(extra)} (--strict)", log=extra)
            self.lost = lost
        else:
            self.report.notes.append(f"line {lineno}: {UNKNOWN_FIELDS_NOTE}{fmt.FORMAT}, ignored: {', '.join(extra)}")

    def _given_twice(self, keys, lineno) -> None:
        """Keys a line gives twice in one object: the decoder took the last
        value of each; a note, or with `strict` a finding."""
        said = f"{DUPLICATE_KEYS_NOTE}, the last value taken: {', '.join(keys)}"
        if self.strict:
            lost = self.lost
            self.find("DUPLICATE_KEY", [], lineno, f"{said} (--strict)", log=keys)
            self.lost = lost
        else:
            self.report.notes.append(f"line {lineno}: {said}")

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
        self.base_decks = [list(d[5:]) for d in line.decks]
        self.since_claim = list(self.g.events)
        return True

    def _setup_fault(self, e: SetupError, lineno: int) -> None:
        code = "WRONG_FIRST_PLAYER" if e.code == "WRONG_FIRST_PLAYER" else "BAD_SETUP"
        self.find(code, [e.clause], lineno, e.message, log=e.details.get("actual"),
                  rules=e.details.get("expected"))

    def _check_refs(self, line, lineno) -> bool:
        """Card ids of a decision must be cards of the setup (players are 0 or 1
        by the line's own type: oracle.games.mindbug.replay.format)."""
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

    # -- decisions -----------------------------------------------------------
    def _decision(self, line, t, lineno) -> None:
        self.at_line = lineno
        g = self.g
        arg = fmt.decision_arg(line)
        player = getattr(line, "p", None)
        skipped_before = len(self.lenient.skipped)
        forced_before = len(self.lenient.forced)
        while True:
            pend = g.pending
            # A line is first a legal answer to the pending decision, if it is
            # one; else an empty answer to a choice the rules skipped, or a
            # forced step the rules already took, written late.
            if not (pend is not None and (t, arg) in pend.options and (pend.is_chance or pend.player == player)) \
                    and decisions.already_taken(self, t, player, arg, lineno):
                return
            if pend is None:
                self.find("GAME_OVER", [end_clause(g.reason)], lineno,
                          f"the game ended before this line: player {g.winner} won ({g.reason})",
                          log=line_json(line), rules={"winner": g.winner, "reason": g.reason})
                return
            right_kind = t in STAGE_KINDS[pend.stage] and pend.is_chance == (t == "random")
            if right_kind and (pend.is_chance or pend.player == player):
                if (t, arg) not in pend.options:
                    step = decisions.one_outcome(g)
                    if step is not None and decisions.after_forced(g, t, player, arg):
                        decisions.left_out(self, step, lineno)
                        continue
                break
            if decisions.answer_declined(self):
                continue                        # a decline the log wrote before the rules asked
            step = decisions.one_outcome(g)
            if step is not None:
                if t in decisions.DECLINES and not decisions.reaches(g, t, player) \
                        and self._harmless_decline(t, player, arg, lineno):
                    return                      # a decline written before a forced step
                decisions.left_out(self, step, lineno)    # a forced step the log left out
                continue
            if right_kind or t == "mindbug":
                break                           # refused below, with the clause that forbids it
            clauses = list(pend.clauses)
            if t == "hunt" and g.state.combat is not None and pend.stage in ("choose", "order", "random"):
                clauses.insert(0, "effects.hunter-order")
            if decisions.forced_block(self, t, player, arg, lineno):
                return
            if t == "block" and self.prev is not None and self.prev[0] == "hunt" and self.prev[1] is not None:
                named = f"{faces(g).get(self.prev[1]) or self.cards.get(self.prev[1], 'card')} ({self.prev[1]})"
                msg = (f"HUNTER named {named} as the blocker: the defender has no block decision"
                       if player != self.attacker else
                       f"player {player} attacked: only the defender blocks, and HUNTER already named {named}")
                self.find("ILLEGAL_DECISION", ["keywords.hunter"], lineno, msg,
                          log=line_json(line), rules={"blocker": self.prev[1]}, options=self.options())
                return
            if self._harmless_decline(t, player, arg, lineno):
                return
            if t == "pass":
                code, msg = "ILLEGAL_DECISION", "nothing here can be declined with 'pass'" + PASS_HINTS.get(pend.stage, "")
                if pend.stage == "action" and player != pend.player:
                    # A decline of the other player: of a FAST creature they took with
                    # a Mindbug (keywords.fast.mindbugged), else of a FRENZY second attack.
                    clauses.insert(0, "keywords.fast.mindbugged" if taken_fast(g, player) else "keywords.frenzy")
            else:
                code, msg = "MISSING_DECISION", f"the log goes on with '{t}'"
                if pend.stage == "hunt" and self.lenient.declined == ("frenzy", pend.player):
                    msg += " (the 'pass' it wrote in this attack declines a FRENZY second attack, not HUNTER: " \
                           "HUNTER is declined with 'hunt null')"
            what = "a random outcome" if pend.is_chance else decision_words(pend.stage, pend.player)
            self.find(code, clauses, lineno, f"the rules ask for {what} here ({pend.prompt}); {msg}",
                      log=line_json(line), rules={"stage": pend.stage, "player": pend.player},
                      options=self.options())
            return
        pend = g.pending
        if pend.stage == "order" and len(line.cards) > 1 and player == pend.player \
                and sorted(line.cards) == sorted(a[0] for _, a in pend.options):
            # The whole order of the waiting effects at once: the first now,
            # the others each time the rules ask again.
            self.order_queue = list(line.cards[1:])
            arg = (line.cards[0],)
        d = Decision(t, None if t == "random" else player, arg)
        r = g.refusal(d)
        if r is not None:
            clauses = buried(g, self.under_deck, arg) + [r.clause]
            if self._other_frenzy_copy(t, player, arg):
                clauses.insert(0, "keywords.frenzy")
            self.find(r.code, clauses, lineno,
                      r.message + (f" ({r.card})" if r.card and r.card not in r.message else ""),
                      log=line_json(line), options=[o.to_json() for o in r.options])
            return
        # Empty answers the log may still write are those of the choices the
        # rules skipped since the previous decision line (an empty answer
        # applied here may stand for either, so it keeps them).
        if arg != ():
            del self.lenient.skipped[:skipped_before]
        del self.lenient.forced[:forced_before]
        if t in ("play", "attack") and pend.stage == "action":
            self.lenient.declined = None
        elif self.lenient.declined is not None and pend.stage == self.lenient.declined[0]:
            self.lenient.declined = None        # the log answered itself
        self._apply(t, arg)
        self.report.decisions += 1

    def _other_frenzy_copy(self, t, player, arg) -> bool:
        """An attack the rules refuse by the player who attacked last, with
        the FRENZY creature that attacked or another copy of it (keywords.frenzy:
        only the creature that attacked may attack again, and only once)."""
        from ..cards import FRENZY

        g, last = self.g, self.attacked
        if t != "attack" or player != self.attacker or last is None or arg not in g.table.defs \
                or last not in g.table.defs or arg not in g.state.play[player] or not g.has(arg, FRENZY):
            return False
        # The same creature once more: FRENZY gives one second attack, no third.
        return arg == last or g.name(arg) == g.name(last)

    def _harmless_decline(self, t, player, arg, lineno) -> bool:
        """A decline the rules do not ask for here (decisions.harmless_decline)."""
        return decisions.harmless_decline(self, t, player, arg, lineno)

    def _under_deck(self, events) -> None:
        if any(e.kind == "unused-to-deck" for e in events):
            decks = self.g.state.deck
            self.under_deck = [e for e in self.under_deck + [e for e in events if e.kind == "unused-to-deck"]
                               if any(c in decks[0] or c in decks[1] for c in e.cards)]

    def _apply(self, kind, arg) -> None:
        """Apply one decision, then any decline the log wrote before the rules asked for it."""
        self._step(kind, arg)
        if self.lenient.declined is not None:
            decisions.answer_declined(self)

    def _step(self, kind, arg) -> None:
        """Apply one decision (and the rest of an order given at once)."""
        if kind in ("play", "attack"):
            self.attacker = self.g.pending.player if kind == "attack" else None
            self.attacked = arg if kind == "attack" else None
        self.prev = (kind, arg)
        chosen = arg[0] if self.g.pending.stage == "order" else None
        events = self.g.apply_unchecked(kind, arg)
        self.since_claim.extend(events)
        self.lenient.saw(events, chosen)
        self._under_deck(events)
        if self._rules_alt is not None:
            follow_rules(self, kind, arg)
        g = self.g
        if self.order_queue:
            waiting = {w[0] for w in g.state.triggers}
            self.order_queue = [c for c in self.order_queue if c in waiting]
        while self.order_queue and g.pending is not None and g.pending.stage == "order":
            nxt = (self.order_queue.pop(0),)
            if ("choose", nxt) not in g.pending.options:
                self.order_queue = []
                break
            events = g.apply_unchecked("choose", nxt)
            self.since_claim.extend(events)
            self.lenient.saw(events, nxt[0])
            self._under_deck(events)
        if self.check_invariants:
            self._invariants()

    def _invariants(self) -> None:
        """--check-invariants: the engine's own invariants hold after the
        decision just applied; a broken one is the rules engine's fault, never
        the log's (INVARIANT_BROKEN, reported once)."""
        from ..engine.invariants import violations

        broken = violations(self.g)
        if broken and not any(f.code == INVARIANT_BROKEN for f in self.report.findings):
            self.find(INVARIANT_BROKEN, [], self.at_line,
                      "the rules engine broke its own invariants after this line (a fault of the oracle, not of "
                      "the log): " + "; ".join(broken))

    # -- claims --------------------------------------------------------------
    def _claim(self, line, lineno) -> None:
        g = self.g
        if claim_matches(g, line) or self._agrees(g, line):
            self.since_claim = []
            self._rules_alt = None
            return
        # A claim may be written before or after forced steps (a decision or
        # random outcome with one option): it agrees if it matches at any of
        # these points, and it is reported at the point where it differs least,
        # so that a claim written after a forced step shows only its own mistake.
        points = [(g, [], [])]
        probe = g.copy()
        extra: list = []
        steps: list = []
        while (step := decisions.one_outcome(probe)) is not None:
            pend = probe.pending
            steps.append((step, None if pend.is_chance else pend.player, lineno))
            extra = extra + probe.apply_unchecked(*step)
            if self._agrees(probe, line):
                decisions.claimed_after_forced(self, probe, extra, steps)
                return
            points.append((probe.copy(), list(extra), list(steps)))
        from .diff import card_diff     # only a claim that differs needs it

        # Of equals, the earliest; but when the log's next decision goes past
        # the forced steps without writing them, it wrote the claim after them:
        # the latest.
        later = len(points) > 1 and self._next_after(g, lineno) == "passes"
        best, best_diff, best_extra = None, None, None
        for point, events, taken in points:
            d = self._claim_diff(point, line, card_diff)
            if not d:
                # Agrees card by card (a play area that claims sub-fields for
                # some creatures only).
                decisions.claimed_after_forced(self, point, events, taken)
                return
            if best_diff is None or len(d) < len(best_diff) or (later and len(d) == len(best_diff)):
                best, best_diff, best_extra = point, d, events
        if rules_agree(self, line, lineno):
            return
        self._mismatch(line, lineno, best, self.since_claim + best_extra, best_diff)
        if self.keep_going and is_full_claim(line):
            self._resync_claim = (line, lineno, best)     # verification may resume at the claim that differs

    @staticmethod
    def _claim_diff(g, line, card_diff) -> list:
        """How the claim `line` differs from the rules' state in `g`, card by card."""
        return card_diff(g, line)

    @staticmethod
    def _agrees(g, line) -> bool:
        """The quick test: the claimed fields as sets and counts."""
        rules, log = claim_views(g, line)
        return rules == log

    def _mismatch(self, line, lineno, g, events, diff) -> None:
        """Report a claim that differs from the rules' state in `g` (`diff`:
        card_diff's entries), with what the rules did (`events`) since log
        and rules last agreed."""
        from .diff import listed, readable

        rules, log = claim_views(g, line)
        fields = [k for k in rules if rules[k] != log.get(k)] or \
            list(dict.fromkeys((e.field or "").split("[")[0] for e in diff if e.field)) or list(rules)
        clauses = attribute(g, events, diff, self.under_deck)
        rules, log = readable(rules), readable(log)
        what = f"the state claimed differs from the rules ({', '.join(fields)}): {diff[0].text}" + \
            (f" (and {len(diff) - 1} more)" if len(diff) > 1 else "")
        waiting = waiting_text(g)
        nxt = self._next_after(g, lineno) if waiting is not None and len(g.pending.options) > 1 else "answers"
        if nxt != "answers":
            what = f"the rules are waiting for {waiting}, which the log skips; {what}"
        if nxt == "passes" or nxt == "result" and skip_explains(g, line, len(diff)):
            # A later decision goes past the choice, or the log ends the game past it with a
            # state one of its answers comes nearer to: the state differs because it was skipped.
            clauses = list(dict.fromkeys(choice_clauses(g) + clauses))
        self.find("STATE_MISMATCH", clauses, lineno, what,
                  events=events, log={k: log.get(k) for k in fields}, rules={k: rules.get(k) for k in fields},
                  options=[d.to_json() for d in g.legal_decisions()], diff=listed(diff))

    def _next_after(self, g, lineno) -> str:
        """What the log does after line `lineno` about the decision the rules
        wait for in `g`: "answers" it with its next decision (or stops there,
        aborted), "passes" it with a decision of another kind, gives a
        "result" on its end line, or "ends" (a line that cannot be read, or
        nothing more)."""
        pend = g.pending
        if self._index is None:
            self._index = {n: i for i, (n, _) in enumerate(self.raw.lines)}
        for _, raw_line in self.raw.lines[self._index.get(lineno, len(self.raw.lines)) + 1:]:
            try:
                line = decode_line(fmt.decoder, raw_line)     # within the limits, whatever the line holds
            except (msgspec.DecodeError, msgspec.ValidationError):
                return "ends"
            t = line.__struct_config__.tag
            if t in ("state", "note"):
                continue
            if t == "end":                      # aborted: the log stops here, it skips nothing
                return "answers" if line.reason == "aborted" else "result"
            if t not in fmt.DECISION_TYPES:
                return "ends"
            if t in STAGE_KINDS[pend.stage] and (pend.is_chance or getattr(line, "p", None) == pend.player):
                return "answers"
            return "passes"
        return "ends"

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


def line_json(line) -> dict:
    return msgspec.to_builtins(line)
