"""Reading scenario files: YAML (safe loading only), each document handed
to the scenario vocabulary of its game (`game`, Mindbug when left out;
oracle.games.<game>.scenarios: its structs, then its cards and its clause
catalogue).

Every problem is a `ScenarioError` naming the file, the line and the field,
like a compiler message: `scenarios/combat.yaml:42: given.players[0].hand[2]:
unknown card 'Luchatour'`. The loader collects them and keeps going (a bad
document is left out, the others are kept); it never raises for bad input.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .. import safeyaml
from ..games import DEFAULT as DEFAULT_GAME, UnknownGame, check as check_game
from ..structure import Locator
from .document import FORMAT, of_game
from .located import ScenarioError

SUFFIXES = (".yaml", ".yml")


# -- results of loading ------------------------------------------------------------


@dataclass
class ScenarioFile:
    """The scenarios of one file, each as its game's loader reads it (an
    object with `id`, `file`, `line`, `game` and `editions()`), and the
    problems of the file."""

    path: str
    scenarios: list = field(default_factory=list)
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
        try:
            is_dir = p.is_dir()
        except OSError as e:        # a path longer than the system takes: named, the others run
            errors.append(ScenarioError(str(p), None, None, f"cannot read: {e.strerror or e}"))
            continue
        if is_dir:
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
    seen: dict = {}
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


def _load_document(node, data, name: str, folders=None, card_files=()) -> tuple[object | None, list[ScenarioError]]:
    """One document: its format checked, then read by its game's loader."""
    loc = Locator(node)
    line = loc.line([])
    if not isinstance(data, dict):
        return None, [ScenarioError(name, line, None, "a scenario must be a mapping of keys such as id, "
                                                       "title, clauses, given, steps, expect")]
    fmt = data.get("format")
    if fmt != FORMAT:
        where = loc.key_line([], "format") if "format" in data else line
        what = f"format {fmt!r} is not {FORMAT!r}" if "format" in data else f"missing 'format: {FORMAT}'"
        what += f" (this oracle reads {FORMAT})"
        if "format" not in data:
            # A key that is `format` misspelt: named at its line.
            typo = difflib.get_close_matches("format", [k for k in data if isinstance(k, str)], n=1, cutoff=0.6)
            if typo:
                where = loc.key_line([], typo[0])
                what += f"; unknown key {typo[0]!r} (did you mean 'format'?)"
        return None, [ScenarioError(name, where, "format", what)]
    game = data.get("game", DEFAULT_GAME)
    try:
        check_game(game if isinstance(game, str) else repr(game))
    except UnknownGame as e:
        return None, [ScenarioError(name, loc.key_line([], "game"), "game", str(e))]
    return of_game(game).load_document(data, name, loc, folders, card_files)


__all__ = ["ScenarioError", "ScenarioFile", "load_file", "load_text", "load_paths", "discover", "files_read"]
