"""Verifying one recorded game against the rules.

The log's inputs (the deal, every decision, every random outcome) drive the
reference engine; its claims (state lines, the end line) are compared with
what the engine says. The first divergence is reported with the clause, the
line, the legal options and, for state claims, a structural diff. With
`keep_going`, verification resumes at the next full state claim before a
turn action, so one run reports every divergence of a game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from ..cards import HUNTER, KEYWORD_NAMES, UnknownCard, lookup
from ..editions import EDITIONS, UnknownEdition, profile as get_profile
from ..engine import Decision, Game, SetupError
from ..engine.state import STAGE_KINDS
from . import format as fmt
from .reader import RawGame

# Codes that make a game malformed (the log cannot be read as a game), as
# opposed to codes that say the game broke the rules.
MALFORMED = {
    "BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", "BAD_VERSION", "UNKNOWN_CARD", "UNKNOWN_EDITION",
    "UNSUPPORTED_SET", "MISSING_SETUP", "LINE_OUTSIDE_GAME", "MISSING_END", "EMPTY_INPUT",
    "BAD_REFERENCE", "UNREADABLE",
}

# The fields of a state claim each kind of event changes (for naming the
# clause behind a mismatch).
EVENT_FIELDS = {
    "draw": ("hand", "deck"), "gain-life": ("life",), "lose-life": ("life",), "no-gain": ("life",),
    "mindbug": ("mindbugs", "play", "played"), "play": ("hand", "played"),
    "enter-play": ("play", "played"), "defeat": ("play", "discard"), "exhaust": ("play",),
    "discard": ("hand", "discard"), "steal": ("hand",), "take-control": ("play",),
    "return-to-hand": ("hand", "discard"), "turn": ("active", "turn"), "end-turn": ("active", "turn"),
}
FIELD_FALLBACK = {
    "life": ("life.lose", "life.gain"), "mindbugs": ("mindbug.use",), "hand": ("drawing.refill",),
    "deck": ("drawing.refill",), "play": ("turns.action",), "discard": ("combat.to-discard",),
    "played": ("play.from-hand",), "active": ("turns.alternate",), "turn": ("turns.alternate",),
    "unused": ("setup.deal",),
}
# Events whose absence of effect can explain any field (a Play effect that
# did not happen, an attack that ended early).
BROAD_EVENTS = {"play-effect-prevented", "attack-ends", "no-effect"}


class Finding(msgspec.Struct, omit_defaults=True):
    code: str
    clauses: list[str]
    line: int
    message: str
    log: Any = None
    rules: Any = None
    options: list = msgspec.field(default_factory=list)
    diff: Any = None
    cards: dict[int, str] = msgspec.field(default_factory=dict)  # names of the card ids mentioned
    expected: bool = False

    @property
    def malformed(self) -> bool:
        return self.code in MALFORMED


class GameReport(msgspec.Struct):
    file: str
    line: int
    id: str
    verdict: str = "conforms"  # conforms | violates | malformed | error (not verified: the verifier failed)
    edition: str | None = None
    impl: str | None = None
    decisions: int = 0
    findings: list[Finding] = msgspec.field(default_factory=list)
    result: dict | None = None      # the rules' result: winner and reason, if the game ended
    notes: list[str] = msgspec.field(default_factory=list)
    outcome: str | None = None      # pass | fail | xfail | xpass | malformed (set with expectations)
    conforms_to: list[str] | None = None  # with --which-editions: the editions the game conforms to


def _line_error(lineno: int, raw: bytes, exc: Exception) -> Finding:
    text = str(exc)
    if not isinstance(exc, msgspec.ValidationError):
        hint = " (the line is cut short: a truncated file?)" if "truncated" in text else ""
        return Finding("BAD_JSON", [], lineno, f"not valid JSON: {text}{hint}",
                       log=raw[:200].decode("utf-8", "replace"))
    if "at `$.t`" in text:
        return Finding("UNKNOWN_LINE_TYPE", [], lineno,
                       f"unknown line type; expected one of {', '.join(fmt.LINE_TYPES)}",
                       log=raw[:200].decode("utf-8", "replace"))
    field = ""
    if " - at `$." in text:
        field = text.rsplit(" - at `$.", 1)[1].rstrip("`")
    elif "field `" in text:
        field = text.split("field `", 1)[1].split("`", 1)[0]
    return Finding("BAD_LINE", [], lineno, f"field {field or '?'}: {text}",
                   log=raw[:200].decode("utf-8", "replace"))


class Verifier:
    """Verifies one game. Construct, then call `run()` for its report."""

    def __init__(self, raw: RawGame, edition: str | None = None, keep_going: bool = False):
        self.raw = raw
        self.edition_override = edition
        self.keep_going = keep_going
        self.report = GameReport(file=raw.file, line=raw.first_line, id="?")
        self.g: Game | None = None
        self.since_claim: list = []     # events since the last state claim
        self.lost = False               # after a violation, waiting to resynchronise
        self.ended = False              # an end line was read
        self.base_decks = None
        self.cards: dict[int, str] = {}
        self.prev = None                # the last decision applied
        self.attacker = None            # who made the last turn action, if it was an attack
        self.order_queue: list[int] = []  # the rest of an order of waiting effects given at once
        self._resync_claim = None       # with keep_going: the last full claim seen while lost

    # -- findings ----------------------------------------------------------
    def find(self, code, clauses, line, message, **kw) -> None:
        f = Finding(code, list(dict.fromkeys(clauses)), line, message, **kw)
        if self.cards:
            ids: set[int] = set()
            _card_ids((f.log, f.rules, f.options), ids)
            f.cards = {c: self.cards[c] for c in sorted(ids) if c in self.cards}
        self.report.findings.append(f)
        if code not in MALFORMED:
            self.lost = True

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
            self.find("UNREADABLE", [], 0, f"cannot read the file: {raw.kind.split(':', 1)[1]}")
            return self._finish()
        if raw.kind == "orphan":
            rep.id = f"{raw.file}:{raw.first_line}"
            self.find("LINE_OUTSIDE_GAME", [], raw.first_line,
                      f"{len(raw.lines)} line(s) before the first game line belong to no game")
            return self._finish()
        lines = iter(raw.lines)
        lineno, raw_line = next(lines)
        try:
            head = fmt.decoder.decode(raw_line)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            rep.findings.append(_line_error(lineno, raw_line, e))
            return self._finish()
        rep.id = head.id
        if head.impl is not msgspec.UNSET:
            rep.impl = f"{head.impl.name} {head.impl.version}".strip()
        if head.format != fmt.FORMAT:
            self.find("BAD_VERSION", [], lineno, f"format {head.format!r} is not supported; this oracle reads {fmt.FORMAT}",
                      log=head.format, rules=fmt.FORMAT)
            return self._finish()
        edition = self.edition_override or (head.edition if head.edition is not msgspec.UNSET else None)
        if edition is None:
            self.find("UNKNOWN_EDITION", [], lineno, "the game line names no edition; give one with --edition")
            return self._finish()
        try:
            prof = get_profile(edition)
        except UnknownEdition:
            self.find("UNKNOWN_EDITION", [], lineno, f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}",
                      log=edition)
            return self._finish()
        rep.edition = prof.edition
        if head.sets != ["first-contact"]:
            self.find("UNSUPPORTED_SET", [], lineno, f"card sets {head.sets} are not supported; only first-contact",
                      log=head.sets)
            return self._finish()
        last_line = lineno
        for lineno, raw_line in lines:
            last_line = lineno
            try:
                line = fmt.decoder.decode(raw_line)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                rep.findings.append(_line_error(lineno, raw_line, e))
                return self._finish()
            t = line.__struct_config__.tag
            if t == "note":
                continue
            if t in fmt.KNOWN_FIELDS:
                extra = fmt.unknown_fields(t, raw_line)
                if extra:
                    rep.notes.append(f"line {lineno}: fields not in {fmt.FORMAT}, ignored: {', '.join(extra)}")
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
            if self.lost:
                self._try_resync(line, lineno)
                continue
            if t == "state":
                self._claim(line, lineno)
            elif t == "end":
                self._end(line, lineno)
            else:
                self._decision(line, t, lineno)
            if self.lost and not self.keep_going:
                return self._finish()
        if not self.ended and not self.lost:
            self.find("MISSING_END", [], last_line, "the game has no end line (a truncated log?)")
        return self._finish()

    def _finish(self) -> GameReport:
        rep = self.report
        if any(f.malformed for f in rep.findings):
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
            self.report.notes.append("starting player given without reveals: the reveal rule is not checked")
        for pair in reveals:
            if len(pair) != 2:
                self.find("BAD_LINE", ["setup.first-player"], lineno, "field reveals: each reveal is a pair of card ids")
                return False
        if len(line.decks) != 2:
            self.find("BAD_LINE", ["setup.deal"], lineno, "field decks: two draw piles expected")
            return False
        life_cards = None if line.life_cards is msgspec.UNSET else line.life_cards
        try:
            self.g = Game.deal(prof.edition, line.cards, line.decks, line.unused, first, reveals, life_cards)
        except SetupError as e:
            if e.code == "UNKNOWN_CARD":
                self.find("UNKNOWN_CARD", [e.clause], lineno, f"field cards.{e.details['card']}: {e.message}",
                          log=e.details["name"])
                return False
            code = "WRONG_FIRST_PLAYER" if e.code == "WRONG_FIRST_PLAYER" else "BAD_SETUP"
            self.find(code, [e.clause], lineno, e.message, log=e.details.get("actual"),
                      rules=e.details.get("expected"))
            return False
        self.base_decks = [list(d[5:]) for d in line.decks]
        self.since_claim = list(self.g.events)
        return True

    def _check_refs(self, line, lineno) -> bool:
        """Card ids of a decision must be cards of the setup; players 0 or 1."""
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
        p = getattr(line, "p", 0)
        if p not in (0, 1):
            self.find("BAD_LINE", [], lineno, f"field p: player {p} is not 0 or 1", log=p)
            return False
        return True

    # -- decisions -----------------------------------------------------------
    def _decision(self, line, t, lineno) -> None:
        g = self.g
        if t in ("choose", "random"):
            arg = tuple(sorted(line.cards))
        elif t in ("mindbug", "pass"):
            arg = None
        else:
            arg = line.card
        player = getattr(line, "p", None)
        while True:
            pend = g.pending
            if pend is None:
                self.find("GAME_OVER", ["winning.life" if g.reason == "life" else "turns.no-action"], lineno,
                          f"the game ended before this line: player {g.winner} won ({g.reason})",
                          log=line_json(line), rules={"winner": g.winner, "reason": g.reason})
                return
            right_kind = t in STAGE_KINDS[pend.stage] and pend.is_chance == (t == "random")
            if right_kind and (pend.is_chance or pend.player == player):
                break
            if len(pend.options) == 1:
                self._apply(*pend.options[0])   # a forced step the log left out
                continue
            if right_kind or t == "mindbug":
                break                           # refused below, with the clause that forbids it
            clauses = list(pend.clauses)
            if t == "hunt" and g.state.combat is not None and pend.stage in ("choose", "order", "random"):
                clauses.insert(0, "effects.hunter-order")
            if t == "block" and self.prev is not None and self.prev[0] == "hunt" and self.prev[1] is not None:
                self.find("ILLEGAL_DECISION", ["keywords.hunter"], lineno,
                          f"HUNTER named card {self.prev[1]} as the blocker: the defender has no block decision",
                          log=line_json(line), rules={"blocker": self.prev[1]}, options=self.options())
                return
            if self._harmless_decline(t, player, arg, lineno):
                return
            if t == "pass":
                code, msg = "ILLEGAL_DECISION", "nothing here can be declined with 'pass'"
                if pend.stage == "action" and player != pend.player:
                    clauses.insert(0, "keywords.frenzy")
            else:
                code, msg = "MISSING_DECISION", f"the log goes on with '{t}'"
            what = "a random outcome" if pend.is_chance else f"a {pend.stage} decision by player {pend.player}"
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
            self.find(r.code, [r.clause], lineno, r.message + (f" ({r.card})" if r.card else ""),
                      log=line_json(line), options=[o.to_json() for o in r.options])
            return
        self._apply(t, arg)
        self.report.decisions += 1

    def _harmless_decline(self, t, player, arg, lineno) -> bool:
        """Declining an option the rules do not offer changes nothing: a
        `pass` on a FRENZY second attack right after an attack, or `hunt`
        null for an attacker without HUNTER. Accepted, with a note."""
        g = self.g
        if t == "pass" and self.attacker == player:
            what = "a FRENZY second attack the rules do not offer here"
        elif t == "hunt" and arg is None and g.state.combat is not None and player == g.state.active \
                and not g.state.combat[2] and g.state.combat[0] in g.state.play[player] \
                and not g.has(g.state.combat[0], HUNTER):
            what = "HUNTER for an attacker that does not have it"
        else:
            return False
        self.report.notes.append(f"line {lineno}: '{t}' declines {what}; it changes nothing")
        return True

    def _apply(self, kind, arg) -> None:
        if kind in ("play", "attack"):
            self.attacker = self.g.pending.player if kind == "attack" else None
        self.prev = (kind, arg)
        self.since_claim.extend(self.g.apply_unchecked(kind, arg))
        g = self.g
        if self.order_queue:
            waiting = {w[0] for w in g.state.triggers}
            self.order_queue = [c for c in self.order_queue if c in waiting]
        while self.order_queue and g.pending is not None and g.pending.stage == "order":
            nxt = (self.order_queue.pop(0),)
            if ("choose", nxt) not in g.pending.options:
                self.order_queue = []
                break
            self.since_claim.extend(g.apply_unchecked("choose", nxt))

    # -- claims --------------------------------------------------------------
    def _claim(self, line, lineno) -> None:
        g = self.g
        if claim_matches(g, line):
            self.since_claim = []
            return
        rules, log = claim_views(g, line)
        if rules != log:
            # A claim may be written before or after forced decisions: try after.
            probe = g.copy()
            extra = []
            while probe.pending is not None and len(probe.pending.options) == 1:
                extra.extend(probe.apply_unchecked(*probe.pending.options[0]))
                r2, l2 = claim_views(probe, line)
                if r2 == l2:
                    self.g = probe
                    self.since_claim = []
                    return
            self._mismatch(line, lineno, rules, log)
            return
        self.since_claim = []

    def _mismatch(self, line, lineno, rules, log) -> None:
        from deepdiff import DeepDiff

        fields = [k for k in rules if rules[k] != log.get(k)]
        clauses = attribute(self.g, self.since_claim, fields, rules, log)
        rules, log = readable(rules), readable(log)
        diff = DeepDiff(rules, log, ignore_order=False, view="text")
        self.find("STATE_MISMATCH", clauses, lineno,
                  f"the state claimed differs from the rules in: {', '.join(fields)}",
                  log={k: log[k] for k in fields}, rules={k: rules[k] for k in fields},
                  options=self.options(), diff=json_safe(diff))

    def _end(self, line, lineno) -> None:
        g = self.g
        self.ended = True
        while g.pending is not None and len(g.pending.options) == 1 and not g.is_over:
            self._apply(*g.pending.options[0])
        claimed = {"winner": line.winner, "reason": line.reason}
        if line.reason == "aborted":
            detail = "" if line.detail is msgspec.UNSET else f": {line.detail}"
            self.report.notes.append(f"the implementation stopped the game before its end{detail}")
            if g.is_over:
                self.find("WRONG_RESULT", ["winning.life" if g.reason == "life" else "turns.no-action"], lineno,
                          f"the log says the game was stopped, but the rules ended it: player {g.winner} won ({g.reason})",
                          log=claimed, rules={"winner": g.winner, "reason": g.reason})
            return
        if not g.is_over:
            clause = "winning.life" if line.reason == "life" else "turns.no-action"
            self.find("WRONG_RESULT", [clause], lineno,
                      f"the log says player {line.winner} won ({line.reason}), but the game goes on: "
                      f"{g.pending.prompt} (player {g.pending.player})",
                      log=claimed, rules={"winner": None, "pending": g.pending.stage, "player": g.pending.player},
                      options=self.options())
            return
        rules = {"winner": g.winner, "reason": g.reason}
        if rules != claimed:
            clause = "winning.life" if g.reason == "life" else "turns.no-action"
            self.find("WRONG_RESULT", [clause], lineno,
                      f"the log says player {line.winner} won ({line.reason}); the rules say player {g.winner} ({g.reason})",
                      log=claimed, rules=rules)

    # -- keep going ----------------------------------------------------------
    def _try_resync(self, line, lineno) -> None:
        """After a violation: a full state claim restarts verification; the
        next decision line must then be a turn action."""
        t = line.__struct_config__.tag
        if t == "state":
            self._resync_claim = (line, lineno) if is_full_claim(line) else None
            return
        pending_claim = self._resync_claim
        if t in ("play", "attack") and pending_claim is not None:
            claim, claim_line = pending_claim
            g = resync(self.g, claim, line.p, self.base_decks)
            self._resync_claim = None
            if g is None:
                return
            self.g = g
            self.lost = False
            self.since_claim = []
            self.report.notes.append(f"verification resumed at line {claim_line}")
            self._decision(line, t, lineno)
        elif t == "end":
            self.ended = True


# -- claims: the rules' view and the log's view ----------------------------------

def _zone(oracle_cards, claimed, names) -> tuple[list, list]:
    """A hand or discard pile, compared as a set: by ids, or by names when
    the log names cards (engines without stable card identity)."""
    try:
        log = sorted(claimed)
        if not log or log[0].__class__ is int:
            return sorted(oracle_cards), log
    except TypeError:
        pass  # ids and names mixed
    return sorted(names[c] for c in oracle_cards), sorted(_name_of(c, names) for c in claimed)


def _name_of(ref, names) -> str:
    if isinstance(ref, str):
        try:
            return lookup(ref).name
        except UnknownCard:
            return ref
    return names.get(ref, str(ref))


def claim_matches(g: Game, line) -> bool:
    """A quick test that a claim states exactly the rules' state, in the
    rules' own order. False means: compare properly (claim_views)."""
    s = g.state
    U = msgspec.UNSET
    if line.life is not U and line.life != s.life:
        return False
    if line.mindbugs is not U and line.mindbugs != s.mindbugs:
        return False
    if line.hand is not U and line.hand != s.hand:
        return False
    if line.discard is not U and line.discard != s.discard:
        return False
    if line.play is not U:
        if len(line.play) != 2:
            return False
        ex = s.exhausted
        for claimed, mine in zip(line.play, s.play):
            if len(claimed) != len(mine):
                return False
            for c, o in zip(claimed, mine):
                if (c.card != o or c.power is not U or c.keywords is not U
                        or (c.exhausted is not U and c.exhausted != (o in ex))):
                    return False
    if line.deck is not U:
        if len(line.deck) != 2:
            return False
        for c, d in zip(line.deck, s.deck):
            if (c != len(d)) if c.__class__ is int else (c != d):
                return False
    if line.unused is not U:
        u = line.unused
        if (u != len(s.unused)) if u.__class__ is int else (u != s.unused):
            return False
    if line.played is not U and line.played != s.played:
        return False
    if line.active is not U and line.active != s.active:
        return False
    if line.turn is not U and line.turn != s.turn:
        return False
    return True


