"""Which of the package's modules run compiled.

A regular install (`pip install .`) compiles the modules of MODULES with
mypyc when mypy and a C compiler are there (hatch_build.py), and ships them
beside their .py files; an editable install, a source checkout and a build
with MB_ORACLE_PURE=1 run them all interpreted. The interpreted code is the
reference: the tests run it (tests/conftest.py refuses a compiled module
unless MB_ORACLE_TEST_COMPILED=1), and tests/test_compiled_identity.py
checks that both builds give byte-identical reports.
"""

from __future__ import annotations

import importlib.util

# The modules a compiled build compiles: the hot path of verify, chosen by
# counting instructions per decision (README, Speed in instructions).
MODULES = (
    "oracle.replay.batches",
    "oracle.games.mindbug.engine.records",
    "oracle.games.mindbug.engine.state",
    "oracle.games.mindbug.engine.board",
    "oracle.games.mindbug.engine.game",
    "oracle.games.mindbug.engine.turns",
    "oracle.games.mindbug.engine.combat",
    "oracle.games.mindbug.engine.power",
    "oracle.games.mindbug.engine.presence",
    "oracle.games.mindbug.engine.holders",
    "oracle.games.mindbug.engine.effects",
    "oracle.games.mindbug.engine.triggers",
    "oracle.games.mindbug.engine.play",
    "oracle.games.mindbug.engine.drawing",
    "oracle.games.mindbug.engine.life",
    "oracle.games.mindbug.engine.setup",
    "oracle.games.mindbug.engine.deck",
    "oracle.games.mindbug.engine.restrictions",
    "oracle.games.mindbug.engine.in_discard",
    "oracle.games.mindbug.engine.watch",
    "oracle.games.mindbug.engine.mindbug_rules",
    "oracle.games.mindbug.engine.forced",
    "oracle.games.mindbug.engine.later_turns",
    "oracle.games.mindbug.engine.leaving",
    "oracle.games.mindbug.engine.boost",
    "oracle.games.mindbug.engine.when",
    "oracle.games.mindbug.cards.abilities",
    "oracle.games.mindbug.replay.claims",
    "oracle.games.mindbug.replay.fastlane",
    "oracle.games.mindup.cards",
    "oracle.games.mindup.engine.state",
    "oracle.games.mindup.engine.turn",
    "oracle.games.mindup.engine.game",
    "oracle.games.mindup.engine.rounds",
    "oracle.games.mindup.engine.scoring",
    "oracle.games.mindup.engine.objectives",
    "oracle.games.mindup.engine.setup",
)


def compiled_modules() -> list[str]:
    """The modules of MODULES that this installation loads from a compiled
    extension rather than from their .py file, without importing them."""
    out = []
    for name in MODULES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is not None and not origin.endswith(".py"):
            out.append(name)
    return out


def build() -> str:
    """'compiled (N modules)' or 'pure Python': what runs here, in words."""
    n = len(compiled_modules())
    return f"compiled ({n} of {len(MODULES)} modules, mypyc)" if n else "pure Python"
