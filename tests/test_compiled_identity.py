"""The compiled build (mypyc, hatch_build.py) gives byte-identical output.

A wheel is built with the modules of oracle/native.py compiled
(MB_ORACLE_COMPILED=1: no fallback to pure Python) and installed into a
temporary folder, never into the source tree the other tests run. Then the
same commands run with the source tree (pure Python, the reference) and
with the compiled package, each in a fresh process, and their outputs and
exit statuses must be the same bytes: self-play in every edition, with and
without New Servants, and of Mind Up! (4 players, 2 objectives), verify
--format json on that self-play, verify on the shipped samples (replays/),
and the scenario library (--format json); and verify (plain and
--keep-going, Mind Up!'s in the human report too) on that self-play broken
at random: values
of other types (ids as text, floats, nulls, lists for numbers), ids out of
range, fields dropped, lines cut short or repeated, which the compiled
modules, typed as they are, must read as the pure ones do.

Without mypy (mypyc), hatchling, a C compiler or Python's headers it skips
and names what is missing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from oracle.native import MODULES

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ("en-first", "fr-first", "fr-revised", "en-revised")
SETS = ("first-contact", "first-contact,new-servants")
# The later sets, which only en-revised deals: their engine modules are compiled too.
LATER = "first-contact,new-servants,beyond-eternity,beyond-evolution,promo-2022,promo-2023"
GAMES = 100
SEED = 7


def _missing() -> str | None:
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (with mypyc) is not installed: pip install -e '.[test]'"
    if importlib.util.find_spec("hatchling") is None:
        return "hatchling is not installed: pip install -e '.[test]'"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return f"Python's headers (Python.h) are missing from {sysconfig.get_paths()['include']}"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """A folder holding the compiled package, installed from a wheel."""
    tmp = tmp_path_factory.mktemp("compiled")
    env = {**os.environ, "MB_ORACLE_COMPILED": "1"}
    env.pop("MB_ORACLE_PURE", None)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                            "--no-index", "-q", "-w", str(tmp / "wheel"), str(ROOT)],
                           capture_output=True, env=env)
    assert build.returncode == 0, build.stderr.decode(errors="replace")[-4000:]
    wheel, = (tmp / "wheel").glob("mb_oracle-*.whl")
    assert "-none-any" not in wheel.name, f"the wheel is pure Python: {wheel.name}"
    site = tmp / "site"
    inst = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                           "--target", str(site), str(wheel)], capture_output=True)
    assert inst.returncode == 0, inst.stderr.decode(errors="replace")[-4000:]
    return site


def _broken(v, rng: random.Random):
    """`v` (a decoded line's value) with one of its parts made wrong."""
    if isinstance(v, dict) and v:
        k = rng.choice(sorted(v, key=str))
        if rng.random() < 0.2:
            return {**{x: y for x, y in v.items() if x != k}}
        return {**v, k: _broken(v[k], rng)}
    if isinstance(v, list) and v:
        i = rng.randrange(len(v))
        return v[:i] + [_broken(v[i], rng)] + v[i + 1:]
    return rng.choice([str(v), -1, 0, 2**40, 1.5, None, [v], {"card": v}, "Axolotl Healer", True, ""])


def broken_corpus(lines: list[bytes], rng: random.Random) -> bytes:
    """The games of `lines` (JSON Lines), about one line in 25 broken: a value
    made wrong (`_broken`), the line cut short, or the line written twice."""
    out = []
    for line in lines:
        r = rng.random()
        if not line or r > 0.04:
            out.append(line)
        elif r < 0.03:
            data = json.loads(line)
            if isinstance(data, dict) and "t" in data:
                data = {**_broken({k: v for k, v in data.items() if k != "t"}, rng), "t": data["t"]}
            out.append(json.dumps(data, separators=(",", ":")).encode())
        elif r < 0.035:
            out.append(line[:rng.randrange(1, len(line))])
        else:
            out += [line, line]
    return b"\n".join(out) + b"\n"


def _run(where: Path, *args: str, cwd: Path) -> tuple[int, bytes]:
    """`python -m oracle ARGS` with the package found at `where` only (cwd is
    outside the source tree, so the checkout does not come first)."""
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONHASHSEED": "0", "NO_COLOR": "1",
           "MB_ORACLE_TEST_COMPILED": "1"}
    r = subprocess.run([sys.executable, "-m", "oracle", *args], capture_output=True, cwd=cwd, env=env)
    return r.returncode, r.stdout + b"\n--- stderr ---\n" + r.stderr


def _build(where: Path, cwd: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(where)}
    out = subprocess.run([sys.executable, "-c", "import oracle, sys; print(oracle.__file__); "
                          "print(*oracle.compiled_modules(), sep='\\n')"],
                         capture_output=True, cwd=cwd, env=env, check=True, text=True).stdout.split()
    return out


