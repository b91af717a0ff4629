"""Mind Up! scenarios (`game: mind-up`): every problem in a file is an error
naming the file, the line and the field; a run checks what it says it
checks (a wrong expectation, a missing refusal, an engine with a rule
broken all fail); every clause of the Mind Up! catalogue is cited."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.coverage import compute
from oracle.games.mindup import load_catalogue
from oracle.scenarios.loader import load_paths, load_text
from oracle.scenarios.runner import run, run_all
from scenario_text import errors_of, line_of
from scenario_text import one_run as run_text

ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
format: mb-scenario/1
game: mind-up
id: test.takes-the-card-above
title: The lowest card played takes the first line card
clauses: [mu.turn.take]
source: {kind: rulebook, ref: "Tour de jeu"}
given:
  order: [1, 2, 3, 4, 5]
  line: [12, 30, 41]
  hands:
    - [50, 2, 3, 4, 5, 6, 7]
    - [9, 10, 11, 13, 14, 15, 16]
    - [33, 17, 18, 19, 20, 21, 22]
turns:
  - {0: 50, 1: 9, 2: 33}
expect:
  columns: {0: [[41]], 1: [[12]], 2: [[30]]}
  line: [9, 33, 50]
"""


def one_run(text: str):
    return run_text(text, "fr")


def test_a_good_scenario_loads_and_passes():
    r = one_run(GOOD)
    assert r.passed and r.name == "test.takes-the-card-above[fr]"


# -- errors in files: one per kind, each with its line and field ----------------------------------


@pytest.mark.parametrize("change, needle, field, words", [
    (("game: mind-up", "game: mindup"), "game:", "game", "unknown game 'mindup'; did you mean 'mind-up'?"),
    (("[50, 2, 3", "[61, 2, 3"), "[61, 2", "given.hands[0][0]", "Expected `int` <= 60"),
    (("  line: [9, 33, 50]", "  lien: [9, 33, 50]"), "lien:", "expect.lien", "unknown key 'lien' (did you mean 'line'?)"),
    (("clauses: [mu.turn.take]", "clauses: [mu.turn.takes]"), "clauses:", "clauses[0]",
     "unknown clause id 'mu.turn.takes' (did you mean mu.turn.take"),
    (("clauses: [mu.turn.take]", "clauses: [keywords.tough]"), "clauses:", "clauses[0]", "is a clause of Mindbug"),
    (("clauses: [mu.turn.take]", "clauses: [mu.turn.take, mu.turn.take]"), "clauses:", "clauses",
     "a clause is cited twice"),
    (("  - {0: 50, 1: 9, 2: 33}", "  - {0: 50, 1: 9, 3: 33}"), "{0: 50", "turns[0][3]", "there is no player 3"),
    (("  - {0: 50, 1: 9, 2: 33}", "  - {}"), "  - {}", "turns[0]", "a turn names at least one player's card"),
    (("  line: [12, 30, 41]", "  line: [12, 30, 9]"), "[12, 30, 9]", "given.line[2]",
     "card 9 is already placed at given.hands[1][0] (line 12)"),
    (("  line: [9, 33, 50]", "  winners: [4]"), "winners:", "expect.winners[0]", "there is no player 4"),
    (("  line: [9, 33, 50]", "  events: [{}]"), "events:", "expect.events[0]", "an event pattern needs at least one field"),
    (("  line: [9, 33, 50]", "  events: [{clause: mu.turn.tak}]"), "events:", "expect.events[0].clause",
     "unknown clause id 'mu.turn.tak'"),
    (("source:", "editions: [en-revised]\nsource:"), "editions:", "editions[0]",
     "unknown edition 'en-revised' (one of fr)"),
    (("source:", "readings: {mu.turn.change-choise: final}\nsource:"), "readings:", "readings",
     "did you mean 'mu.turn.change-choice'"),
    (("source:", "readings: {mu.turn.change-choice: finale}\nsource:"), "readings:", "readings",
     "unknown choice 'finale'; did you mean 'final'"),
    (("  order: [1, 2, 3, 4, 5]\n", "  order: [1, 2, 3, 4, 5]\n  round: 2\n  scores: [[1, 2]]\n"), "scores:",
     "given.scores[0]", "round 1 gives 2 scores for 3 players"),
    (("  hands:\n", "  hand:\n"), "hand:", "given.hand", "unknown key 'hand'"),
    (("  order: [1, 2, 3, 4, 5]\n", "  order: [1, 2, 3, 4, 5]\n  deal: {hands: [[1]], line: [2]}\n"), "  hands:",
     "given.hands", "'hands' does not go with 'deal'"),
    (("  order: [1, 2, 3, 4, 5]\n", "  order: [1, 2, 3, 4, 5]\n  columns: [[], [], [], []]\n"), "columns: [[]",
     "given.columns", "Score cards for 4 players, hands for 3"),
    (("expect:\n  columns: {0: [[41]], 1: [[12]], 2: [[30]]}\n  line: [9, 33, 50]\n", "expect: {}\n"), "expect:",
     "expect", "this expect checks nothing"),
    (("expect:\n  columns: {0: [[41]], 1: [[12]], 2: [[30]]}\n  line: [9, 33, 50]\n", ""), "format:",
     "(document)", "the scenario checks nothing: give expect or illegal"),
])
def test_each_problem_is_an_error_with_its_line_and_field(change, needle, field, words):
    text = GOOD.replace(*change)
    assert text != GOOD
    errors = errors_of(text)
    assert errors, text
    want = f"bad.yaml:{line_of(text, needle)}: {field}: "
    assert any(e.startswith(want) and words in e for e in errors), (want, words, errors)


