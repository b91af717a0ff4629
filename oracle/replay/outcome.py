"""What a verified game counts as, and what a run adds up to.

This is the one place where a game's outcome and the run's exit status are
decided; the human summary, the JSON summary line and the JUnit counts are
all read from the `Summary` made here, so they cannot disagree.

A game's outcome:

| outcome     | when                                                          | JUnit     | exit |
|-------------|---------------------------------------------------------------|-----------|------|
| `pass`      | no finding                                                    | passed    | 0    |
| `fail`      | a finding no expectation accepts                              | failure   | 1    |
| `xfail`     | findings, every one accepted by an expectation                | skipped   | 0    |
| `xpass`     | an expectation names this game and it did not happen here     | failure   | 1    |
| `malformed` | the log cannot be read as a game                              | error     | 2    |
| `error`     | the game was not verified (the verifier or its worker failed) | error     | 2    |

An expectation that accepted nothing this run (and is not an `xpass` of a
game it names) is *stale*: a warning in every report, a JUnit case that is
skipped, and, under `--strict-expect`, a failure (JUnit failure, exit 1).

Exit status: 2 if some game is malformed or not verified, else 1 if some game fails or
passes unexpectedly (or, under `--strict-expect`, an expectation is
stale), else 0.
"""

from __future__ import annotations

from collections import Counter

import msgspec

OUTCOMES = ("pass", "fail", "xfail", "xpass", "malformed", "error")


class StaleExpectation(msgspec.Struct, omit_defaults=True):
    """An expectation that accepted no finding in this run."""

    file: str
    line: int
    code: str
    reason: str
    clause: str | None = None
    game: str | None = None
    edition: str | None = None


class Statistics(msgspec.Struct):
    """Findings counted by code and by clause (the first, most specific
    clause of each finding), most frequent first."""

    findings: int
    expected: int
    by_code: dict[str, int]
    by_clause: dict[str, int]


class Summary(msgspec.Struct):
    """The last line of `verify --format json`."""

    games: int
    conforms: int
    violates: int
    malformed: int
    passed: int
    failed: int
    xfail: int
    xpass: int
    decisions: int
    exit: int
    error: int = 0                  # games not verified: the verifier or its worker process failed
    # games that violate only under a team reading: every finding has basis
    # "reading" (another reasonable reading of a question no edition settles
    # accepts them); they count among `violates` too
    reading_only: int = 0
    aborted: int = 0                # games the implementation stopped before their end (any verdict)
    stale: list[StaleExpectation] = msgspec.field(default_factory=list)
    strict_expect: bool = False
    statistics: Statistics | None = None


# A verdict's outcome when no expectation applies.
_PLAIN = {"conforms": "pass", "violates": "fail", "malformed": "malformed", "error": "error"}


def plain_outcome(rep) -> str:
    """The outcome of a game when no expectation applies."""
    return _PLAIN[rep.verdict]


def _ranked(counter: Counter) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


class Tally:
    """Adds up the games of a run. `add` sets each game's outcome."""

    def __init__(self, expectations=None, strict_expect: bool = False):
        self.expectations = expectations
        self.strict_expect = strict_expect
        self.verdicts: Counter = Counter()
        self.outcomes: Counter = Counter()
        self.decisions = 0
        self.aborted = 0
        self.reading_only = 0
        self.by_code: Counter = Counter()
        self.by_clause: Counter = Counter()
        self.expected = 0

    def add(self, rep) -> None:
        if self.expectations is not None:
            self.expectations.apply(rep)
        else:
            rep.outcome = plain_outcome(rep)
        self.verdicts[rep.verdict] += 1
        self.outcomes[rep.outcome] += 1
        self.decisions += rep.decisions
        self.aborted += rep.aborted
        if rep.verdict == "violates" and all(f.basis == "reading" for f in rep.findings):
            self.reading_only += 1
        for f in rep.findings:
            self.by_code[f.code] += 1
            if f.clauses:
                self.by_clause[f.clauses[0]] += 1
            self.expected += f.expected

    def summary(self) -> Summary:
        stale = self.expectations.stale() if self.expectations is not None else []
        o = self.outcomes
        if self.verdicts["malformed"] or self.verdicts["error"]:
            code = 2
        elif o["fail"] or o["xpass"] or (self.strict_expect and stale):
            code = 1
        else:
            code = 0
        stats = Statistics(sum(self.by_code.values()), self.expected, _ranked(self.by_code), _ranked(self.by_clause))
        return Summary(games=sum(self.verdicts.values()), conforms=self.verdicts["conforms"],
                       violates=self.verdicts["violates"], malformed=self.verdicts["malformed"],
                       passed=o["pass"], failed=o["fail"], xfail=o["xfail"], xpass=o["xpass"],
                       decisions=self.decisions, exit=code, error=self.verdicts["error"], reading_only=self.reading_only,
                       aborted=self.aborted,
                       stale=stale, strict_expect=self.strict_expect, statistics=stats)
