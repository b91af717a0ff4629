"""Beyond Eternity: Boost (later.boost.*), abilities that work from a discard
pile (later.in-discard), arrivals in a pile (triggers.to-discard), and the
set's abilities. The rulings are in scenarios/beyond-eternity.yaml; these
tests pin down what scenarios cannot reach: the Big Box Mimic reading with
no promo ability written, the tables being complete, games without these
cards paying nothing, and self-play conforming with the invariants."""

from __future__ import annotations

import pytest

from oracle.games.mindbug.cards import CARDS, abilities, full_set, lookup
from oracle.games.mindbug.engine import Decision, Game
from oracle.games.mindbug.engine import in_discard, leaving
from oracle.games.mindbug.engine.invariants import violations
from oracle.games.mindbug.readings import with_readings

SETS = ("beyond-eternity",)
DEFS = {i: lookup(n) for i, n in enumerate(full_set(SETS), 1)}


def card(name, copy=0):
    return [i for i, d in DEFS.items() if d.name == name][copy]


def position(zones, readings=None, **kw):
    z = {k: [card(n) for n in v] for k, v in zones.items()}
    prof = with_readings("en-revised", readings or {})
    return Game.position(prof, z, DEFS, **kw)


def test_every_triggered_design_of_the_set_has_its_abilities():
    # Each trigger a Beyond Eternity design prints has an ability; "in-discard"
    # ones have a row in a discard-pile table instead.
    tables = (abilities.IN_DISCARD_POWER, abilities.IN_DISCARD_ATTACK, abilities.IN_DISCARD_BLOCK,
              abilities.IN_DISCARD_GRANTS, abilities.IN_DISCARD_LIFE)
    constants = (abilities.POWER_LAYER, abilities.GRANT_LAYER, abilities.BLOCK_RULES,
                 abilities.ANY_SIDE_ATTACK_RULES)
    for d in CARDS.values():
        if d.card_set != "beyond-eternity":
            continue
        for t in d.triggers:
            if t == "in-discard":
                assert any(d.name in table for table in tables), d.name
            else:
                assert (d.name, t) in abilities.TRIGGERED, (d.name, t)
        if not d.triggers:
            assert any(d.name in table for table in constants), d.name


def test_games_without_such_cards_pay_nothing(monkeypatch):
    # presence.flags_of: a First Contact game never reads the discard piles for abilities.
    def boom(*a, **k):
        raise AssertionError("a discard pile was read for abilities")
    for fn in ("power", "attack_barred", "block_forbidden", "granted", "more_loss"):
        monkeypatch.setattr(in_discard, fn, boom)
    fc = {i: lookup(n) for i, n in enumerate(full_set(("first-contact",)), 1)}
    assert not Game.position("en-revised", {}, fc).table.flags.in_discard
    from oracle.games.mindbug.replay.selfplay import play_game
    lines = list(play_game("en-revised", 5, "random", "plain", "every", sets=("first-contact",)))
    assert lines[-1]["t"] == "end"


def _boosted_fire_antler(readings=None):
    """Fire Antler with Duckdra under it, defeated by a blocker."""
    g = position({("play", 0): ["Sea-Rex", "Fire Antler"], ("discard", 0): ["Duckdra"],
                  ("play", 1): ["Cave Lizard"]}, readings)
    sea, antler, duck = card("Sea-Rex"), card("Fire Antler"), card("Duckdra")
    g.state.boosts = ((antler, (duck,)),)
    g.state.discard[0].remove(duck)
    g.changed()
    assert g.power(antler) == 9
    return g, antler, duck


@pytest.mark.parametrize("reading,held", [("stay-under", True), ("released-first", False)])
def test_boost_cards_wait_under_a_card_whose_defeated_effect_uses_them(monkeypatch, reading, held):
    # later.boost.defeated: a design in KEEPS_BOOSTS (Big Box Mimic, promo 2023)
    # keeps its boost cards under its defeated card until its effect releases them.
    monkeypatch.setattr(leaving, "KEEPS_BOOSTS", {"Fire Antler"})
    g, antler, duck = _boosted_fire_antler({"later.boost.defeated": reading})
    g.apply(Decision("attack", 0, antler))
    g.apply(Decision("block", 1, card("Cave Lizard")))
    assert antler in g.state.discard[0]
    assert (g.state.boosts == ((antler, (duck,)),)) is held
    assert (duck in g.state.discard[0]) is not held
    assert violations(g) == []
    if held:
        leaving.release(g, antler, 0)
        assert g.state.boosts == () and duck in g.state.discard[0]