@pytest.mark.parametrize("illegal, field, words", [
    ("{turn: 2}", "illegal.turn", "turn 2 does not exist: the scenario has 1 turn"),
    ("{turn: 0, code: BAD_SETUP}", "illegal.turn", "the setup is refused, so no turn can follow it"),
    ("{round: 2}", "illegal.round", "the start of round 2 needs its chance in `next_rounds`"),
    ("{turn: 1, round: 2}", "illegal", "give the refused turn or the refused round start, not both"),
    ("{turn: 1, player: 5}", "illegal.player", "there is no player 5"),
])
def test_a_refusal_that_cannot_happen_is_an_error(illegal, field, words):
    text = GOOD + f"illegal: {illegal}\n"
    errors = errors_of(text)
    assert any(f": {field}: " in e and words in e for e in errors), errors


def test_the_setup_refusal_needs_the_setup_code():
    text = GOOD.replace("turns:\n  - {0: 50, 1: 9, 2: 33}\n", "") + "illegal: {turn: 0}\n"
    errors = errors_of(text)
    assert any("illegal.code: " in e and "its refusal is BAD_SETUP, not ILLEGAL_DECISION" in e for e in errors), errors


def test_every_problem_of_a_document_is_listed_and_the_good_documents_kept():
    bad = GOOD.replace("clauses: [mu.turn.take]", "clauses: [mu.turn.takes]").replace(
        "  - {0: 50, 1: 9, 2: 33}", "  - {0: 50, 1: 9, 4: 33}").replace("id: test.takes", "id: test.bad")
    f = load_text(GOOD + "---\n" + bad, "two.yaml")
    assert [sc.id for sc in f.scenarios] == ["test.takes-the-card-above"]
    assert len(f.errors) == 2 and {e.field for e in f.errors} == {"clauses[0]", "turns[0][4]"}


def test_the_cli_reports_a_bad_file_with_exit_2_and_runs_the_good_ones(tmp_path):
    (tmp_path / "bad.yaml").write_text(GOOD.replace("game: mind-up", "game: mind_up"), encoding="utf-8")
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "oracle", "scenarios", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 2
    assert f"{tmp_path / 'bad.yaml'}:2: game: unknown game 'mind_up'; did you mean 'mind-up'?" in p.stderr
    assert "1 scenario, 1 run: 1 passed, 0 failed; 1 error in 1 file" in p.stdout
    assert "Traceback" not in p.stdout + p.stderr


# -- runs -----------------------------------------------------------------------------------------


def test_a_wrong_expectation_fails_at_the_expect_line_with_the_difference():
    text = GOOD.replace("0: [[41]]", "0: [[30]]")
    r = one_run(text)
    assert not r.passed
    assert r.at_line == line_of(text, "expect:") and r.step == 1
    assert [str(d) for d in r.differences] == ["columns[0]: expected [[30]], got [[41]]"]
    assert r.clause == "mu.turn.take"
    assert any("takes the line card above it: card 41" in h for h in r.happened)


def test_a_refusal_expected_but_not_made_fails():
    r = one_run(GOOD + "illegal: {turn: 1, code: ILLEGAL_DECISION, clause: mu.turn.choose}\n")
    assert not r.passed and "was accepted, but a refusal was expected" in r.message


def test_a_refusal_not_expected_fails_with_the_clause_and_the_legal_cards():
    r = one_run(GOOD.replace("1: 9, 2: 33", "1: 12, 2: 33"))
    assert not r.passed and r.clause == "mu.turn.choose"
    assert "turn 1 ({0: 50, 1: 12, 2: 33}) was refused (player 1)" in r.message
    assert "legal here: [9, 10, 11, 13, 14, 15, 16]" in r.message


