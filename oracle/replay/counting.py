"""The bench's instruction counts: what verifying costs per decision, counted
by valgrind (cachegrind, without its cache simulation), which a busy machine
does not disturb as it does a clock.

Each corpus is a fixed self-play file (seeded) of one edition and card sets.
`mb-oracle verify` runs once on its first games and once on all of them, and
so does a decode of the same lines with msgspec (the floor: the cost of
merely reading the stream). The two sizes split each run's count into a
start-up (Python, the imports, the command's own set-up and exit) and a
cost per decision, as `bench.fit` splits a pipeline's time: the per-decision
cost is the slope between the two runs, so the start-up drops out.

Beside the counts, the wall-clock of the same verification and decoding in
this process (best of the bench's rounds), per decision.

The same runs count `verify --keep-going` and `verify --which-editions` on
each corpus (per decision, beside plain verify), and plain and --keep-going
on games that break the rules all along (per game: plain verify stops at
the first divergence); `--count` chooses which of these are counted. Each
figure the targets of issue 45 name is printed beside its target.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import click

from .. import games as registry
from .bench import fit, interleaved_best, meets

COUNTED_GAMES = 24      # games of the larger run of each corpus; the smaller has a quarter

# What the counted runs may count (`bench --count`), and the options of verify each runs.
MODES = {"plain": (), "keep-going": ("--keep-going",), "which-editions": ("--which-editions",)}
VERIFY = [sys.executable, "-m", "oracle", "verify", "--format", "json", "--no-progress"]
# Issue 45's targets that hold for every corpus or for the broken games
# (each game's bench module gives its corpora's own, TARGETS).
START_UP_TARGET = 150_000_000       # instructions of verify's start-up and exit, under
# What every verify's start-up runs before any of its own: Python's start and
# msgspec, loaded as verify loads it (oracle.loading.msgspec_first). Counted
# once, and printed beside the start-up target: the part of it no change to
# the oracle can take away.
START_FLOOR = [sys.executable, "-c", "from oracle.loading import msgspec_first; msgspec_first()"]
KEEP_GOING_TARGET = 3.0             # --keep-going's instructions a broken game, at most this many times plain's

# What a run of the decode floor does: msgspec decodes each line of the file
# into the replay format's lines (the game's DECODER), as verify's reader
# does before any rule.
DECODE = """import sys
from %s import %s as decoder
dec = decoder.decode
with open(sys.argv[1], "rb") as f:
    for line in f:
        dec(line)
"""

_IREFS = re.compile(rb"==(\d+)==\s+I\s+refs:\s+([\d,]+)")
_PID = re.compile(rb"==(\d+)==")     # valgrind's first line names the process it started


class Counted(NamedTuple):
    """One corpus: decisions and instructions per decision, verify and the
    decode floor, and verify's other modes (None: not counted)."""

    edition: str
    sets: str
    decisions: int                  # in the larger run
    verify: float | None            # instructions per decision
    decode: float | None
    start_up: float | None          # instructions of verify's run before and after its games (Python, imports, exit)
    verify_us: float | None         # wall-clock per decision in this process, microseconds
    decode_us: float | None
    keep_going: float | None = None         # verify --keep-going, instructions per decision
    which_editions: float | None = None     # verify --which-editions


class Broken(NamedTuple):
    """The broken games: instructions a game of plain verify and of --keep-going."""

    games: int              # in the larger run
    plain: float
    keep_going: float

    @property
    def ratio(self) -> float:
        return self.keep_going / self.plain


class Counts(NamedTuple):
    """What the counted runs gave: a row a corpus, and the broken games (None: not counted)."""

    rows: list[Counted]
    broken: Broken | None
    start_floor: float | None = None    # instructions of START_FLOOR (None: not counted)


def valgrind() -> str | None:
    return shutil.which("valgrind")


