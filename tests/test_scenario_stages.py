"""Evolution lines in Mindbug scenarios (later.evolve): a stage face
(Frog Prophet, World Eater) names its line's stage I card at that stage
wherever a step or an expectation names a creature in play, and
`expect.stage` checks a creature's stage alone, without its exhaustion."""

from __future__ import annotations

import pytest

from oracle.games.mindbug.scenarios.cards import CardRefError, card_id, creature_id, face, step_card
from scenario_text import errors_of, line_of
from scenario_text import one_run as run_text

HEAD = """\
format: mb-scenario/1
id: test.stages
title: An evolution line named by its faces
clauses: [later.evolve]
sets: [beyond-evolution]
editions: [en-revised]
source: {kind: team ruling, ref: test}
"""

EVOLVED = HEAD + """\
given:
  players:
    - {play: [{card: Curious Tadpole, stage: 2}], hand: [Robopup]}
    - {play: [Sweet Fighter], hand: [Steelhorn]}
"""


def one_run(text: str):
    return run_text(text, "en-revised")


def test_a_face_names_the_line_s_stage_one_card():
    assert face("Frog Prophet") == ("Curious Tadpole", 2)
    assert face("World Eater") == ("Curious Tadpole", 3)
    assert face("Curious Tadpole") is None and face("Sweet Fighter") is None
    assert creature_id("Frog Prophet") == creature_id("World Eater") == card_id("Curious Tadpole")
    assert card_id("Frog Prophet") != card_id("Curious Tadpole")     # the double-sided card itself
    with pytest.raises(CardRefError, match="names a creature in play at that stage"):
        card_id("World Eater")
    # A card played from hand or a random outcome is the card itself; other steps name creatures.
    assert step_card("play") is card_id and step_card("random") is card_id
    assert step_card("attack") is creature_id and step_card("choose") is creature_id


def test_a_step_may_name_the_face_and_the_expectation_too():
    text = EVOLVED + """\
steps:
  - activate: Frog Prophet
expect:
  players:
    - {life: 4, play: [World Eater]}
  power: {World Eater: 8}
  stage: {World Eater: 3}
"""
    res = one_run(text)
    assert res.passed, (res.message, [str(d) for d in res.differences])


def test_a_step_naming_a_face_the_creature_has_not_reached_fails_with_the_stage():
    text = EVOLVED + """\
steps:
  - activate: World Eater
expect:
  stage: {Curious Tadpole: 3}
"""
    res = one_run(text)
    assert res.failed and res.step == 1 and res.at_line == line_of(text, "activate: World Eater")
    assert "World Eater, the stage III face of Curious Tadpole, and Curious Tadpole is at stage II" in res.message
    assert res.clause == "later.evolve"


@pytest.mark.parametrize("expect, field", [
    ("players:\n    - {play: [World Eater]}", "players[0].play[Curious Tadpole].stage"),
    ("power: {World Eater: 3}", "power[World Eater].stage"),
    ("exhausted: [World Eater]", "exhausted[World Eater].stage"),
])
def test_an_expectation_naming_a_face_checks_the_stage(expect, field):
    text = EVOLVED + "expect:\n  " + expect + "\n"
    res = one_run(text)
    assert res.failed, "Curious Tadpole is at stage II, not World Eater"
    assert field in [d.field for d in res.differences], [str(d) for d in res.differences]
    assert res.at_line == line_of(text, "expect:")


def test_expect_stage_checks_the_stage_alone():
    text = HEAD + """\
given:
  players:
    - {play: [{card: Cloud Lady, exhausted: true}], hand: [Robopup]}
    - {play: [Sweet Fighter], hand: [Steelhorn]}
steps:
  - activate: Cloud Lady
expect:
  stage: {Cloud Lady: 2}
"""
    assert one_run(text).passed
    # The same stage written on the creature in play also checks that it is ready: here it is not.
    with_play = text.replace("stage: {Cloud Lady: 2}", "players:\n    - {play: [{card: Cloud Lady, stage: 2}]}")
    res = one_run(with_play)
    assert res.failed and [d.field for d in res.differences] == ["players[0].play[Cloud Lady]"]
    wrong = one_run(text.replace("stage: {Cloud Lady: 2}", "stage: {Cloud Lady: 3}"))
    assert wrong.failed
    assert [(d.field, d.expected, d.actual) for d in wrong.differences] == [("stage[Cloud Lady]", "3", "2")]


def test_expect_stage_of_a_creature_out_of_play_is_a_difference():
    text = HEAD + """\
given:
  players:
    - {play: [Robopup], hand: [Cloud Lady]}
    - {play: [Sweet Fighter], hand: [Steelhorn]}
steps:
  - attack: Robopup
expect:
  stage: {Cloud Lady: 1}
"""
    res = one_run(text)
    assert res.failed and "not in play" in res.differences[0].actual


@pytest.mark.parametrize("expect, field, words", [
    ("stage: {Frog Prophet: 3}", "expect.stage.Frog Prophet",
     "Frog Prophet is the stage II face of Curious Tadpole: at stage 3 write {Curious Tadpole: 3}"),
    ("stage: {Sweet Fighter: 2}", "expect.stage.Sweet Fighter", "not the stage I card of an evolution line"),
    ("stage: {Curious Tadpole: 4}", "expect.stage.Curious Tadpole", "<= 3"),
    ("stage: {Cloud Lady: 2}", "expect.stage.Cloud Lady", "Cloud Lady is not in the given position"),
    ("stage: {Frog Prophett: 2}", "expect.stage.Frog Prophett", "unknown card"),
])
def test_a_bad_stage_expectation_is_an_error_with_line_and_field(expect, field, words):
    text = EVOLVED + "expect:\n  " + expect + "\n"
    errors = errors_of(text)
    assert errors, "the document should not load"
    assert any(e.startswith(f"bad.yaml:{line_of(text, expect)}: {field}") and words in e
               for e in errors), errors


def test_a_face_in_a_step_must_be_a_creature_of_the_position():
    text = HEAD + """\
given:
  players:
    - {play: [Robopup], hand: [Steelhorn]}
    - {play: [Sweet Fighter]}
steps:
  - attack: Frog Prophet
expect:
  active: 1
"""
    errors = errors_of(text)
    assert any(f":{line_of(text, 'attack: Frog Prophet')}: steps[0].attack" in e
               and "Curious Tadpole is not in the given position" in e for e in errors), errors


def test_the_spec_example_of_a_face_loads_and_passes():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "spec" / "scenario-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("**Stage faces.**"):doc.index("## Top-level keys")]
    example = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert "activate: Frog Prophet" in example and "stage: {World Eater: 3}" in example
    res = one_run(example)
    assert res.passed, (res.message, [str(d) for d in res.differences])
