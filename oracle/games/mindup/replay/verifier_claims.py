"""The Mind Up! verifier's reading of state claims (`ClaimChecks`, a part
of `verifier.Verifier`): a claim agrees with the rules' state (or, between
a round's last turn and the next line, with the position before the last
cards are placed), or differs, reported card by card with the clauses
involved; with keep_going, a full claim's state taken as it stands."""

from __future__ import annotations

import msgspec

from ..cards import is_objective
from .diff import as_claimed, claim_diff, claim_matches, clauses_of, differs, score_part_first

U = msgspec.UNSET
SHOWN_EVENTS = 12    # the rules' events a finding shows, the latest


class ClaimChecks:
    """The state claims of a game, as `Verifier` reads them (it supplies
    the game `g`, `find`, `options` and the rest of its state)."""

    def _state(self, line, lineno) -> None:
        s, since = as_claimed(line, self.g.state), self.since
        diff = [] if claim_matches(line, s) else claim_diff(line, s)
        if self.pre_last is not None:
            # Between a round's last turn and the next line, a claim may describe the position
            # before the last cards are placed (each player holding one) or after: the log
            # writes the last cards (`last`) or leaves that step to the rules.
            pre, tail = self.pre_last
            if not diff:
                if not differs(line, pre):      # it states both: the next claim may be either
                    return
                self.pre_last = None
            else:
                # Whether it differs less from the position before: those differences are
                # counted up to the number of `diff`, their texts no further.
                before = [] if claim_matches(line, pre) else claim_diff(line, pre, len(diff))
                if len(before) < len(diff):     # a tie: the position after, where the scores are
                    s, diff = pre, before
                    since = since[:max(0, len(since) - len(tail))]
                    if not diff:
                        self.since = list(tail)
                        return
                else:
                    self.pre_last = None
        if not diff:
            self.since = []
            return
        clauses = []
        for d in diff:
            clauses += clauses_of(d, since, bool(self.objectives), s)
        clauses = score_part_first(clauses, diff, self.parts)
        fields = sorted({d.field.split("[")[0] if d.field else "cards" for d in diff})
        cards = {d.card for d in diff if d.card is not None}
        scores = any(d.field and d.field.split("[")[0] in ("scores", "totals") for d in diff)
        events = [e for e in since if (e.card in cards or (e.cards and cards & set(e.cards))
                                             or (scores and e.kind == "score"))]
        lost = self.lost
        self.find("STATE_MISMATCH", clauses, lineno, events=events[-SHOWN_EVENTS:], message=(
                  f"the state claimed differs from the rules ({', '.join(fields)}): {diff[0].text}"
                  + (f" (and {len(diff) - 1} more)" if len(diff) > 1 else "")),
                  log=msgspec.to_builtins(line), rules=self._rules_view(line, s), diff=diff, options=self.options())
        # A claim that differs leaves the rules' state as it was: reading goes on.
        self.lost = lost or not self.keep_going
        self.since = []

    def _rules_view(self, line, s) -> dict:
        """The rules' side of the fields a claim gives, copied: the game goes on changing its state."""
        out = {}
        for name in ("round", "turn", "hands", "line", "columns", "order", "scores", "objectives"):
            if getattr(line, name) is not U:
                out[name] = {"order": list(s.order), "objectives": sorted(s.objectives)}.get(
                    name, _copied(getattr(s, name)))
        if line.totals is not U:
            out["totals"] = s.totals()
        if line.pile is not U:
            out["pile"] = (len(s.pile) if isinstance(line.pile, int) else list(s.pile)) if s.pile is not None else None
        return out

    def _fits(self, line) -> bool:
        """Whether a full claim describes a position of this game (one hand,
        five Score cards and the scores of the rounds played per player, and
        objectives, if it shows them, that are objectives), so that its state
        can be taken as it stands."""
        n = self.players
        return (len(line.hands) == len(line.columns) == len(line.scores) == n and len(line.line) == n
                and 1 <= line.round <= 3 and all(len(x) <= line.round for x in line.scores)
                and (line.objectives is U or all(map(is_objective, line.objectives))))

    def _resync(self, line) -> None:
        """Take a full claim's state as it stands (keep_going, after a refusal)."""
        s = self.g.state.copy()
        if line.round != s.round or tuple(line.order) != s.order:
            s.orders.append(tuple(line.order))      # a round the rules did not start
        s.round, s.hands = line.round, [sorted(h) for h in line.hands]
        s.line, s.columns = sorted(line.line), [[list(c) for c in cols] for cols in line.columns]
        s.order, s.scores = tuple(line.order), [list(x) for x in line.scores]
        s.chosen = [None] * s.players
        s.waiting_round = all(not h for h in s.hands)
        # Left out, the turns revealed are read from the Score cards: one won card
        # each, and after a round's end its last card too (mu.round.last-card).
        won = max((len(s.scored(p)) for p in range(s.players)), default=0)
        s.turn = line.turn if line.turn is not U else max(0, won - 1) if s.waiting_round else won
        if isinstance(line.pile, list):
            s.pile = list(line.pile)
        elif s.pile is not None:                    # the cards drawn since have left the pile
            placed = {c for h in s.hands for c in h} | set(s.line) | {c for p in range(s.players)
                                                                        for c in s.scored(p)}
            s.pile = [c for c in s.pile if c not in placed]
        if line.objectives is not U:
            s.objectives = tuple(line.objectives)
        elif line.round != self.g.state.round and 1 <= s.objectives_count <= 2 and self.log_objectives is not None:
            s.objectives = self.log_objectives          # renewed in a round the rules did not start
        s.shown.extend(o for o in s.objectives if o not in s.shown)
        self.g.state = s
        self.lost = False
        self.since = []


def _copied(v):
    """A list of lists (of ...) copied to the bottom; anything else as it is."""
    return [_copied(x) for x in v] if isinstance(v, list) else v
