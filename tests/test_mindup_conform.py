"""`mb-oracle conform --game mind-up`: the example adapter conforms; each
bug it can plant is found with the right clause and cut to a position one
turn before it, written as a log verify flags and a draft scenario the
oracle passes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.cli import main
from oracle.harness.conform import Settings
from oracle.games.mindup.harness.conform import campaign
from oracle.scenarios.loader import load_paths
from oracle.scenarios.runner import run_all

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = f"{sys.executable} {ROOT / 'examples' / 'mindup_engine_adapter.py'}"

PLANTED = {"first-empty": "mu.score-cards.place", "column-position": "mu.scoring.columns",
           "last-card-kept": "mu.round.last-card", "no-bubbles": "mu.scoring.bubbles"}


def _run(command: str, out: Path, budget: int = 2, players=(3, 5)):
    camp = campaign(command, Settings(budget=budget, seed=1, out=out, shrink_budget=40), players)
    try:
        return list(camp.run())
    finally:
        camp.engine.stop()


def test_the_unchanged_adapter_conforms_in_every_player_count(tmp_path):
    reports = _run(ADAPTER, tmp_path, budget=4, players=(3, 4, 5, 6))
    assert [r.verdict for r in reports] == ["conforms"] * 4
    assert all(r.result and len(r.result["scores"]) == n for r, n in zip(reports, (3, 4, 5, 6)))
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("plant,clause", sorted(PLANTED.items()))
def test_each_planted_bug_is_found_with_its_clause_and_shrunk(tmp_path, plant, clause):
    reports = _run(f"{ADAPTER} --plant {plant}", tmp_path)
    assert all(r.verdict == "violates" for r in reports)
    first = reports[0].findings[0]
    assert first.code == "STATE_MISMATCH" and first.clauses[0] == clause
    assert "the engine " in first.message and "the log " not in first.message    # conform reads no log
    note = reports[0].notes[0]
    assert "to 1 from a position" in note, note
    assert "mb-oracle verify on it: violates" in note and f"STATE_MISMATCH [{clause}" in note
    logs, drafts = sorted(tmp_path.glob("*.jsonl")), sorted(tmp_path.glob("*.yaml"))
    assert len(logs) == len(drafts) == 1
    files, errors = load_paths(drafts)
    assert errors == []
    results = run_all(files)
    assert [r.status for r in results] == ["pass"]
    doc = files[0].scenarios[0].doc
    assert len(doc.turns) == 1 and doc.clauses[0] == clause


def test_options_that_differ_are_shown_by_a_draft_and_the_note_says_no_log_can_show_them(tmp_path):
    """An engine that leaves a card out of a player's options: OPTIONS_DIFFER
    [mu.turn.choose]; the log written is the game up to there, which verify
    accepts, and the note says no log can show options (the draft scenario,
    which states the legal options, passes)."""
    reports = _run(f"{ADAPTER} --plant no-lowest", tmp_path, players=(4,))
    first = reports[0].findings[0]
    assert (first.code, first.clauses[0]) == ("OPTIONS_DIFFER", "mu.turn.choose")
    note = reports[0].notes[0]
    assert "no replay log can show the cards an engine lets a player choose" in note, note
    assert "verify on it: conforms" not in note
    files, errors = load_paths(sorted(tmp_path.glob("*.yaml")))
    assert errors == [] and [r.status for r in run_all(files)] == ["pass"]


def test_the_command_reports_and_refuses_mindbug_options(tmp_path):
    r = CliRunner().invoke(main, ["conform", "--game", "mind-up", "--engine", f"{ADAPTER} --plant first-empty",
                                  "--budget", "1", "--players", "4", "--out", str(tmp_path), "--format", "json"])
    assert r.exit_code == 1, r.output
    game = json.loads(r.output.splitlines()[0])
    assert game["verdict"] == "violates" and game["findings"][0]["clauses"][0] == "mu.score-cards.place"
    r = CliRunner().invoke(main, ["conform", "--game", "mind-up", "--engine", ADAPTER, "--edition", "en-first"])
    assert r.exit_code == 2 and "Mindbug's" in r.output
    r = CliRunner().invoke(main, ["conform", "--engine", ADAPTER, "--players", "3"])
    assert r.exit_code == 2 and "--players" in r.output
    mindbug_adapter = f"{sys.executable} {ROOT / 'examples' / 'engine_adapter.py'}"
    r = CliRunner().invoke(main, ["conform", "--game", "mind-up", "--engine", mindbug_adapter, "--budget", "1"])
    assert r.exit_code == 2 and "not mind-up" in r.output


def test_the_adapter_answers_a_position_and_refuses_a_bad_turn():
    msgs = [{"op": "hello"},
            {"op": "position", "game": "mind-up", "position": {"round": 1, "order": [1, 2, 3, 4, 5],
                                                               "hands": [[1, 8], [29, 32], [28, 33]], "line": [37, 40, 43],
                                                               "columns": [[[15, 16, 23, 30, 31]], [[2, 6, 10, 19, 27]],
                                                                           [[3, 13, 18, 21, 24]]]}},
            {"op": "apply", "decision": {"t": "turn", "cards": [1, 1, 28]}},
            {"op": "quit"}]
    r = subprocess.run(ADAPTER.split(), input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True,
                       text=True, timeout=60)
    hello, view, refused = [json.loads(x) for x in r.stdout.splitlines()]
    assert hello["games"] == ["mind-up"] and view["pending"] == "choose" and view["options"][2] == [28, 33]
    assert "mu.turn.choose" in refused["error"]


def test_an_adapter_that_breaks_the_protocol_gives_a_malformed_game_and_the_run_goes_on(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'hello':\n"
        "        print(json.dumps({'protocol': 'mb-engine/1', 'name': 'broken', 'games': ['mind-up'],"
        " 'editions': ['fr']}), flush=True)\n"
        "    elif msg['op'] == 'quit':\n"
        "        break\n"
        "    else:\n"
        "        print('not json', flush=True)\n")
    reports = _run(f"{sys.executable} {script}", tmp_path, budget=2)
    assert [r.verdict for r in reports] == ["malformed", "malformed"]
    assert all(r.findings[0].code == "ENGINE_FAULT" and "not a JSON object" in r.findings[0].message for r in reports)


def _shrunk_once(out: Path, name: str | None = None):
    camp = campaign(f"{ADAPTER} --plant first-empty", Settings(budget=1, seed=1, out=out, shrink_budget=40), (3,))
    try:
        if name is not None:
            camp.engine.name = name
        (rep,) = camp.run()
    finally:
        camp.engine.stop()
    return rep


def test_the_adapter_s_name_is_one_line_of_the_draft_s_comment_shown_as_text(tmp_path):
    rep = _shrunk_once(tmp_path, "eng\nexpect: {hands: {0: [1]}}\n# \x1b]0;PWNED\x07")
    assert "and " in rep.notes[0]
    (draft,) = tmp_path.glob("*.yaml")
    text = draft.read_text(encoding="utf-8")
    assert "\nexpect: {hands" not in text and "\x1b" not in text and "eng\\x0aexpect" in text
    files, errors = load_paths([draft])
    assert errors == [] and len(files[0].scenarios) == 1


def test_a_shrunk_game_that_cannot_be_written_is_a_note_and_the_report_goes_on(tmp_path, monkeypatch):
    import oracle.games.mindup.harness.conform as mu_conform

    def full(path, text):
        raise OSError(28, "No space left on device", str(path))
    monkeypatch.setattr(mu_conform, "write_file", full)
    rep = _shrunk_once(tmp_path)
    assert rep.verdict == "violates"
    assert "not written: " in rep.notes[0] and "No space left on device" in rep.notes[0], rep.notes


def _over_game():
    """A seeded game of 3 players the rules play to its end, and its steps."""
    import random

    from oracle.games.mindup.harness.conform import _next_step
    from oracle.games.mindup.harness.play import apply_step, game_from_deal, seeded_deal
    from oracle.games.mindup.harness.protocol import step_decoder

    setup = seeded_deal(5, 3)
    g, steps, rng, pile = game_from_deal(3, setup, 0, None), [], random.Random(5), list(range(1, 15))
    while not g.is_over:
        steps.append(_next_step(g, "random", rng, pile))
        apply_step(g, step_decoder.decode(json.dumps(steps[-1])))
    return g, setup, steps


@pytest.mark.parametrize("wrong,clauses", [("scores", ["mu.game.rounds"]), ("winners", ["mu.game.winner"])])
def test_a_wrong_result_is_named_by_what_differs_and_its_log_ends_with_the_engine_s_result(tmp_path, wrong,
                                                                                             clauses):
    from types import SimpleNamespace

    from oracle.games.mindup.harness import conform as mu_conform, lockstep as ls
    from oracle.games.mindup.harness.protocol import EngineReply, Over
    from oracle.replay.findings import GameReport

    g, setup, steps = _over_game()
    scores, winners = g.totals(), g.winners()
    if wrong == "scores":
        scores = [scores[0] + 1, *scores[1:]]
    else:
        winners = [(winners[0] + 1) % 3]
    reply = EngineReply(pending="over", over=Over(scores, winners))
    finding = ls.compare(g, reply, len(steps), [])
    assert finding.code == "WRONG_RESULT" and finding.clauses == clauses
    camp = mu_conform.Campaign(SimpleNamespace(name="engine", version="1", positions=False),
                               Settings(out=tmp_path))
    game = mu_conform._Game(GameReport(file="engine", line=0, id="mind-up-3p0o-random-s5"), 3, setup, 0,
                            ls.Divergence(steps, finding, reply))
    note = camp._write(game, None, steps)
    assert f"mb-oracle verify on it: violates, WRONG_RESULT [{clauses[0]}" in note, note
    last = json.loads((tmp_path / "mind-up-3p0o-random-s5-wrong_result.jsonl").read_text().splitlines()[-1])
    assert last == {"t": "end", "scores": scores, "winners": winners}


def test_options_that_differ_at_the_first_turn_are_shrunk_to_the_position_itself(tmp_path):
    """An engine that never offers player A's first card parts from the
    rules before any turn: the draft starts at that position, with no step."""
    script = tmp_path / "narrow.py"
    script.write_text(
        "import runpy\n"
        f"mod = runpy.run_path({str(ROOT / 'examples' / 'mindup_engine_adapter.py')!r}, run_name='adapter')\n"
        "g = mod['main'].__globals__\n"
        "real = g['view']\n"
        "def view(game):\n"
        "    v = real(game)\n"
        "    if v['options'] and len(v['options'][0]) > 1:\n"
        "        v['options'][0] = v['options'][0][1:]\n"
        "    return v\n"
        "g['view'] = view\n"
        "g['main']([])\n")
    out = tmp_path / "out"
    (rep,) = _run(f"{sys.executable} {script}", out, budget=1, players=(3,))
    assert rep.findings[0].code == "OPTIONS_DIFFER" and rep.findings[0].line == 1    # after the round's chance
    assert "to 0 from a position of round 1" in rep.notes[0], rep.notes[0]
    (draft,) = out.glob("*.yaml")
    files, errors = load_paths([draft])
    assert errors == [] and [r.status for r in run_all(files)] == ["pass"]


def test_an_adapter_that_exits_mid_game_is_reported_after_the_steps_both_sides_applied(tmp_path):
    """The fault is placed where it happened (line and decisions: the steps
    both sides applied), not at the deal."""
    script = tmp_path / "quitter.py"
    script.write_text(
        "import subprocess, sys\n"
        f"child = subprocess.Popen({ADAPTER.split()!r}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
        "applied = 0\n"
        "for line in sys.stdin:\n"
        "    if '\"apply\"' in line:\n"
        "        applied += 1\n"
        "        if applied == 3:\n"
        "            sys.exit(5)\n"
        "    child.stdin.write(line); child.stdin.flush()\n"
        "    if '\"quit\"' in line:\n"
        "        break\n"
        "    print(child.stdout.readline(), end='', flush=True)\n")
    reports = _run(f"{sys.executable} {script}", tmp_path, budget=2)
    assert [r.verdict for r in reports] == ["malformed", "malformed"]
    assert all(r.findings[0].code == "ENGINE_FAULT" and "status 5" in r.findings[0].message for r in reports)
    assert all(r.findings[0].line == 2 and r.decisions == 2 for r in reports), [r.findings[0] for r in reports]
