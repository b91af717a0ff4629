"""`mb-oracle fuzz --game mind-up`: a fixed-seed run of Mind Up!'s logs,
scenarios and service requests finds no traceback, no hang and no lost
game; through the command line, verify -j 2 reports as one job does."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, run_cli

from oracle.fuzz import checks, run_fuzz
from oracle.fuzz.run import game_shares

SEED = 20261126


@pytest.mark.parametrize("target,budget", [("mu-replay-lines", 60), ("mu-games", 100), ("mu-scenarios", 60),
                                           ("mu-rpc", 50)])
def test_fixed_seed_fuzz_of_mind_up_finds_no_traceback_hang_or_lost_game(target, budget, tmp_path):
    tally = run_fuzz(budget, SEED, out=tmp_path, cli_every=0, targets=(target,), game="mind-up",
                     replays=ROOT / "replays", scenarios=ROOT / "scenarios")
    assert tally.inputs[target] >= budget * 0.9
    found = "\n\n".join(f"{p.key} ({p.seen}x)\n{p.message}" for p in tally.problems.values())
    assert not tally.problems, found
    if target in ("mu-replay-lines", "mu-games"):
        assert tally.games_in >= tally.inputs[target] and tally.verdicts_out == tally.games_in


def test_the_mind_up_corpus_holds_its_games_and_scenarios():
    from oracle.games.mindup.fuzz import targets
    games = targets.selfplay_games() + targets.file_games(ROOT / "replays")
    assert all(b'"mind-up"' in g[0] for g in games) and len(games) > len(targets.selfplay_games())
    assert len(targets.scenario_texts(ROOT / "scenarios")) >= 40
    assert set(game_shares("mind-up")) == {"mu-replay-lines", "mu-games", "mu-scenarios", "mu-rpc"}


def test_sessions_play_mind_up_games_deep_and_every_response_fits_a_schema():
    session = [{"op": "new", "game": "mind-up", "players": 3, "seed": 4}] + [("legal", k) for k in range(80)]
    sent, got = checks.rpc_lines(session)
    applied = [json.loads(r) for r in got if b'"applied":true' in r]
    assert len(applied) == 1 + 3 * 6 + 1 + 3 * 7 + 1 + 3 * 8 and applied[-1]["over"] is not None
    assert all(checks._response(r) for r in got)


def test_a_sample_through_the_command_line_with_two_jobs(tmp_path):
    tally = run_fuzz(12, SEED, out=tmp_path, cli_every=2, targets=("mu-games", "mu-rpc"), game="mind-up",
                     replays=ROOT / "replays", scenarios=ROOT / "scenarios")
    assert tally.cli_runs >= 5 and not tally.problems


def test_a_game_line_naming_a_list_as_its_game_is_annotated_without_a_traceback(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text('{"t":"game","game":["x"],"format":"mu-replay/1","id":"a","players":3}\n{"t":"setup"}\n')
    r = run_cli("annotate", str(log))
    assert r.returncode == 2 and b"Traceback" not in r.stderr and b"BAD_LINE" in r.stdout


def test_the_command_takes_the_game_and_refuses_another_game_s_target(tmp_path):
    r = run_cli("fuzz", "--game", "mind-up", "--target", "rpc", "--budget", "2")
    assert r.returncode == 2 and b"not a target of mind-up" in r.stderr
    r = run_cli("fuzz", "--game", "mind-up", "--target", "mu-scenarios", "--budget", "6", "--out", str(tmp_path),
                "--cli-every", "0")
    assert r.returncode == 0, (r.stdout + r.stderr).decode()
    assert b"mu-scenarios 6" in r.stdout and b"tracebacks: 0 distinct" in r.stdout
