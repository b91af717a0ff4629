"""Mindbug's words for `mb-oracle fuzz` (its registry entry's FUZZ_WORDS):
the names, editions, line types, clauses, keywords and scenario steps that
hostile JSON and YAML values are drawn from (oracle.fuzz.strategies,
yaml_strategies). Shipped cards only, whatever else the process has loaded:
the same draws in every process."""

from __future__ import annotations

from ..cards import full_set
from ..editions import EDITIONS
from ..replay.format import LINE_TYPES

WORDS = {
    "names": sorted(set(full_set())),
    "editions": EDITIONS,
    "line_types": LINE_TYPES,
    "clauses": ("keywords.sneaky", "combat.block", "setup.deal", "life.lose", "no.such.clause", ""),
    "keywords": ("FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "furie", "BOGUS"),
    # a scenario step's keys (each naming a card) and other words of steps and expectations
    "step_keys": ("play", "attack", "block", "hunt", "choose", "by"),
    "step_words": ("mindbug", "pass", "all", "draft", "ILLEGAL", "BAD_POSITION"),
}
