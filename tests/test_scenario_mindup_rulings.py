"""Mind Up! rulings the scenario format writes: a position whose hands hold
one card each (the round's last cards), Score cards given as the cards won
in the order won (`given.scored`), a deal whose first round's chance is
refused (`illegal: {turn: 0, code: ILLEGAL_RANDOM}`), the cards a hand
includes (`expect.hands_include`), the card each player won in the last
turn (`expect.won`) and what holds right after a given turn
(`expect_after_turn`). Each problem in a file is an error naming the file,
the line and the field; each check fails when what it checks is not so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.games.mindup.engine import RuleError
from oracle.games.mindup.engine.position import position
from oracle.scenarios.loader import load_text
from scenario_text import errors_of, line_of
from scenario_text import one_run as run_text

ROOT = Path(__file__).resolve().parents[1]

HEAD = """\
format: mb-scenario/1
game: mind-up
id: test.ruling
title: A ruling
clauses: [mu.turn.take]
source: {kind: rulebook, ref: "Tour de jeu"}
"""

# Three players, two cards each: the turn, then the last card, ends round 1.
TWO_CARDS = HEAD + """\
given:
  order: [1, 2, 3, 4, 5]
  line: [18, 24, 37]
  hands:
    - [2, 31]
    - [3, 20]
    - [4, 43]
  columns:
    - [[8, 30], [12, 14, 47]]
    - [[35, 41, 26], [6, 55]]
    - [[13, 48], [53, 1, 60]]
  pile: [50, 51, 52]
next_rounds:
  - {order: [3, 1, 2, 5, 4]}
turns:
  - {0: 2, 1: 3, 2: 4}
"""

ONE_CARD = HEAD.replace("[mu.turn.take]", "[mu.round.last-card]") + """\
given:
  line: [18, 24, 37]
  hands:
    - [31]
    - [20]
    - [43]
  columns:
    - [[8, 30, 53], [12, 14, 47]]
    - [[35, 41, 26], [6, 55, 59]]
    - [[13, 48, 33], [16, 1, 60]]
"""

SCORED = HEAD + """\
given:
  order: [2, 4, 1, 5, 3]
  line: [18, 24, 46]
  hands:
    - [50, 51, 52]
    - [2, 3, 6]
    - [5, 7, 9]
  scored:
    0: [8, 12, 30, 37]
    2: [59]
turns:
  - {0: 50, 1: 2, 2: 5}
"""

DEAL = HEAD.replace("[mu.turn.take]", "[mu.objectives.count]") + """\
given:
  objectives: [3, 3]
  deal:
    hands:
      - [1, 2, 3, 4, 5, 6, 7]
      - [8, 9, 10, 11, 12, 13, 14]
      - [15, 16, 17, 18, 19, 20, 21]
    line: [60, 59, 58]
"""


def one_run(text: str):
    return run_text(text, "fr")


def has_error(errors, text, needle, field, words) -> bool:
    want = f"bad.yaml:{line_of(text, needle)}: {field}: "
    return any(e.startswith(want) and words in e for e in errors)


# -- (a) hands of one card: the round's last cards -----------------------------------


def test_one_card_hands_place_the_last_cards_and_score_the_round():
    text = ONE_CARD + """\
expect:
  hands: {0: 0, 1: 0, 2: 0}
  columns: {0: [[8, 30, 53, 31], [12, 14, 47]], 2: [[13, 48, 33, 43], [16, 1, 60]]}
  rounds: {0: [10], 1: [10], 2: [10]}
  parts: {2: {columns: 10, bubbles: 0}}
  pending: {kind: round}
"""
    res = one_run(text)
    assert res.passed, (res.message, [str(d) for d in res.differences])
    wrong = one_run(text.replace("rounds: {0: [10]", "rounds: {0: [11]"))
    assert wrong.failed and [(d.field, d.expected, d.actual) for d in wrong.differences] == [("rounds[0]", "[11]",
                                                                                              "[10]")]


def test_after_the_last_cards_the_next_round_is_played():
    text = ONE_CARD + """\
  pile: [50, 51, 52]
next_rounds:
  - {order: [5, 4, 3, 2, 1]}
turns:
  - {0: 8, 1: 35, 2: 13}
expect:
  round: 2
  turn: 1
  won: {0: 18, 1: 37, 2: 24}
