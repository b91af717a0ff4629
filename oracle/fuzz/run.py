"""A fuzz run: a budget of inputs shared among the formats, with a seed."""

from __future__ import annotations

import importlib
import json
import os
import shutil
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st

from .. import games as games_registry
from . import checks, cli_checks, corpus, hostile, names, streams, surroundings, undecodable
from . import rpc_strategies as rs, strategies as fs, yaml_strategies as ys

# Shares of the budget, by target (each target's seed follows from its place here).
SHARES = {"replay-lines": 0.12, "games": 0.25, "scenarios": 0.17, "expect": 0.07, "cards": 0.07, "rpc": 0.07,
          "engine": 0.07, "text": 0.07, "yaml-values": 0.04, "card-names": 0.03, "serve-reads": 0.04,
          "streams": 0.04, "outputs": 0.04, "adapters": 0.03, "undecodable-names": 0.02, "big-claims": 0.02,
          "blank-lines": 0.02, "boms": 0.02,
          "card-lookalikes": 0.03, "file-names": 0.02}


ROUND = 1000            # inputs of one format tried in one Hypothesis run
ROUND_SEEDS = 1_000_003  # the seed of round r: the format's seed + r x this (round 0: the format's own seed)


def _settings(n: int):
    return settings(max_examples=max(1, n), database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), derandomize=False)


def game_shares(game: str) -> dict[str, float]:
    """The targets of a game and their shares of the budget: Mindbug's
    (SHARES), or another game's through its registry entry (FUZZ)."""
    if game == games_registry.DEFAULT:
        return dict(SHARES)
    return dict(_module(game).SHARES)


def _module(game: str):
    """A game's fuzz targets module (its registry entry's FUZZ)."""
    return importlib.import_module(games_registry.entry(game).FUZZ)


