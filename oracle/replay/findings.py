"""What verify reports: findings, per-game reports, the run summary, and the
JSON Schema of the report stream."""

from __future__ import annotations

from typing import Any

import msgspec

from .limits import TOO_LARGE
from .outcome import Summary

# Codes that make a game malformed (the log cannot be read as a game), as
# opposed to codes that say the game broke the rules.
MALFORMED = {
    "BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", "BAD_VERSION", "UNKNOWN_CARD", "UNKNOWN_EDITION",
    "UNKNOWN_SET", "MISSING_SETUP", "LINE_OUTSIDE_GAME", "MISSING_END", "EMPTY_INPUT",
    "BAD_REFERENCE", "UNREADABLE", "UNKNOWN_FIELD", "DUPLICATE_KEY", "DUPLICATE_GAME", "NOT_JSON_LINES", TOO_LARGE,
}

# Codes of a line that could not be read as its line type: their `log`, when
# text, is the line as the log wrote it (its first 200 characters).
LINE_TEXT = {"BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", TOO_LARGE}

# The start of the note verify writes for fields mb-replay/1 does not define
# (shown even for conforming games: a misspelt claim field goes unchecked).
UNKNOWN_FIELDS_NOTE = "fields not in "
# The start of the note on a line that gives a key twice in one object
# (the decoder takes the last value).
DUPLICATE_KEYS_NOTE = "keys given twice in one object"
# The note on a deal that names its starting player without the reveals
# that chose it: in the JSON report only (and the human one with verbose),
# as it bears on no finding (a starting player given is never wrong).
NO_REVEALS_NOTE = "starting player given without reveals: the reveal rule is not checked"
# The start of the note on a game whose id an earlier game of the run has
# (shown for every verdict: the reports and `--expect game:` cannot tell them apart).
DUPLICATE_NOTE = "another game of this run has this id"


class DiffEntry(msgspec.Struct, omit_defaults=True):
    """One difference between a state claim and the rules' state: one card
    (by id), one card design (by name, for zones the log names by name), or
    one field. `log` and `rules` say where each puts the card (a list of
    places: zone, player, and the sub-fields claimed), how many of the design
    each puts where, or the field's value. The entry after the last a
    finding lists counts the cards and designs left out (`more`); the places
    a side has beyond those listed are counted in `left_out` ("log": 980)."""

    text: str
    card: int | None = None
    name: str | None = None
    field: str | None = None
    log: Any = None
    rules: Any = None
    more: int | None = None
    left_out: dict[str, int] | None = None


class RulesEvent(msgspec.Struct, omit_defaults=True):
    """Something the rules did since the log and the rules last agreed, with
    the clauses that made it happen."""

    kind: str
    clauses: list[str]
    text: str
    player: int | None = None
    card: int | None = None
    cards: list[int] | None = None
    amount: int | None = None
    source: int | None = None


class Finding(msgspec.Struct, omit_defaults=True):
    code: str
    clauses: list[str]
    line: int
    message: str
    log: Any = None
    rules: Any = None
    options: list = msgspec.field(default_factory=list)
    diff: list[DiffEntry] | None = None     # state claims: one entry per card, design or field that differs
    events: list[RulesEvent] = msgspec.field(default_factory=list)  # what the rules did since log and rules agreed
    cards: dict[int, str] = msgspec.field(default_factory=dict)  # names of the card ids mentioned
    expected: bool = False
    count: int = 1                  # with keep_going: how many times this divergence was found in the game
    lines: list[int] = msgspec.field(default_factory=list)  # the lines where it was found, when more than once
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
    outcome: str | None = None      # pass | fail | xfail | xpass | malformed (oracle.replay.outcome)
    conforms_to: list[str] | None = None  # with --which-editions: the editions the game conforms to
    aborted: bool = False           # the log's end line says the implementation stopped the game
    readings: dict[str, str] | None = None  # the readings followed where not the team's (game line, --reading)
    # With --which-editions: every (edition, readings) combination under which
    # the game conforms; `readings` covers the readings in play in this game.
    consistent_with: list[dict] | None = None
    # The game, when not Mindbug (oracle.games): left out of a Mindbug game's report.
    game: str | msgspec.UnsetType = msgspec.UNSET


def signature(f: Finding) -> tuple:
    """What makes two findings of one game the same divergence: the code, the
    clauses, and the kind of difference. For a state claim, the differing
    fields and, per differing card, the zones the log and the rules put it in
    (not which card, player or count); for a decision, the line type the log
    wrote and the kind of decision the rules waited for; otherwise the
    message with its numbers left out."""
    kind: tuple
    if f.diff is not None:
        kind = tuple(sorted({("card", _zones(e.log), _zones(e.rules)) if e.field is None
                             else (e.field.split("[", 1)[0],) for e in f.diff}))
    elif isinstance(f.log, dict) and "t" in f.log:
        stage = f.rules.get("stage") if isinstance(f.rules, dict) else None
        kind = (f.log["t"], stage)
    else:
        kind = ("".join("#" if ch.isdigit() else ch for ch in f.message),)
    return (f.code, tuple(f.clauses), kind)


