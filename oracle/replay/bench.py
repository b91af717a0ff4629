"""`mb-oracle bench`: decisions verified per second, against the cost of
merely decoding the same stream with msgspec, measured in the same run.

With `--jobs N` or `--cluster ADDRESS` it also runs the verify command on
a file of the same stream, with one job, with N jobs and on the cluster
(`oracle.replay.scaling`). Two sizes of file split each run's time into a
fixed cost, paid once a run (the command's start, the workers' or the
cluster's), and a cost per game (`fit`): a million games is projected as
the fixed cost plus a million times the cost per game, since scaling the
whole run instead would count the fixed cost once per run of the bench's
size.

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


def run_bench(games: int, seed: int, edition: str, claims: str, repeat: int, then=None) -> dict:
    """The timings of verify against the decode floor in this process; then,
    given `then` (with --jobs or --cluster: oracle.replay.scaling), what it
    measures on the same lines and number of games, added to the result."""
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
    if then is not None:
        games_read = len(raws)
        raws.clear()
        result.update(then(all_lines, games_read))
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
