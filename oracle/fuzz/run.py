"""A fuzz run: a budget of inputs shared among the formats, with a seed."""

from __future__ import annotations

import importlib
from contextlib import ExitStack
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed

from .. import ending, games as games_registry
from . import checks

ROUND = 1000            # inputs of one format tried in one Hypothesis run
ROUND_SEEDS = 1_000_003  # the seed of round r: the format's seed + r x this (round 0: the format's own seed)


def _settings(n: int):
    return settings(max_examples=max(1, n), database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), derandomize=False)


def game_shares(game: str) -> dict[str, float]:
    """The targets of a game and their shares of the budget, through its
    registry entry (FUZZ: its targets module's SHARES)."""
    return dict(_module(game).SHARES)


def _module(game: str):
    """A game's fuzz targets module (its registry entry's FUZZ)."""
    return importlib.import_module(games_registry.entry(game).FUZZ)


def run_fuzz(budget: int, seed: int, *, out: str | Path | None = None, seconds: float = 5.0,
             cli_every: int = 50, replays: str | Path | None = "replays",
             scenarios: str | Path | None = "scenarios", examples: str | Path | None = "examples",
             targets=None, game: str = games_registry.DEFAULT, progress=None) -> checks.Tally:
    """Try about `budget` inputs; every `cli_every`-th input of each target
    also goes through the command line (0: never). `game`: whose targets
    (`targets` among them, all of them when None; the default game's by default). `progress`: told the
    inputs each target gets and each input tried (progress.FuzzProgress).
    Ctrl-C (and SIGTERM, raised as ending.Terminated under
    ending.stops_raise) ends the run: the tally of what was tried so far,
    `interrupted` set to the exception."""
    tally = checks.Tally(out=Path(out) if out else None)
    try:
        return _fuzz_game(tally, budget, seed, seconds, cli_every, replays, scenarios, examples, targets, game,
                          progress)
    except KeyboardInterrupt as e:      # the report of what was tried so far
        tally.interrupted = e
        return tally


def _fuzz_game(tally, budget, seed, seconds, cli_every, replays, scenarios, examples, targets, game,
               progress) -> checks.Tally:
    shares = game_shares(game)
    with ExitStack() as cleanup:
        table = _module(game).targets(tally, seconds, replays, scenarios, examples, seed, cleanup)
        return _run(tally, budget, seed, seconds, cli_every, shares, tuple(shares) if targets is None else targets,
                    table, progress)


def _run(tally, budget: int, seed: int, seconds: float, cli_every: int, shares: dict, targets, table,
         progress=None) -> checks.Tally:
    """Share the budget among `targets` (by `shares`) and fuzz each with its
    strategy and checks (`table`: target -> its entry, as a game's targets(...) gives it)."""
    share = {t: shares[t] for t in targets}
    total = sum(share.values())
    n = {t: int(budget * s / total) for t, s in share.items()}
    for t in sorted(share, key=lambda t: -share[t])[:budget - sum(n.values())]:
        n[t] += 1     # the rest of the budget, to the largest shares
    n = {t: k for t, k in n.items() if k}
    if progress is not None:
        progress.plan({t: n[t] for t in shares if t in n})
    counter = {t: 0 for t in targets}

    def sample(target: str) -> bool:
        counter[target] += 1
        return cli_every > 0 and counter[target] % cli_every == 0

    def fuzz(target, index):
        strategy, suffix, check, cli = table[target]

        def one(case):
            ending.raise_if_stopped()       # a Ctrl-C that Hypothesis's garbage-collector callback swallowed
            data, run = check(case)
            checks.guarded(tally, target, data, suffix, seconds, run)
            if sample(target):
                checks.guarded_cli(tally, target, data, suffix, lambda: cli(case))
            if progress is not None:
                progress.tried(tally, target)

        # In rounds of ROUND inputs, each its own seed: Hypothesis keeps what
        # a run has tried, which would grow with the budget.
        for r, start in enumerate(range(0, n[target], ROUND)):
            hseed(seed + index + r * ROUND_SEEDS)(_settings(min(ROUND, n[target] - start))(given(strategy)(one)))()

    for index, target in enumerate(shares):      # each target its own seed, in a fixed order
        if target in n:
            fuzz(target, index)
    return tally
