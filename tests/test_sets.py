"""Card sets and mixed decks (setup.sets): the deck is every card of the
named sets, 10 dealt to each player and the rest unused."""

import io
import json

import pytest

from oracle.games.mindbug.cards import SETS, UnknownSet, check_sets, full_set, lookup
from oracle.games.mindbug.engine import Game, SetupError
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import play_game, random_deal
from oracle.replay.verify import verify_game
from oracle.scenarios.loader import load_text
from oracle.scenarios.runner import run, run_all

MIXED = ("first-contact", "new-servants")


def verify(lines):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<t>")]


def test_each_card_names_its_set_and_the_deck_follows_the_sets():
    assert len(full_set()) == 48 and len(full_set(["new-servants"])) == 24 and len(full_set(MIXED)) == 72
    assert lookup("Hyenix").card_set == "new-servants" and lookup("Gorillion").card_set == "first-contact"
    assert lookup("Hyenix").to_json()["set"] == "new-servants"
    assert check_sets(["new-servants", "first-contact"]) == MIXED   # database order
    assert {s: SETS[s].to_json()["cards"] for s in MIXED} == {"first-contact": 48, "new-servants": 24}


@pytest.mark.parametrize("bad, words", [(["beyond"], "unknown card set 'beyond'"), ([], "no card set"),
                                        (["first-contact", "first-contact"], "named twice"),
                                        (["new-servant"], "did you mean new-servants")])
def test_unknown_sets_are_refused_with_a_reason(bad, words):
    with pytest.raises(UnknownSet, match=words):
        check_sets(bad)


def test_a_mixed_deal_puts_ten_in_each_draw_pile_and_the_rest_unused():
    import random
    setup = random_deal(random.Random(3), "en-revised", MIXED)
    assert len(setup["cards"]) == 72 and [len(d) for d in setup["decks"]] == [10, 10]
    assert len(setup["unused"]) == 52
    g = Game.deal("en-revised", setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"], sets=MIXED)
    assert len(g.state.unused) + len(g.state.out) == 52


def test_a_deal_that_is_not_the_deck_of_its_sets_is_refused():
    import random
    setup = random_deal(random.Random(3), "en-revised")          # First Contact only
    with pytest.raises(SetupError) as e:
        Game.deal("en-revised", setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"], sets=MIXED)
    assert e.value.clause == "setup.components" and "72 cards of the sets first-contact, new-servants" in e.value.message
    assert "missing: Bugserker" in e.value.message


def test_verify_refuses_an_unknown_set_as_malformed_and_names_the_field():
    lines = list(play_game("en-revised", 1))
    lines[0]["sets"] = ["first-contact", "beyond-the-pale"]
    (rep,) = verify(lines)
    f = rep.findings[0]
    assert rep.verdict == "malformed" and f.code == "UNKNOWN_SET" and f.clauses == ["setup.sets"]
    assert "field sets: unknown card set 'beyond-the-pale'" in f.message


def test_verify_checks_the_deck_against_the_sets_of_the_game_line():
    lines = list(play_game("en-revised", 1))
    lines[0]["sets"] = list(MIXED)
    (rep,) = verify(lines)
    assert rep.findings[0].code == "BAD_SETUP" and "missing" in rep.findings[0].message


def test_selfplay_writes_its_sets_on_the_game_line():
    from itertools import islice
    lines = list(islice(play_game("fr-first", 4, sets=MIXED), 2))
    assert lines[0]["sets"] == list(MIXED) and len(lines[1]["cards"]) == 72


SCENARIO = """
format: mb-scenario/1
id: sets.vanilla-new-servants-card
title: A New Servants card plays like any other in a mixed deck
clauses: [setup.sets]
cards: [Creep from the Deep]
{sets}
source: {{kind: team ruling, ref: "setup.sets"}}
given:
  players:
    - hand: [Creep from the Deep]
    - hand: [Gorillion]
steps:
  - play: Creep from the Deep
  - pass
expect:
  players:
    - play: [Creep from the Deep]
  unused: {unused}
"""


def test_a_scenario_names_its_sets_and_its_deck_follows():
    sf = load_text(SCENARIO.format(sets="sets: [first-contact, new-servants]", unused=70), "s.yaml")
    assert not sf.errors, sf.errors
    assert all(r.passed for r in (run(sc, e) for sc in sf.scenarios for e in sc.editions()
                                  if e != "en-first")), "70 cards left unused"


def test_a_scenario_naming_a_card_outside_its_sets_is_an_error_that_says_what_to_write():
    sf = load_text(SCENARIO.format(sets="", unused=70), "s.yaml")
    assert sf.errors and "belongs to the set new-servants" in str(sf.errors[0])
    assert "sets: [first-contact, new-servants]" in str(sf.errors[0])
    sf = load_text(SCENARIO.format(sets="sets: [first-contakt]", unused=70), "s.yaml")
    assert any("unknown card set" in str(e) for e in sf.errors)


def test_scenarios_sets_option_adds_sets_to_every_deck():
    text = SCENARIO.replace("Creep from the Deep", "Luchataur").format(sets="", unused=46)
    sf = load_text(text, "s.yaml")
    assert not sf.errors
    plain = run_all([sf], {"en-revised"})
    mixed = run_all([sf], {"en-revised"}, MIXED)
    assert [r.passed for r in plain] == [True] and [r.passed for r in mixed] == [False]
    assert [(d.field, d.expected, d.actual) for d in mixed[0].differences] == [("unused", "46 cards", "70 cards")]


def test_sets_may_be_named_as_public_sources_name_them():
    assert check_sets(["First Contact", "New Servants"]) == MIXED
    assert check_sets(["first contact: add-on", "premier contact"]) == MIXED
    with pytest.raises(UnknownSet, match="named twice"):
        check_sets(["new-servants", "Nouveaux Serviteurs"])
