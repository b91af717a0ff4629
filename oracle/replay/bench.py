"""`mb-oracle bench`: decisions verified per second, against the cost of
merely decoding the same stream with msgspec, measured in the same run.

With `--jobs N` or `--cluster ADDRESS` it also verifies the same stream as
a file through `verify`'s pipeline, with one job and with N jobs (or on the
cluster), each on the whole stream and on its first quarter. The two sizes
split each pipeline's time into a fixed cost, paid once a run (starting the
workers or the cluster, the first and last shares), and a cost per game. It
reports the scaling ratio of the whole runs and of the per-game costs, and
projects a million games as the fixed cost plus a million times the cost
per game: scaling the whole run instead would count the fixed cost once per
run of the bench's size.

Each timing is the best of `--repeat` rounds, and the runs compared take
turns within each round (`interleaved_best`), so a slow stretch of a shared
machine does not fall on one of them alone."""

from __future__ import annotations

import gc
import importlib
import time
from typing import NamedTuple

import click

from .. import games as registry
from ..term import Progress, plural
from .reader import RawGame
from .verify import verify_game

TARGET = 80_000  # decisions per second, one process
# With N local jobs: at least this share of N times the speed of one job
# (1.85x for -j 2), and a million games verified within this many minutes.
SCALING_TARGET = 0.925
MILLION_TARGET_MIN = 3.0
# N runs of -j 1 side by side that get less than this share of N times one
# say that the machine is not quiet: its cores do other work too.
QUIET = 0.9


def run_bench(games: int, seed: int, edition: str, claims: str, repeat: int, jobs: int = 1,
              cluster: str | None = None) -> dict:
    from ..native import build

    click.echo(f"build: {build()} (oracle/native.py; MB_ORACLE_PURE=1 pip install . for pure Python)")
    click.echo(f"generating {plural(games, 'random self-play game')} ({edition}, claims: {claims}) ...")
    played = importlib.import_module(registry.entry(registry.DEFAULT).BENCH).lines(edition, None, games, seed, claims)
    raws: list[RawGame] = []
    current = None
    with Progress("generating", total=games, unit="game") as bar:
        for i, line in enumerate(played, 1):
            if line.startswith(b'{"t":"game"'):
                if current is not None:
                    bar.update(1)
                current = RawGame("<bench>", [])
                raws.append(current)
            current.lines.append((i, line))
    all_lines = [b for r in raws for _, b in r.lines]
    # The bench holds every game at once, which verify never does: the
    # collector leaves them alone, or walking them would be timed as
    # verification.
    gc.freeze()
    nbytes = sum(len(b) + 1 for b in all_lines)

    decoder = registry.attribute(registry.DEFAULT, "DECODER")

    def decode_only():
        dec = decoder.decode
        for b in all_lines:
            dec(b)

    decisions = 0

    def verify_all():
        nonlocal decisions
        decisions = 0
        for r in raws:
            rep = verify_game(r)
            if rep.verdict != "conforms":
                raise SystemExit(f"bench: a self-played game does not conform: {rep.findings[0].message}")
            decisions += rep.decisions

    t_dec, t_ver = interleaved_best([decode_only, verify_all], repeat)
    rate = decisions / t_ver
    dec_rate = decisions / t_dec
    click.echo(f"stream: {plural(len(all_lines), 'line')}, {nbytes / 1e6:.2f} MB, {plural(decisions, 'decision')}")
    click.echo(f"decode only (msgspec):  {t_dec * 1000:8.1f} ms  {dec_rate:12,.0f} decisions/s")
    click.echo(f"verify (full replay):   {t_ver * 1000:8.1f} ms  {rate:12,.0f} decisions/s")
    click.echo(f"ratio verify/decode:    {t_ver / t_dec:8.1f} x the decoding time")
    verdict = meets(rate >= TARGET)
    click.echo(f"target {TARGET:,} decisions/s: {verdict} ({rate / TARGET:.2f} of target)")
    result = {"decisions": decisions, "decode_s": t_dec, "verify_s": t_ver, "rate": rate}
    if jobs > 1 or cluster:
        # The pipelines fork their workers from this process: drop the games
        # read for the in-process timing first, as verify's own process
        # never holds them.
        games_read = len(raws)
        raws.clear()
        result.update(run_scaling(all_lines, games_read, jobs, cluster, repeat))
    gc.unfreeze()
    return result


MILLION = 1_000_000


class Fit(NamedTuple):
    """A pipeline's time as a fixed cost plus a cost per game, from two runs
    of different sizes."""

    fixed: float        # seconds paid once a run (workers started, the first share handed out, the last one drained)
    per_game: float     # seconds for each further game
    clamped: bool       # the two runs gave a negative fixed cost (timing noise); it is taken as 0

    def projected(self, games: int = MILLION) -> float:
        return self.fixed + games * self.per_game


