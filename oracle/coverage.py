"""Clause coverage: which scenarios and tests cite each clause of the catalogue,
and where the code applies it.

A scenario cites a clause by listing it in `clauses`; a test cites it by
mentioning the id as a quoted string ('keywords.tough' or "keywords.tough")
in a file under tests/; the code (the `oracle` package) the same way, and
is listed by file and line. A clause cited by no scenario and no test is a
rule nobody checks.

    mb-oracle clauses --coverage [--json] [--game GAME] [IDS...]

Each game has its own catalogue: `compute(root, game="mind-up")` counts the
Mind Up! scenarios (`game: mind-up`) against spec/mind-up/clauses.yaml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import click

from .games import DEFAULT as DEFAULT_GAME, entry
from .term import json_document, plural, visible


@dataclass
class Coverage:
    clauses: dict[str, "ClauseCoverage"]
    errors: list = field(default_factory=list)  # problems in scenario files
    scenario_folder: Path | None = None          # the folder the scenarios were read from, if any
    scenario_files: int = 0

    @property
    def uncited(self) -> list[str]:
        return [c for c, cov in self.clauses.items() if not cov.cited]


@dataclass
class ClauseCoverage:
    id: str
    title: str
    scenarios: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)      # file:line in the oracle package
    scenario_lines: list[str] = field(default_factory=list)  # file:line of each citing scenario

    @property
    def cited(self) -> bool:
        return bool(self.scenarios or self.tests)

    def to_json(self) -> dict:
        return {"id": self.id, "title": self.title, "scenarios": self.scenarios, "tests": self.tests,
                "code": self.code}


def project_root() -> Path:
    """The folder holding scenarios/ and tests/: the working directory if it
    has them, else the source checkout this package lives in."""
    cwd = Path.cwd()
    if (cwd / "scenarios").is_dir() or (cwd / "tests").is_dir():
        return cwd
    return Path(__file__).resolve().parents[1]


def compute(root: Path | None = None, game: str = DEFAULT_GAME) -> Coverage:
    """The coverage of `game`'s clause catalogue: the scenarios of that game
    citing each clause, the tests and the code that name it."""
    from .scenarios.loader import load_paths

    root = root or project_root()
    catalogue = entry(game).load_catalogue()
    cov = Coverage({cid: ClauseCoverage(cid, c.title) for cid, c in catalogue.items()})
    sdir = root / "scenarios"
    if sdir.is_dir():
        cov.scenario_folder = sdir
        files, errors = load_paths([sdir])
        cov.scenario_files = len(files)
        cov.errors = errors + [e for f in files for e in f.errors]
        for f in files:
            for sc in f.scenarios:
                if sc.game != game:
                    continue
                for cid in sc.doc.clauses:
                    if cid in cov.clauses:
                        cov.clauses[cid].scenarios.append(sc.id)
                        cov.clauses[cid].scenario_lines.append(f"{_shown(Path(sc.file), root)}:{sc.line}")
    tdir = root / "tests"
    if tdir.is_dir():
        for path in sorted(tdir.rglob("*.py")):
            text = path.read_text(encoding="utf-8", errors="replace")
            quoted = set(re.findall(r"""(['"])([a-z][a-z0-9.-]*)\1""", text))
            ids = {q for _, q in quoted}
            rel = path.relative_to(root).as_posix()
            for cid in ids & cov.clauses.keys():
                cov.clauses[cid].tests.append(rel)
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        rel = _shown(path, package.parent)
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for _, q in _QUOTED.findall(line):
                cid = q.split("@")[0]
                if cid in cov.clauses and (not cov.clauses[cid].code
                                           or cov.clauses[cid].code[-1] != f"{rel}:{n}"):
                    cov.clauses[cid].code.append(f"{rel}:{n}")
    return cov


_QUOTED = re.compile(r"""(['"])([a-z][a-z0-9.@-]*)\1""")


def _shown(path: Path, root: Path) -> str:
    """`path` relative to `root` when it is inside, else as it is."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def coverage_report(as_json: bool, ids: tuple, game: str = DEFAULT_GAME) -> int:
    """Print the coverage of `game`'s clauses (those whose id is or starts
    with one of `ids`, or all); 1 when one of them is cited by nothing or a
    scenario file is broken, else 0."""
    cov = compute(game=game)
    folder = str(cov.scenario_folder) if cov.scenario_folder else None
    chosen = [c for c in cov.clauses.values()
              if not ids or any(c.id == i or c.id.startswith(i + ".") for i in ids)]
    uncited = [c.id for c in chosen if not c.cited]
    if as_json:
        # the folder's name as the working directory gives it: json_document escapes what it must
        click.echo(json_document({"scenario_folder": folder, "scenario_files": cov.scenario_files,
                                  "clauses": [c.to_json() for c in chosen], "uncited": uncited,
                                  "errors": [e.to_json() for e in cov.errors]}))
    else:
        click.echo(visible(f"scenarios read from {folder} ({cov.scenario_files} file{'s' * (cov.scenario_files != 1)})")
                   if folder else "no scenarios folder found (looked in the working directory and the source "
                                  "checkout): no scenario counted")
        for e in cov.errors:
            click.echo(visible(str(e)))
        for c in chosen:
            mark = " " if c.cited else "!"
            scenarios, tests = plural(len(c.scenarios), "scenario"), plural(len(c.tests), "test file")
            click.echo(f"{mark} {c.id:<34} {scenarios:<14} {tests}")
        click.echo(f"{len(chosen) - len(uncited)} of {len(chosen)} clauses cited"
                   + (f"; cited by nothing: {', '.join(uncited)}" if uncited else ""))
    return 1 if uncited or cov.errors else 0
