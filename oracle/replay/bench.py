"""`mb-oracle bench`: decisions verified per second, against the cost of
merely decoding the same stream with msgspec, measured in the same run.

With `--jobs N` or `--cluster ADDRESS` it also verifies the same stream as
a file through `verify`'s pipeline, once with one job and once with N jobs
(or on the cluster), and reports the scaling ratio and the time a million
such games would take."""

from __future__ import annotations

import time

import click

from ..term import Progress, plural
from . import format as fmt
from .reader import RawGame
from .selfplay import selfplay_lines
from .verify import verify_game

TARGET = 80_000  # decisions per second, one process


def run_bench(games: int, seed: int, edition: str, claims: str, repeat: int, jobs: int = 1,
              cluster: str | None = None) -> dict:
    click.echo(f"generating {plural(games, 'random self-play game')} ({edition}, claims: {claims}) ...")
    raws: list[RawGame] = []
    current = None
    with Progress("generating", total=games, unit="game") as bar:
        for i, line in enumerate(selfplay_lines(games, seed, edition, "random", claims), 1):
            if line.startswith(b'{"t":"game"'):
                if current is not None:
                    bar.update(1)
                current = RawGame("<bench>", [])
                raws.append(current)
            current.lines.append((i, line))
    all_lines = [b for r in raws for _, b in r.lines]
    nbytes = sum(len(b) + 1 for b in all_lines)

    def decode_only():
        dec = fmt.decoder.decode
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

    def best(fn):
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    t_dec = best(decode_only)
    t_ver = best(verify_all)
    rate = decisions / t_ver
    dec_rate = decisions / t_dec
    click.echo(f"stream: {plural(len(all_lines), 'line')}, {nbytes / 1e6:.2f} MB, {plural(decisions, 'decision')}")
    click.echo(f"decode only (msgspec):  {t_dec * 1000:8.1f} ms  {dec_rate:12,.0f} decisions/s")
    click.echo(f"verify (full replay):   {t_ver * 1000:8.1f} ms  {rate:12,.0f} decisions/s")
    click.echo(f"ratio verify/decode:    {t_ver / t_dec:8.1f} x the decoding time")
    verdict = "meets" if rate >= TARGET else "misses"
    click.echo(f"target {TARGET:,} decisions/s: {verdict} ({rate / TARGET:.2f} of target)")
    result = {"decisions": decisions, "decode_s": t_dec, "verify_s": t_ver, "rate": rate}
    if jobs > 1 or cluster:
        result.update(run_scaling(all_lines, len(raws), jobs, cluster, best))
    return result


def run_scaling(all_lines: list[bytes], games: int, jobs: int, cluster: str | None, best) -> dict:
    """The whole pipeline of `verify` on a file of the same games: one job,
    then N jobs or the cluster; the ratio and a projection to a million games."""
    import os
    import tempfile

    from .parallel import Options, iter_reports

    fd, path = tempfile.mkstemp(suffix=".jsonl", prefix="mb-bench-")
    try:
        with os.fdopen(fd, "wb") as f:
            for b in all_lines:
                f.write(b + b"\n")
        counted: dict[str, int] = {}

        def pipeline(label, **how):
            def run():
                n = 0
                for rep in iter_reports((path,), Options(), **how):
                    if rep.verdict != "conforms":
                        raise SystemExit(f"bench: a self-played game does not conform ({label})")
                    n += 1
                counted[label] = n
            return run

        t_one = best(pipeline("one", jobs=1))
        label = f"--cluster {cluster}" if cluster else f"-j {jobs}"
        t_many = best(pipeline("many", jobs=jobs, cluster=cluster))
    finally:
        os.unlink(path)
    if counted["one"] != games or counted["many"] != games:
        raise SystemExit(f"bench: {games} games in, {counted} reports out")
    ratio = t_one / t_many
    million = t_many / games * 1_000_000
    width = max(23, len(label) + 16)
    click.echo(f"{'verify -j 1 (file):':<{width}} {t_one * 1000:8.1f} ms  {games / t_one:12,.0f} games/s")
    click.echo(f"{f'verify {label} (file):':<{width}} {t_many * 1000:8.1f} ms  {games / t_many:12,.0f} games/s")
    if cluster:
        click.echo(f"{'':<{width}} (the cluster's start or connection included)")
    click.echo(f"{f'scaling {label}:':<{width}} {ratio:8.2f} x the speed of -j 1")
    click.echo(f"{'a million such games:':<{width}} {million / 60:8.1f} min with {label} (projected)")
    return {"one_s": t_one, "many_s": t_many, "ratio": ratio, "million_s": million}