def claim_views(g: Game, line) -> tuple[dict, dict]:
    """The claimed fields as the rules see them and as the log states them,
    both normalised: hands, discard piles and play areas are compared as
    sets (their order means nothing); draw piles by count or in order."""
    s = g.state
    rules: dict = {}
    log: dict = {}
    U = msgspec.UNSET
    if line.life is not U:
        rules["life"], log["life"] = list(s.life), list(line.life)
    if line.mindbugs is not U:
        rules["mindbugs"], log["mindbugs"] = list(s.mindbugs), list(line.mindbugs)
    for field in ("hand", "discard"):
        claimed = getattr(line, field)
        if claimed is not U:
            zones = getattr(s, field)
            names = g.table.names
            pairs = [_zone(zones[p], claimed[p] if p < len(claimed) else [], names) for p in (0, 1)]
            rules[field] = [pairs[0][0], pairs[1][0]]
            log[field] = [pairs[0][1], pairs[1][1]] if len(claimed) == 2 else claimed
    if line.play is not U:
        rp, lp = [], []
        for p in (0, 1):
            claimed = line.play[p] if p < len(line.play) else []
            r, l_ = _play_side(g, p, claimed)
            rp.append(r)
            lp.append(l_)
        rules["play"], log["play"] = rp, (lp if len(line.play) == 2 else line.play)
    if line.deck is not U:
        rd, ld = [], []
        for p in (0, 1):
            c = line.deck[p] if p < len(line.deck) else None
            if isinstance(c, list):
                rd.append(list(s.deck[p]))
                ld.append(list(c))
            else:
                rd.append(len(s.deck[p]))
                ld.append(c)
        rules["deck"], log["deck"] = rd, ld
    if line.unused is not U:
        if isinstance(line.unused, list):
            rules["unused"], log["unused"] = list(s.unused), list(line.unused)
        else:
            rules["unused"], log["unused"] = len(s.unused), line.unused
    if line.played is not U:
        rules["played"], log["played"] = s.played, line.played
    if line.active is not U:
        rules["active"], log["active"] = s.active, line.active
    if line.turn is not U:
        rules["turn"], log["turn"] = s.turn, line.turn
    return rules, log