def test_a_refusal_with_another_clause_fails():
    text = GOOD.replace("1: 9, 2: 33", "1: 12, 2: 33").replace(
        "expect:\n  columns: {0: [[41]], 1: [[12]], 2: [[30]]}\n  line: [9, 33, 50]\n",
        "illegal: {turn: 1, player: 1, clause: mu.turn.hidden}\n")
    r = one_run(text)
    assert not r.passed and [d.field for d in r.differences] == ["illegal.clause"]
    assert r.at_line == line_of(text, "illegal:")


def test_a_position_the_rules_cannot_reach_fails_at_given():
    text = GOOD.replace("[50, 2, 3, 4, 5, 6, 7]", "[50, 2, 3, 4, 5, 6]")
    r = one_run(text)
    assert not r.passed and r.step == 0 and r.at_line == line_of(text, "given:")
    assert "BAD_SETUP [mu.turn.choose] hands of [6, 7] cards" in r.message


def test_a_ruling_may_give_a_few_cards_and_leave_order_and_scores_out():
    """A small position: two cards a hand, no Score order (1 to 5), round 3
    without the earlier scores (0 each); the last card ends the game."""
    text = """\
format: mb-scenario/1
game: mind-up
id: test.small
title: A small position in round 3
clauses: [mu.round.last-card]
source: {kind: rulebook, ref: "Tour de jeu"}
given:
  players: 3
  round: 3
  hands: [[1, 2], [3, 4], [5, 6]]
  line: [10, 20, 30]
turns:
  - {0: 1, 1: 3, 2: 5}
expect:
  turn: 1
  rounds: {0: [0, 0, 4], 1: [0, 0, 5], 2: [0, 0, 3]}
  winners: [1]
"""
    r = one_run(text)
    assert r.passed, r.message + str([str(d) for d in r.differences])
    assert errors_of(text.replace("players: 3", "players: 4")) == [
        "bad.yaml:8: given.players: scenario test.small: 4 players, and 3 hands"]


def test_next_rounds_the_turns_never_reach_fail():
    r = one_run(GOOD.replace("turns:", "next_rounds:\n  - {order: [1, 2, 3, 4, 5]}\nturns:"))
    assert not r.passed and "next_rounds gives 1 round(s), and the turns reach only 0" in r.message


def test_a_broken_placement_rule_is_caught_by_the_rulings(monkeypatch):
    """A mutant engine that puts every won card on the first empty Score card
    (forgetting the card's colour) fails the rulings of mu.score-cards.place."""
    import oracle.games.mindup.engine.turn as turn

    files, errors = load_paths([ROOT / "scenarios" / "mind-up"])
    assert not errors and not [e for f in files for e in f.errors]
    placing = [sc for f in files for sc in f.scenarios if "mu.score-cards.place" in sc.doc.clauses]
    assert all(run(sc, "fr").passed for sc in placing)

    def first_empty(s, p, card):
        return next(i for i, cards in enumerate(s.columns[p]) if not cards)

    monkeypatch.setattr(turn, "column_for", first_empty)
    failed = [sc.id for sc in placing if not run(sc, "fr").passed]
    assert "mind-up.example.christine-card-46" in failed and len(failed) >= 4


def test_a_broken_tie_break_is_caught(monkeypatch):
    import oracle.games.mindup.engine.game as game

    files, _ = load_paths([ROOT / "scenarios" / "mind-up" / "end.yaml"])
    monkeypatch.setattr(game, "winners", lambda s: [max(range(s.players), key=lambda p: (s.totals()[p], -p))])
    failed = {r.scenario for r in run_all(files) if not r.passed}
    assert {"mind-up.end.tie-goes-to-the-last-round", "mind-up.end.shared-win"} <= failed


# -- the library ------------------------------------------------------------------------------------


def test_the_mind_up_library_is_large_and_cites_every_clause():
    files, errors = load_paths([ROOT / "scenarios"])
    assert not errors and not [e for f in files for e in f.errors]
    mind_up = [sc for f in files for sc in f.scenarios if sc.game == "mind-up"]
    assert len(mind_up) >= 40
    cov = compute(ROOT, game="mind-up")
    assert set(cov.clauses) == set(load_catalogue())
    uncited = [cid for cid, c in cov.clauses.items() if not c.scenarios]
    assert uncited == [], f"Mind Up! clauses no scenario cites: {uncited}"