def repeated(seen: dict, f: Finding, line: int) -> bool:
    """Whether `f`, found at `line`, is a divergence a game already showed:
    then the first finding of it (in `seen`, signature -> finding) counts
    it, with its line, and `f` is not reported. Else `f` is the first of
    its kind, and `seen` keeps it."""
    sig = signature(f)
    first = seen.get(sig)
    if first is not None:
        first.count += 1
        first.lines = (first.lines or [first.line]) + [line]
        return True
    seen[sig] = f
    return False


def say_unknown_fields(v, format_name: str, t: str, extra: list[str], lineno: int) -> None:
    """Fields a `t` line holds that `format_name` does not define, met by the
    verifier `v` (its `strict`, `lost`, `find` and `report`): a note, or with
    `strict` an UNKNOWN_FIELD finding (a misspelt claim field would otherwise
    go unchecked) that leaves the reading of the game as it was."""
    if v.strict:
        _strict(v, "UNKNOWN_FIELD", lineno, f"fields not in {format_name} on a {t!r} line: {', '.join(extra)}", extra)
    else:
        v.report.notes.append(f"line {lineno}: {UNKNOWN_FIELDS_NOTE}{format_name}, ignored: {', '.join(extra)}")


def say_keys_twice(v, keys: list[str], lineno: int) -> None:
    """Keys a line gives twice in one object (the decoder took the last value
    of each), met by the verifier `v`: a note, or with `strict` a
    DUPLICATE_KEY finding, as `say_unknown_fields`."""
    said = f"{DUPLICATE_KEYS_NOTE}, the last value taken: {', '.join(keys)}"
    if v.strict:
        _strict(v, "DUPLICATE_KEY", lineno, said, keys)
    else:
        v.report.notes.append(f"line {lineno}: {said}")


def _strict(v, code: str, lineno: int, said: str, log: list[str]) -> None:
    lost = v.lost
    v.find(code, [], lineno, f"{said} (--strict)", log=log)
    v.lost = lost


def event_views(events) -> list[RulesEvent]:
    """A game engine's events (each with its kind, clauses, text, player,
    card, cards and amount) as a finding or a reply shows them."""
    return [RulesEvent(e.kind, list(e.clauses), e.text, player=e.player, card=e.card,
                       cards=None if e.cards is None else list(e.cards), amount=e.amount) for e in events]


def _zones(places) -> tuple:
    if not isinstance(places, list):
        return ()
    return tuple(sorted(str(p.get("zone")) for p in places if isinstance(p, dict)))


def card_ids(x, out: set) -> None:
    """Every card id in a finding's data: ints under card-like keys or in card
    lists. A claim's `deck` is a draw pile per player, either a list of cards
    or a count: a count names no card."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "deck":
                _collect_ints([pile for pile in v if isinstance(pile, (list, tuple))]
                              if isinstance(v, (list, tuple)) else None, out)
            elif k in ("card", "cards", "hand", "discard", "play", "played", "blocker", "deck") or not isinstance(k, str):
                _collect_ints(v, out)
            else:
                card_ids(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            card_ids(v, out)


def name_cards(f: "Finding", names: dict) -> None:
    """Set `f.cards`: the name of every card the finding mentions (log, rules,
    options, events, diff), from `names` (card id -> name)."""
    ids: set[int] = set()
    card_ids((f.log, f.rules, f.options), ids)
    for e in f.events:
        ids.update(c for c in (e.card, e.source, *(e.cards or ())) if c is not None)
    for e in f.diff or ():
        if e.card is not None:
            ids.add(e.card)
    f.cards = {c: names[c] for c in sorted(ids) if c in names}


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


def report_schema() -> dict:
    """JSON Schema of `verify --format json`: one line per game, then a summary."""
    class GameLine(GameReport, tag="game", tag_field="t"):
        pass

    class SummaryLine(Summary, tag="summary", tag_field="t"):
        pass

    from ..schemas import json_schema

    return json_schema(
        GameLine | SummaryLine, id="https://mb-oracle.invalid/schema/mb-oracle-report.json",
        title="mb-oracle verify report line (JSON Lines)",
        description=("One line of `mb-oracle verify --format json`: a line per game (t: game), "
                     "then a summary line (t: summary); see spec/replay-format.md."))