def _play_side(g, p, claimed) -> tuple[list, list]:
    """A play area as rules and log see it: entries (card, exhausted, power,
    keywords), each part None where the log does not claim it; sorted."""
    s = g.state
    U = msgspec.UNSET
    names = g.table.names
    by_name = want_ex = want_pw = want_kw = False
    for c in claimed:
        if c.card.__class__ is str:
            by_name = True
        if c.exhausted is not U:
            want_ex = True
        if c.power is not U:
            want_pw = True
        if c.keywords is not U:
            want_kw = True
    ex = s.exhausted
    if not (by_name or want_pw or want_kw):
        if want_ex:
            rules = sorted((c, c in ex, None, None) for c in s.play[p])
            log = sorted((c.card, None if c.exhausted is U else c.exhausted, None, None) for c in claimed)
        else:
            rules = sorted((c, None, None, None) for c in s.play[p])
            log = sorted((c.card, None, None, None) for c in claimed)
        return rules, log
    rules = []
    for c in s.play[p]:
        kw = None
        if want_kw:
            m = g.keywords(c)
            kw = tuple(sorted(n for b, n in KEYWORD_NAMES.items() if m & b))
        rules.append((names[c] if by_name else c, (c in ex) if want_ex else None,
                      g.power(c) if want_pw else None, kw))
    log = []
    for c in claimed:
        log.append((_name_of(c.card, names) if by_name else c.card,
                    (None if c.exhausted is U else c.exhausted) if want_ex else None,
                    (None if c.power is U else c.power) if want_pw else None,
                    (None if c.keywords is U else tuple(sorted(k.upper() for k in c.keywords))) if want_kw else None))
    key = lambda e: tuple(str(x) for x in e)  # noqa: E731
    return sorted(rules, key=key), sorted(log, key=key)


