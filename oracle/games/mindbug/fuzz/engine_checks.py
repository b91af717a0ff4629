"""The target `engine`: `conform` against an engine adapter whose replies a
case breaks (engine.py), in this process and as a process of its own."""

from __future__ import annotations

import json
import sys
import tempfile

from ....fuzz.checks import Tally
from ....fuzz.cli_checks import cli_problem, run_cli


def check_engine(tally: Tally, case: tuple) -> None:
    """`conform` against an adapter whose replies the case breaks: two
    games, two reports; a game the adapter failed is malformed with
    ENGINE_FAULT; every report renders."""
    from ....harness.conform import ENGINE_FAULT, Settings
    from ..harness.conform import Campaign
    from ....harness.engine_client import EngineFault
    from ....replay import report as render
    from .engine import FuzzEngine

    seed, breaks, edition = case
    engine = FuzzEngine(breaks)
    try:
        engine.start()
    except EngineFault as e:
        assert str(e), "engine: a failed hello without a message"
        return
    if edition not in engine.editions:
        return
    settings = Settings(budget=2, seed=seed, editions=(edition,), shrink=True, shrink_budget=25,
                        max_decisions=300)
    reports = list(Campaign(engine, settings, [edition]).run())
    tally.games_in += 2
    tally.verdicts_out += len(reports)
    assert len(reports) == 2, f"engine verdicts: {len(reports)} reports for 2 games"
    for rep in reports:
        if rep.verdict == "malformed":
            assert rep.findings[0].code == ENGINE_FAULT, f"engine fault: {rep.findings[0].code}"
        render.human_game(rep)
        render.json_game(rep)


def cli_engine(tally: Tally, case: tuple, seconds: float) -> None:
    """`mb-oracle conform` against the same adapter as a process: exit 0, 1
    or 2, no traceback."""
    seed, breaks, edition = case
    tally.cli_runs += 1
    adapter = f"{sys.executable} -m oracle.games.mindbug.fuzz.engine '{json.dumps(breaks)}'"
    with tempfile.TemporaryDirectory() as tmp:
        r = run_cli(["conform", "--engine", adapter, "--budget", "2", "--seed", str(seed), "--edition", edition,
                  "--timeout", "5", "--format", "json", "--out", tmp], seconds * 3)
    cli_problem(tally, "cli-engine", json.dumps(case).encode(), ".json", r)
