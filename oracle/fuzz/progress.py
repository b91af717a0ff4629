"""How far a fuzz run has got, on standard error.

A line every N inputs (`--progress-every N`), or, when standard error is a
terminal and no N was asked for, one line drawn again in place. A run whose
standard error is not a terminal (a log file, CI, a pipe) gets a line every
DEFAULT_EVERY inputs, and at least one every DEFAULT_SECONDS while inputs
come slowly (the formats that start processes), unless `--no-progress`.
Each line gives the inputs
tried of the budget, the time so far, the distinct problems found, and the
same per format for the formats begun:

    fuzz: 3,000/20,000 inputs (15%), 5:02, 1 problem; replay-lines 2,400/2,400, games 600/5,000 (1 problem)
"""

from __future__ import annotations

import sys
import time

from ..term import Progress, is_terminal, plural

DEFAULT_EVERY = 500     # inputs between two lines when standard error is not a terminal
DEFAULT_SECONDS = 60    # and at most this many seconds, after an input


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class FuzzProgress:
    """The progress of one run of `budget` inputs: `plan` takes each
    format's share, `tried` comes after each input, `close` ends it (and
    clears a display drawn in place). `every`: a line every that many
    inputs; None: the default for the stream (above); 0: nothing."""

    def __init__(self, budget: int, every: int | None = None, stream=None, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.budget = budget
        self.planned: dict[str, int] = {}
        self.clock = clock
        self.start = self.last = clock()
        self.live: Progress | None = None
        self.seconds: float | None = None       # the most time between two lines, if any
        if every is None:
            if is_terminal(self.stream):
                self.live = Progress("fuzz", total=budget, unit="input", stream=self.stream)
                every = 0
            else:
                every, self.seconds = DEFAULT_EVERY, DEFAULT_SECONDS
        self.every = every

    def plan(self, planned: dict[str, int]) -> None:
        """The inputs each format gets of the budget."""
        self.planned = dict(planned)
        self.budget = sum(planned.values()) or self.budget
        if self.live is not None:
            self.live.total = self.budget

    def tried(self, tally, target: str) -> None:
        """After an input of `target`: a line when one is due."""
        if self.live is not None:
            found = len(tally.problems)
            self.live.note = f"{plural(found, 'problem')}, {target} {tally.inputs.get(target, 0):,}/" \
                             f"{self.planned.get(target, 0):,}"
            self.live.update(1)
        elif self.every and (tally.total % self.every == 0 or
                             self.seconds is not None and self.clock() - self.last >= self.seconds):
            self._write(self.line(tally))
            self.last = self.clock()

    def line(self, tally) -> str:
        """The progress line of `tally` now."""
        done = tally.total
        share = f" ({100 * done // self.budget}%)" if self.budget else ""
        head = (f"fuzz: {done:,}/{plural(self.budget, 'input')}{share}, {_clock(self.clock() - self.start)}, "
                f"{plural(len(tally.problems), 'problem')}")
        found: dict[str, int] = {}
        for p in tally.problems.values():
            t = p.target.removeprefix("cli-")
            found[t] = found.get(t, 0) + 1
        parts = []
        for t, n in tally.inputs.items():
            part = f"{t} {n:,}/{self.planned.get(t, n):,}"
            if found.get(t):
                part += f" ({plural(found[t], 'problem')})"
            parts.append(part)
        return head + ("; " + ", ".join(parts) if parts else "")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):   # standard error gone: the run goes on without it
            self.every = 0

    def close(self) -> None:
        if self.live is not None:
            self.live.clear()