def readable(view: dict) -> dict:
    """A claim view with play entries as objects, for people and for diffs."""
    out = dict(view)
    if "play" in out:
        out["play"] = [[{k: v for k, v in zip(("card", "exhausted", "power", "keywords"), e) if v is not None}
                        for e in side] for side in out["play"]]
        for side in out["play"]:
            for e in side:
                if "keywords" in e:
                    e["keywords"] = list(e["keywords"])
    return out


def attribute(g, events, fields, rules, log) -> list[str]:
    """The clauses behind a mismatch: those of the events that changed the
    differing cards or fields since the last claim; else a clause per field."""
    clauses: list[str] = []
    diff_cards = set()
    for f in ("hand", "discard"):
        if f in fields:
            for p in (0, 1):
                a, b = rules[f][p], log[f][p] if p < len(log[f]) else []
                diff_cards |= set(Counter(a) - Counter(b)) | set(Counter(b) - Counter(a))
    if "play" in fields:
        for p in (0, 1):
            ra = {e: e[0] for e in rules["play"][p]}
            la = {e: e[0] for e in (log["play"][p] if p < len(log["play"]) else [])}
            diff_cards |= {ra[k] for k in ra.keys() - la.keys()} | {la[k] for k in la.keys() - ra.keys()}
            for e in log["play"][p] if p < len(log["play"]) else []:
                if e[2] is not None and e[2] < g.profile.power_floor:
                    clauses.append("cards.power-minimum")
            if set(ra) != set(la) and any(e[2] is not None or e[3] is not None for e in rules["play"][p]):
                clauses.append("abilities.constant")
    # The same card in the same kind of zone, on the other side: a question
    # of who controls it.
    for p in (0, 1):
        for f in ("discard",):
            if f in fields and p < len(log[f]):
                for c in set(log[f][p]) - set(rules[f][p]):
                    if c in rules[f][1 - p]:
                        clauses += ["mindbug.defeated-controller", "combat.to-discard"]
    names = g.table.names
    arrivals = {e.card: e.clauses for e in events if e.kind == "enter-play"}

    def cite(e):
        # An effect's clauses, after how its source came into play when that
        # decides who the effect is for (a mindbugged Play effect).
        src = arrivals.get(e.source, ())
        if "mindbug.play-effect" in src:
            clauses.extend(src)
        clauses.extend(e.clauses)

    for e in events:
        touched = ({e.card} if e.card is not None else set()) | set(e.cards or ())
        touched |= {names[c] for c in touched if c in names}
        if touched & diff_cards or (e.kind in EVENT_FIELDS and set(EVENT_FIELDS[e.kind]) & set(fields)
                                    and not diff_cards):
            cite(e)
        elif e.kind in BROAD_EVENTS:
            cite(e)
    if "life" in fields:
        for e in events:
            if e.kind in ("gain-life", "lose-life", "no-gain"):
                cite(e)
    for f in fields:
        clauses.extend(FIELD_FALLBACK.get(f, ()))
    # Generic clauses that every step cites say little: put them last.
    generic = {"triggers.controller", "effects.chooser", "combat.to-discard", "mindbug.defeated-controller",
               "drawing.before-effects", "turns.action", "combat.block"}
    ordered = list(dict.fromkeys(clauses))
    specific = [c for c in ordered if c not in generic]
    rest = [c for c in ordered if c in generic]
    if "mindbug.defeated-controller" in clauses[:2]:
        return ["mindbug.defeated-controller"] + [c for c in ordered if c != "mindbug.defeated-controller"]
    return specific + rest