def fit(small: int, t_small: float, big: int, t_big: float) -> Fit:
    """Fixed + per-game cost through the two points (small games, t_small s)
    and (big games, t_big s). A run of more games that took no longer gives
    no slope: the per-game cost is then the big run's average."""
    if big <= small:
        raise ValueError(f"fit needs two sizes, the second larger ({small} and {big} games)")
    per_game = (t_big - t_small) / (big - small)
    if per_game <= 0:
        return Fit(0.0, t_big / big, True)
    fixed = t_big - per_game * big
    if fixed < 0:
        return Fit(0.0, t_big / big, True)
    return Fit(fixed, per_game, False)


def interleaved_best(runs: list, repeat: int, clock=time.perf_counter) -> list[float]:
    """The best time of each of `runs` over `repeat` rounds, the runs taken
    in turn within a round (forwards, then backwards in the next round), not
    each repeated on its own: a stretch of time when the machine is slower
    then weighs on every pipeline alike, and the ratios between them stay
    fair."""
    best = [float("inf")] * len(runs)
    order = list(range(len(runs)))
    for r in range(repeat):
        for i in (order if r % 2 == 0 else order[::-1]):
            t0 = clock()
            runs[i]()
            best[i] = min(best[i], clock() - t0)
    return best


def meets(ok: bool) -> str:
    return "meets" if ok else "misses"


