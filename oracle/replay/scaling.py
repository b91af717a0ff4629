"""`mb-oracle bench --jobs N` and `--cluster ADDRESS`: the whole `verify`
command on a file of the bench's games, with one job, with N jobs and on a
cluster, each on the whole file and on its first quarter.

Each run is the command itself (`verify --format json`, its report written
to a file), so what is timed is what a user runs: reading, verifying,
rendering and writing the reports, the workers' start and the command's own
start. Of each run the bench takes the wall-clock and the processor time
(user and system, the workers' included: the run's process and every
process it waited for, from `os.wait4`; with a cluster the bench started,
its scheduler and workers' too). The two sizes split each figure into a
fixed cost, paid once a run, and a cost per game (`bench.fit`); a million
games is projected as the fixed cost plus a million times the cost per
game. The targets of issue 45 are judged on the costs per game, what a
long run gets: `-j N` at most 1.08 times the processor time of one job, a
million games within 2 minutes, and the cluster within 1.15 times the
wall-clock of `-j N`.

`--cluster local` has the bench start a cluster of N local worker
processes (N from `--jobs`, else 2) once, before the timed runs, and hand
its address to each: the runs time verifying on it, not its start, which
`local:N` (a cluster each run starts for itself) would include.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from typing import NamedTuple

import click

from ..term import plural, visible
from .bench import fit, interleaved_best, meets
from .limits import CONNECT_TIMEOUT

# Issue 45's targets: -j N at most this many times the processor time of
# -j 1; a million games within this many minutes with -j N; a cluster of N
# local workers at most this many times the wall-clock of -j N.
CPU_TARGET = 1.08
MILLION_TARGET_MIN = 2.0
CLUSTER_TARGET = 1.15
# N runs of -j 1 side by side that get less than this share of N times one
# say that the machine is not quiet: its cores do other work too.
QUIET = 0.9
# The workers of a cluster the bench starts itself (`--cluster local`) when --jobs does not say.
LOCAL_WORKERS = 2

VERIFY = ("-m", "oracle", "verify", "--format", "json", "--no-progress")


class Timed(NamedTuple):
    """A run of the command: its wall-clock and processor time, seconds."""

    wall: float
    cpu: float


def run_scaling(all_lines: list[bytes], games: int, jobs: int, cluster: str | None, repeat: int) -> dict:
    """verify on a file of the games and on a file of their first quarter,
    with one job, with `jobs` and (given `cluster`) on the cluster; each
    pipeline's fixed and per-game costs, in wall-clock and processor time,
    the ratios between them and each target beside its figure."""
    from .counting import counted_env

    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()
    except (OSError, AttributeError):   # not every system has one
        load = None
    small = max(1, games // 4)
    if small >= games:
        raise SystemExit("bench: --jobs and --cluster need at least 2 games (two sizes of input are timed)")
    if cluster == "local" and jobs <= 1:
        jobs = LOCAL_WORKERS
    ends = [i for i, b in enumerate(all_lines) if b.startswith(b'{"t":"game"')]
    cut = ends[small] if small < len(ends) else len(all_lines)
    env = counted_env()     # this process's `oracle` package, wherever the bench runs
    ticks = _cpu_times()
    with tempfile.TemporaryDirectory(prefix="mb-bench-") as folder, _cluster(cluster, jobs) as (address, pids):
        paths = {}
        for n, lines in ((games, all_lines), (small, all_lines[:cut])):
            paths[n] = os.path.join(folder, f"games-{n}.jsonl")
            with open(paths[n], "wb") as f:
                f.write(b"".join(b + b"\n" for b in lines))
        report = os.path.join(folder, "report.jsonl")
        pipelines = {"-j 1": ("-j", "1")}
        if jobs > 1:
            pipelines[f"-j {jobs}"] = ("-j", str(jobs))
        if cluster:
            pipelines[f"--cluster {cluster}"] = ("--cluster", str(address), "--cluster-timeout",
                                                 f"{getattr(cluster, 'timeout', CONNECT_TIMEOUT):g}")
        wall: dict = {}     # (label, games) -> the best wall-clock of its rounds, seconds
        cpu: dict = {}      # the same, processor time

        def run_of(label: str, n: int):
            def run():
                t = verify_command([sys.executable, *VERIFY, *pipelines[label], paths[n]], env, folder, report,
                                   n, label, pids if label.startswith("--cluster") else ())
                wall[label, n] = min(wall.get((label, n), t.wall), t.wall)
                cpu[label, n] = min(cpu.get((label, n), t.cpu), t.cpu)
            return run

        def apart():
            # The machine's own ceiling: N one-job runs of the whole file at once.
            t0 = time.perf_counter()
            spent = side_by_side([[sys.executable, *VERIFY, "-j", "1", paths[games]] for _ in range(jobs)], env, folder)
            wall["apart"] = min(wall.get("apart", float("inf")), time.perf_counter() - t0)
            cpu["apart"] = min(cpu.get("apart", float("inf")), spent / jobs)

        runs = [run_of(label, n) for n in (games, small) for label in pipelines]
        # Taken in turns, forwards then backwards, each keeping its best round (bench.interleaved_best).
        interleaved_best(runs + [apart] if jobs > 1 else runs, repeat)
    stolen = _stolen_share(ticks, _cpu_times())
    fits = {label: (fit(small, wall[label, small], games, wall[label, games]),
                    fit(small, cpu[label, small], games, cpu[label, games])) for label in pipelines}
    width = max(38, max(len(label) for label in pipelines) + 30)

    def row(text, value):
        click.echo(f"{text:<{width}} {value}")

    for label in pipelines:
        w, c = fits[label]
        row(f"verify {label} (file):", f"{wall[label, games] * 1000:8.1f} ms  {games / wall[label, games]:10,.0f} "
            f"games/s  cpu {cpu[label, games] * 1000:8.1f} ms  ({small:,} games: {wall[label, small] * 1000:.1f} ms, "
            f"cpu {cpu[label, small] * 1000:.1f} ms)")
        row(f"{label}: fixed, per game (wall):", f"{w.fixed * 1000:8.1f} ms  {w.per_game * 1e6:10,.1f} us a game"
            + ("  (runs too noisy to fit: fixed taken as 0)" if w.clamped else ""))
        row(f"{label}: fixed, per game (cpu):", f"{c.fixed * 1000:8.1f} ms  {c.per_game * 1e6:10,.1f} us a game"
            + ("  (runs too noisy to fit: fixed taken as 0)" if c.clamped else ""))
    result: dict = {"jobs": jobs, "stolen": stolen}
    one_w, one_c = fits["-j 1"]
    if jobs > 1:
        many = f"-j {jobs}"
        many_w, many_c = fits[many]
        ratio = wall["-j 1", games] / wall[many, games]
        per_game_ratio = one_w.per_game / many_w.per_game
        cpu_ratio = cpu[many, games] / cpu["-j 1", games]
        cpu_per_game = many_c.per_game / one_c.per_game
        million = many_w.projected()
        row(f"scaling {many}:", f"{ratio:8.2f} x the speed of -j 1 (whole runs), {per_game_ratio:.2f} x per game")
        row(f"processor time {many}:", f"{cpu_ratio:8.3f} x that of -j 1 (whole runs), {cpu_per_game:.3f} x per game")
        row("a million such games:", f"{million / 60:8.1f} min with {many} (projected: fixed + 1,000,000 x per game)")
        ceiling = jobs * wall["-j 1", games] / wall["apart"]
        row(f"{jobs} runs of -j 1 side by side:", f"{ceiling:8.2f} x the speed of one (what this machine gives "
            f"{jobs} processes; {many} gets {ratio / ceiling:.2f} of it)")
        row(f"{jobs} runs of -j 1 side by side, cpu:", f"{cpu['apart'] / cpu['-j 1', games]:8.3f} x that of one run "
            "alone, each (the same work on busy cores: what sharing the machine adds to processor time)")
        # Judged on the figures as printed, so that a reader sees the same.
        row(f"target {many} cpu at most {CPU_TARGET:.2f}x -j 1:",
            f"{meets(round(cpu_per_game, 2) <= CPU_TARGET)} ({cpu_per_game:.2f}x per game; whole runs "
            f"{cpu_ratio:.2f}x)")
        row(f"target a million in {MILLION_TARGET_MIN:g} min ({many}):",
            f"{meets(round(million / 60, 2) <= MILLION_TARGET_MIN)} ({million / 60:.2f} min, "
            f"{million / 60 / MILLION_TARGET_MIN:.2f} of the time allowed)")
        result.update(ratio=ratio, per_game_ratio=per_game_ratio, cpu_ratio=cpu_ratio, cpu_per_game=cpu_per_game,
                      million_s=million, side_by_side=ceiling, side_by_side_cpu=cpu['apart'] / cpu['-j 1', games])
    if cluster:
        label = f"--cluster {cluster}"
        against = f"-j {jobs}" if jobs > 1 else "-j 1"
        cl_w, cl_c = fits[label]
        slower = wall[label, games] / wall[against, games]
        slower_per_game = cl_w.per_game / fits[against][0].per_game
        cpu_more = cl_c.per_game / fits[against][1].per_game
        row(f"{label}:", f"{slower:8.2f} x the wall-clock of {against} (whole runs), {slower_per_game:.2f} x per "
            f"game; cpu {cpu_more:.2f} x per game" + ("" if pids else " (the cluster's own processes not counted)"))
        if jobs > 1:
            row(f"target {label} at most {CLUSTER_TARGET:.2f}x {against}:",
                f"{meets(round(slower_per_game, 2) <= CLUSTER_TARGET)} ({slower_per_game:.2f}x per game; whole "
                f"runs {slower:.2f}x)")
        result.update(cluster_ratio=slower, cluster_per_game=slower_per_game, cluster_cpu=cpu_more)
    click.echo(f"(each run is the verify command, its start included: fixed and per-game costs fit through the "
               f"runs of {small:,} and {games:,} games; cpu: user and system time of every process of the run)")
    if load is not None:
        # This process counts about 1 in the load; its N workers want N cores.
        crowded = load[0] - 1 + jobs > cores + 0.5
        busy = "; other work competes with the workers: the scaling is understated" if crowded else ""
        click.echo(f"(machine: {plural(cores, 'core')}{processor()}, load average {load[0]:.2f} before these runs"
                   f"{busy})")
    if stolen is not None:
        click.echo(f"(steal, the cores' time a virtual machine's host gave to others: {stolen:.1%} during these runs)")
    quiet = jobs <= 1 or round(result["side_by_side"], 2) >= QUIET * jobs
    if not quiet:
        click.echo(f"(not a quiet machine: {jobs} runs of -j 1 side by side got {result['side_by_side']:.2f} x of "
                   f"one, under {QUIET * jobs:.2f}; other work shares the cores, and the times above measure that "
                   "as much as the code; instructions do not change with it)")
    result["quiet"] = quiet
    return result


def verify_command(cmd: list[str], env: dict, cwd: str, report: str, games: int, label: str,
                   pids=()) -> Timed:
    """One run of verify (`cmd`), its report written to `report`: its
    wall-clock and processor time (its own, its workers', and that of the
    processes `pids` and of this one meanwhile: a cluster's). Raises
    SystemExit when the run fails or does not report every game as
    conforming."""
    import msgspec

    before = _cpu_of(pids) if pids else 0.0
    mine = os.times()
    with open(report, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    cpu = usage.ru_utime + usage.ru_stime
    if pids:
        now = os.times()
        cpu += _cpu_of(pids) - before + (now.user - mine.user) + (now.system - mine.system)
    err = proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench: verify {label} failed (exit status {os.waitstatus_to_exitcode(status)}): "
                         f"{' | '.join(err[-3:])}")
    with open(report, "rb") as f:
        f.seek(max(0, os.path.getsize(report) - 65536))
        summary = msgspec.json.decode(f.read().splitlines()[-1])
    if summary.get("games") != games or summary.get("conforms") != games:
        raise SystemExit(f"bench: {games} games in, {summary.get('conforms')} conforming out ({label})")
    return Timed(wall, cpu)


def side_by_side(cmds: list[list[str]], env: dict, cwd: str) -> float:
    """The commands `cmds` at once, each a process of its own that shares
    nothing with the others: what the machine gives that many processes,
    the ceiling of `-j N`. Their processor time, all of them together.
    Raises SystemExit when one fails."""
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
             for cmd in cmds]
    cpu, failed = 0.0, []
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        if status:
            failed.append(os.waitstatus_to_exitcode(status))
    if failed:
        raise SystemExit(f"bench: a run of -j 1 side by side failed (exit status {failed[0]})")
    return cpu


@contextmanager
def _cluster(cluster: str | None, workers: int):
    """(the address the runs get, the processes whose time is theirs): a
    cluster of `workers` local processes for `local`, started here and
    closed at the end; any other address as it is, with no process known,
    once it answered (one that does not ends the bench as it ends verify)."""
    from .cluster import connect

    if cluster != "local":
        if cluster is not None and not cluster.startswith("local:"):
            client, _ = connect(cluster)     # one that cannot be reached ends the bench here (ClusterUnavailable)
            client.close()
        yield cluster, ()
        return

    client, local = connect(f"local:{workers}")
    try:
        pids = tuple(n.process.pid for n in local.workers.values() if getattr(n, "process", None) is not None)
        yield local.scheduler_address, pids
    finally:
        client.close()
        local.close()


def processor(path: str = "/proc/cpuinfo") -> str:
    """`, NAME (family F, model M)` of the machine's first processor, from
    /proc/cpuinfo: times per game differ between machines of the same name
    (a family of a newer design runs the same instructions faster), so a
    figure says which one it comes from. Empty where the system has no such
    file."""
    fields: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break               # the first processor's block ends
                key, sep, value = line.partition(":")
                if sep:
                    fields.setdefault(key.strip(), value.strip())
    except OSError:
        return ""
    name = visible(fields.get("model name", ""))[:80]
    family, model = fields.get("cpu family"), fields.get("model")
    if not name:
        return ""
    return f", {name}" + (f" (family {visible(family)[:8]}, model {visible(model or '?')[:8]})" if family else "")


def _cpu_of(pids) -> float:
    """The processor time (user and system) the processes `pids` took so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        total += int(fields[11]) + int(fields[12])     # utime, stime
    return total / ticks


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
