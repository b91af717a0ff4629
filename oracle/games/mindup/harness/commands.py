"""The harness verbs for Mind Up! (`--game mind-up`), called through the
game registry by oracle.harness.command: perft and conform, and what
conform takes of its options."""

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


def perft(depth: int, seed, players, scenario_path, scenario_id, divide: bool, fmt: str, show_deal: bool, *,
          edition=None, log_path=None, sets_spec=None, cards_file=None) -> None:
    """Count the turn sequences of exactly `depth` turns (spec/perft.md, Mind
    Up!); --edition, --log, --sets and --cards are Mindbug's."""
    from ....harness.start import StartError, load_scenario
    from ..scenarios.runner import build

    if edition or log_path or cards_file or sets_spec is not None:
        _fail("--edition, --log, --cards and --sets are Mindbug's; mind-up perft starts from --seed or --scenario")
    if depth is None and not show_deal:
        _fail("give --depth N (the turns to count) or --show-deal")
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
            g = build(load_scenario(scenario_path, scenario_id, "mind-up", "not of mind-up"))
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


def conform_options(players, editions, scenario_paths, reading_specs, expect_file, sets_spec) -> dict:
    """What Mind Up!'s conform takes of the command's options: none of
    Mindbug's (its games are seeded; --players is read by the campaign)."""
    if editions or scenario_paths or reading_specs or expect_file or sets_spec:
        _fail("--edition, --scenarios, --reading, --expect and --sets are Mindbug's; mind-up conform plays seeded "
              "games")
    return {}


def conform(command: str, settings, players: tuple[int, ...]):
    """The Mind Up! campaign of `mb-oracle conform --game mind-up` (EngineFault, ValueError)."""
    from .conform import PLAYERS, campaign
    return campaign(command, settings, players or PLAYERS)
