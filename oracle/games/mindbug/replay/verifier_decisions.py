"""The verifier's reading of decision lines (`DecisionChecks`, a part of
`verifier.Verifier`): a line is a legal answer to the decision the rules
wait for, else an empty answer to a choice the rules skipped or a forced
step written late (`decisions`, the accepted forms), else a finding that
names the options; then the rules apply it, and with --check-invariants
the engine's own invariants are checked after it."""

from __future__ import annotations

import msgspec

from ..engine import Decision
from ..engine.explain import taken_fast
from ..engine.outcome import end_clause
from ..engine.state import STAGE_KINDS, decision_words
from . import decisions
from . import format as fmt
from .attribution import buried
from .narrate import faces
from .resync import follow_rules

# --check-invariants: the rules engine broke one of its own invariants (an `error` verdict).
INVARIANT_BROKEN = "INVARIANT_BROKEN"

# What declines the decision the rules wait for, when a log writes 'pass' there.
PASS_HINTS = {"block": ": a block is declined with 'block null'",
              "hunt": ": HUNTER is declined with 'hunt null'",
              "choose": ": an 'up to' choice is declined with 'choose []'"}


class DecisionChecks:
    """The decision lines of a game, as `Verifier` reads them (it supplies
    the game `g`, `find`, `lenient` and the rest of its state)."""

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


def line_json(line) -> dict:
    return msgspec.to_builtins(line)