# The folder that holds this `oracle` package: the counted runs import it from there.
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def counted_env() -> dict:
    """The environment of the counted runs: string hashing seeded, no colour,
    and this process's `oracle` package first on the import path. The runs
    start in a folder of their own (the corpus's), not in the bench's: a
    busy folder (/tmp) changing while they import would cost them
    instructions of listing it again. Bytecode may be written, whatever
    PYTHONDONTWRITEBYTECODE says here: the uncounted first run writes what
    is missing or stale (_counted_runs), where each counted run would
    otherwise compile again every source file changed since its bytecode
    was written (the pure build's start-up doubled, its slope moved by
    about 2,000 instructions a decision)."""
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONHASHSEED": "0", "NO_COLOR": "1",
           "PYTHONPATH": PACKAGE_ROOT + (os.pathsep + path if path else "")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def counted_build(cwd: str | None = None) -> str:
    """The build (pure Python or compiled, oracle.native) that the counted
    runs import: the same interpreter and environment as they, in `cwd`."""
    run = subprocess.run([sys.executable, "-c", "from oracle.native import build; print(build())"],
                         capture_output=True, text=True, env=counted_env(), cwd=cwd)
    return run.stdout.strip() or f"unknown ({run.stderr.strip().splitlines()[-1:]})"


def instructions(cmd: list[str], env: dict | None = None, cwd: str | None = None, statuses=(0,)) -> int:
    """The instructions `cmd` executes (all of it: start, run, exit), counted
    by cachegrind: those of its own process, not of the processes it forks
    (each is counted apart, and says so under its own process id).
    `statuses`: the exit statuses of a run that went as it should (verify
    of games that break the rules exits 1)."""
    return counted_processes(cmd, env, cwd, statuses)[0]


