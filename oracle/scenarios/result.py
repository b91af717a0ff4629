"""The outcome of one scenario run, whatever the game: pass or fail, where
(the step and its line), the clause at stake, the differences."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Difference:
    field: str
    expected: str
    actual: str
    cards: tuple = ()  # the cards the difference is about, to find the clause at stake
    # (expected, actual) as plain values (numbers, lists), where the comparison had them: what the
    # HTML report shows; the texts above are what the other reports say
    values: tuple | None = None

    def __str__(self) -> str:
        return f"{self.field}: expected {self.expected}, got {self.actual}"

    def to_json(self) -> dict:
        return {"field": self.field, "expected": self.expected, "actual": self.actual}


@dataclass
class Result:
    """The outcome of one scenario in one edition."""

    scenario: str
    title: str
    file: str
    line: int
    edition: str
    status: str = "pass"                 # pass | fail | not-applicable (exact_sets, other sets added)
    step: int | None = None              # the step where it failed (0: the setup)
    step_text: str | None = None
    at_line: int | None = None           # the line of the failing step (or of the expectation, the setup)
    clause: str | None = None            # the clause at stake in the failure
    clauses: list[str] = field(default_factory=list)   # the clauses the scenario cites
    message: str = ""
    differences: list[Difference] = field(default_factory=list)
    happened: list[str] = field(default_factory=list)  # events of the failing step
    draft: bool = False
    time: float = 0.0                    # seconds the run took (for JUnit)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def failed(self) -> bool:
        return self.status == "fail"

    @property
    def name(self) -> str:
        return f"{self.scenario}[{self.edition}]"

    def to_json(self) -> dict:
        d = {"scenario": self.scenario, "edition": self.edition, "status": self.status,
             "file": self.file, "line": self.line, "title": self.title, "clauses": self.clauses}
        if self.draft:
            d["draft"] = True
        if not self.passed:
            d.update({"step": self.step, "step_text": self.step_text, "at_line": self.at_line,
                      "clause": self.clause,
                      "message": self.message, "differences": [x.to_json() for x in self.differences],
                      "happened": self.happened})
        return d
