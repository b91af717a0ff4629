"""The verifier's reading of state claims (`ClaimChecks`, a part of
`verifier.Verifier`): a claim agrees with the rules' state (after the
forced steps the log may write it before or after), or differs, reported
card by card with the clauses involved and what the rules wait for."""

from __future__ import annotations

import msgspec

from ....replay.limits import decode_line
from ..engine.state import STAGE_KINDS
from . import decisions
from . import format as fmt
from .attribution import attribute, choice_clauses, skip_explains
from .claims import claim_matches, claim_views, is_full_claim
from .narrate import waiting_text
from .resync import rules_agree


class ClaimChecks:
    """The state claims of a game, as `Verifier` reads them (it supplies
    the game `g`, `find`, `raw` and the rest of its state)."""

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