def is_full_claim(line) -> bool:
    U = msgspec.UNSET
    if any(getattr(line, f) is U for f in ("life", "mindbugs", "hand", "play", "discard", "deck")):
        return False
    zones = [line.hand, line.discard]
    return all(isinstance(c, int) for z in zones for side in z for c in side) and \
        all(isinstance(c.card, int) for side in line.play for c in side)


def resync(g: Game, claim, player: int, base_decks) -> Game | None:
    """A new game at the claimed position, about to take `player`'s turn action."""

    s = g.state.copy()
    try:
        s.life = list(claim.life)
        s.mindbugs = list(claim.mindbugs)
        s.hand = [list(h) for h in claim.hand]
        s.play = [[c.card for c in side] for side in claim.play]
        s.exhausted = {c.card for side in claim.play for c in side if c.exhausted is True}
        s.discard = [list(d) for d in claim.discard]
        s.deck = [list(base_decks[p][len(base_decks[p]) - n:]) if isinstance(n, int) and n <= len(base_decks[p])
                  else list(n) for p, n in enumerate(claim.deck)]
    except (TypeError, IndexError):
        return None
    s.played = None
    s.pending = None
    s.combat = None
    s.triggers = []
    s.stack = [("action", False)]
    s.active = player
    if claim.turn is not msgspec.UNSET:
        s.turn = claim.turn
    s.attacks = {}
    placed = [c for _, _, cards in s.zones() for c in cards]
    if len(placed) != len(set(placed)) or set(placed) != set(g.table.defs):
        return None
    ng = Game(g.table, g.profile, s)
    ng.run()
    return ng


