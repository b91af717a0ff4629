"""Problems in scenario files, located like compiler messages: a
`ScenarioError` names the file, the line and the field (the line found in
the YAML node tree by `oracle.structure.Locator`). Shared by the documents
of every game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..term import visible


@dataclass(frozen=True)
class ScenarioError:
    """A problem in a scenario file, located like a compiler message."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        name = visible(self.file)           # on one line, whatever the file's name holds
        where = f"{name}:{self.line}" if self.line else name
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}


def check_editions_and_readings(doc, fail, check_readings, unknown: type[Exception]) -> None:
    """What every game's document checker asks of `editions` and `readings`:
    no edition listed twice, readings the game knows (`check_readings`
    raises `unknown`, the game's UnknownReading, whose message names the
    nearest); each problem goes to `fail(path, message)`."""
    from msgspec import UNSET

    if doc.editions != "all" and len(set(doc.editions)) != len(doc.editions):
        fail(["editions"], "an edition is listed twice")
    if doc.readings is not UNSET:
        try:
            check_readings(doc.readings)
        except unknown as e:
            fail(["readings"], str(e))
