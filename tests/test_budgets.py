"""Absurd budgets: memory stays flat whatever the budget, or the option's
limit is stated and enforced. bench holds its games in memory: --games has
a limit; fuzz tries its inputs in rounds (a Hypothesis run keeps what it
tried) and hunt's searches grow with the budget: --budget has a limit."""

from __future__ import annotations

import pytest
from conftest import run_cli


@pytest.mark.parametrize("argv, limit", [
    (["bench", "--games", "10000000", "--no-instructions"], b"1<=x<=20000"),
    (["fuzz", "--budget", "1000000000000"], b"1<=x<=1000000"),
    (["hunt", "--budget", "1000000000000"], b"1<=x<=1000000"),
], ids=["bench", "fuzz", "hunt"])
def test_an_absurd_budget_is_refused_at_once_naming_the_limit(argv, limit):
    r = run_cli(*argv)
    assert r.returncode == 2 and limit in r.stderr and b"Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("option", ["--games", "--budget"])
def test_the_limits_are_stated_in_the_help(option):
    command = "bench" if option == "--games" else "fuzz"
    r = run_cli(command, "--help")
    assert b"20,000" in r.stdout if command == "bench" else b"1,000,000" in r.stdout


def test_fuzz_tries_a_large_budget_in_rounds_each_its_own_hypothesis_run(monkeypatch, tmp_path):
    pytest.importorskip("hypothesis")
    from oracle.fuzz import run

    rounds = []
    real = run._settings
    monkeypatch.setattr(run, "ROUND", 5)
    monkeypatch.setattr(run, "_settings", lambda n: rounds.append(n) or real(n))
    tally = run.run_fuzz(12, 3, out=tmp_path, cli_every=0, targets=("text",))
    assert rounds == [5, 5, 2] and tally.inputs == {"text": 12}
