"""Reading scenario files: YAML (safe loading only), checked with the
mb-scenario/1 structs, then against the card set and the clause catalogue.

Every problem is a `ScenarioError` naming the file, the line and the field,
like a compiler message: `scenarios/combat.yaml:42: given.players[0].hand[2]:
unknown card 'Luchatour'`. The loader collects them and keeps going (a bad
document is left out, the others are kept); it never raises for bad input.
Every problem of a document is listed, its structure's (`structure`) and
those of the checks beyond it, in one run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from msgspec import UNSET

from .. import safeyaml
from ..games import DEFAULT as DEFAULT_GAME, UnknownGame, check as check_game
# Card names and the checks beyond the structure live in .cards and .checking;
# their names are still found here, where the rest of the project looks for them.
from .cards import CardRefError, all_ids, card_id, card_name, keyword_name, scenario_sets  # noqa: F401
from .checking import DECISION_KEYS, Checker, expected_refusal, scenario_editions
from .format import FORMAT, Expect, Illegal, Scenario
from .located import ScenarioError
from .structure import Locator, field_name, read_structure

SUFFIXES = (".yaml", ".yml")


# -- results of loading ------------------------------------------------------------


@dataclass
class LoadedScenario:
    doc: Scenario
    file: str
    line: int
    step_lines: list[int] = field(default_factory=list)   # the line of each step
    key_lines: dict[str, int] = field(default_factory=dict)  # given, expect, illegal, expect_by_edition.E
    game = DEFAULT_GAME    # a Mind Up! scenario is a LoadedMindUp (oracle.scenarios.mindup_loader)

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


@dataclass
class ScenarioFile:
    path: str
    scenarios: list[LoadedScenario] = field(default_factory=list)
    errors: list[ScenarioError] = field(default_factory=list)


# -- loading ----------------------------------------------------------------------


def discover(paths: Iterable[str | Path]) -> tuple[list[Path], list[ScenarioError]]:
    """The scenario files under `paths` (files, or directories searched
    recursively for *.yaml and *.yml), sorted; and the paths that do not
    exist, and the folders that could not be searched."""
    from ..folders import search

    found: list[Path] = []
    errors: list[ScenarioError] = []
    for p in map(Path, paths):
        if p.is_dir():
            files, unread = search(str(p), lambda name: os.path.splitext(name)[1] in SUFFIXES)
            found += map(Path, files)
            errors += [ScenarioError(folder, None, None, f"cannot read the folder: {why}; its scenarios are not run")
                       for folder, why in unread]
        elif p.is_file():
            found.append(p)
        elif p.exists():
            errors.append(ScenarioError(str(p), None, None, "not a file or a folder (a device, a pipe or a socket): "
                                                            "no scenarios are read from it"))
        else:
            errors.append(ScenarioError(str(p), None, None, "no such file or directory"))
    return found, errors


def files_read(paths: Iterable[str | Path]) -> list[str]:
    """Every file a run of the scenarios under `paths` reads: the paths
    themselves, the scenario files under them and the card files their
    scenarios name (`card_file`), so that no output is written over one."""
    paths = [str(p) for p in paths]
    files = discover(paths)[0]
    out = [*paths, *map(str, files)]
    for f in files:
        try:
            data = safeyaml.read_file(f)
        except OSError:
            continue
        if b"card_file" not in data:
            continue                    # the usual case: no YAML to read
        try:
            for _node, doc in safeyaml.documents(data):
                if isinstance(doc, dict) and isinstance(doc.get("card_file"), str):
                    out.append(str(f.parent / doc["card_file"]))
        except (safeyaml.YamlProblem, ValueError):
            continue                    # the loader says what is wrong with it
    return out


def load_paths(paths: Iterable[str | Path]) -> tuple[list[ScenarioFile], list[ScenarioError]]:
    """Every scenario file under `paths`; the errors include duplicate ids
    across files and paths that do not exist."""
    files, errors = discover(paths)
    loaded = [load_file(f) for f in files]
    seen: dict[str, LoadedScenario] = {}
    for sf in loaded:
        kept = []
        for sc in sf.scenarios:
            first = seen.get(sc.id)
            if first is not None and first is not sc:
                sf.errors.append(ScenarioError(sc.file, sc.line, "id",
                                               f"duplicate scenario id {sc.id!r} (first at {first.file}:{first.line})"))
                continue
            seen[sc.id] = sc
            kept.append(sc)
        sf.scenarios = kept
    return loaded, errors


def load_file(path: str | Path) -> ScenarioFile:
    name = str(path)
    try:
        data = safeyaml.read_file(path)
    except OSError as e:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"cannot read: {e.strerror or e}")])
    if len(data) > safeyaml.MAX_BYTES:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"the file is larger than "
                                                        f"{safeyaml.MAX_BYTES} bytes (MAX_BYTES)")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"not UTF-8 text (byte "
                                                        f"0x{data[e.start]:02x} at offset {e.start})")])
    return load_text(text, name)


def load_text(text: str, name: str = "<text>", folders=None, card_files=()) -> ScenarioFile:
    """Every scenario document of one file's text. `folders`: a `card_file`
    is read only as a regular file under them, or one of `card_files` (the
    scenario file came from a client)."""
    out = ScenarioFile(name)
    for node, data, error in _documents(text, name):
        if error is not None:
            out.errors.append(error)
            break
        sc, errs = _load_document(node, data, name, folders, card_files)
        out.errors += errs
        if sc is not None:
            if any(s.id == sc.id for s in out.scenarios):
                out.errors.append(ScenarioError(name, sc.line, "id", f"duplicate scenario id {sc.id!r}"))
            else:
                out.scenarios.append(sc)
    if not out.scenarios and not out.errors:
        out.errors.append(ScenarioError(name, None, None, "no scenario in this file"))
    return out


def _documents(text: str, name: str) -> Iterator[tuple]:
    """(node, data, None) per document; (None, None, error) at the first
    problem, which ends the file (safe loading: see oracle/safeyaml.py)."""
    try:
        for node, data in safeyaml.documents(text):
            yield node, data, None
    except safeyaml.YamlProblem as e:
        yield None, None, ScenarioError(name, e.line, None, e.message)


def _load_document(node, data, name: str, folders=None,
                   card_files=()) -> tuple[LoadedScenario | None, list[ScenarioError]]:
    loc = Locator(node)
    line = loc.line([])
    if not isinstance(data, dict):
        return None, [ScenarioError(name, line, None, "a scenario must be a mapping of keys such as id, "
                                                       "title, clauses, given, steps, expect")]
    fmt = data.get("format")
    if fmt != FORMAT:
        where = loc.key_line([], "format") if "format" in data else line
        what = f"format {fmt!r} is not {FORMAT!r}" if "format" in data else f"missing 'format: {FORMAT}'"
        return None, [ScenarioError(name, where, "format", what + f" (this oracle reads {FORMAT})")]
    game = data.get("game", DEFAULT_GAME)
    if game != DEFAULT_GAME:
        try:
            check_game(game if isinstance(game, str) else repr(game))
        except UnknownGame as e:
            return None, [ScenarioError(name, loc.key_line([], "game"), "game", str(e))]
        from .mindup_loader import load_document
        return load_document(data, name, loc)
    read = read_structure(data, loc)
    doc = read.doc
    prefix = f"scenario {data['id']}: " if isinstance(data.get("id"), str) else ""
    errors = [ScenarioError(name, at, field_name(path), prefix + message) for path, at, message in read.problems]
    if doc is None:
        return None, errors
    if doc.card_file is not UNSET:
        from ..games.mindbug.cards.compiled import load_file
        from ..games.mindbug.cards.declared import CardFileError
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


__all__ = ["ScenarioError", "ScenarioFile", "LoadedScenario", "CardRefError",
           "card_id", "card_name", "all_ids", "keyword_name", "scenario_sets", "scenario_editions", "expected_refusal",
           "load_file", "load_text", "load_paths", "discover", "step_kind", "step_text", "merge_expect"]
