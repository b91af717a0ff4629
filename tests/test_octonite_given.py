"""Octonite counters in a scenario's position (later.octonite): the loader
refuses bad counts and editions without counters, naming file, line and
field; the position builder puts the counters on the state; expectations
check them; the harness leaves such scenarios out of an engine run."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle.games.mindbug.cards import lookup
from oracle.games.mindbug.cards.compiled import load_file as load_card_file
from oracle.games.mindbug.engine import Game, SetupError
from oracle.games.mindbug.engine.octonite import counters
from oracle.games.mindbug.scenarios.cards import card_id
from oracle.games.mindbug.scenarios.format import MAX_OCTONITE
from oracle.games.mindbug.scenarios.runner import build, given_args
from oracle.scenarios.loader import load_text
from oracle.scenarios.runner import run

ROOT = Path(__file__).resolve().parents[1]
CARD_FILE = ROOT / "examples" / "later-sets.yaml"


def scenario(play0: str, *, editions="[en-revised]", rest: str = "expect: {turn: 1}\n", hand0="[Bee Bear]",
             play1="[Gorillion]", fruit_lab=True) -> str:
    """A scenario (with the Fruit Lab cards unless `fruit_lab` is false,
    which keeps the line numbers); `play0` is player 0's play area as written."""
    return (
        "format: mb-scenario/1\n"
        "id: test.octonite\n"
        "title: Counters in the position\n"
        "clauses: [later.octonite]\n"
        + ("sets: [first-contact, fruit-lab]\n" if fruit_lab else "sets: [first-contact]\n")
        + (f"card_file: {CARD_FILE}\n" if fruit_lab else "status: approved\n")
        + f"editions: {editions}\n"
        "source: {kind: rulebook, ref: Octonite Counters}\n"
        "given:\n"
        "  players:\n"
        f"    - hand: {hand0}\n"
        f"      play: {play0}\n"
        f"    - {{hand: [Brain Fly], play: {play1}}}\n"
        + rest
    )


def only_error(text: str) -> str:
    f = load_text(text, "octo.yaml")
    assert not f.scenarios, "the scenario was loaded"
    assert len(f.errors) == 1, [str(e) for e in f.errors]
    return str(f.errors[0])


def loaded(text: str):
    f = load_text(text, "octo.yaml")
    assert not f.errors, [str(e) for e in f.errors]
    return f.scenarios[0]


# -- the loader -------------------------------------------------------------------------

@pytest.mark.parametrize("value,why", [
    ("-1", "Expected `int` >= 0"),
    ("1.5", "Expected `int`, got `float`"),
    ("2.0", "Expected `int`, got `float`"),
    ("true", "Expected `int`, got `bool`"),
    ("'2'", "Expected `int`, got `str`"),
    ("null", "Expected `int`, got `null`"),
    (str(MAX_OCTONITE + 1), f"Expected `int` <= {MAX_OCTONITE}"),
    ("100000000000000000000000000000", f"Expected `int` <= {MAX_OCTONITE}"),
])
def test_a_bad_octonite_count_is_an_error_naming_file_line_and_field(value, why):
    text = scenario(f"[Spider Owl, {{card: Lychee Monarch, octonite: {value}}}]")
    err = only_error(text)
    assert err.startswith("octo.yaml:12: given.players[0].play[1].octonite: scenario test.octonite: "), err
    assert why in err and f"from 0 to {MAX_OCTONITE}" in err, err


def test_the_largest_count_is_accepted():
    loaded(scenario(f"[{{card: Lychee Monarch, octonite: {MAX_OCTONITE}}}]"))


def test_counters_in_a_scenario_that_also_runs_without_them_are_an_error_at_the_key():
    text = scenario("[Spider Owl,\n            {card: Luchataur#2,\n             octonite: 1}]",
                    editions="[en-revised, fr-revised, en-first]")
    err = only_error(text)
    # the line of the `octonite` key, not of the creature
    assert err.startswith("octo.yaml:14: given.players[0].play[1].octonite: "), err
    assert "later.octonite" in err and "en-first, fr-revised" in err and "editions: [en-revised]" in err, err


def test_counters_with_every_edition_by_default_are_an_error():
    text = scenario("[{card: Spider Owl, octonite: 2}]", editions="all", fruit_lab=False)
    assert "en-first, fr-first, fr-revised" in only_error(text)


def test_zero_counters_are_accepted_in_every_edition():
    sc = loaded(scenario("[{card: Spider Owl, octonite: 0}]", editions="all", fruit_lab=False))
    results = [run(sc, e) for e in sc.editions()]
    assert len(results) == 4 and all(r.passed for r in results), [r.message for r in results]


