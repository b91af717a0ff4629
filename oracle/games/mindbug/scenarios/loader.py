"""Reading a Mindbug scenario document: checked with the mb-scenario/1
structs (`structure`), then against the card set and the clause catalogue
(`checking`); the documents of a file come from oracle.scenarios.loader.

Every problem is a `ScenarioError` naming the file, the line and the field,
like a compiler message: `scenarios/combat.yaml:42: given.players[0].hand[2]:
unknown card 'Luchatour'`. Every problem of a document is listed, its
structure's and those of the checks beyond it, in one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from msgspec import UNSET

from .... import safeyaml
from ....scenarios.located import ScenarioError
from .. import NAME
from .checking import DECISION_KEYS, Checker, expected_refusal, scenario_editions
from .format import Expect, Illegal, Scenario
from .structure import field_name, read_structure


@dataclass
class LoadedScenario:
    doc: Scenario
    file: str
    line: int
    step_lines: list[int] = field(default_factory=list)   # the line of each step
    key_lines: dict[str, int] = field(default_factory=dict)  # given, expect, illegal, expect_by_edition.E
    game = NAME

    def line_of(self, part: str, step: int | None = None) -> int:
        """The line of step `step` (1-based) when `part` is "step", else of
        the top-level key `part` (or the scenario's first line)."""
        if part == "step" and step and step <= len(self.step_lines):
            return self.step_lines[step - 1]
        return self.key_lines.get(part, self.line)

    @property
    def id(self) -> str:
        return self.doc.id

    def editions(self) -> list[str]:
        """The editions the scenario applies to, in catalogue order."""
        return scenario_editions(self.doc)

    def expectation(self, edition: str) -> tuple[Expect | None, Illegal | None]:
        """The expectation and the expected refusal for one edition, with
        that edition's overrides applied."""
        d = self.doc
        expect = d.expect if d.expect is not UNSET else None
        by = d.expect_by_edition if d.expect_by_edition is not UNSET else {}
        over = by.get(edition)
        if over is not None and over.expect is not UNSET:
            expect = over.expect if expect is None else merge_expect(expect, over.expect)
        return expect, expected_refusal(d, edition)


def merge_expect(base: Expect, over: Expect) -> Expect:
    """`over`'s fields replace `base`'s; `players` merge player by player."""
    changes = {}
    for name in over.__struct_fields__:
        value = getattr(over, name)
        if value is UNSET:
            continue
        if name == "players" and base.players is not UNSET:
            merged = list(base.players)
            for i, p in enumerate(value):
                if i < len(merged):
                    merged[i] = msgspec.structs.replace(
                        merged[i], **{f: getattr(p, f) for f in p.__struct_fields__
                                      if getattr(p, f) is not UNSET})
                else:
                    merged.append(p)
            value = merged
        changes[name] = value
    return msgspec.structs.replace(base, **changes)


def load_document(data: dict, name: str, loc, folders=None,
                  card_files=()) -> tuple[LoadedScenario | None, list[ScenarioError]]:
    """A Mindbug document (a mapping of format mb-scenario/1): (the scenario,
    []) or (None, its errors). `folders`, `card_files`: where its `card_file`
    may be read (oracle.scenarios.loader.load_text)."""
    line = loc.line([])
    read = read_structure(data, loc)
    doc = read.doc
    prefix = f"scenario {data['id']}: " if isinstance(data.get("id"), str) else ""
    errors = [ScenarioError(name, at, field_name(path), prefix + message) for path, at, message in read.problems]
    if doc is None:
        return None, errors
    if doc.card_file is not UNSET:
        from ..cards.compiled import load_file
        from ..cards.declared import CardFileError
        card_path = Path(name).parent / doc.card_file
        try:
            load_file(card_path, None if folders is None else safeyaml.read_within(str(card_path), folders,
                                                                                  card_files))
        except CardFileError as e:
            return None, errors + [ScenarioError(name, loc.key_line([], "card_file"), "card_file",
                                                 f"scenario {doc.id}: {p}") for p in e.problems]
        except safeyaml.NotReadable as e:
            return None, errors + [ScenarioError(name, loc.key_line([], "card_file"), "card_file",
                                                 f"scenario {doc.id}: {e}")]
    errors += [e for e in Checker(doc, loc, name, read.cut).check()
               if e.field is None or e.field.split(".")[0].split("[")[0] not in read.filled]
    if errors:
        return None, sorted(errors, key=lambda e: e.line or 0)   # in the order of the file's lines
    keys = {k: loc.key_line([], k) for k in ("given", "expect", "illegal") if k in data}
    if isinstance(data.get("expect_by_edition"), dict):
        for e in data["expect_by_edition"]:
            keys[f"expect_by_edition.{e}"] = loc.key_line(["expect_by_edition"], e)
    steps = [loc.line(["steps", i]) for i in range(len(doc.steps))]
    return LoadedScenario(doc, name, line, steps, keys), []


def step_kind(s) -> tuple[str, object, int | None]:
    """(kind, value, by) of a step as written."""
    if isinstance(s, str):
        return s, None, None
    for k in DECISION_KEYS:
        v = getattr(s, "pass_" if k == "pass" else k)
        if v is not UNSET:
            return k, v, (None if s.by is UNSET else s.by)
    raise ValueError("a step with no decision")


def step_text(s) -> str:
    kind, value, by = step_kind(s)
    if kind in ("mindbug", "pass"):
        text = kind
    elif value is None:
        text = f"{kind}: null"
    elif isinstance(value, list):
        text = f"{kind}: [{', '.join(map(str, value))}]"
    else:
        text = f"{kind}: {value}"
    return text + (f" (by player {by})" if by is not None else "")


__all__ = ["LoadedScenario", "load_document", "merge_expect", "step_kind", "step_text"]
