"""verify with the later sets: a state claim's creatures carry their stage,
the face they show and the boost cards under them, each compared, and the
differences say so in game terms; the engine's invariants of the later
zones; the HTML board with evolved creatures, boost cards and the set-aside
cards.

The positions are built by hand (an evolved creature and boost cards are
placed in the state as Evolve and Boost leave them), so that each
comparison is tested on its own, whatever the abilities do."""

from __future__ import annotations

import msgspec
import pytest

from oracle.games.mindbug.cards import lookup
from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.engine.invariants import violations
from oracle.games.mindbug.replay import format as fmt
from oracle.games.mindbug.replay.attribution import attribute
from oracle.games.mindbug.replay.claims import claim_matches, claim_views
from oracle.games.mindbug.replay.diff import card_diff, readable
from oracle.games.mindbug.replay.selfplay import claim
from oracle.games.mindbug.board.steps import board

CLOUD, TYPHOON, SEA_REX, FIRE, KOIBRA, GORILLION, TADPOLE, FROG = 1, 2, 3, 4, 5, 6, 7, 8
NAMES = {CLOUD: "Cloud Lady", TYPHOON: "Typhoon Princess", SEA_REX: "Sea-Rex", FIRE: "Fire Antler",
         KOIBRA: "Koibra", GORILLION: "Gorillion", TADPOLE: "Curious Tadpole", FROG: "Frog Prophet"}


def position() -> Game:
    """Player 0: Cloud Lady evolved to stage II (Typhoon Princess, the
    set-aside card 2 on it) and Sea-Rex with two boost cards under it (Fire
    Antler, Koibra); player 1: Gorillion. Curious Tadpole in player 1's
    hand; its line's card (Frog Prophet) still set aside."""
    defs = {c: lookup(n) for c, n in NAMES.items()}
    g = Game.position("en-revised", {("play", 0): [CLOUD, SEA_REX], ("play", 1): [GORILLION],
                                     ("hand", 1): [TADPOLE]}, defs, unused=[], out=[])
    s = g.state
    s.set_aside = [FROG]
    s.stages = ((CLOUD, TYPHOON, 2),)
    s.boosts = ((SEA_REX, (FIRE, KOIBRA)),)
    g.changed()
    assert violations(g) == []
    return g


def state(**fields) -> fmt.StateLine:
    return msgspec.json.decode(msgspec.json.encode({"t": "state", **fields}), type=fmt.StateLine)


def agrees(g, line) -> bool:
    """As verify judges a claim: the quick test, the views, then card by card."""
    if claim_matches(g, line):
        return True
    rules, log = claim_views(g, line)
    return rules == log or not card_diff(g, line)


def texts(g, line) -> list[str]:
    return [e.text for e in card_diff(g, line)]


def play(*p0, p1=({"card": GORILLION},)):
    return {"play": [list(p0), list(p1)]}


SEA_REX_OK = {"card": SEA_REX, "boosts": [KOIBRA, FIRE]}


# -- stage and face -------------------------------------------------------------

def test_a_claim_with_the_right_stage_face_and_boost_cards_agrees():
    g = position()
    assert agrees(g, state(**play({"card": CLOUD, "stage": 2, "face": "Typhoon Princess"}, SEA_REX_OK)))
    # the self-play claim states them itself, and agrees in the quick test
    c = claim(g)
    assert c["play"][0] == [{"card": CLOUD, "exhausted": False, "stage": 2, "face": "Typhoon Princess"},
                            {"card": SEA_REX, "exhausted": False, "boosts": [FIRE, KOIBRA]}]
    assert claim_matches(g, state(**{k: v for k, v in c.items() if k != "t"}))


def test_a_wrong_stage_is_a_difference_named_in_game_terms():
    g = position()
    line = state(**play({"card": CLOUD, "stage": 3}, SEA_REX_OK))
    assert not agrees(g, line)
    assert texts(g, line) == ["Typhoon Princess (1, stage II of Cloud Lady): the log has it in player 0's play area, "
                              "stage III; the rules have it in player 0's play area, stage II"]
    assert attribute(g, [], card_diff(g, line))[0] == "later.evolve"
    rules, log = claim_views(g, line)
    assert readable(log)["play"][0][0] == {"card": CLOUD, "stage": 3}


