"""Mind Up!'s scenarios (`game: mind-up`): the structs of a document
(`format`), reading and checking one (`loader`), running one (`runner`), as
the shared scenario runner (oracle.scenarios) reaches them through the game
registry (the entry's SCENARIOS; oracle/games/__init__.py says what it
gives)."""

from __future__ import annotations

from .format import EDITIONS, MindUpScenario as Scenario
from .loader import load_document
from .runner import run

__all__ = ["EDITIONS", "Scenario", "load_document", "run"]
