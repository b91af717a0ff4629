"""The harness verbs for Mindbug, called through the game registry by
oracle.harness.command: perft, and what conform takes of its options
(conform's campaign is `conform.campaign`)."""

from __future__ import annotations

import json
import sys
import time

import click

from ....harness.start import StartError
from ....replay.run import declared
from ....term import error, visible
from ..cards import DEFAULT_SETS
from ..engine import SetupError
from . import perft as pf
from .start import game_from_setup, log_start, scenario_game, seeded_deal, start_sets


def _fail(message: str) -> None:
    error(message)
    sys.exit(2)


def perft(depth, seed, players, scenario_path, scenario_id, divide: bool, fmt: str, show_deal: bool, *,
          edition=None, log_path=None, sets_spec=None, cards_file=None) -> None:
    """Count the decision sequences of exactly `depth` steps (spec/perft.md,
    Mindbug) from a seed's deal, a replay log's first deal or a scenario."""
    if players is not None:
        _fail("--players is for games of Mind Up! (--game mind-up)")
    given = [x for x in (seed is not None, log_path, scenario_path) if x]
    if len(given) != 1:
        _fail("give exactly one start: --seed N, --log FILE or --scenario FILE --id ID")
    if scenario_path and not scenario_id:
        _fail("--scenario needs --id (the scenario's id)")
    if depth is None and not show_deal:
        _fail("give --depth N (the decisions per sequence), or --show-deal to print the deal")
    if sets_spec is not None and seed is None:
        _fail("--sets goes with --seed (a log's game line and a scenario name their own sets)")
    if cards_file:
        declared(cards_file)
    try:
        readings, sets = {}, DEFAULT_SETS
        dealt = ""          # a log's setup line (FILE:LINE), named by an error of its deal
        if seed is not None:
            edition = edition or "en-revised"
            if sets_spec is not None:
                try:
                    sets = start_sets(sets_spec, edition)
                except StartError as e:
                    raise click.BadParameter(str(e), param_hint="--sets") from None
            setup = seeded_deal(seed, edition, sets)
            where = f"seed {seed}" + ("" if sets == DEFAULT_SETS else f" ({'+'.join(sets)})")
        elif log_path:
            own, readings, setup, sets, dealt = log_start(log_path)
            edition = edition or own or "en-revised"
            where = visible(log_path)
        else:
            edition = edition or "en-revised"
            where = visible(f"{scenario_path}#{scenario_id}")
            setup = None
        if show_deal:
            if setup is None:
                _fail("--show-deal needs a deal (--seed or --log), not a scenario")
            click.echo(json.dumps({"t": "setup", **setup}, separators=(",", ":")))
            return
        if setup is None:
            g = scenario_game(scenario_path, scenario_id, edition,
                              not_ours="perft counts Mindbug's decisions; perft --game {game} counts its turns")
        else:
            g = game_from_setup(edition, setup, readings, sets)
    except StartError as e:
        _fail(str(e))
    except SetupError as e:
        _fail(f"{dealt or where}: {e.code} [{e.clause}] {e.message}")
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
        click.echo(visible(f"{pf.decision_text(g, d):<40} {n}"))
    click.echo(visible(f"perft {edition} {where} depth {depth}: {total}"))
    rate = f", {total / seconds:,.0f} sequences/s" if seconds > 0 else ""
    click.echo(f"({seconds:.2f} s{rate})", err=True)


def conform_options(players, editions, scenario_paths, reading_specs, expect_file, sets_spec) -> dict:
    """What Mindbug's conform takes of the command's options: the card sets
    dealt (--sets, else first-contact); --players is Mind Up!'s."""
    try:
        sets = DEFAULT_SETS if sets_spec is None else start_sets(sets_spec)
    except StartError as e:
        raise click.BadParameter(str(e), param_hint="--sets") from None
    if players:
        _fail("--players is for games of Mind Up! (--game mind-up)")
    return {"sets": sets}
