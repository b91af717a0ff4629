"""pytest plugin (entry point `pytest11`): scenario files are test files.

`pytest scenarios/` collects every YAML file holding mb-scenario/1
documents and makes one test item per scenario per edition it applies to,
named `scenario-id[edition]`. A failure shows its one-line reason first,
then the step (with its file and line), the clause and the difference, not
a traceback, and its reason is in the short summary (`-ra`). A document
that cannot be read as a scenario, or whose id an earlier collected file
uses, is a failing item of its own (`load:LINE`, naming the file, the line
and the field of each problem) while the file's good documents run, as
`mb-oracle scenarios` has it; a file with no scenario to run is a
collection error.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ..term import visible
from .document import FORMAT

MARKER = "mb-scenario/"
_SEEN = pytest.StashKey[dict]()   # scenario id -> (file, line) of its first collected document


def pytest_collect_file(file_path, parent):
    if file_path.suffix in (".yaml", ".yml"):
        from ..safeyaml import MAX_BYTES

        try:
            with open(file_path, "rb") as f:
                head = f.read(MAX_BYTES + 1)   # a file larger than this is refused by the loader
        except OSError:
            return None
        if MARKER.encode() in head:
            return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        from .loader import load_file

        try:
            sf = load_file(self.path)
        except Exception as e:  # noqa: BLE001 - a loader bug must still be one clean error item
            import traceback

            last = traceback.extract_tb(e.__traceback__)[-1]
            raise self.CollectError(visible(f"internal error reading this {FORMAT} file: {type(e).__name__}: {e} "
                                            f"(at {last.filename}:{last.lineno}); please report it")) from None
        seen = self.session.stash.setdefault(_SEEN, {})
        runnable = []
        for sc in sf.scenarios:
            first = seen.setdefault(sc.id, (sc.file, sc.line))
            if first[0] != sc.file:
                sf.errors.append(_duplicate(sc, first))
            else:
                runnable.append(sc)
        if sf.errors and not runnable:
            raise self.CollectError(f"{len(sf.errors)} problem{'s' * (len(sf.errors) != 1)} "
                                    f"in a {FORMAT} file:\n" + "\n".join(visible(str(e)) for e in sf.errors))
        for sc in runnable:
            for edition in sc.editions():
                yield ScenarioItem.from_parent(self, name=visible(f"{sc.id}[{edition}]"), scenario=sc, edition=edition)
        for problems in _by_document(self.path, sf.errors):
            yield BadDocumentItem.from_parent(self, name=f"load:{problems[0].line or 0}", problems=problems)


def _by_document(path, errors) -> list[list]:
    """The problems of a file, grouped by the document (between `---`
    lines) each is in, in the order of the file."""
    import bisect
    import re

    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return [[e] for e in errors]
    starts = [m.start() for m in re.finditer(r"(?m)^---", text)]
    separators = [text.count("\n", 0, s) + 1 for s in starts]    # the line of each `---`
    groups: dict[int, list] = {}
    for e in sorted(errors, key=lambda e: e.line or 0):
        groups.setdefault(bisect.bisect_right(separators, (e.line or 0) - 1), []).append(e)
    return list(groups.values())


def _duplicate(sc, first):
    from .loader import ScenarioError

    return ScenarioError(sc.file, sc.line, "id", f"duplicate scenario id {sc.id!r} (first at {first[0]}:{first[1]})")


@dataclass
class _Crash:
    """Where and why a run failed, where pytest looks for it (`reprcrash`):
    its message is the reason in the short summary and in JUnit reports."""

    path: str
    lineno: int
    message: str


class FailureRepr:
    """A failed run as pytest shows it: the scenario report, no traceback."""

    def __init__(self, result):
        from .report import failure_text, reason

        self.reprcrash = _Crash(result.file, result.at_line or result.line, visible(reason(result)))
        self.text = self.reprcrash.message + "\n" + failure_text(result)     # the reason first, then the details

    def toterminal(self, tw) -> None:
        for line in self.text.splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return self.text


class ScenarioFailed(Exception):
    def __init__(self, result):
        super().__init__(result.message)
        self.result = result


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, edition, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.edition = edition

    def runtest(self):
        from .runner import run

        result = run(self.scenario, self.edition)
        if result.failed:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return FailureRepr(excinfo.value.result)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.scenario.line - 1, visible(f"scenario {self.scenario.id} [{self.edition}]")


class BadDocument(Exception):
    pass


class ProblemsRepr(FailureRepr):
    """A document that cannot be read as a scenario: its first problem as
    the reason, then every problem, one a line."""

    def __init__(self, problems):
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        where = f"line {first.line}" if first.line else "the file"
        what = f"{first.field}: {first.message}" if first.field else first.message
        self.reprcrash = _Crash(first.file, first.line or 0, visible(f"{what} ({where}){more}"))
        self.text = "\n".join([self.reprcrash.message, *(visible(str(e)) for e in problems)])


class BadDocumentItem(pytest.Item):
    """A document of a scenario file that cannot be run: a failing item
    naming its problems, beside the file's good scenarios."""

    def __init__(self, *, problems, **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self):
        raise BadDocument(self.problems[0].message)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, BadDocument):
            return ProblemsRepr(self.problems)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, (self.problems[0].line or 1) - 1, visible(f"a document of {FORMAT} that cannot run")
