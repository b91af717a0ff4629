"""Known, accepted divergences of an implementation (`verify --expect FILE`).

    format: mb-expect/1
    expected:
      - code: ILLEGAL_DECISION
        clause: keywords.sneaky      # optional
        game: g-000017               # optional: only this game
        note: why it is accepted     # optional

A finding that matches an entry is an expected failure; an entry that
matches no finding is an unexpected pass (the divergence is gone: remove it).
"""

from __future__ import annotations

import msgspec
import yaml

from .. import safeyaml


class Expected(msgspec.Struct, forbid_unknown_fields=True):
    code: str
    clause: str | None = None
    game: str | None = None
    note: str = ""


class ExpectFile(msgspec.Struct, forbid_unknown_fields=True):
    expected: list[Expected]
    format: str = "mb-expect/1"


class ExpectError(ValueError):
    pass


def load(path: str) -> list[Expected]:
    try:
        with open(path, encoding="utf-8") as f:
            data = safeyaml.load(f)
    except OSError as e:
        raise ExpectError(f"{path}: cannot read: {e.strerror}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise ExpectError(f"{path}{where}: not valid YAML or JSON: {getattr(e, 'problem', e)}") from None
    try:
        doc = msgspec.convert(data, ExpectFile)
    except msgspec.ValidationError as e:
        raise ExpectError(f"{path}: {e}") from None
    if doc.format != "mb-expect/1":
        raise ExpectError(f"{path}: format {doc.format!r} is not mb-expect/1")
    return doc.expected


def matches(e: Expected, game_id: str, finding) -> bool:
    return (e.code == finding.code and (e.clause is None or e.clause in finding.clauses)
            and (e.game is None or e.game == game_id))


def apply(expectations: list[Expected], report, used: set[int]) -> None:
    """Mark the report's expected findings and set its outcome."""
    for f in report.findings:
        for i, e in enumerate(expectations):
            if matches(e, report.id, f):
                f.expected = True
                used.add(i)
                break
    unexpected_pass = [e for e in expectations if e.game == report.id
                       and not any(matches(e, report.id, f) for f in report.findings)]
    if report.verdict == "malformed":
        report.outcome = "malformed"
    elif any(not f.expected for f in report.findings):
        report.outcome = "fail"
    elif unexpected_pass:
        report.outcome = "xpass"
        report.notes.append("expected divergences that did not happen: "
                            + ", ".join(f"{e.code} [{e.clause}]" for e in unexpected_pass))
    elif report.findings:
        report.outcome = "xfail"
    else:
        report.outcome = "pass"