def run_scaling(all_lines: list[bytes], games: int, jobs: int, cluster: str | None, repeat: int) -> dict:
    """The whole pipeline of `verify` on a file of the same games, and on a
    file of their first quarter: one job, then N jobs or the cluster. From
    the two sizes, each pipeline's fixed cost and cost per game; the ratio of
    the whole runs and of the per-game costs; a million games projected as
    fixed + a million x per game."""
    import os
    import tempfile

    from .parallel import Options, iter_reports
    from .shares import CLUSTER_JOBS, share_size

    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()
    except (OSError, AttributeError):   # not every system has one
        load = None
    small = max(1, games // 4)
    if small >= games:
        raise SystemExit("bench: --jobs and --cluster need at least 2 games (two sizes of input are timed)")
    ends = [i for i, b in enumerate(all_lines) if b.startswith(b'{"t":"game"')]
    cut = ends[small] if small < len(ends) else len(all_lines)
    paths = {}
    ticks = _cpu_times()
    try:
        for n, lines in ((games, all_lines), (small, all_lines[:cut])):
            fd, paths[n] = tempfile.mkstemp(suffix=".jsonl", prefix="mb-bench-")
            with os.fdopen(fd, "wb") as f:
                f.write(b"".join(b + b"\n" for b in lines))
        counted: dict[tuple[str, int], int] = {}
        # Both files are cut into shares of the size the whole one gets: the
        # quarter alone would get smaller shares, each game costing a little
        # more, and the fit would count that difference as fixed cost and
        # take it off the cost per game.
        size = share_size([paths[games]], CLUSTER_JOBS if cluster else jobs)

        def pipeline(label, n, **how):
            def run():
                k = 0
                for rep in iter_reports((paths[n],), Options(), **how):
                    if rep.verdict != "conforms":
                        raise SystemExit(f"bench: a self-played game does not conform ({label})")
                    k += 1
                counted[label, n] = k
            return run

        label = f"--cluster {cluster}" if cluster else f"-j {jobs}"
        runs = [pipeline("-j 1", games, jobs=1), pipeline(label, games, jobs=jobs, cluster=cluster, share_size=size),
                pipeline("-j 1", small, jobs=1), pipeline(label, small, jobs=jobs, cluster=cluster, share_size=size)]
        apart = not cluster and _can_fork()
        if apart:
            # The machine's own ceiling: N one-job runs of the whole file at once.
            runs.append(lambda: side_by_side(runs[0], jobs))
        t_one, t_many, t_one_small, t_many_small, *t_apart = interleaved_best(runs, repeat)
    finally:
        for path in paths.values():
            os.unlink(path)
    stolen = _stolen_share(ticks, _cpu_times())
    for (who, n), k in counted.items():
        if k != n:
            raise SystemExit(f"bench: {n} games in, {k} reports out ({who})")
    one, many = fit(small, t_one_small, games, t_one), fit(small, t_many_small, games, t_many)
    ratio = t_one / t_many
    per_game_ratio = one.per_game / many.per_game
    million = many.projected()
    width = max(31, len(label) + 24)

    def row(text, value):
        click.echo(f"{text:<{width}} {value}")

    row("verify -j 1 (file):", f"{t_one * 1000:8.1f} ms  {games / t_one:12,.0f} games/s  "
        f"({small:,} games: {t_one_small * 1000:.1f} ms)")
    row(f"verify {label} (file):", f"{t_many * 1000:8.1f} ms  {games / t_many:12,.0f} games/s  "
        f"({small:,} games: {t_many_small * 1000:.1f} ms)")
    if cluster:
        row("", "(the cluster's start or connection included)")
    for who, f in (("-j 1", one), (label, many)):
        row(f"{who}: fixed cost, per game:", f"{f.fixed * 1000:8.1f} ms  {f.per_game * 1e6:12,.1f} us a game"
            + ("  (runs too noisy to fit: fixed taken as 0)" if f.clamped else ""))
    row(f"scaling {label}:", f"{ratio:8.2f} x the speed of -j 1 (whole runs)")
    row(f"scaling {label}, per game:", f"{per_game_ratio:8.2f} x (fixed costs left out)")
    ceiling = jobs * t_one / t_apart[0] if t_apart else None
    if ceiling is not None:
        row(f"{jobs} runs of -j 1 side by side:", f"{ceiling:8.2f} x the speed of one (what this machine gives "
            f"{jobs} processes; {label} gets {ratio / ceiling:.2f} of it)")
    row("a million such games:", f"{million / 60:8.1f} min with {label} (projected: fixed + 1,000,000 x per game)")
    # Judged on the figures as printed, so that a reader sees the same.
    if not cluster:
        want = SCALING_TARGET * jobs
        row(f"target scaling {want:.2f} x:", f"{meets(round(ratio, 2) >= want)} (whole runs), "
            f"{meets(round(per_game_ratio, 2) >= want)} (per game)")
    row(f"target {MILLION_TARGET_MIN:g} min a million:", f"{meets(round(million / 60, 1) <= MILLION_TARGET_MIN)} "
        f"({million / 60 / MILLION_TARGET_MIN:.2f} of the time allowed)")
    click.echo(f"(fixed and per-game costs fit through the runs of {small:,} and {games:,} games; the command's "
               "own start, about half a second, is not included)")
    if load is not None:
        # This process counts about 1 in the load; its N workers want N cores.
        crowded = not cluster and load[0] - 1 + jobs > cores + 0.5
        busy = "; other work competes with the workers: the scaling is understated" if crowded else ""
        click.echo(f"(machine: {plural(cores, 'core')}, load average {load[0]:.2f} before these runs{busy})")
    if stolen is not None:
        click.echo(f"(steal, the cores' time a virtual machine's host gave to others: {stolen:.1%} during these runs)")
    quiet = ceiling is None or round(ceiling, 2) >= QUIET * jobs
    if not quiet:
        click.echo(f"(not a quiet machine, or runs too short: {jobs} runs of -j 1 side by side got {ceiling:.2f} x "
                   f"of one, under {QUIET * jobs:.2f}; other work shares the cores, or starting the processes weighs "
                   "on runs this short, and the times above measure that as much as the code; instructions do "
                   "not change with it)")
    return {"one_s": t_one, "many_s": t_many, "ratio": ratio, "per_game_ratio": per_game_ratio,
            "fixed_s": many.fixed, "per_game_s": many.per_game, "million_s": million, "side_by_side": ceiling,
            "stolen": stolen, "quiet": quiet}


def _cpu_times() -> tuple[int, int] | None:
    """(steal, all) clock ticks of the machine's cores so far, from
    /proc/stat: what the host of a virtual machine gave to others while this
    one wanted its cores (None where the system has no such count)."""
    try:
        with open("/proc/stat", "rb") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != b"cpu":
        return None
    try:
        ticks = [int(x) for x in fields[1:]]
    except ValueError:
        return None
    # user nice system idle iowait irq softirq steal [guest guest_nice, already counted in user and nice]
    return ticks[7], sum(ticks[:8])


def _stolen_share(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """The share of the cores' time the host took between two `_cpu_times`."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def _can_fork() -> bool:
    import multiprocessing
    return "fork" in multiprocessing.get_all_start_methods()


def side_by_side(run, n: int) -> None:
    """`run` in `n` processes at once (forked from this one, so each starts
    as warm as this process): what the machine gives n processes that share
    nothing, the ceiling of `-j n`. Raises SystemExit when one fails."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=run) for _ in range(n)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    failed = [p.exitcode for p in procs if p.exitcode != 0]
    if failed:
        raise SystemExit(f"bench: a run of -j 1 side by side failed (exit status {failed[0]})")
