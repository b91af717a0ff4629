"""`mb-oracle hunt --game mind-up`: the invariants hold over a fixed-seed
run (and catch a broken placement rule), and every reading point is found
and written as a draft scenario that loads and passes under both readings."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from oracle.cli import main
from oracle.games.mindup.engine import turn
from oracle.games.mindup.hunt import drafts
from oracle.games.mindup.hunt.search import run
from oracle.scenarios.loader import load_paths
from oracle.scenarios.runner import run_all

POINTS = {"mu.round.order-repeat", "mu.round.draw-order", "mu.objectives.all-zero", "mu.objectives.relative-timing",
          "mu.objectives.no-green", "mu.objectives.letters-later"}


@pytest.fixture(scope="module")
def report():
    return run(budget=30, seed=0)


def test_invariants_hold_over_a_fixed_seed_run(report):
    assert report.games >= 30 and report.steps > report.games
    assert report.broken == []


def test_every_reading_point_is_found(report):
    assert {f.point.clause for f in report.findings} == POINTS
    assert report.missed == []
    for f in report.findings:
        assert f.team.outcome() != f.other.outcome()


def test_each_draft_loads_and_passes_under_both_readings(report, tmp_path):
    for f in report.findings:
        drafts.write(f, tmp_path, 30, 0)
    files, errors = load_paths([tmp_path])
    assert errors == []
    results = run_all(files)
    assert len(results) == 2 * len(POINTS)
    assert [r.message for r in results if r.status != "pass"] == []
    text = (tmp_path / "mind-up.hunt.objectives.relative-timing.yaml").read_text()
    assert "How Board Game Arena reads it" in text and "readings: {mu.objectives.relative-timing: placement-order}" in text
    # the draft's expectation is the team's outcome: the alternative's expectation fails under the team's reading
    swapped = text.replace("readings: {mu.objectives.relative-timing: placement-order}\n", "")
    (tmp_path / "mind-up.hunt.objectives.relative-timing.yaml").write_text(swapped)
    files, _ = load_paths([tmp_path / "mind-up.hunt.objectives.relative-timing.yaml"])
    assert [r.status for r in run_all(files)] == ["pass", "fail"]


def test_a_broken_placement_rule_breaks_the_invariants(monkeypatch):
    real = turn.column_for

    def first_empty(s, p, card):      # the first empty Score card, even when the colour is already there
        return next((i for i, col in enumerate(s.columns[p]) if not col), None) or real(s, p, card)
    monkeypatch.setattr(turn, "column_for", first_empty)
    rep = run(budget=10, seed=0)
    assert rep.broken and all("Score card" in b or "crash" in b for b in rep.broken)


def test_the_command_writes_drafts_and_keeps_an_edited_one(tmp_path):
    out = tmp_path / "drafts"
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--budget", "15", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "6 reading points" in res.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"mind-up.hunt.{c.removeprefix('mu.')}.yaml" for c in POINTS)
    edited = out / "mind-up.hunt.round.order-repeat.yaml"
    edited.write_text(edited.read_text() + "# kept\n")
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--budget", "15", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 2 and edited.read_text().endswith("# kept\n") and edited.name in res.output
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--edition", "en-revised"])
    assert res.exit_code == 2 and "Mindbug's" in res.output


@pytest.mark.parametrize("option", [("--sets", "beyond-eternity"), ("--no-abstract",), ("--cards", "x.yaml")])
def test_the_command_refuses_each_option_of_mindbug_rather_than_ignore_it(option):
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--budget", "1", *option])
    assert res.exit_code == 2 and f"{option[0]} is Mindbug's" in res.output, res.output


def test_the_refusal_of_an_edited_draft_shows_the_folder_s_name_escaped(tmp_path):
    out = tmp_path / "drafts\u202e\x1b[2J"
    out.mkdir()
    (out / f"mind-up.hunt.{sorted(POINTS)[0].removeprefix('mu.')}.yaml").write_text("# someone's own\n")
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--budget", "1", "--out", str(out)], color=True)
    assert res.exit_code == 2 and "changed since the hunt wrote them" in res.output, res.output
    assert "drafts\\u202e\\x1b[2J" in res.output and "\u202e" not in res.output and "\x1b" not in res.output


def test_the_report_names_the_drafts_folder_escaped(tmp_path):
    out = tmp_path / "drafts\u202e"
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--budget", "15", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0 and "draft scenarios in" in res.output and "scenario: " in res.output, res.output
    assert "drafts\\u202e" in res.output and "\u202e" not in res.output


def test_a_draft_that_cannot_be_written_stops_the_command_with_a_message(report, monkeypatch, tmp_path):
    from oracle.games.mindup.hunt import command

    from oracle.safefile import OutputError

    def full(f, folder, *args):
        raise OutputError(f"{folder / 'd.yaml'}: cannot write: no such folder ({folder})")
    monkeypatch.setattr(command, "run", lambda budget, seed: report)
    monkeypatch.setattr(drafts, "write", full)
    res = CliRunner().invoke(main, ["hunt", "--game", "mind-up", "--out", str(tmp_path)])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert "d.yaml: cannot write: no such folder" in res.output