def test_a_wrong_face_and_a_stage_on_a_creature_of_no_line_are_differences():
    g = position()
    assert not agrees(g, state(**play({"card": CLOUD, "face": "Thunder Queen"}, SEA_REX_OK)))
    assert agrees(g, state(**play({"card": CLOUD, "face": "typhoon princess"}, SEA_REX_OK)))   # a card name, any case
    line = state(**play({"card": CLOUD}, SEA_REX_OK, p1=({"card": GORILLION, "stage": 1},)))
    assert not agrees(g, line)
    assert texts(g, line) == ["Gorillion (6): the log has it in player 1's play area, stage I; the rules have it "
                              "in player 1's play area, of no evolution line"]


def test_in_a_play_area_of_names_a_creature_is_named_by_the_face_it_shows():
    g = position()
    names = [{"card": "Sea-Rex"}]
    assert agrees(g, state(**play({"card": "Typhoon Princess"}, *names)))
    assert agrees(g, state(**play({"card": "Cloud Lady", "stage": 2}, *names)))
    line = state(**play({"card": "Cloud Lady"}, *names))
    assert not agrees(g, line)
    assert sorted(texts(g, line)) == [
        "Cloud Lady: the log has 1 in player 0's play area; the rules have none",
        "Typhoon Princess: the log has none; the rules have 1 in player 0's play area"]


# -- boost cards ------------------------------------------------------------------

def test_a_missing_boost_card_is_named_with_the_creature_it_is_under():
    g = position()
    line = state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": [FIRE]}))
    assert not agrees(g, line)
    assert texts(g, line) == ["Koibra (5): the log does not list it; the rules have it under Sea-Rex (3) "
                              "in player 0's play area"]
    assert "later.boost" in attribute(g, [], card_diff(g, line))


def test_a_boost_card_the_log_puts_in_a_discard_pile_is_one_difference():
    g = position()
    line = state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": [FIRE]}), discard=[[KOIBRA], []])
    assert not agrees(g, line)
    assert texts(g, line) == ["Koibra (5): the log has it in player 0's discard pile; the rules have it under "
                              "Sea-Rex (3) in player 0's play area"]
    # and a card the rules have in a discard pile, claimed under a creature
    line = state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": [FIRE, KOIBRA, TADPOLE]}))
    assert texts(g, line) == ["Curious Tadpole (7): the log has it under Sea-Rex (3) in player 0's play area; "
                              "the rules have it in player 1's hand"]