def test_every_reading_is_ruled_under_each_of_its_choices():
    from oracle.games.mindup.readings import READINGS

    files, _ = load_paths([ROOT / "scenarios" / "mind-up"])
    scenarios = [sc for f in files for sc in f.scenarios]
    for r in READINGS:
        for choice in r.names():
            under = [sc.id for sc in scenarios if r.clause in sc.doc.clauses
                     and (sc.doc.readings or {}).get(r.clause, r.team) == choice]
            assert under, f"no ruling of {r.clause} under {choice}"


def test_pytest_collects_mind_up_scenarios_as_items(tmp_path):
    (tmp_path / "mu.yaml").write_text(GOOD, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "mu.yaml")],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stdout
    assert "1 passed" in p.stdout
    (tmp_path / "mu.yaml").write_text(GOOD.replace("0: [[41]]", "0: [[30]]"), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", str(tmp_path / "mu.yaml")],
                       capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "COLUMNS": "250"})
    assert p.returncode == 1
    assert "test.takes-the-card-above[fr] - columns[0]: expected [[30]], got [[41]]" in p.stdout


def test_the_mind_up_example_in_the_spec_loads_and_passes():
    import re

    doc = (ROOT / "spec" / "scenario-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Mind Up!"):]
    example = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    f = load_text(example, "spec/scenario-format.md")
    assert not f.errors, [str(e) for e in f.errors]
    (sc,) = f.scenarios
    assert sc.game == "mind-up" and run(sc, "fr").passed


def test_clauses_coverage_of_mind_up_exits_0_and_names_the_citing_rulings():
    import json

    p = subprocess.run([sys.executable, "-m", "oracle", "clauses", "--coverage", "--game", "mind-up", "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    doc = json.loads(p.stdout)
    assert doc["uncited"] == [] and doc["errors"] == []
    assert {c["id"] for c in doc["clauses"]} == set(load_catalogue())
    take = next(c for c in doc["clauses"] if c["id"] == "mu.score-cards.place")
    assert "mind-up.example.christine-card-46" in take["scenarios"]
    assert not any(sc.startswith("mind-up.") for c in json.loads(subprocess.run(
        [sys.executable, "-m", "oracle", "clauses", "--coverage", "--json"], capture_output=True, text=True,
        cwd=ROOT).stdout)["clauses"] for sc in c["scenarios"])


@pytest.mark.parametrize("change, clause, words", [
    ({"columns": [[[8, 12]], [], []]}, "mu.score-cards.place", "holds green and orange cards"),
    ({"columns": [[[8], [30]], [], []]}, "mu.score-cards.place", "has orange on Score cards 1 and 2"),
    ({"columns": [[[], [8]], [], []]}, "mu.score-cards.place", "Score card 1 is empty and a Score card to its right"),
    ({"hands": [[1], [2], [3]], "columns": [[[8, 30, 53, 31], [12, 14]], [[18, 24, 37, 43], [20, 22]],
                                            [[55, 59, 6], [35, 50, 52]]]}, "mu.round.last-card", "every hand holds one card"),
    ({"hands": [[1, 2], [3, 4, 5], [6, 7]]}, "mu.setup.deal", "player 1 has 8 cards in hand and on the Score cards"),
    ({"order": [1, 1, 2, 3, 4]}, "mu.setup.score-order", "is not an order of the Score cards"),
    ({"line": [44, 45]}, "mu.setup.line", "the line has 2 cards; it has one per player (3)"),
    ({"objectives": [3, 4]}, "mu.objectives.count", "different letters"),
    ({"hands": [[1, 2, 3, 4], [3, 4], [5, 6]]} and {"hands": [[1, 2, 3], [4, 5, 7], [9, 10, 11]]},
     "mu.setup.deal", "player 0 has 8 cards in hand and on the Score cards; in round 1 each player has 7"),
])
def test_the_position_hook_refuses_what_the_rules_cannot_reach(change, clause, words):
    from oracle.games.mindup.engine import SetupError
    from oracle.games.mindup.engine.position import position

    args = {"hands": [[1, 2], [3, 4], [5, 6]], "line": [44, 45, 46],
            "columns": [[[8, 30, 53], [12, 14]], [[18, 24, 37, 43], [20]], [[55, 59], [35, 41, 26]]],
            "order": [1, 2, 3, 4, 5]}
    assert position(**args).pending.kind == "choose"          # the position as it stands is reachable
    args.update(change)
    with pytest.raises(SetupError) as e:
        position(**args)
    assert e.value.clause == clause and words in e.value.message, e.value.message
