"""Beyond Evolution's rules that scenarios cannot place: a line whose
double-sided card is missing, stage faces out of place, control changes
and this-turn marks through an evolution."""

from oracle.games.mindbug.cards import lookup, table_cards
from oracle.games.mindbug.engine import Decision, position
from oracle.games.mindbug.engine.effects import take_control
from oracle.games.mindbug.engine.evolve import evolve
from oracle.games.mindbug.engine.invariants import violations
from oracle.games.mindbug.engine.lasting import barred_from_blocking, mark

NAMES = table_cards(["beyond-evolution"])
DEFS = {i: lookup(n) for i, n in enumerate(NAMES, 1)}


def card(name, copy=0):
    return [i for i, d in DEFS.items() if d.name == name][copy]


def game(p0_play, p1_play, defs=DEFS, **kw):
    zones = {("play", 0): [card(n) for n in p0_play], ("play", 1): [card(n) for n in p1_play],
             ("hand", 0): [card("Robopup")], ("hand", 1): [card("Steelhorn")]}
    return position("en-revised", zones, defs, **kw)


def test_without_its_double_sided_card_a_line_cannot_evolve():
    # later.evolve.unavailable
    lady = card("Cloud Lady")
    no_face = {c: d for c, d in DEFS.items() if d.name != "Typhoon Princess"}
    g = game(["Cloud Lady"], ["Sweet Fighter"], no_face)
    # Nothing to defeat and no card to evolve with: the Action would change nothing.
    assert ("activate", lady) not in g.pending.options
    g = game(["Cloud Lady"], ["Spiky Shinobi"], no_face)
    g.apply(Decision("activate", 0, lady))
    events = g.apply(Decision("choose", 0, (card("Spiky Shinobi"),)))
    assert card("Spiky Shinobi") in g.state.discard[1] and g.state.stages == ()
    assert any(e.kind == "no-effect" and "later.evolve.unavailable" in e.clauses for e in events)
    # With the card there, the same Action evolves.
    g = game(["Cloud Lady"], ["Sweet Fighter"])
    g.apply(Decision("activate", 0, lady))
    assert g.design(lady).name == "Typhoon Princess"


def test_a_stage_face_out_of_play_breaks_an_invariant():
    # later.evolve.faces-in-play
    g = game(["Cloud Lady"], ["Sweet Fighter"])
    assert violations(g) == []
    face = card("Typhoon Princess")
    g.state.set_aside.remove(face)
    g.state.hand[0].append(face)
    assert any("stage faces in hand of player 0" in v and "later.evolve.faces-in-play" in v for v in violations(g))


def test_a_creature_taken_keeps_its_stage_and_evolves_with_the_same_card():
    # later.evolve.control
    lady, face = card("Cloud Lady"), card("Typhoon Princess")
    g = game(["Cloud Lady"], ["Sweet Fighter"], stages=[(lady, 2)])
    take_control(g, 1, [lady])
    assert g.controller(lady) == 1 and g.design(lady).name == "Typhoon Princess"
    g.events = []
    evolve(g, lady)
    assert g.design(lady).name == "Thunder Queen" and g.state.stages == ((lady, face, 3),)
    assert "later.evolve.control" in g.events[0].clauses
    g = game(["Cloud Lady"], ["Sweet Fighter"])
    take_control(g, 1, [lady])
    evolve(g, lady)
    assert g.state.stages == ((lady, face, 2),) and face not in g.state.set_aside


def test_this_turn_marks_and_exhaustion_stay_through_an_evolution():
    # later.evolve.keeps, later.evolve.tough; later.evolve.not-play: no Play effect, no Mindbug
    tadpole = card("Curious Tadpole")
    g = game(["Curious Tadpole"], ["Sweet Fighter"], exhausted=[tadpole])
    mark(g, tadpole, "no-block", ("test",))
    events = []
    g.events = events
    evolve(g, tadpole)
    assert g.design(tadpole).name == "Frog Prophet"
    assert barred_from_blocking(g.state, tadpole) and tadpole in g.state.exhausted
    # No Play effect and no Mindbug: the creature did not come into play again.
    assert [e.kind for e in events] == ["evolve"]
    assert {"later.evolve.keeps", "later.evolve.not-play"} <= set(events[0].clauses)
    assert "later.evolve.control" not in events[0].clauses


