"""YAML values PyYAML would build into an exception: an impossible date
(`2001-13-45`, `2001-02-30`), an integer of thousands of digits, a value its
explicit tag cannot build. Every reader of YAML (card files, scenarios,
expectation files, the service's scenario start, conform's scenarios) gives
FILE:LINE and exit status 2, never a traceback; a date is text."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli

from oracle import safeyaml

HUGE = "9" * 5000
BAD_VALUES = ["2001-13-45", "2001-02-30", HUGE]


@pytest.mark.parametrize("text, value", [
    ("a: 2001-13-45", "2001-13-45"), ("a: 2001-02-30", "2001-02-30"), ("a: 2001-02-03", "2001-02-03"),
    ("a: 2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"), ("a: !!timestamp 2001-99-99", "2001-99-99"),
    ("a: " + "1" * safeyaml.MAX_INT_DIGITS, int("1" * safeyaml.MAX_INT_DIGITS)),
])
def test_dates_are_text_and_integers_within_the_limit_load(text, value):
    assert safeyaml.load(text) == {"a": value}


@pytest.mark.parametrize("text, words", [
    ("b: 1\na: " + HUGE, "an integer of 5,000 digits"),
    ("b: 1\na: -0x" + "f" * 65, "an integer of 65 digits"),
    ("b: 1\na: !!int abc", "'abc' cannot be read as int"),
    ("b: 1\na: !!bool maybe", "'maybe' cannot be read as bool"),
    ("b: 1\na: [!!float x]", "'x' cannot be read as float"),
])
def test_a_value_that_cannot_be_built_is_a_problem_at_its_line(text, words):
    with pytest.raises(safeyaml.YamlProblem) as e:
        safeyaml.load(text)
    assert e.value.line == 2 and words in e.value.message


@pytest.mark.parametrize("loader", [safeyaml._Limited, safeyaml._Fast], ids=["python", "libyaml"])
def test_a_set_is_its_members_in_the_order_written(loader):
    if loader is None:
        pytest.skip("PyYAML without libyaml")
    text = "clauses: !!set {life.lose, combat.unblocked, combat.attack, a, b, c, d, e, f}"
    [(_, data)] = safeyaml._load(loader, text)
    assert data == {"clauses": ["life.lose", "combat.unblocked", "combat.attack", "a", "b", "c", "d", "e", "f"]}


def test_a_scenario_with_a_set_reports_the_same_in_every_run(tmp_path):
    scen = tmp_path / "set.yaml"
    scen.write_text(SCENARIO.format(value=3).replace("clauses: [life.gain]",
                                                     "clauses: !!set {life.gain, life.lose, triggers.play}"))
    reports = {subprocess.run([sys.executable, "-m", "oracle", "scenarios", str(scen), "--format", "json"],
                              capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in range(1, 7)}
    assert len(reports) == 1
    results = json.loads(reports.pop())["results"]
    assert results and all(r["clauses"] == ["life.gain", "life.lose", "triggers.play"] for r in results), results


CARDS = "format: mb-cards/1\nset: {{id: lab-v, name: Lab V}}\ncards:\n  - name: Vee\n    power: {value}\n"
EXPECT = "format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    game: {value}\n"
SCENARIO = """format: mb-scenario/1
id: values.life
title: A life total
clauses: [life.gain]
source: {{kind: rulebook, ref: "Life"}}
given:
  players:
    - hand: [Axolotl Healer]
      life: {value}
    - hand: [Brain Fly]
steps:
  - play: Axolotl Healer
expect:
  players:
    - {{life: 5}}
"""


def _no_traceback(p, file, line: int) -> str:
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    assert p.returncode == 2, text[-1500:]
    assert "Traceback" not in text and "INTERNAL" not in text
    assert f"{file}:{line}" in text, text[-1500:]
    return text


@pytest.mark.parametrize("value", BAD_VALUES, ids=["month-13", "february-30", "5000-digits"])
def test_every_reader_names_file_and_line(tmp_path, value):
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS.format(value=value), encoding="utf-8")
    log = tmp_path / "g.jsonl"
    log.write_bytes(run_cli("selfplay", "--games", "1", "--seed", "2").stdout)
    for args in (("selfplay", "--cards", cards), ("verify", "--cards", cards, log), ("hunt", "--cards", cards),
                 ("scenarios", "--cards", cards, ROOT / "scenarios" / "cards.yaml"), ("serve", "--cards", cards)):
        _no_traceback(run_cli(*map(str, args), input=b""), cards, 5)
    expect = tmp_path / "expect.yaml"
    expect.write_text(EXPECT.format(value=value), encoding="utf-8")
    p = run_cli("verify", "--expect", str(expect), str(log))
    if value == HUGE:
        _no_traceback(p, expect, 4)
    else:   # a date is text: a game id like any other
        assert p.returncode == 0 and f"game {value!r} is not in the input".encode() in p.stderr, p.stderr  # stale
    scen = tmp_path / "scen" / "values.yaml"
    scen.parent.mkdir()
    scen.write_text(SCENARIO.format(value=value), encoding="utf-8")
    _no_traceback(run_cli("scenarios", str(scen)), scen, 9)
    _no_traceback(run_cli("perft", "--depth", "1", "--scenario", str(scen), "--id", "values.life"), scen, 9)
    engine = shlex.join([sys.executable, str(ROOT / "examples" / "engine_adapter.py")])
    p = run_cli("conform", "--engine", engine, "--budget", "0", "--scenarios", str(scen),
                "--out", str(tmp_path / "out"))
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    assert "Traceback" not in text and f"{scen}:9" in text and p.returncode == 2, text[-1500:]
    req = json.dumps({"op": "new", "edition": "en-revised", "scenario": {"path": str(scen), "id": "values.life"}})
    p = run_cli("serve", "--scenarios", str(scen.parent), input=req.encode() + b"\n")
    reply = json.loads(p.stdout)
    assert reply["ok"] is False and reply["error"]["code"] == "BAD_REQUEST", reply
    assert "values.yaml:9" in reply["error"]["message"] and p.returncode == 0
