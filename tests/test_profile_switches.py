"""Every profile switch is read by the engine: flipping it changes the outcome."""

from msgspec.structs import replace

from oracle.games.mindbug.cards import full_set, lookup
from oracle.games.mindbug.editions import profile
from oracle.games.mindbug.engine import Decision
from oracle.games.mindbug.engine import position

DEFS = {i: lookup(n) for i, n in enumerate(full_set(), 1)}


def card(name, copy=0):
    return [i for i, d in DEFS.items() if d.name == name][copy]


def game(prof, p0_play, p1_play, p0_hand=("Turbo Bug",), p1_hand=("Luchataur",)):
    zones = {("play", 0): [card(n) for n in p0_play], ("play", 1): [card(n) for n in p1_play],
             ("hand", 0): [card(n) for n in p0_hand], ("hand", 1): [card(n) for n in p1_hand]}
    return position(prof, zones, DEFS)


def test_tough_poisonous_switch():
    for flag, exhausted in ((True, True), (False, False)):
        g = game(replace(profile("en-revised"), tough_poisonous=flag), ["Deathweaver"], ["Shield Bugs"])
        g.apply(Decision("attack", 0, card("Deathweaver")))
        g.apply(Decision("block", 1, card("Shield Bugs")))
        assert (card("Shield Bugs") in g.state.play[1]) is exhausted


def test_hunter_override_switch():
    for flag, offered in ((True, True), (False, False)):
        g = game(replace(profile("en-revised"), hunter_override=flag), ["Bee Bear", "Killer Bee"], ["Spider Owl"])
        g.apply(Decision("attack", 0, card("Killer Bee")))
        assert g.pending.stage == "hunt"
        g2 = game(replace(profile("en-revised"), hunter_override=flag), ["Elephantopus", "Killer Bee"], ["Ferret Bomber"])
        g2.apply(Decision("attack", 0, card("Killer Bee")))
        assert (("hunt", card("Ferret Bomber")) in g2.pending.options) is offered


def test_defeated_to_controller_switch():
    from oracle.games.mindbug.engine.effects import defeat
    gor = card("Gorillion")
    for flag, pile in ((True, 1), (False, 0)):
        g = game(replace(profile("en-revised"), defeated_to_controller=flag), [], [], p0_hand=("Gorillion",))
        g.apply(Decision("play", 0, gor))
        g.apply(Decision("mindbug", 1))        # player 1 now controls player 0's Gorillion
        assert gor in g.state.play[1]
        defeat(g, [gor], ("test",), source=card("Tiger Squirrel"))
        assert gor in g.state.discard[pile]


def test_tough_effects_switch():
    from oracle.games.mindbug.engine.effects import defeat
    for flag, survives in ((True, True), (False, False)):
        g = game(replace(profile("en-first"), tough_effects=flag), [], ["Shield Bugs"])
        defeat(g, [card("Shield Bugs")], ("test",), source=card("Kangasaurus Rex"))
        assert (card("Shield Bugs") in g.state.play[1]) is survives


def test_editions_command_shows_what_an_edition_implies():
    from click.testing import CliRunner

    from oracle.cli import main as cli
    out = CliRunner().invoke(cli, ["editions"]).output
    first = out.split("fr-first:")[0]
    line = next(x for x in first.splitlines() if x.strip().startswith("tough_effects"))
    assert " implied " in line and "[keywords.tough.effects]" in line
    assert profile("en-first").switch("tough_effects").how == "implied"
    assert profile("fr-first").switch("tough_effects").how == "states"
    assert profile("en-first").switch("tough_poisonous").how == "silent"