def _card_ids(x, out: set) -> None:
    """Every card id in a finding's data: ints under card-like keys or in card lists."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in ("card", "cards", "hand", "discard", "play", "played", "blocker", "deck") or not isinstance(k, str):
                _collect_ints(v, out)
            else:
                _card_ids(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _card_ids(v, out)


def _collect_ints(x, out: set) -> None:
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        out.add(x)
    elif isinstance(x, dict):
        _collect_ints(x.get("card"), out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _collect_ints(v, out)


def line_json(line) -> dict:
    return msgspec.to_builtins(line)


def json_safe(diff) -> dict:
    import json
    return json.loads(diff.to_json()) if diff else {}


class Summary(msgspec.Struct):
    """The last line of `verify --format json`."""

    games: int
    conforms: int
    violates: int
    malformed: int
    xfail: int
    xpass: int
    decisions: int
    exit: int
    error: int = 0  # games not verified (the verifier or its worker process failed); only when some were
    unmatched_expectations: list[dict] = msgspec.field(default_factory=list)


def report_schema() -> dict:
    """JSON Schema of `verify --format json`: one line per game, then a summary."""
    class GameLine(GameReport, tag="game", tag_field="t"):
        pass

    class SummaryLine(Summary, tag="summary", tag_field="t"):
        pass

    schema = msgspec.json.schema(GameLine | SummaryLine)
    schema["title"] = "mb-oracle verify report line (JSON Lines)"
    return schema


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False) -> GameReport:
    return Verifier(raw, edition, keep_going).run()
