"""Mindbug's targets of `mb-oracle fuzz` (the default game), each as the
shared run takes them (oracle.fuzz.run): a strategy of a case, the file
suffix of a reproducer, the in-process check and the command-line check.

    replay-lines, games        broken mb-replay/1 lines, real games mutated line by line
    scenarios, expect, cards   scenario, expectation and card files broken as data and as text
    rpc, engine                service sessions; engine adapters whose replies break
    text, yaml-values, card-names, serve-reads       hostile text and values (hostile.py)
    card-lookalikes, file-names                      hostile names (names.py)
    streams, blank-lines, boms, undecodable-names    hostile streams (oracle.fuzz)
    big-claims                                       state claims of a hostile size (claims.py)
    outputs, adapters                                hostile surroundings (surroundings.py)
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from hypothesis import strategies as st

from ....fuzz import checks, cli_checks, streams, undecodable
from ....fuzz import strategies as fs, yaml_strategies as ys
from ....fuzz.corpus import file_games
from . import (card_checks, card_files, claims, corpus, engine_checks, hostile, lines, names, rpc_strategies as rs,
               surroundings, verify_files)

# Shares of the budget, by target (each target's seed follows from its place here).
SHARES = {"replay-lines": 0.12, "games": 0.25, "scenarios": 0.17, "expect": 0.07, "cards": 0.07, "rpc": 0.07,
          "engine": 0.07, "text": 0.07, "yaml-values": 0.04, "card-names": 0.03, "serve-reads": 0.04,
          "streams": 0.04, "outputs": 0.04, "adapters": 0.03, "undecodable-names": 0.02, "big-claims": 0.02,
          "blank-lines": 0.02, "boms": 0.02,
          "card-lookalikes": 0.03, "file-names": 0.02}


def targets(tally, seconds: float, replays, scenarios, examples, seed: int, cleanup) -> dict:
    """Each target: (strategy of a case, file suffix, case -> (input, its
    check in-process), case -> its check through the command line). The
    seed corpus comes from `replays`, `scenarios` and `examples`; the
    sandbox of `serve-reads` is removed when `cleanup` (an ExitStack) closes."""
    good = corpus.short_games()
    games = corpus.selfplay_games() + file_games(replays)
    texts = corpus.scenario_texts(scenarios)
    expects = (corpus.MINIMAL_EXPECT,)
    card_texts = corpus.card_texts(examples)
    folders = (str(scenarios),) if scenarios is not None and Path(scenarios).is_dir() else ()
    sandbox = hostile.make_sandbox(corpus.MINIMAL_SCENARIO)
    cleanup.callback(shutil.rmtree, sandbox, ignore_errors=True)
    slow = seconds * 4
    setups = tuple(g[1] for g in games if b'"setup"' in g[1][:20])
    yaml_checks = {"scenarios": (checks.check_scenarios, cli_checks.cli_scenarios),
                   "cards": (card_checks.check_cards, verify_files.cli_cards),
                   "expect": (verify_files.check_expect, verify_files.cli_expect)}
    samples = surroundings.Lazy(lambda: surroundings.output_samples(games, texts))
    tags = iter(range(1 << 30))

    def tag():
        return f"mb-fuzz-adapter-{os.getpid()}-{seed}-{next(tags)}"

    def yaml_target(strategy, check, cli):
        """A target of YAML files: check(tally, data) in process, cli(tally, data, seconds)."""
        return (strategy, ".yaml", lambda data: (data, lambda: check(tally, data)), lambda data: cli(tally, data, slow))

    def lines_target(target: str, strategy):
        """A target of hostile lines (streams.LinesCase)."""
        return (strategy, ".jsonl", lambda case: (case.data, lambda: streams.check_lines(tally, target, case)),
                lambda case: streams.cli_lines(tally, target, case, slow))
    return {
        "replay-lines": (
            fs.replay_lines_stream(games, lines.VOCABULARY), ".jsonl",
            lambda data: (data, lambda: checks.check_stream(tally, data)),
            lambda data: cli_checks.cli_stream(tally, data, data, slow, keep_going=False)),
        "games": (
            st.tuples(fs.game_stream(games, good, lines.VOCABULARY), st.booleans()), ".jsonl",
            lambda case: (case[0].plain, lambda: checks.check_stream(tally, case[0].plain, case[0].last_id)),
            lambda case: cli_checks.cli_stream(tally, case[0].data, case[0].plain, slow, case[1])),
        "scenarios": yaml_target(ys.scenario_file(texts), *yaml_checks["scenarios"]),
        "expect": yaml_target(ys.expect_file(expects), *yaml_checks["expect"]),
        "cards": yaml_target(card_files.card_file(card_texts), *yaml_checks["cards"]),
        "rpc": (
            rs.rpc_session(setups), ".json",
            lambda session: (json.dumps(session, default=repr).encode(),
                             lambda: checks.check_rpc(tally, session, folders)),
            lambda session: cli_checks.cli_rpc(tally, session, slow, folders)),
        "engine": (
            rs.engine_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: engine_checks.check_engine(tally, case)),
            lambda case: engine_checks.cli_engine(tally, case, slow)),
        "text": (
            hostile.text_case(games, texts), ".txt",
            lambda case: (case[1], lambda: hostile.check_text(tally, case)),
            lambda case: hostile.cli_text(tally, case, slow)),
        "yaml-values": (
            hostile.yaml_value_case(texts, card_texts, expects), ".yaml",
            lambda case: (case[1], lambda: yaml_checks[case[0]][0](tally, case[1])),
            lambda case: yaml_checks[case[0]][1](tally, case[1], slow)),
        "card-names": yaml_target(hostile.colliding_cards(), hostile.check_card_names, verify_files.cli_cards),
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
            claims.big_claim(good), ".jsonl",
            lambda data: (data, lambda: claims.check_big_claim(tally, data)),
            lambda data: claims.cli_big_claim(tally, data, slow)),
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
        "card-lookalikes": yaml_target(names.lookalike_cards(), names.check_lookalike_cards, verify_files.cli_cards),
        "file-names": (
            names.file_name_case(), ".json",
            lambda case: (json.dumps(case).encode(), lambda: names.check_file_names(case, samples())),
            lambda case: names.cli_file_names(tally, case, samples(), slow)),
    }
