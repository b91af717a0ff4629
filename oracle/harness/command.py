"""Command-line verbs of the harness: perft, serve, conform (thin: the work
is in the modules of the same names)."""

from __future__ import annotations

import json
import sys
import time

import click

from ..editions import EDITIONS


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.command()
@click.option("--depth", type=click.IntRange(0, 40), required=True, help="Decisions per sequence.")
@click.option("--edition", type=click.Choice(EDITIONS), help="Rules edition (default: the log's, else en-revised).")
@click.option("--seed", type=int, help="Start from the deal of this seed (the fixed deals of spec/perft.md).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Start from the deal of the first game of this replay log.")
@click.option("--scenario", "scenario_path", type=click.Path(dir_okay=False),
              help="Start from a scenario's position (with --id).")
@click.option("--id", "scenario_id", help="The scenario's id (with --scenario).")
@click.option("--divide", is_flag=True, help="Also count per first decision.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--show-deal", is_flag=True, help="Print the setup line of the deal and stop.")
def perft(depth, edition, seed, log_path, scenario_path, scenario_id, divide, fmt, show_deal):
    """Count the distinct decision sequences of exactly DEPTH steps (chance
    outcomes expanded) from a deal or a position; see spec/perft.md."""
    from ..engine import SetupError
    from . import perft as pf
    from .start import StartError, game_from_setup, log_start, scenario_game, seeded_deal

    given = [x for x in (seed is not None, log_path, scenario_path) if x]
    if len(given) != 1:
        _fail("give exactly one start: --seed N, --log FILE or --scenario FILE --id ID")
    if scenario_path and not scenario_id:
        _fail("--scenario needs --id (the scenario's id)")
    try:
        readings = {}
        if seed is not None:
            edition = edition or "en-revised"
            setup = seeded_deal(seed, edition)
            where = f"seed {seed}"
        elif log_path:
            own, readings, setup = log_start(log_path)
            edition = edition or own or "en-revised"
            where = log_path
        else:
            edition = edition or "en-revised"
            where = f"{scenario_path}#{scenario_id}"
            setup = None
        if show_deal:
            if setup is None:
                _fail("--show-deal needs a deal (--seed or --log), not a scenario")
            click.echo(json.dumps({"t": "setup", **setup}, separators=(",", ":")))
            return
        g = scenario_game(scenario_path, scenario_id, edition) if setup is None else \
            game_from_setup(edition, setup, readings)
    except StartError as e:
        _fail(str(e))
    except SetupError as e:
        _fail(f"{where}: {e.code} [{e.clause}] {e.message}")
    t0 = time.perf_counter()
    split = pf.divide(g, depth) if divide else None
    total = sum(n for _, n in split) if split is not None else pf.count(g, depth)
    seconds = time.perf_counter() - t0
    if fmt == "json":
        out = {"edition": edition, "start": where, "depth": depth, "count": total}
        if split is not None:
            out["divide"] = [{"decision": d.to_json(), "count": n} for d, n in split]
        click.echo(json.dumps(out))
        return
    for d, n in split or ():
        click.echo(f"{pf.decision_text(g, d):<40} {n}")
    click.echo(f"perft {edition} {where} depth {depth}: {total}")
    rate = f", {total / seconds:,.0f} sequences/s" if seconds > 0 else ""
    click.echo(f"({seconds:.2f} s{rate})", err=True)


@click.command()
def serve():
    """Serve the reference engine over standard input and output
    (mb-oracle-rpc/1 JSON Lines; see spec/rpc.md). Ends at the end of input."""
    from .serve import serve as run

    run(sys.stdin.buffer, sys.stdout.buffer)
