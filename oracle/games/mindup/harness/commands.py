"""The harness verbs for Mind Up! (`--game mind-up`), called through the
game registry by oracle.harness.command: perft and conform."""

from __future__ import annotations

import json
import sys
import time

import click

from ....term import visible
from ..engine import RuleError, SetupError
from . import perft as pf
from .play import game_from_deal, seeded_deal


def _fail(message: str) -> None:
    click.echo(f"error: {visible(message, lines=True)}", err=True)
    sys.exit(2)


def perft(depth: int, seed, players, scenario_path, scenario_id, divide: bool, fmt: str, show_deal: bool) -> None:
    """Count the turn sequences of exactly `depth` turns (spec/perft.md, Mind Up!)."""
    from ....harness.start import StartError, load_scenario
    from ..scenarios.runner import build

    if (seed is None) == (scenario_path is None):
        _fail("give exactly one start: --seed N (with --players) or --scenario FILE --id ID")
    if scenario_path and not scenario_id:
        _fail("--scenario needs --id (the scenario's id)")
    chance = pf.orders(seed if seed is not None else 0)
    try:
        if seed is not None:
            players = players or 4
            setup = seeded_deal(seed, players)
            where = f"seed {seed}, {players} players"
            if show_deal:
                click.echo(json.dumps(setup, separators=(",", ":")))
                return
            g = game_from_deal(players, setup)
        else:
            if show_deal:
                _fail("--show-deal needs a deal (--seed), not a scenario")
            where = visible(f"{scenario_path}#{scenario_id}")
            g = build(load_scenario(scenario_path, scenario_id, "mind-up"))
    except StartError as e:
        _fail(str(e))
    except (SetupError, RuleError) as e:
        _fail(f"{where}: {e.code} [{e.clause}] {e.message}")
    t0 = time.perf_counter()
    split = pf.divide(g, depth, chance) if divide else None
    total = sum(n for _, n in split) if split is not None else pf.count(g, depth, chance)
    seconds = time.perf_counter() - t0
    if fmt == "json":
        out = {"game": "mind-up", "start": where, "depth": depth, "count": total}
        if split is not None:
            out["divide"] = [{"turn": {"t": "turn", "cards": cards}, "count": n} for cards, n in split]
        click.echo(json.dumps(out))
        return
    for cards, n in split or ():
        click.echo(f"turn {' '.join(map(str, cards)):<30} {n}")
    click.echo(f"perft mind-up {where} depth {depth}: {total}")
    rate = f", {total / seconds:,.0f} sequences/s" if seconds > 0 else ""
    click.echo(f"({seconds:.2f} s{rate})", err=True)


def conform(command: str, settings, players: tuple[int, ...]):
    """The Mind Up! campaign of `mb-oracle conform --game mind-up` (EngineFault, ValueError)."""
    from .conform import PLAYERS, campaign
    return campaign(command, settings, players or PLAYERS)