"""
    res = one_run(text)
    assert res.passed, (res.message, [str(d) for d in res.differences])


@pytest.mark.parametrize("change, clause, words", [
    (("    - [43]\n", "    - [43, 60]\n", "[16, 1, 60]", "[16, 1]"), "mu.turn.choose", "hands of [1, 2] cards"),
    (("    - [31]\n    - [20]\n    - [43]\n", "    - []\n    - []\n    - []\n"), "mu.round.last-card",
     "every hand is empty"),
])
def test_one_card_hands_are_still_checked(change, clause, words):
    text = ONE_CARD
    for old, new in zip(change[::2], change[1::2]):
        text = text.replace(old, new)
    text += "expect:\n  round: 1\n"
    res = one_run(text)
    assert res.failed and res.step == 0 and res.at_line == line_of(text, "given:")
    assert f"BAD_SETUP [{clause}]" in res.message and words in res.message, res.message


def test_a_one_card_hand_above_the_round_s_cards_is_refused():
    text = ONE_CARD.replace("[[8, 30, 53], [12, 14, 47]]", "[[8, 30, 53, 15], [12, 14, 47]]") + "expect:\n  round: 1\n"
    res = one_run(text)
    assert res.failed and "BAD_SETUP [mu.setup.deal] player 0 has 8 cards" in res.message, res.message


def test_the_position_hook_accepts_one_card_hands_only_when_asked():
    args = dict(hands=[[31], [20], [43]], line=[18, 24, 37], columns=[[[8]], [[35]], [[13]]], order=[1, 2, 3, 4, 5])
    with pytest.raises(RuleError, match="every hand holds one card"):
        position(**args)
    g = position(**args, last_card=True)
    events = g.place_last_cards()
    assert [e.card for e in events if e.kind == "place"] == [31, 20, 43]
    assert g.pending.kind == "round"
    with pytest.raises(RuleError, match="when every hand holds one card"):
        position(hands=[[31, 2], [20, 3], [43, 4]], line=[18, 24, 37], columns=[], order=[1, 2, 3, 4, 5],
                 last_card=True).place_last_cards()


# -- (b) Score cards in the order won ---------------------------------------------


def test_scored_cards_lie_where_the_placement_rule_puts_them():
    text = SCORED + "expect:\n  columns: {0: [[8, 30, 46], [12], [37]], 1: [[18]], 2: [[59], [24]]}\n"
    res = one_run(text)
    assert res.passed, (res.message, [str(d) for d in res.differences])
    # In another order won the colours take other Score cards.
    other = one_run(text.replace("0: [8, 12, 30, 37]", "0: [37, 8, 12, 30]"))
    assert other.failed
    assert [(d.field, d.actual) for d in other.differences] == [("columns[0]", "[[37], [8, 30, 46], [12]]")]


def test_scored_cards_above_the_round_s_cards_are_refused():
    res = one_run(SCORED.replace("0: [8, 12, 30, 37]", "0: [8, 12, 30, 37, 14]") + "expect:\n  round: 1\n")
    assert res.failed and res.step == 0 and "BAD_SETUP [mu.setup.deal] player 0 has 8 cards" in res.message


@pytest.mark.parametrize("change, needle, field, words", [
    (("    2: [59]\n", "    2: [59]\n  columns:\n    - [[14]]\n"), "0: [8, 12", "given.scored[0]",
     "player 0's Score cards are given twice, in `columns` and in `scored`"),
    (("    2: [59]\n", "    2: [59]\n    5: [14]\n"), "5: [14]", "given.scored[5]", "there is no player 5"),
    (("    2: [59]\n", "    2: []\n"), "2: []", "given.scored[2]", "player 2 won no card"),
    (("    2: [59]\n", "    2: [51]\n"), "2: [51]", "given.scored[2][0]", "card 51 is already placed at given.hands[0][1]"),
    (("0: [8, 12, 30, 37]", "0: [8, 12, 30, 77]"), "0: [8, 12", "given.scored[0][3]", "<= 60"),
])
def test_a_bad_scored_is_an_error_with_its_line_and_field(change, needle, field, words):
    text = SCORED.replace(*change) + "expect:\n  round: 1\n"
    assert text != SCORED + "expect:\n  round: 1\n"
    errors = errors_of(text)
    assert has_error(errors, text, needle, field, words), errors


def test_scored_does_not_go_with_a_deal():
    text = DEAL + "  scored:\n    0: [40]\nexpect:\n  round: 1\n"
    assert has_error(errors_of(text), text, "scored:", "given.scored", "'scored' does not go with 'deal'")


# -- (c) a deal whose first round's chance is refused ----------------------------------


def test_a_deal_showing_an_objective_twice_is_refused_as_chance():
    res = one_run(DEAL + "illegal: {turn: 0, code: ILLEGAL_RANDOM, clause: mu.objectives.count}\n")
    assert res.passed, (res.message, [str(d) for d in res.differences])
    as_setup = one_run(DEAL + "illegal: {turn: 0, code: BAD_SETUP}\n")
    assert as_setup.failed
    assert [(d.field, d.expected, d.actual) for d in as_setup.differences] == [("illegal.code", "BAD_SETUP",
                                                                                "ILLEGAL_RANDOM")]
    fine = one_run(DEAL.replace("[3, 3]", "[3, 5]") + "illegal: {turn: 0, code: ILLEGAL_RANDOM}\n")
    assert fine.failed and "the setup was accepted, but a refusal was expected" in fine.message


def test_a_position_s_setup_is_refused_only_as_bad_setup():
    text = ONE_CARD + "illegal: {turn: 0, code: ILLEGAL_RANDOM}\n"
    assert has_error(errors_of(text), text, "illegal:", "illegal.code",
                     "its refusal is BAD_SETUP, not ILLEGAL_RANDOM (ILLEGAL_RANDOM is the refusal of a deal's")
    text = DEAL + "illegal: {turn: 0, code: GAME_OVER}\n"
    assert has_error(errors_of(text), text, "illegal:", "illegal.code", "BAD_SETUP or ILLEGAL_RANDOM, not GAME_OVER")


# -- (d) the cards a hand includes --------------------------------------------------------


def test_hands_include_checks_some_cards_of_a_hand():
    text = TWO_CARDS + "expect:\n  hands_include: {0: [50, 18], 2: [52]}\n"
    res = one_run(text)
    assert res.passed, (res.message, [str(d) for d in res.differences])
    wrong = one_run(text.replace("{0: [50, 18]", "{0: [51, 18]"))
    assert wrong.failed and [d.field for d in wrong.differences] == ["hands_include[0]"]
    assert "(missing [51])" in wrong.differences[0].actual
    assert wrong.at_line == line_of(text, "expect:")


def test_hands_include_names_players_of_the_position():
    text = TWO_CARDS + "expect:\n  hands_include: {4: [50]}\n"
    assert any("expect.hands_include" in e and "there is no player 4" in e for e in errors_of(text))
    text = TWO_CARDS + "expect:\n  hands_include: {0: []}\n"
    assert any("expect.hands_include" in e and "length >= 1" in e for e in errors_of(text)), errors_of(text)


# -- (e) the card each player won -------------------------------------------------------


def test_won_is_the_card_each_player_took_in_the_last_turn():
    text = SCORED + "expect:\n  won: {0: 46, 1: 18, 2: 24}\n"
    assert one_run(text).passed
    wrong = one_run(text.replace("1: 18, 2: 24", "1: 24, 2: 18"))
    assert wrong.failed and [(d.field, d.expected, d.actual) for d in wrong.differences] == [
        ("won[1]", "24", "18"), ("won[2]", "18", "24")]


def test_won_before_any_turn_is_a_difference_and_a_bad_seat_an_error():
    res = one_run(ONE_CARD + "expect:\n  won: {0: 31}\n")
    assert res.failed and res.differences[0].field == "won[0]" and "no turn was revealed" in res.differences[0].actual
    text = SCORED + "expect:\n  won: {3: 46}\n"
    assert has_error(errors_of(text), text, "won:", "expect.won[3]", "there is no player 3")


# -- (f) what holds right after a turn ---------------------------------------------------


AFTER = TWO_CARDS + """\
expect_after_turn:
  1:
    round: 1
    pending: {kind: round}
    columns: {0: [[8, 30, 31], [12, 14, 47], [18]]}
    pile: 36
  0:
    turn: 5
    hands: {0: [2, 31]}