def test_a_creature_that_came_into_play_this_turn_neither_acts_nor_attacks():
    from oracle.games.mindbug.engine.later_turns import actions
    from oracle.games.mindbug.engine.restrictions import attack_barred
    toad = card("Curious Tadpole")
    g = game(["Curious Tadpole"], ["Sweet Fighter"])
    assert ("activate", toad) in actions(g, 0) and toad not in attack_barred(g, 0)
    g.state.arrived = (toad,)          # as after a Mindbug brought it this turn (later.action.fresh)
    g.changed()
    assert ("activate", toad) not in actions(g, 0) and toad in attack_barred(g, 0)
    # Put into play by Wildsprout, it is fresh; the next turn clears that.
    wild = card("Wildsprout")
    zones = {("play", 0): [wild], ("play", 1): [card("Sweet Fighter")], ("discard", 0): [toad],
             ("hand", 0): [card("Robopup")], ("hand", 1): [card("Steelhorn")]}
    g = position("en-revised", zones, DEFS)
    g.apply(Decision("activate", 0, wild))
    events = g.apply(Decision("choose", 0, (toad,)))
    assert toad in g.state.play[0] and g.state.arrived == () and g.state.active == 1
    assert any(e.kind == "enter-play" and e.card == toad for e in events)


def test_creatures_returned_to_hand_leave_play_as_stage_one_and_drop_their_boost_cards():
    from oracle.games.mindbug.engine.control import return_to_hand
    lady, fighter, under = card("Cloud Lady"), card("Sweet Fighter"), card("Sawn")
    zones = {("play", 0): [card("Robopup")], ("play", 1): [lady, fighter], ("discard", 0): [under],
             ("hand", 0): [card("Blastfish")], ("hand", 1): [card("Steelhorn")]}
    g = position("en-revised", zones, DEFS, stages=[(lady, 3)])
    g.state.discard[0].remove(under)
    g.state.boosts = ((lady, (under,)),)       # a card under it, as a Boost effect leaves one
    g.events = []
    return_to_hand(g, [lady, fighter], ("test",))
    s = g.state
    assert lady in s.hand[1] and fighter in s.hand[1] and s.play[1] == []
    assert s.stages == () and card("Typhoon Princess") in s.set_aside and s.boosts == ()
    assert under in s.discard[1]                # the controller's pile (later.boost.leave)
    kinds = [(e.kind, e.clauses) for e in g.events]
    assert ("unevolve", ("later.evolve.leave",)) in kinds
    assert any(k == "boost-released" and "later.boost.leave" in c for k, c in kinds)
    assert not any(k == "defeat" for k, _ in kinds)   # triggers.defeated.not
    assert violations(g) == []


def test_conform_does_not_send_an_engine_a_position_with_evolved_creatures():
    # The engine protocol's positions have no stages: such a scenario is
    # listed as one the engine cannot play, never sent as stage I creatures.
    from pathlib import Path
    from types import SimpleNamespace

    from oracle.games.mindbug.harness.scenario_run import play_one
    from oracle.scenarios.loader import load_file

    scenarios = {sc.id: sc for sc in load_file(Path(__file__).parents[1] / "scenarios/beyond-evolution.yaml").scenarios}
    campaign = SimpleNamespace(engine=SimpleNamespace(name="stub", version="1", positions=True, sets=()))
    why = play_one(campaign, scenarios["bev.typhoon-princess-evolves-to-thunder-queen"], "en-revised")
    assert why == "it places evolved creatures, which a position of the engine protocol cannot say"
    why = play_one(campaign, scenarios["bev.curious-tadpole-gains-and-evolves"], "en-revised")
    assert "a set the engine does not deal" in why