def run_fuzz(budget: int, seed: int, *, out: str | Path | None = None, seconds: float = 5.0,
             cli_every: int = 50, replays: str | Path | None = "replays",
             scenarios: str | Path | None = "scenarios", examples: str | Path | None = "examples",
             targets=tuple(SHARES), game: str = "mindbug", progress=None) -> checks.Tally:
    """Try about `budget` inputs; every `cli_every`-th input of each target
    also goes through the command line (0: never). `game`: whose targets
    (`targets` among them; Mindbug's by default). `progress`: told the
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
    if game != games_registry.DEFAULT:
        table = _module(game).targets(tally, seconds, replays, scenarios)
        return _run(tally, budget, seed, seconds, cli_every, shares, targets, table, progress)
    good = corpus.short_games()
    games = corpus.selfplay_games() + corpus.file_games(replays)
    texts = corpus.scenario_texts(scenarios)
    expects = (corpus.MINIMAL_EXPECT,)
    card_files = corpus.card_texts(examples)
    folders = (str(scenarios),) if scenarios is not None and Path(scenarios).is_dir() else ()
    sandbox = hostile.make_sandbox(corpus.MINIMAL_SCENARIO)
    table = _targets(tally, games, good, texts, expects, card_files, seconds, folders, sandbox, seed)
    try:
        return _run(tally, budget, seed, seconds, cli_every, shares, targets, table, progress)
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)


def _run(tally, budget: int, seed: int, seconds: float, cli_every: int, shares: dict, targets, table,
         progress=None) -> checks.Tally:
    """Share the budget among `targets` (by `shares`) and fuzz each with its
    strategy and checks (`table`: target -> its entry, as `_targets`)."""
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


def _targets(tally, games, good, texts, expects, card_files, seconds, folders, sandbox, seed) -> dict:
    """Each target: (strategy of a case, file suffix, case -> (input, its
    check in-process), case -> its check through the command line)."""
    slow = seconds * 4
    setups = tuple(g[1] for g in games if b'"setup"' in g[1][:20])
    yaml_checks = {"scenarios": (checks.check_scenarios, cli_checks.cli_scenarios),
                   "cards": (checks.check_cards, cli_checks.cli_cards), "expect": (checks.check_expect, cli_checks.cli_expect)}
    samples = surroundings.Lazy(lambda: surroundings.output_samples(games, texts))
    tags = iter(range(1 << 30))

    def tag():
        return f"mb-fuzz-adapter-{os.getpid()}-{seed}-{next(tags)}"

    def lines_target(target: str, strategy):
        """A target of hostile lines (streams.LinesCase)."""
        return (strategy, ".jsonl", lambda case: (case.data, lambda: streams.check_lines(tally, target, case)),
                lambda case: streams.cli_lines(tally, target, case, slow))
    return {
        "replay-lines": (
            fs.replay_lines_stream(games), ".jsonl",
            lambda data: (data, lambda: checks.check_stream(tally, data)),
            lambda data: cli_checks.cli_stream(tally, data, data, slow, keep_going=False)),
        "games": (
            st.tuples(fs.game_stream(games, good), st.booleans()), ".jsonl",
            lambda case: (case[0].plain, lambda: checks.check_stream(tally, case[0].plain, case[0].last_id)),
            lambda case: cli_checks.cli_stream(tally, case[0].data, case[0].plain, slow, case[1])),
        "scenarios": (
            ys.scenario_file(texts), ".yaml",
            lambda data: (data, lambda: checks.check_scenarios(tally, data)),
            lambda data: cli_checks.cli_scenarios(tally, data, slow)),
        "expect": (
            ys.expect_file(expects), ".yaml",
            lambda data: (data, lambda: checks.check_expect(tally, data)),
            lambda data: cli_checks.cli_expect(tally, data, slow)),
        "cards": (
            ys.card_file(card_files), ".yaml",
            lambda data: (data, lambda: checks.check_cards(tally, data)),
            lambda data: cli_checks.cli_cards(tally, data, slow)),
        "rpc": (
            rs.rpc_session(setups), ".json",
            lambda session: (json.dumps(session, default=repr).encode(),
                             lambda: checks.check_rpc(tally, session, folders)),
            lambda session: cli_checks.cli_rpc(tally, session, slow, folders)),
        "engine": (
            rs.engine_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: checks.check_engine(tally, case)),
            lambda case: cli_checks.cli_engine(tally, case, slow)),
        "text": (
            hostile.text_case(games, texts), ".txt",
            lambda case: (case[1], lambda: hostile.check_text(tally, case)),
            lambda case: hostile.cli_text(tally, case, slow)),
        "yaml-values": (
            hostile.yaml_value_case(texts, card_files, expects), ".yaml",
            lambda case: (case[1], lambda: yaml_checks[case[0]][0](tally, case[1])),
            lambda case: yaml_checks[case[0]][1](tally, case[1], slow)),
        "card-names": (
            hostile.colliding_cards(), ".yaml",
            lambda data: (data, lambda: hostile.check_card_names(tally, data)),
            lambda data: cli_checks.cli_cards(tally, data, slow)),
        "serve-reads": (
            hostile.serve_session(setups, "fuzz.seed"), ".json",
            lambda session: (json.dumps(session, default=repr).encode(),
                             lambda: hostile.check_serve_reads(tally, session, sandbox)),
            lambda session: cli_checks.cli_rpc(tally, session, slow, (sandbox / "scen",), hostile.sandbox_paths(sandbox))),
        "streams": (
            streams.hostile_stream(good), ".jsonl",
            lambda case: (case.data, lambda: streams.check_hostile_stream(tally, case)),
            lambda case: streams.cli_hostile_stream(tally, case, slow)),
        "undecodable-names": (
            undecodable.name_case(good), ".jsonl",
            lambda case: (case[1], lambda: undecodable.check_names(tally, case)),
            lambda case: undecodable.cli_names(tally, case, slow)),
        "big-claims": (
            streams.big_claim(good), ".jsonl",
            lambda data: (data, lambda: streams.check_big_claim(tally, data)),
            lambda data: streams.cli_big_claim(tally, data, slow)),
        "blank-lines": lines_target("blank-lines", streams.blank_lines(good)),
        "boms": lines_target("boms", streams.byte_order_marks(good)),
        "outputs": (
            surroundings.output_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: surroundings.check_outputs(case, samples())),
            lambda case: surroundings.cli_outputs(tally, case, samples(), slow)),
        "adapters": (
            surroundings.adapter_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: surroundings.run_adapter_in_process(tally, case, tag())),
            lambda case: surroundings.cli_adapters(tally, case, tag(), slow)),
        "card-lookalikes": (
            names.lookalike_cards(), ".yaml",
            lambda data: (data, lambda: names.check_lookalike_cards(tally, data)),
            lambda data: cli_checks.cli_cards(tally, data, slow)),
        "file-names": (
            names.file_name_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: names.check_file_names(case, samples())),
            lambda case: names.cli_file_names(tally, case, samples(), slow)),
    }
