"""What verify reports: findings, per-game reports, the run summary, and the
JSON Schema of the report stream."""

from __future__ import annotations

from typing import Any

import msgspec

# Codes that make a game malformed (the log cannot be read as a game), as
# opposed to codes that say the game broke the rules.
MALFORMED = {
    "BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", "BAD_VERSION", "UNKNOWN_CARD", "UNKNOWN_EDITION",
    "UNSUPPORTED_SET", "MISSING_SETUP", "LINE_OUTSIDE_GAME", "MISSING_END", "EMPTY_INPUT",
    "BAD_REFERENCE", "UNREADABLE",
}


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
    # For a game that violates: "rules" (the finding stands whatever the team
    # readings), or "reading" (it exists only under `reading`, a team reading
    # {clause, choice}; `alternatives` are the choices under which the rules
    # accept this line). `under`: the readings (clause -> choice) in force
    # when the finding was made, when they are not the game's own.
    basis: str | None = None
    reading: dict[str, str] | None = None
    alternatives: list[str] = msgspec.field(default_factory=list)
    under: dict[str, str] | None = None

    @property
    def malformed(self) -> bool:
        return self.code in MALFORMED


class GameReport(msgspec.Struct):
    file: str
    line: int
    id: str
    verdict: str = "conforms"  # conforms | violates | malformed
    edition: str | None = None
    impl: str | None = None
    decisions: int = 0
    findings: list[Finding] = msgspec.field(default_factory=list)
    result: dict | None = None      # the rules' result: winner and reason, if the game ended
    notes: list[str] = msgspec.field(default_factory=list)
    outcome: str | None = None      # pass | fail | xfail | xpass | malformed (set with expectations)
    conforms_to: list[str] | None = None  # with --which-editions: the editions the game conforms to
    readings: dict[str, str] | None = None  # the readings followed where not the team's (game line, --reading)
    # With --which-editions: every (edition, readings) combination under which
    # the game conforms; `readings` covers the readings in play in this game.
    consistent_with: list[dict] | None = None


def card_ids(x, out: set) -> None:
    """Every card id in a finding's data: ints under card-like keys or in card lists."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in ("card", "cards", "hand", "discard", "play", "played", "blocker", "deck") or not isinstance(k, str):
                _collect_ints(v, out)
            else:
                card_ids(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            card_ids(v, out)


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