def test_the_compiled_build_gives_the_bytes_of_the_pure_one(compiled, tmp_path):
    cwd = tmp_path
    # Each side runs the package it is meant to: the checkout, pure; the wheel, compiled.
    pure_file, *pure_mods = _build(ROOT, cwd)
    comp_file, *comp_mods = _build(compiled, cwd)
    assert Path(pure_file).parent == ROOT / "oracle" and pure_mods == []
    assert Path(comp_file).parent == compiled / "oracle" and comp_mods == list(MODULES)

    def both(*args: str) -> bytes:
        pure = _run(ROOT, *args, cwd=cwd)
        comp = _run(compiled, *args, cwd=cwd)
        assert comp[0] == pure[0], f"exit status {comp[0]} compiled, {pure[0]} pure: {' '.join(args)}"
        assert comp[1] == pure[1], f"the outputs differ: {' '.join(args)}"
        return pure[1]

    corpora = [(f"{edition}-{sets.replace(',', '+')}", f"{edition} {sets}", ("--edition", edition, "--sets", sets))
               for edition in EDITIONS for sets in SETS]
    corpora.append(("en-revised-later", f"en-revised {LATER}", ("--edition", "en-revised", "--sets", LATER)))
    corpora.append(("mind-up", "mind-up", ("--game", "mind-up", "--players", "4", "--objectives", "2")))
    for name, seed, options in corpora:
        out = both("selfplay", "--games", str(GAMES), "--seed", str(SEED), *options)
        corpus = cwd / f"{name}.jsonl"
        corpus.write_bytes(out.split(b"\n--- stderr ---\n")[0])
        report = both("verify", str(corpus), "--format", "json", "--no-progress")
        assert report.count(b'"verdict":"conforms"') == GAMES
        hostile = cwd / f"broken-{corpus.name}"
        hostile.write_bytes(broken_corpus(corpus.read_bytes().splitlines(), random.Random(seed)))
        for more in ((), ("--keep-going",)):
            report = both("verify", str(hostile), "--format", "json", "--no-progress", *more)
            assert report.count(b'"verdict":"conforms"') < GAMES
            if name == "mind-up":       # the findings' event texts, written when read
                assert b"takes the line card above it" in both("verify", str(hostile), "--no-progress", *more)
    samples = both("verify", str(ROOT / "replays"), "--format", "json", "--no-progress")
    assert b'"verdict":"violates"' in samples and b'"verdict":"conforms"' in samples
    library = both("scenarios", str(ROOT / "scenarios"), "--format", "json")
    assert b'"failed": 0' in library and b'"status": "pass"' in library


# A dealt game's state, pickled and copied: the compiled classes (State, and
# Pending, made again from its fields; Mind Up!'s Game, State, Pending and
# Event) must survive both as the pure ones do.
_COPIES = """
import copy, pickle, random
from oracle.games.mindbug.cards import full_set
from oracle.games.mindbug.engine import Game
names = full_set()
random.Random(3).shuffle(names)
cards = dict(enumerate(names, 1))
g = Game.deal("en-revised", cards, [list(range(1, 11)), list(range(11, 21))], list(range(21, 49)), first=0)
for again in (pickle.loads(pickle.dumps(g.state)), copy.deepcopy(g.state), g.state.copy()):
    assert again.to_builtins() == g.state.to_builtins() and again.pending == g.state.pending
    assert type(again.pending) is type(g.state.pending)
print(type(g.state.pending).__module__, g.state.pending)

from oracle.games.mindup.engine import Game as MindUp
m = MindUp.deal(4, [list(range(1 + 7 * p, 8 + 7 * p)) for p in range(4)], [29, 30, 31, 32], None, 2)
m.start_round([1, 2, 3, 4, 5], objectives=[1, 3])
events = m.play_turn([1, 8, 15, 22])
for again in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), m.copy()):
    assert again.state == m.state and again.pending == m.pending and type(again.pending) is type(m.pending)
print(m.pending, [e.text for e in pickle.loads(pickle.dumps(events))])
"""


def _script(code: str, where: Path, cwd: Path) -> str:
    """What the Python `code` prints with the package found at `where`."""
    env = {**os.environ, "PYTHONPATH": str(where), "MB_ORACLE_TEST_COMPILED": "1"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=cwd, env=env, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def test_the_compiled_records_pickle_and_copy_as_the_pure_ones(compiled, tmp_path):
    assert _script(_COPIES, compiled, tmp_path) == _script(_COPIES, ROOT, tmp_path)


# Steps put in the registries in place of the rules' own: the compiled engine
# calls the rules' steps directly while the registries hold them (game.py),
# and must call these instead, as the interpreted one does.
_REPLACED = """
import collections, random
from oracle.games.mindbug.cards import full_set
from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.engine.registry import RESUMES, TASKS
calls = collections.Counter()

def counted(table, name):
    step = table[name]
    def replaced(*args):
        calls[name] += 1
        return step(*args)
    table[name] = replaced

for name in ("turn", "action", "end-turn", "hunt", "block", "fight", "after-attack", "resolve-triggers"):
    counted(TASKS, name)
for name in ("action", "mindbug", "block"):
    counted(RESUMES, name)
names = full_set()
rng = random.Random(5)
for game in range(12):
    rng.shuffle(names)
    g = Game.deal("en-revised", dict(enumerate(names, 1)), [list(range(1, 11)), list(range(11, 21))],
                  list(range(21, 49)), first=game % 2)
    while not g.is_over:
        g.apply(rng.choice(g.legal_decisions()))
    print(g.winner, g.reason, g.state.turn)
print(sorted(calls.items()))
"""


def test_the_compiled_engine_runs_the_steps_the_registries_hold(compiled, tmp_path):
    pure = _script(_REPLACED, ROOT, tmp_path)
    counts = dict(eval(pure.splitlines()[-1]))      # the list of (name, calls) the script prints
    assert set(counts) == {"turn", "action", "end-turn", "hunt", "block", "fight", "after-attack",
                           "resolve-triggers", "mindbug"} and min(counts.values()) > 0, counts
    assert _script(_REPLACED, compiled, tmp_path) == pure
