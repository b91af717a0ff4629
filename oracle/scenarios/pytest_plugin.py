"""pytest plugin (entry point `pytest11`): scenario files are test files.

`pytest scenarios/` collects every YAML file holding mb-scenario/1
documents and makes one test item per scenario per edition it applies to,
named `scenario-id[edition]`. A failure shows the step (with its file and
line), the clause and the difference, not a traceback, and its reason is in
the short summary (`-ra`); a file that cannot be read as scenarios is a
collection error naming the file, the line and the field, and so is a
scenario id used in two files (as `mb-oracle scenarios` has it).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ..term import visible
from .format import FORMAT

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
        for sc in sf.scenarios:
            first = seen.setdefault(sc.id, (sc.file, sc.line))
            if first[0] != sc.file:
                sf.errors.append(_duplicate(sc, first))
        if sf.errors:
            raise self.CollectError(f"{len(sf.errors)} problem{'s' * (len(sf.errors) != 1)} "
                                    f"in a {FORMAT} file:\n" + "\n".join(visible(str(e)) for e in sf.errors))
        for sc in sf.scenarios:
            for edition in sc.editions():
                yield ScenarioItem.from_parent(self, name=visible(f"{sc.id}[{edition}]"), scenario=sc, edition=edition)


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

        self.text = failure_text(result)
        self.reprcrash = _Crash(result.file, result.at_line or result.line, visible(reason(result)))

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