def test_without_such_a_design_boost_cards_leave_with_the_creature():
    g, antler, duck = _boosted_fire_antler()
    g.apply(Decision("attack", 0, antler))
    g.apply(Decision("block", 1, card("Cave Lizard")))
    assert g.state.boosts == () and {antler, duck} <= set(g.state.discard[0])


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("sets", [SETS, ("first-contact", "new-servants", "beyond-eternity")])
def test_self_play_conforms_with_the_invariants(seed, sets):
    from oracle.games.mindbug.replay.selfplay import play_game
    from oracle.replay.verify import verify_game
    from oracle.replay.reader import split_games
    import io
    import msgspec
    for n in range(6):
        lines = list(play_game("en-revised", seed * 100 + n, "random", "be", "every", sets=sets,
                               check=True))
        data = b"".join(msgspec.json.encode(x) + b"\n" for x in lines)
        rep = [verify_game(r) for r in split_games(io.BytesIO(data), "<test>")][0]
        assert rep.verdict == "conforms", rep.findings[:1]


CARD_FILE = b"""format: mb-cards/1
set: {id: boost-lab, name: Boost Lab}
cards:
  - {name: Boost Tester, power: 3, abilities: [{trigger: attack, effect: boost, count: 2}]}
  - {name: Boost Giver, power: 4, abilities: [{trigger: play, effect: boost, target: {side: any}}]}
"""


def test_declared_cards_boost_with_the_verb(tmp_path):
    from oracle.games.mindbug.cards.compiled import load_file, snapshot
    restore = snapshot()
    try:
        path = tmp_path / "boost.yaml"
        path.write_bytes(CARD_FILE)
        load_file(path)
        defs = {i: lookup(n) for i, n in enumerate(full_set(("beyond-eternity", "boost-lab")), 1)}
        ids = {d.name: i for i, d in reversed(list(defs.items()))}
        tester, giver, duck, koi = ids["Boost Tester"], ids["Boost Giver"], ids["Duckdra"], ids["Koibra"]
        g = Game.position("en-revised", {("play", 0): [tester], ("hand", 0): [giver], ("play", 1): [koi],
                                         ("discard", 1): [duck]}, defs, mindbugs=(2, 0))
        g.apply(Decision("play", 0, giver))
        g.apply(Decision("pass", 1))
        g.apply(Decision("choose", 0, (duck,)))                 # the card, then its creature: an enemy one
        assert g.pending.options == [("choose", (c,)) for c in sorted((tester, giver, koi))]
        g.apply(Decision("choose", 0, (koi,)))
        assert g.power(koi) == 3 and g.state.boosts == ((koi, (duck,)),)
        with pytest.raises(Exception, match="a boost goes to this creature"):
            from oracle.games.mindbug.cards.declared import load
            load("bad.yaml", CARD_FILE.replace(b"{side: any}", b"{side: enemy}").decode())
    finally:
        restore()


def test_an_attack_ability_given_from_a_discard_pile(monkeypatch):
    # later.in-discard, IN_DISCARD_GRANTS (Blessed Axolotl Healer, promo 2023):
    # the pile owner's attacking creature has the given Attack effect, resolved
    # for its controller; here a stand-in row on Blessed Shield Bugs.
    def gain(fx, g, me, card):
        fx.gain_life(g, me, 1, ("triggers.attack",), card)
    monkeypatch.setitem(abilities.IN_DISCARD_GRANTS, "Blessed Shield Bugs", "attack")
    monkeypatch.setitem(abilities.TRIGGERED, ("Blessed Shield Bugs", "attack"), gain)
    g = position({("play", 0): ["Catalisk"], ("discard", 0): ["Blessed Shield Bugs"], ("play", 1): ["Duckdra"],
                  ("discard", 1): ["Cursed Gorillion"]})
    g.apply(Decision("attack", 0, card("Catalisk")))
    # two Attack effects wait, Catalisk's own and the given one: the active player orders them
    assert g.pending.stage == "order" and len(g.pending.options) == 2
    g.apply(Decision("choose", 0, (card("Blessed Shield Bugs"),)))
    assert g.state.life[0] == 4
    g.apply(Decision("block", 1, None))
    # the other player's pile gives nothing to its enemies' attacks
    assert g.state.life == [4, 2]
