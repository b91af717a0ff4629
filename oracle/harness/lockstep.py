"""Lockstep, what both games share: the codes of the findings a lockstep
comparison makes, and how conform words a state claim's differences. Each
game plays its own lockstep (Mindbug's: oracle.games.mindbug.harness.lockstep)."""

from __future__ import annotations

import msgspec

from ..replay.findings import DiffEntry

OPTIONS_DIFFER = "OPTIONS_DIFFER"
STATE_MISMATCH = "STATE_MISMATCH"
WRONG_RESULT = "WRONG_RESULT"
ENGINE_REFUSED = "ENGINE_REFUSED"


def engine_words(diff: list[DiffEntry]) -> list[DiffEntry]:
    """A state claim's differences as conform words them: the side that is
    not the rules is the engine, not a log ("the engine has card 12 in ...")."""
    return [msgspec.structs.replace(d, text=d.text.replace("the log ", "the engine ")) for d in diff]