def counted_processes(cmd: list[str], env: dict | None = None, cwd: str | None = None, statuses=(0,),
                      forks: bool = False) -> list[int]:
    """The instructions of `cmd`'s own process, then (with `forks`) of each
    process it forked: a forked process's count starts from its parent's
    count at the fork (cachegrind's counters are copied with the process),
    so only the difference between two runs that fork at the same point
    tells what the forked processes did after."""
    run = subprocess.run([valgrind() or "valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", f"--child-silent-after-fork={'no' if forks else 'yes'}",
                          *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    first = _PID.search(run.stderr)
    counts = {pid: int(n.replace(b",", b"")) for pid, n in _IREFS.findall(run.stderr)}
    if run.returncode not in statuses or first is None or first.group(1) not in counts:
        tail = run.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise SystemExit(f"bench: a counted run failed (exit status {run.returncode}): {' | '.join(tail)}")
    own = counts.pop(first.group(1))
    return [own, *counts.values()]


def per_decision(small: tuple[int, int], big: tuple[int, int]) -> tuple[float, float]:
    """(instructions per decision, start-up) from two runs, each given as
    (decisions, instructions): the slope between them, and what the line
    through them gives for no decision at all."""
    f = fit(small[0], small[1], big[0], big[1])
    return f.per_game, f.fixed


def _bench(game: str):
    """The module of a game's corpora (its entry's BENCH)."""
    return importlib.import_module(registry.entry(game).BENCH)


def every_corpus() -> tuple[tuple[str, str], ...]:
    """(edition, card sets) of each corpus of every game, in the order of the table."""
    return tuple(c for game in registry.GAMES for c in _bench(game).CORPORA)


def _game(edition: str) -> str:
    """The game of a corpus: the one whose corpora name its edition."""
    return next(game for game in registry.GAMES if any(e == edition for e, _ in _bench(game).CORPORA))


def _lines(edition: str, sets: str, games: int, seed: int, claims: str):
    """The self-played lines of a corpus."""
    return _bench(_game(edition)).lines(edition, sets, games, seed, claims)


def _corpus(edition: str, sets: str, games: int, seed: int, claims: str):
    """The corpus's games, each a list of lines, and the decisions of each."""
    from .reader import RawGame
    from .verify import verify_game

    played: list[list[bytes]] = []
    for line in _lines(edition, sets, games, seed, claims):
        if line.startswith(b'{"t":"game"'):
            played.append([])
        played[-1].append(line)
    decisions = []
    for lines in played:
        rep = verify_game(RawGame("<bench>", list(enumerate(lines, 1))))
        if rep.verdict != "conforms":
            raise SystemExit(f"bench: a self-played game does not conform: {rep.findings[0].message}")
        decisions.append(rep.decisions)
    return played, decisions


def _write_runs(played: list[list[bytes]], games: int, folder: str, name: str) -> tuple[int, dict[int, str]]:
    """The two counted runs' files of a corpus in `folder`: its first quarter
    of `games` and all of them. (the smaller size, {size: path})."""
    small = max(1, games // 4)
    paths = {}
    for n in (small, games):
        paths[n] = os.path.join(folder, f"{name}-{n}.jsonl")
        with open(paths[n], "wb") as f:
            f.write(b"".join(line + b"\n" for lines in played[:n] for line in lines))
    return small, paths


def _counted_runs(commands: dict, paths: dict[int, str], env: dict, folder: str, statuses=(0,)) -> dict:
    """The instructions of each command on each of the runs' files `paths`
    ({size: path}): {(command's key, size): instructions}. One run of each,
    uncounted, first: where bytecode can be written, the counted runs then
    all find it (two counted runs compiling the same modules at once, one
    finding what the other wrote, would tilt the slope)."""
    first = paths[min(paths)]
    for cmd in commands.values():
        subprocess.run([*cmd, first], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=folder)
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        runs = {(what, n): pool.submit(instructions, [*cmd, path], env, folder, statuses)
                for n, path in paths.items() for what, cmd in commands.items()}
    return {k: run.result() for k, run in runs.items()}


def count_corpus(edition: str, sets: str, games: int, seed: int, claims: str, repeat: int,
                 folder: str, modes=tuple(MODES)) -> Counted:
    """One corpus counted in each of `modes` (plain: verify and the decode
    floor, counted and timed; keep-going, which-editions: verify with the
    option, counted)."""
    from .reader import RawGame
    from .verify import verify_game

    fmt = tuple(registry.entry(_game(edition)).DECODER.split(":"))      # (module, name) for DECODE
    decoder = registry.attribute(_game(edition), "DECODER")
    played, decisions = _corpus(edition, sets, games, seed, claims)
    name = "".join(ch if ch.isalnum() or ch == "-" else "+" for ch in f"{edition}-{sets}")
    small, paths = _write_runs(played, games, folder, name)
    env = counted_env()
    commands = {mode: [*VERIFY, *MODES[mode]] for mode in modes}
    if "plain" in modes:
        commands["decode"] = [sys.executable, "-c", DECODE % fmt]
    runs = _counted_runs(commands, paths, env, folder)
    d_small, d_big = sum(decisions[:small]), sum(decisions)
    per = {what: per_decision((d_small, runs[what, small]), (d_big, runs[what, games])) for what in commands}
    if "plain" not in modes:
        return Counted(edition, sets, d_big, None, None, None, None, None, per.get("keep-going", (None,))[0],
                       per.get("which-editions", (None,))[0])

    raws = [RawGame("<bench>", list(enumerate(lines, 1))) for lines in played]
    every = [line for lines in played for line in lines]

    def verify_all():
        for raw in raws:
            verify_game(raw)

    def decode_all():
        dec = decoder.decode
        for line in every:
            dec(line)

    t_ver, t_dec = interleaved_best([verify_all, decode_all], repeat)
    return Counted(edition, sets, d_big, per["plain"][0], per["decode"][0], per["plain"][1], t_ver / d_big * 1e6,
                   t_dec / d_big * 1e6, per.get("keep-going", (None,))[0], per.get("which-editions", (None,))[0])


def count_broken(games: int, seed: int, folder: str) -> Broken:
    """Plain verify and verify --keep-going on the default game's broken
    games (its bench module's `broken`), each counted on a quarter of
    `games` and on all of them: instructions a game, the slope between the
    two (a game, not a decision: plain verify stops at the first divergence)."""
    small = max(1, games // 4)
    paths = {}
    for n in (small, games):
        paths[n] = os.path.join(folder, f"broken-{n}.jsonl")
        with open(paths[n], "wb") as f:
            f.write(b"".join(line + b"\n" for line in _bench(registry.DEFAULT).broken(n, seed)))
    commands = {mode: [*VERIFY, *MODES[mode]] for mode in ("plain", "keep-going")}
    runs = _counted_runs(commands, paths, counted_env(), folder, statuses=(1,))
    plain, kept = (fit(small, runs[mode, small], games, runs[mode, games]).per_game for mode in commands)
    return Broken(games, plain, kept)


def run_counts(seed: int, claims: str, repeat: int, games: int = COUNTED_GAMES, corpora=None,
               modes=tuple(MODES)) -> Counts | None:
    """The table of instructions per decision, one row a corpus (`corpora`:
    (edition, card sets) each; every game's without), in each of `modes`,
    the broken games with keep-going, and the targets beside their figures;
    without valgrind, one line that says so (and None)."""
    if valgrind() is None:
        click.echo("instructions: valgrind is not on PATH, so none are counted (install valgrind to count "
                   "instructions per decision; the timings above are wall-clock only)")
        return None
    small = max(1, games // 4)
    rows = []
    broken = None
    with tempfile.TemporaryDirectory(prefix="mb-bench-") as folder:
        build = counted_build(folder)
        click.echo(f"build counted: {build}")
        counted = ", ".join(["verify and the decode floor" if m == "plain" else f"verify --{m}" for m in modes])
        click.echo(f"instructions per decision (valgrind cachegrind; {counted} each run on {small} and {games} "
                   f"self-played games, seed {seed}: the start-up drops out of the slope) ...")
        if "plain" in modes:
            click.echo(f"{'edition':<11} {'sets':<27} {'decisions':>9} {'verify':>9} {'decode':>8} {'ratio':>6} "
                       f"{'start-up':>9}  {'verify':>9} {'decode':>9}")
            click.echo(f"{'':<11} {'':<27} {'':>9} {'instr.':>9} {'instr.':>8} {'':>6} {'instr.':>9}  "
                       f"{'us (wall)':>9} {'us (wall)':>9}")
        for edition, sets in corpora or every_corpus():
            c = count_corpus(edition, sets, games, seed, claims, repeat, folder, modes)
            rows.append(c)
            if "plain" in modes:
                click.echo(f"{c.edition:<11} {c.sets:<27} {c.decisions:>9,} {c.verify:>9,.0f} {c.decode:>8,.0f} "
                           f"{c.verify / c.decode:>5.1f}x {c.start_up / 1e6:>8.0f}M  {c.verify_us:>9.1f} "
                           f"{c.decode_us:>9.2f}")
        main = [r for r in rows if _game(r.edition) == registry.DEFAULT]
        if main and "plain" in modes:
            total = sum(r.decisions for r in main)
            mean = sum(r.verify * r.decisions for r in main) / total
            floor = sum(r.decode * r.decisions for r in main) / total
            click.echo(f"{'all ' + registry.entry(registry.DEFAULT).TITLE:<11} {'':<27} {total:>9,} {mean:>9,.0f} "
                       f"{floor:>8,.0f} {mean / floor:>5.1f}x")
        others = [m for m in modes if m != "plain"]
        if others:
            show_modes(rows, others)
        floor = instructions(START_FLOOR, counted_env(), folder) if "plain" in modes else None
        if "keep-going" in modes:
            click.echo(f"counting plain verify and --keep-going on {small} and {games} broken games "
                       f"({_bench(registry.DEFAULT).BROKEN}; seed {seed}) ...")
            broken = count_broken(games, seed, folder)
            click.echo(f"broken games: plain {broken.plain:,.0f} instructions a game, --keep-going "
                       f"{broken.keep_going:,.0f} a game: {broken.ratio:.2f}x plain")
    show_targets(rows, broken, build, floor)
    return Counts(rows, broken, floor)


def show_modes(rows: list[Counted], modes: list[str]) -> None:
    """verify's other modes on each corpus, instructions per decision, each
    beside plain verify's and as a multiple of it (when plain was counted)."""
    click.echo("verify's other modes, instructions per decision (the same corpora and runs' sizes):")
    head = f"{'edition':<11} {'sets':<27} {'plain':>9}"
    for m in modes:
        head += f" {m:>14} {'x plain':>7}"
    click.echo(head)
    for r in rows:
        line = f"{r.edition:<11} {r.sets:<27} {_figure(r.verify)}"
        for m in modes:
            v = r.keep_going if m == "keep-going" else r.which_editions
            line += f" {_figure(v, 14)} {(f'{v / r.verify:.2f}x' if r.verify else '-'):>7}"
        click.echo(line)


def _figure(v: float | None, width: int = 9) -> str:
    return f"{v:>{width},.0f}" if v is not None else f"{'-':>{width}}"


def show_targets(rows: list[Counted], broken: Broken | None, build: str, start_floor: float | None = None) -> None:
    """Each target of issue 45 that the counts give a figure for, beside it:
    the corpora's (each game's TARGETS), verify's start-up (with, when
    counted, the part of it that is Python and msgspec: `START_FLOOR`), and
    --keep-going against plain on the broken games. Judged on the figures as
    printed."""
    targets = {c: t for game in registry.GAMES for c, t in _bench(game).TARGETS.items()}
    compiled = build.startswith("compiled")
    for r in rows:
        limit = targets.get((r.edition, r.sets))
        if limit is None or r.verify is None:
            continue
        v = round(r.verify)
        click.echo(f"target {r.edition} {r.sets} at most {limit:,} instructions a decision (compiled): "
                   f"{meets(v <= limit)} ({v:,}, {v / limit:.2f} of target"
                   + ("" if compiled else f"; counted: {build}") + ")")
    starts = [r for r in rows if r.start_up is not None]
    if starts:
        worst = max(starts, key=lambda r: r.start_up)
        m = round(worst.start_up / 1e6)
        floor = "" if start_floor is None else \
            f"; Python and msgspec alone, loaded as verify loads them: {round(start_floor / 1e6)} M"
        click.echo(f"target start-up under {START_UP_TARGET // 1_000_000} M instructions: "
                   f"{meets(m * 1_000_000 < START_UP_TARGET)} (at most {m} M, {worst.edition} {worst.sets}{floor})")
    if broken is not None:
        ratio = round(broken.ratio, 2)
        click.echo(f"target --keep-going at most {KEEP_GOING_TARGET:g}x plain (broken games): "
                   f"{meets(ratio <= KEEP_GOING_TARGET)} ({ratio:.2f}x)")


PARENT_GAMES = 600      # games of the larger run of the parent's count; the smaller has a quarter


def count_parent(jobs: int, seed: int, claims: str, games: int = PARENT_GAMES) -> tuple[float, float, float]:
    """(instructions a game of the main process of `verify -j jobs`, of all
    its processes, of `verify` with one job), each the slope between runs on
    a quarter of `games` and on all of them (en-revised First Contact,
    self-played): what the parent adds to the workers' own work, which it
    shares the cores with, and what -j N costs in all against one job. The
    workers are forked before the first game, so their counts (which start
    from the parent's at the fork) differ between the two runs by what they
    did with the games alone."""
    played, _ = _corpus("en-revised", "first-contact", games, seed, claims)
    env = counted_env()
    with tempfile.TemporaryDirectory(prefix="mb-bench-") as folder:
        small, paths = _write_runs(played, games, folder, "en-revised")
        verify = [sys.executable, "-m", "oracle", "verify", "--format", "json", "--no-progress"]
        subprocess.run([*verify, paths[small]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       cwd=folder)      # uncounted first: bytecode written where it can be (count_corpus)
        counts = {(j, n): counted_processes([*verify, "-j", str(j), paths[n]], env, folder, forks=True)
                  for j in (jobs, 1) for n in (small, games)}
    parent = fit(small, counts[jobs, small][0], games, counts[jobs, games][0]).per_game
    every = fit(small, sum(counts[jobs, small]), games, sum(counts[jobs, games])).per_game
    one = fit(small, counts[1, small][0], games, counts[1, games][0]).per_game
    return parent, every, one


def run_parent_count(jobs: int, seed: int, claims: str, games: int = PARENT_GAMES) -> tuple[float, float, float] | None:
    """The lines of the parent's count under `bench --jobs N` (None without valgrind)."""
    if valgrind() is None:
        return None
    click.echo(f"counting the processes of verify -j {jobs} (valgrind; {max(1, games // 4):,} and {games:,} "
               "self-played games, en-revised) ...")
    parent, every, one = count_parent(jobs, seed, claims, games)
    click.echo(f"main process of -j {jobs}:  {parent:>9,.0f} instructions a game, {parent / one:.1%} of one "
               f"job's {one:,.0f} (what it adds to the workers' own)")
    click.echo(f"all processes of -j {jobs}: {every:>9,.0f} instructions a game, {every / one:.3f} x one job's "
               "(the workers' and the main process's, against one job's; the kernel's time not counted)")
    return parent, every, one
