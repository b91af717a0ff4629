"""The fast lane: a game that keeps to the plain form of mb-replay/1 is
verified without the bookkeeping the other forms need.

Most recorded games write each decision the rules ask for, in the order
asked, and claims the rules agree with. For such a game the verifier only
has to apply each decision and compare each claim. `FastVerifier` does just
that and gives up (`Detour`) at the first line that is anything else: a
finding, a line the rules do not ask for (an accepted form such as a forced
step left out), a claim that differs. The full `Verifier` then reads the
game from its first line, so a report never depends on which lane made it:
the fast lane only ever returns reports the full verifier gives too
(tests/test_fastlane.py checks that on every sample and on games broken at
random).
"""

from __future__ import annotations

import msgspec

from ..engine import QuietGame

from .claims import claim_matches
from .format import decision_arg
from .findings import GameReport
from .lines import read_line
from .verifier import Verifier


class Detour(Exception):
    """The game needs the full verifier."""


class FastVerifier(Verifier):
    """Verifies a game in the plain form; raises `Detour` otherwise."""

    game_class = QuietGame      # a plain game's report needs no events: any finding is a detour

    def find(self, *args, **kw) -> None:
        raise Detour

    def _read(self, lines, prof, last_line) -> GameReport:
        applied = 0
        g = None
        for lineno, raw_line in lines:
            try:
                line, extra = read_line(raw_line)
            except (msgspec.DecodeError, msgspec.ValidationError):
                raise Detour from None
            t = line.__struct_config__.tag
            if t == "note":
                continue
            if extra:
                self._unknown_fields(t, extra, lineno)
            if g is None:
                if t != "setup" or not self._setup(line, lineno, prof):
                    raise Detour
                g = self.g
                continue
            if t == "state":
                if not (claim_matches(g, line) or self._agrees(g, line)):
                    raise Detour
                continue
            if self.ended:
                raise Detour
            if t == "end":
                self._end(line, lineno)
                continue
            pend = g.state.pending
            if pend is None:
                raise Detour
            # The line must be one of the answers the rules wait for, by the
            # player they ask (a chance outcome has no player).
            if t == "setup" or t == "game":
                raise Detour
            arg = decision_arg(line)
            if (t, arg) not in pend.options or (pend.player is not None and pend.player != line.p):
                raise Detour
            g.apply_unchecked(t, arg)
            applied += 1
        if not self.ended:
            raise Detour
        self.report.decisions += applied
        return self._finish()


def fast_report(raw, edition, readings, strict) -> GameReport | None:
    """The report of a game in the plain form, or None: read it with `Verifier`."""
    if raw.kind != "game":
        return None
    try:
        return FastVerifier(raw, edition, False, readings, strict=strict).run()
    except Detour:
        return None
