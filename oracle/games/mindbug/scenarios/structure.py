"""The structure of a Mindbug scenario document: every problem of its
structure (msgspec's checks), each at its line (oracle.scenarios.structure),
read past one problem to the next so that one run lists them all
(`oracle.structure`).
"""

from __future__ import annotations

from ....scenarios.structure import msgspec_location
from ....structure import Locator, Structure, field_name, read_past
from ..editions import EDITIONS
from .format import MAX_OCTONITE, SOURCE_KINDS, Scenario


def _note(path: list, message: str) -> str:
    """What a Mindbug document's reader adds to msgspec's word on a value."""
    if path[-1:] == ["octonite"] or path[-2:-1] == ["octonite"]:
        message += f" (Octonite counters: a whole number from 0 to {MAX_OCTONITE}, MAX_OCTONITE)"
    if message.startswith("Invalid enum value") and path[:1] == ["steps"]:
        message += " (a bare step is `mindbug` or `pass`; others are written `kind: value`)"
    return message


def location(error: str, data, loc: Locator) -> tuple[list, int, str]:
    """msgspec's error as (path, line, message) in a Mindbug document."""
    return msgspec_location(error, data, loc, EDITIONS, _note, Scenario)


# Values put in for a required top-level key the document lacks, so that the
# checks beyond the structure still run on the rest (their findings about
# these values are not the document's, and are dropped).
PLACEHOLDERS = {"id": "placeholder", "title": "-", "clauses": ["-"], "source": {"kind": SOURCE_KINDS[0], "ref": "-"},
                "given": {}}


def read_structure(data: dict, loc: Locator) -> Structure:
    """The document as a Scenario and every problem of its structure (a step
    with a problem is taken out whole: what is left of it is no step)."""
    def whole(path, _message):
        return path[:2] if len(path) >= 3 and path[0] == "steps" else path
    out = read_past(data, Scenario, loc, lambda e, d: location(e, d, loc), PLACEHOLDERS, whole)
    if out.doc is not None and "id" in out.filled:
        import msgspec
        out.doc = msgspec.structs.replace(out.doc, id="(no id)")
    return out


__all__ = ["Locator", "PLACEHOLDERS", "Structure", "field_name", "location", "read_structure"]
