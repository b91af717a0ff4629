"""`mb-oracle bench`: decisions verified per second, against the cost of
merely decoding the same stream with msgspec, measured in the same run."""

from __future__ import annotations

import time

import click

from ..term import Progress, plural
from . import format as fmt
from .reader import RawGame
from .selfplay import selfplay_lines
from .verify import verify_game

TARGET = 80_000  # decisions per second, one process


def run_bench(games: int, seed: int, edition: str, claims: str, repeat: int) -> dict:
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
    return {"decisions": decisions, "decode_s": t_dec, "verify_s": t_ver, "rate": rate}
