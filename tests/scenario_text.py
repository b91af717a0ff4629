"""Helpers of the tests that write scenarios as text: load a document,
read its problems, find a line, run its one scenario."""

from __future__ import annotations

from oracle.scenarios.loader import load_text
from oracle.scenarios.runner import run


def errors_of(text: str) -> list[str]:
    """The problems of the document `text`, as the loader writes them."""
    return [str(e) for e in load_text(text, "bad.yaml").errors]


def line_of(text: str, needle: str) -> int:
    """The number of the first line of `text` that holds `needle`."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def one_run(text: str, edition: str):
    """The run of the one scenario `text` holds, in `edition` (it must load
    without a problem and be played in that edition)."""
    f = load_text(text, "t.yaml")
    assert not f.errors, [str(e) for e in f.errors]
    (sc,) = f.scenarios
    assert edition in sc.editions(), (edition, sc.editions())
    return run(sc, edition)