def test_counters_are_accepted_where_the_edition_expects_the_setup_refused():
    shared = "illegal: {step: 0, code: BAD_SETUP, clause: later.octonite}\n"
    sc = loaded(scenario("[{card: Spider Owl, octonite: 1}]", editions="[en-first, fr-first]", rest=shared,
                         fruit_lab=False))
    assert [run(sc, e).passed for e in sc.editions()] == [True, True]
    # per edition: the refusal where counters do not exist, the position where they do
    by = ("expect: {turn: 1}\nexpect_by_edition:\n  en-first:\n"
          "    illegal: {step: 0, code: BAD_SETUP, clause: later.octonite}\n")
    sc = loaded(scenario("[{card: Spider Owl, octonite: 1}]", editions="[en-first, en-revised]", rest=by,
                         fruit_lab=False))
    assert [run(sc, e).passed for e in sc.editions()] == [True, True]
    # a refusal of a later step does not excuse fr-revised
    by = by.replace("en-first, en-revised", "en-first, fr-revised, en-revised")
    err = only_error(scenario("[{card: Spider Owl, octonite: 1}]", editions="[en-first, fr-revised, en-revised]",
                              rest=by, fruit_lab=False))
    assert "also runs in fr-revised;" in err, err


def test_an_expected_count_names_a_placed_card():
    err = only_error(scenario("[Lychee Monarch]", rest="expect: {octonite: {Lychee Monarchh: 1}}\n"))
    assert "expect.octonite.Lychee Monarchh" in err and "unknown card" in err, err
    err = only_error(scenario("[Lychee Monarch]", rest="expect: {octonite: {Guava Engineer: 1}}\n"))
    assert "not in the given position" in err, err
    err = only_error(scenario("[Lychee Monarch]", rest="expect: {octonite: {Lychee Monarch: -1}}\n"))
    assert "expect.octonite" in err and "Expected `int` >= 0" in err, err


# -- the position carries the counters into the engine --------------------------------

def test_the_loader_hands_the_counters_to_the_engine():
    """Fails if the loader or the runner drops the counters on the way."""
    sc = loaded(scenario("[{card: Guava Engineer, octonite: 3}, {card: Kiwano Courier, exhausted: true}]",
                         play1="[{card: Gorillion, octonite: 2}]"))
    guava, kiwano, gorillion = card_id("Guava Engineer"), card_id("Kiwano Courier"), card_id("Gorillion")
    how, args = given_args(sc, "en-revised")
    assert how == "position" and args["octonite"] == [(guava, 3), (gorillion, 2)]
    g = build(sc, "en-revised")
    assert counters(g.state, guava) == 3 and counters(g.state, gorillion) == 2
    assert counters(g.state, kiwano) == 0            # left out: none, whatever its card shows
    assert sorted(g.state.octonite) == sorted([(guava, 3), (gorillion, 2)])
    # the counters are live rules data: the Action paid with one is offered
    assert ("activate", guava) in g.pending.options


def test_a_creature_placed_without_counters_cannot_pay_for_its_action():
    with_one = build(loaded(scenario("[{card: Guava Engineer, octonite: 1}]")), "en-revised")
    with_none = build(loaded(scenario("[{card: Guava Engineer, octonite: 0}]")), "en-revised")
    guava = card_id("Guava Engineer")
    assert ("activate", guava) in with_one.pending.options
    assert ("activate", guava) not in with_none.pending.options


def test_expected_counters_are_compared():
    rest = "expect:\n  players:\n    - {play: [{card: Guava Engineer, octonite: 1}]}\n  octonite: {Gorillion: 2}\n"
    sc = loaded(scenario("[{card: Guava Engineer, octonite: 2}]", rest=rest,
                         play1="[{card: Gorillion, octonite: 2}]"))
    r = run(sc, "en-revised")
    assert not r.passed
    assert [str(d) for d in r.differences] == ["players[0].play[Guava Engineer].octonite: expected 1, got 2"]
    rest = "expect:\n  octonite: {Gorillion: 3, Guava Engineer: 2}\n"
    r = run(loaded(scenario("[{card: Guava Engineer, octonite: 2}]", rest=rest,
                            play1="[{card: Gorillion, octonite: 2}]")), "en-revised")
    assert [str(d) for d in r.differences] == ["octonite[Gorillion]: expected 3, got 2"]


