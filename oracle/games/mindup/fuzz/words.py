"""Mind Up!'s words for `mb-oracle fuzz` (its registry entry's FUZZ_WORDS):
the cards, editions, line types, clauses, bubbles and scenario keys that
hostile JSON and YAML values are drawn from when it is the default game
(oracle.fuzz.strategies, yaml_strategies)."""

from __future__ import annotations

from .. import EDITIONS
from ..readings import READINGS
from ..replay.format import LINE_TYPES

WORDS = {
    "names": tuple(str(n) for n in range(1, 61)),
    "editions": EDITIONS,
    "line_types": LINE_TYPES,
    "clauses": tuple(r.clause for r in READINGS) + ("mu.NO.SUCH.CLAUSE", ""),   # in capitals: an id no catalogue holds
    "keywords": ("bonus", "malus", "BOGUS"),
    # a scenario's keys (each naming cards) and other words of its turns and expectations
    "step_keys": ("round", "order", "hands", "line", "columns"),
    "step_words": ("mind-up", "reveal", "last", "ILLEGAL"),
}
