"""A refused pick and the legal options, as a failing scenario words them:
cards by name, and the numbers an effect asks for (a side marker's power, a
die's face, a named power) as numbers, never as the cards whose ids they
happen to equal (spec/scenario-format.md, steps: `choose: [5]`)."""

from __future__ import annotations

from oracle.scenarios.loader import load_text
from oracle.scenarios.runner import run

SLUGGERNAUT = """\
format: mb-scenario/1
id: test.sluggernaut-side
title: Sluggernaut picks a side marker
clauses: [promo.side-markers]
sets: [first-contact, promo-2022]
editions: [en-revised]
source: {kind: team ruling, ref: "promo.side-markers"}
given:
  players:
    - {play: [Sluggernaut], hand: [Bee Bear]}
    - {play: [Gorillion], hand: [Brain Fly]}
steps:
  - attack: Sluggernaut
  - block: Gorillion
  - choose: [6]
expect:
  power: {Sluggernaut: 5}
"""

CHUCK = """\
format: mb-scenario/1
id: test.chuck-roll
title: Chuck rolls a die
clauses: [promo.die-roll]
sets: [first-contact, promo-2022]
editions: [en-revised]
source: {kind: card list, ref: "Chuck"}
given:
  players:
    - {play: [], hand: [Chuck, Bee Bear]}
    - {play: [Gorillion], hand: [Brain Fly]}
steps:
  - play: Chuck
  - pass
settle: false
expect:
  pending: {stage: random, options: [{random: [1]}]}
"""

FERRET = """\
format: mb-scenario/1
id: test.ferret-pick
title: Ferret Bomber's discards are picked among the cards in hand
clauses: [terms.discard]
editions: [en-revised]
source: {kind: card list, ref: "Ferret Bomber"}
given:
  players:
    - {play: [], hand: [Ferret Bomber, Gorillion]}
    - {play: [], hand: [Luchataur, Bee Bear, Spider Owl]}
steps:
  - play: Ferret Bomber
  - pass
  - choose: [Gorillion, Luchataur]
expect:
  players: [{}, {hand: 1}]
"""


def _one(text):
    f = load_text(text, "t.yaml")
    assert not f.errors, [str(e) for e in f.errors]
    return f.scenarios[0]


def test_number_options_are_written_as_numbers():
    r = run(_one(SLUGGERNAUT), "en-revised")
    assert r.status == "fail" and r.clause == "promo.side-markers"
    assert "[6] is not a legal pick" in r.message
    assert r.message.endswith("legal here: choose: [5], choose: [8]")


def test_die_faces_in_an_expectation_are_numbers():
    r = run(_one(CHUCK), "en-revised")
    assert r.status == "fail"
    fields = {d.field: (d.expected, d.actual) for d in r.differences}
    expected, actual = fields["pending.options"]
    assert expected == "['random: [1]']"
    assert "random: [6]" in actual and "unexpected" in actual


def test_a_refused_card_pick_names_the_cards():
    r = run(_one(FERRET), "en-revised")
    assert r.status == "fail" and r.clause == "terms.discard"
    assert "Gorillion (" in r.message and "is not a legal pick" in r.message
    assert "legal here: choose: [" in r.message and "Luchataur" in r.message.split("legal here:")[1]


STAGE_THREE = """\
format: mb-scenario/1
id: test.world-eater-by-face
title: A stage III face named as a card
clauses: [later.evolve]
sets: [beyond-evolution]
editions: [en-revised]
source: {kind: card list, ref: "World Eater"}
given:
  players:
    - {play: [{card: Curious Tadpole, stage: 3}], hand: [Robopup]}
    - {play: [], hand: [Sawn]}
expect:
  set_aside: [World Eater]
"""


def test_a_stage_three_face_named_as_a_card_says_how_to_name_it():
    """Where a card itself is meant (here the cards aside), a stage III face
    is no card; where a creature in play is meant it names one (its
    stage I card at stage III)."""
    f = load_text(STAGE_THREE, "t.yaml")
    assert len(f.errors) == 1
    text = str(f.errors[0])
    assert text.startswith("t.yaml:13: expect.set_aside[0]: ")
    assert "World Eater is the stage III face of Curious Tadpole's line" in text
    assert "{card: Curious Tadpole, stage: 3}" in text and "copies" not in text
    as_creature = load_text(STAGE_THREE.replace("set_aside: [World Eater]", "power: {World Eater: 8}"), "t.yaml")
    assert not as_creature.errors, [str(e) for e in as_creature.errors]


def test_the_html_board_words_a_number_pick_as_numbers():
    """The page's boards (show, --format html) list the side markers' powers,
    and the step that picks one, as numbers, as the scenario writes them."""
    from oracle.games.mindbug.board import scenario_steps
    from oracle.games.mindbug.board.steps import option_text

    sc = load_text(SLUGGERNAUT.replace("  - choose: [6]\n", "  - choose: [5]\n"), "<test>").scenarios[0]
    boards = scenario_steps(sc, "en-revised")["steps"]
    pick = next(b for b in boards if b["board"]["pending"] and b["board"]["pending"]["stage"] == "choose")
    assert pick["board"]["pending"]["options"] == ["choose 5", "choose 8"]
    assert option_text("choose", (5,), {5: "Explosive Toad"}) == "choose Explosive Toad (5)"   # cards stay cards