expect:
  round: 2
  columns: {0: []}
  hands: {0: [8, 30, 31, 12, 14, 47, 18, 50]}
  pile: 33
"""


def test_expect_after_turn_sees_the_score_cards_before_the_take_back():
    res = one_run(AFTER)
    assert res.passed, (res.message, [str(d) for d in res.differences])


def test_a_wrong_after_turn_expectation_fails_at_its_own_line():
    text = AFTER.replace("    pile: 36\n", "    pile: 33\n")
    res = one_run(text)
    assert res.failed and res.step == 1
    assert [(d.field, d.expected, d.actual) for d in res.differences] == [("expect_after_turn.1.pile", "33 cards",
                                                                           "36 cards")]
    assert res.at_line == line_of(text, "  1:")
    before = one_run(AFTER.replace("hands: {0: [2, 31]}", "hands: {0: [2, 30]}"))
    assert before.failed and before.step == 0 and before.differences[0].field == "expect_after_turn.0.hands[0]"


def test_only_after_turn_expectations_are_enough():
    text = TWO_CARDS + "expect_after_turn:\n  1: {round: 1}\n"
    assert one_run(text).passed


@pytest.mark.parametrize("add, needle, field, words", [
    ("expect_after_turn:\n  2: {round: 1}\n", "  2:", "expect_after_turn[2]",
     "turn 2 does not exist: the scenario has 1 turn"),
    ("expect_after_turn:\n  1: {round: 1}\nillegal: {turn: 1, player: 0}\n", "  1:", "expect_after_turn[1]",
     "turn 1 is refused, so the game never gets past turn 1"),
    ("expect_after_turn:\n  1: {}\n", "  1:", "expect_after_turn[1]", "this expect checks nothing"),
    ("expect_after_turn:\n  1: {won: {4: 2}}\n", "  1:", "expect_after_turn[1].won[4]", "there is no player 4"),
    ("expect_after_turn:\n  -1: {round: 1}\n", "  -1:", "expect_after_turn", ">= 0"),
])
def test_a_bad_after_turn_expectation_is_an_error_with_its_line_and_field(add, needle, field, words):
    text = TWO_CARDS + add
    errors = errors_of(text)
    assert has_error(errors, text, needle, field, words), errors


# -- the specification's examples --------------------------------------------------------


@pytest.mark.parametrize("key", ["scored:", "hands_include:", "won:", "expect_after_turn:", "ILLEGAL_RANDOM",
                                 "- [31]"])
def test_the_spec_example_of_each_form_loads_and_passes(key):
    doc = (ROOT / "spec" / "scenario-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Mind Up!"):]
    examples = [x for x in re.findall(r"```yaml\n(.*?)```", section, re.S) if key in x and "game: mind-up" in x]
    assert examples, f"no Mind Up! example in the spec uses {key}"
    for example in examples:
        res = run_text(example, "fr")
        assert res.passed, (res.message, [str(d) for d in res.differences])


def test_the_page_draws_the_last_cards_of_a_one_card_position():
    from oracle.games.mindup.board import scenario_steps

    text = ONE_CARD + "expect:\n  round: 1\n"
    (sc,) = load_text(text, "t.yaml").scenarios
    steps = scenario_steps(sc)["steps"]
    assert [s["decision"] for s in steps] == [None, "the last cards"]
    assert steps[1]["line"] == line_of(text, "given:")
    assert steps[1]["board"] != steps[0]["board"]       # the cards moved from the hands to the Score cards


def test_an_after_turn_expectation_a_refused_round_start_never_reaches_fails():
    text = TWO_CARDS.replace("  - {order: [3, 1, 2, 5, 4]}\n", "  - {order: [3, 1, 2, 5, 5]}\n").replace(
        "  - {0: 2, 1: 3, 2: 4}\n", "  - {0: 2, 1: 3, 2: 4}\n  - {0: 8, 1: 35, 2: 13}\n") + """\
expect_after_turn:
  2: {round: 2}
illegal: {round: 2, code: ILLEGAL_RANDOM}
"""
    assert not errors_of(text)
    res = one_run(text)
    assert res.failed and "expect_after_turn 2 was never checked" in res.message, res.message
    assert res.at_line == line_of(text, "  2: {round: 2}")