def test_boost_cards_by_name_are_compared_as_a_multiset_on_the_creature():
    g = position()
    assert agrees(g, state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": ["Koibra", "Fire Antler"]})))
    line = state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": ["Koibra"]}))
    assert not agrees(g, line)
    assert texts(g, line) == ["Sea-Rex (3): the log has it in player 0's play area, with 1 boost card under it "
                              "(Koibra); the rules have it in player 0's play area, with 2 boost cards under it "
                              "(Fire Antler, Koibra)"]
    named = state(**play({"card": "Typhoon Princess"}, {"card": "Sea-Rex", "boosts": ["Koibra", "Koibra"]}))
    assert [e.name for e in card_diff(g, named)] == ["Sea-Rex"]


def test_no_boost_claim_claims_nothing_and_an_empty_one_claims_none():
    g = position()
    assert agrees(g, state(**play({"card": CLOUD}, {"card": SEA_REX})))
    line = state(**play({"card": CLOUD}, {"card": SEA_REX, "boosts": []}))
    assert not agrees(g, line) and len(card_diff(g, line)) == 2


def test_in_a_play_area_of_names_a_sub_field_claimed_for_some_creatures_only_checks_those():
    """As by id: a copy claimed without `boosts` or `exhausted` leaves them unchecked."""
    g = position()
    g.state.play[1].append(TADPOLE)
    g.state.hand[1].remove(TADPOLE)
    g.state.exhausted = frozenset(g.state.exhausted | {GORILLION})
    g.changed()
    gor = {"card": "Gorillion", "exhausted": True}
    rex = {"card": "Sea-Rex", "boosts": ["Koibra", "Fire Antler"]}
    assert agrees(g, state(**play({"card": "Typhoon Princess"}, rex, p1=(gor, {"card": "Curious Tadpole"}))))
    ready = dict(gor, exhausted=False)
    line = state(**play({"card": "Typhoon Princess"}, rex, p1=(ready, {"card": "Curious Tadpole"})))
    assert not agrees(g, line) and [e.name for e in card_diff(g, line)] == ["Gorillion"]


def test_copies_of_one_design_named_in_a_play_area_pair_with_the_rules_copies_on_what_is_claimed():
    defs = {1: lookup("Sea-Rex"), 2: lookup("Sea-Rex"), 3: lookup("Koibra"), 4: lookup("Gorillion")}
    g = Game.position("en-revised", {("play", 0): [1, 2], ("play", 1): [4]}, defs, unused=[], out=[])
    g.state.boosts = ((1, (3,)),)
    g.changed()
    rex = {"card": "Sea-Rex", "exhausted": False}
    p1 = ({"card": "Gorillion"},)
    assert agrees(g, state(**play(dict(rex, boosts=["Koibra"]), rex, p1=p1)))
    assert agrees(g, state(**play(dict(rex, boosts=[]), rex, p1=p1)))     # which copy is where: unchecked
    line = state(**play(dict(rex, boosts=["Koibra"]), dict(rex, boosts=["Koibra"]), p1=p1))
    assert not agrees(g, line) and [e.name for e in card_diff(g, line)] == ["Sea-Rex"]
    line = state(**play(dict(rex, boosts=[]), dict(rex, boosts=[]), p1=p1))
    assert not agrees(g, line)


def test_the_set_aside_cards_and_the_face_on_a_creature_have_places_of_their_own():
    g = position()
    line = state(set_aside=[FROG, TYPHOON])
    assert texts(g, line) == ["Typhoon Princess (2): the log has it in the set-aside cards; the rules have it on "
                              "Cloud Lady (1) in player 0's play area, as the face it shows"]
    assert agrees(g, state(set_aside=[FROG]))


# -- invariants -----------------------------------------------------------------------

def broken(change) -> list[str]:
    g = position()
    change(g.state)
    g.changed()         # a state edited outside the rules: the powers kept for it are forgotten
    return violations(g)


def test_invariants_name_each_broken_rule_of_the_later_zones():
    assert broken(lambda s: s.hand[1].append(s.set_aside.pop())) == \
        ["stage faces in hand of player 1: [8] (later.evolve.faces-in-play)"]
    assert broken(lambda s: setattr(s, "boosts", ((GORILLION, (FIRE, KOIBRA)),)) or s.play[1].remove(GORILLION)
                  or s.discard[1].append(GORILLION)) == \
        ["boost cards under creatures not in play: [6]"]
    assert broken(lambda s: s.set_aside.append(TYPHOON)) == \
        ["cards in two places: [2]", "set-aside cards shown by an evolved creature and still set aside: [2]"]
    assert broken(lambda s: setattr(s, "stages", ((SEA_REX, TYPHOON, 2),))) == \
        ["evolved creatures with a stage not of their line: [3]"]
    assert broken(lambda s: (s.discard[0].append(FIRE), setattr(s, "boosts", ((SEA_REX, (KOIBRA,)),)))) == []
    assert broken(lambda s: s.discard[0].append(FIRE)) == ["cards in two places: [4]"]
    assert broken(lambda s: setattr(s, "boosts", ((SEA_REX, (KOIBRA,)),))) == ["cards in no place: [4]"]


# -- the HTML board ------------------------------------------------------------------------

def test_the_board_carries_the_faces_the_boost_cards_and_the_set_aside_cards():
    b = board(position())
    assert b["evolved"] == [[CLOUD, 2, "Typhoon Princess"]]
    assert b["boosts"] == [[SEA_REX, [FIRE, KOIBRA]]]
    assert b["set_aside"] == [FROG]
    # power after boost cards (+1 each) and the face's printed power
    assert {e[0]: e[1] for e in b["play"][0]} == {CLOUD: lookup("Typhoon Princess").power, SEA_REX: 5 + 2}


def test_a_board_of_first_contact_has_none_of_the_later_fields():
    from oracle.games.mindbug.engine import Game as G
    from oracle.games.mindbug.replay.selfplay import random_deal
    import random

    setup = random_deal(random.Random(3))
    g = G.deal("en-revised", setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"])
    assert not {"evolved", "boosts", "set_aside"} & set(board(g))


@pytest.fixture
def later_page(tmp_path):
    """A report page whose one game's board is the position above."""
    from oracle.replay.findings import GameReport
    from oracle.report.page import HtmlReport

    g = position()
    page = HtmlReport(title="t")
    steps = {"cards": dict(g.table.names), "cut": False,
             "steps": [{"line": 1, "decision": None, "forced": False, "events": [], "board": board(g)}]}
    page.game(GameReport(file="later.jsonl", line=1, id="later-board", edition="en-revised"), steps=steps,
              log=[[1, "{}"]])
    out = tmp_path / "later.html"
    with open(out, "w", encoding="utf-8") as f:
        page.finish(f)
    return out


def test_the_page_draws_the_evolved_face_its_stage_and_the_boost_cards(later_page):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed "
                                                                 "(pip install -e '.[test]')")
    from browser import launch

    with sync_api.sync_playwright() as p:
        b = launch(p)
        pg = b.new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(later_page.as_uri())
        pg.evaluate("window.mbReport.openGame(0, 0)")
        pg.wait_for_selector("#board .card")
        cloud = pg.locator('#board .card[data-card="1"]')
        assert cloud.locator(".name").inner_text() == "Typhoon Princess"
        assert cloud.locator(".stage").inner_text() == "stage II of Cloud Lady"
        assert "stage II of Cloud Lady" in cloud.get_attribute("aria-label")
        rex = pg.locator('#board .card[data-card="3"]')
        assert "2 boost cards under it: Fire Antler (4), Koibra (5)" in rex.get_attribute("aria-label")
        assert rex.locator(".boost").inner_text() == "+2 boost: Fire Antler (4), Koibra (5)"
        assert "set aside" in pg.inner_text("#board").lower() and pg.locator('#board .card[data-card="8"]').count() == 1
        assert errors == []
        b.close()


# -- keep-going: a full claim rebuilds evolved creatures and boost cards --------------------

def test_a_full_claim_restarts_verification_with_its_stages_and_boost_cards():
    from oracle.games.mindbug.replay.claims import is_full_claim
    from oracle.games.mindbug.replay.resync import resync

    g = position()
    full = {"life": [3, 3], "mindbugs": [2, 2], "hand": [[], [TADPOLE]], "discard": [[], []], "deck": [0, 0]}
    # the claim moves the stage on (stage III, the same set-aside card) and one boost card to a discard pile
    line = state(**{**full, "discard": [[KOIBRA], []]},
                 **play({"card": CLOUD, "stage": 3}, {"card": SEA_REX, "boosts": [FIRE]}))
    assert is_full_claim(line)
    ng = resync(g, line, 0, [[], []])
    assert ng is not None and violations(ng) == []
    assert ng.state.stages == ((CLOUD, TYPHOON, 3),) and ng.state.boosts == ((SEA_REX, (FIRE,)),)
    assert ng.design(CLOUD).name == "Thunder Queen" and ng.power(SEA_REX) == 5 + 1
    # a claim without stages keeps the rules' where the creature is still in play
    kept = resync(g, state(**full, **play({"card": CLOUD}, {"card": SEA_REX})), 0, [[], []])
    assert kept.state.stages == ((CLOUD, TYPHOON, 2),) and kept.state.boosts == ((SEA_REX, (FIRE, KOIBRA)),)
    # a creature of no line cannot be claimed evolved; boost cards by name are no full claim
    assert resync(g, state(**full, **play({"card": CLOUD}, {"card": SEA_REX, "stage": 2})), 0, [[], []]) is None
    assert not is_full_claim(state(**full, **play({"card": CLOUD}, {"card": SEA_REX, "boosts": ["Koibra"]})))


def test_an_evolved_creature_is_named_with_the_face_it_shows():
    from oracle.games.mindbug.replay.narrate import creature_label

    g = position()
    assert creature_label(g, CLOUD) == "Typhoon Princess (1, stage II of Cloud Lady)"
    assert creature_label(g, SEA_REX) == "Sea-Rex (3)" and creature_label(g, TADPOLE) == "Curious Tadpole (7)"