def test_an_expected_count_of_a_creature_not_in_play_fails():
    rest = "steps:\n  - play: Bee Bear\n  - pass\nexpect: {octonite: {Bee Bear: 0}}\n"
    r = run(loaded(scenario("[Spider Owl]", hand0="[Bee Bear, Luchataur]", rest=rest)), "en-revised")
    assert r.passed
    rest = "expect: {octonite: {Bee Bear: 0}}\n"
    r = run(loaded(scenario("[Spider Owl]", hand0="[Bee Bear, Luchataur]", rest=rest)), "en-revised")
    assert [str(d) for d in r.differences] == ["octonite[Bee Bear]: expected 0, got Bee Bear not in play"]


# -- the engine's position builder -------------------------------------------------------

def _defs():
    load_card_file(CARD_FILE)
    return {1: lookup("Lychee Monarch"), 2: lookup("Spider Owl"), 3: lookup("Bee Bear"), 4: lookup("Brain Fly")}


ZONES = {("play", 0): [1, 2], ("hand", 0): [3], ("hand", 1): [4]}


def test_the_position_builder_places_counters_on_creatures_in_play():
    g = Game.position("en-revised", ZONES, _defs(), active=1, octonite=[(1, 2), (2, 1)])
    assert dict(g.state.octonite) == {1: 2, 2: 1}
    assert [e for e in g.events if e.kind == "octonite-removed"] == []    # player 1's turn: no Harvest


def test_the_position_builder_runs_harvest_at_the_start_of_the_active_players_turn():
    g = Game.position("en-revised", ZONES, _defs(), octonite=[(1, 1)])
    assert g.state.life == [3, 2] and dict(g.state.octonite) == {}
    kinds = [e.kind for e in g.events]
    assert kinds.index("turn") < kinds.index("octonite-removed") < kinds.index("lose-life")
    assert g.pending.stage == "action" and g.pending.player == 0


@pytest.mark.parametrize("edition", ["en-first", "fr-first", "fr-revised"])
def test_the_position_builder_refuses_counters_without_the_later_sets(edition):
    # First Contact cards only; six more for the life cards of EN first
    names = ["Spider Owl", "Bee Bear", "Brain Fly", "Gorillion", "Luchataur", "Killer Bee", "Shield Bugs",
             "Snail Hydra", "Rhino Turtle"]
    defs = {i: lookup(n) for i, n in enumerate(names, 2)}
    zones = {("play", 0): [2], ("hand", 0): [3], ("hand", 1): [4]}
    with pytest.raises(SetupError) as e:
        Game.position(edition, zones, defs, octonite=[(2, 1)])
    assert (e.value.code, e.value.clause) == ("BAD_SETUP", "later.octonite")
    assert Game.position(edition, zones, defs, octonite=[(2, 0)]).state.octonite == ()


@pytest.mark.parametrize("pairs,what", [
    ([(3, 1)], "not in play"),
    ([(1, -1)], "whole number"),
    ([(1, True)], "whole number"),
    ([(1, 1.0)], "whole number"),
    ([(1, 1), (1, 2)], "given twice"),
])
def test_the_position_builder_refuses_bad_counters(pairs, what):
    with pytest.raises(SetupError) as e:
        Game.position("en-revised", ZONES, _defs(), octonite=pairs)
    assert (e.value.code, e.value.clause) == ("BAD_POSITION", "later.octonite") and what in e.value.message


# -- the engine harness -----------------------------------------------------------------

def test_a_scenario_placing_counters_sends_them_to_the_engine_in_its_position():
    from oracle.games.mindbug.harness import scenario_run
    from oracle.harness.engine_client import EngineFault

    sent = []

    class Engine:
        name, positions, sets = "stub", True, ("first-contact", "fruit-lab")

        def send(self, msg):
            sent.append(msg)
            raise EngineFault("the stub stops here")

        def restart(self):
            pass

    class Campaign:
        engine = Engine()

    sc = loaded(scenario("[{card: Lychee Monarch, octonite: 2}]"))
    rep = scenario_run.play_one(Campaign(), sc, "en-revised")
    assert rep is not None and rep.verdict == "malformed"      # played (the stub then fails), not left out
    pos = sent[0].position
    assert pos.octonite == {card_id("Lychee Monarch"): 2} and pos.play[0] == [card_id("Lychee Monarch")]


def test_counters_on_several_creatures_without_the_edition_are_one_error_at_the_first():
    text = scenario("[{card: Spider Owl, octonite: 0}, {card: Luchataur, octonite: 2}]",
                    play1="[{card: Gorillion, octonite: 1}]", editions="[en-first, en-revised]", fruit_lab=False)
    assert only_error(text).startswith("octo.yaml:12: given.players[0].play[1].octonite: ")
