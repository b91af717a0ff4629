"""The guard of tests/conftest.py: a test run that would exercise compiled
(or foreign) oracle modules instead of this checkout's .py files stops."""

from __future__ import annotations

import types

import oracle
from oracle.native import MODULES, build, compiled_modules

from conftest import ROOT, not_interpreted


def _module(name: str, file: str | None) -> types.ModuleType:
    m = types.ModuleType(name)
    if file is not None:
        m.__file__ = file
    return m


def test_the_checkout_runs_interpreted():
    assert compiled_modules() == [] and oracle.compiled_modules() == []
    assert build() == "pure Python"
    assert MODULES and all(m.startswith("oracle.") for m in MODULES)


def test_a_compiled_or_foreign_oracle_module_is_named():
    so = str(ROOT / "oracle" / "games" / "mindbug" / "engine" / "game.cpython-311-x86_64-linux-gnu.so")
    mods = {
        "oracle.games.mindbug.engine.turns": _module("oracle.games.mindbug.engine.turns",
                                                     str(ROOT / "oracle" / "games" / "mindbug" / "engine" / "turns.py")),
        "oracle.games.mindbug.engine.game": _module("oracle.games.mindbug.engine.game", so),
        "oracle.games.mindbug.replay.claims": _module("oracle.games.mindbug.replay.claims",
                                                      "/elsewhere/oracle/games/mindbug/replay/claims.py"),
        "oracle.namespace": _module("oracle.namespace", None),
        "json": _module("json", "/usr/lib/python3/json/__init__.so"),
    }
    assert not_interpreted(mods) == [f"oracle.games.mindbug.engine.game ({so})",
                                     "oracle.games.mindbug.replay.claims (/elsewhere/oracle/games/mindbug/replay/claims.py)"]


def test_this_run_loads_every_oracle_module_from_the_checkout():
    import sys

    assert not_interpreted(sys.modules) == []


def test_the_bench_names_the_build_it_counts():
    from oracle.replay.counting import counted_build

    assert counted_build() == "pure Python"
