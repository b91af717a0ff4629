"""The powers and keywords a game keeps between steps (`Game.stats`) are
always those the rules give at that moment: every change that can alter them
forgets them (`Game.changed`), and a new turn keeps them only when no
ability in play reads whose turn it is (`cards.abilities.TURN_FREE`).
Checked after every step of self-played games in every edition and card
set, through the engine's invariants (`invariants.stale_stats`)."""

from __future__ import annotations

import pytest

from oracle.games.mindbug.cards import SETS
from oracle.games.mindbug.editions import EDITIONS
from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.engine.invariants import stale_stats, violations
from oracle.games.mindbug.replay.selfplay import deal_problem, play_game

LATER = [s for s, cs in SETS.items() if cs.later and s != "first-contact"]


def _games(edition, sets, seeds):
    for seed in seeds:
        for _ in play_game(edition, seed, "greedy" if seed % 2 else "random", claims="none", check=True,
                           sets=sets):
            pass


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("sets", [("first-contact",), ("first-contact", "new-servants")])
def test_kept_stats_are_the_rules_own_after_every_step(edition, sets):
    _games(edition, sets, range(12))


@pytest.mark.parametrize("later", LATER)
def test_kept_stats_hold_with_the_later_sets(later):
    sets = (later,) if deal_problem((later,)) is None else ("first-contact", later)
    _games("en-revised", sets, range(8))


def _dealt(edition="en-revised"):
    from oracle.games.mindbug.replay.selfplay import random_deal
    import random

    setup = random_deal(random.Random(3), edition)
    return Game.deal(edition, setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"])


def test_a_kept_power_that_is_no_longer_the_rules_own_is_a_violation():
    g = _dealt()
    while not g.state.play[0] and not g.state.play[1]:
        d = g.legal_decisions()[0]
        g.apply_unchecked(d.kind, d.arg)
    c = (g.state.play[0] or g.state.play[1])[0]
    g.stats()
    assert stale_stats(g) == []
    g._stats[0][c] += 1                     # what a change that forgot to call Game.changed leaves
    found = stale_stats(g)
    assert found and str(c) in found[0]
    assert any("kept powers" in v for v in violations(g))


def test_looking_for_stale_stats_changes_nothing():
    g = _dealt()
    g.stats()
    kept, free = g._stats, g._turn_free
    g._turn_free = not free
    assert stale_stats(g) == []
    assert g._stats is kept and g._turn_free is (not free)


def _position(play0, play1):
    from oracle.games.mindbug.cards import lookup

    names = play0 + play1 + ["Killer Bee"] * 12
    defs = {i: lookup(n) for i, n in enumerate(names, 1)}
    ids = list(defs)
    a, b = ids[:len(play0)], ids[len(play0):len(play0) + len(play1)]
    rest = ids[len(play0) + len(play1):]
    zones = {("play", 0): a, ("play", 1): b, ("hand", 0): rest[:3], ("hand", 1): rest[3:6],
             ("deck", 0): rest[6:9], ("deck", 1): rest[9:12]}
    return Game.position("en-revised", zones, defs), a, b


def test_a_new_turn_forgets_powers_that_read_whose_turn_it_is():
    from oracle.games.mindbug.engine.turns import start_turn

    g, (wolf,), _ = _position(["Goblin Werewolf"], ["Shield Bugs", "Killer Bee"])
    mine = g.power(wolf)
    assert g._turn_free is False
    start_turn(g, 1, False)
    assert g._stats is None                  # forgotten: Goblin Werewolf reads whose turn it is
    assert g.power(wolf) == mine - 6
    assert stale_stats(g) == []


def test_a_new_turn_keeps_powers_no_ability_in_play_reads_it_for():
    from oracle.games.mindbug.engine.turns import start_turn

    g, _, (bugs, bee) = _position(["Killer Bee"], ["Shield Bugs", "Killer Bee"])
    kept = g.stats()
    assert g._turn_free is True
    start_turn(g, 1, False)
    assert g._stats is kept                  # Shield Bugs gives its +1 whoever's turn it is
    assert stale_stats(g) == []
    assert g.power(bee) == g.table.defs[bee].power + 1


def test_the_face_of_a_design_says_whether_its_constant_ability_reads_whose_turn_it_is():
    from oracle.games.mindbug.cards import lookup
    from oracle.games.mindbug.cards.abilities import POWER_LAYER, TURN_FREE
    from oracle.games.mindbug.engine.board import design_face

    assert design_face(lookup("Shield Bugs"))[2][3] is True
    assert design_face(lookup("Goblin Werewolf"))[2][3] is False
    assert design_face(lookup("Killer Bee"))[2] is None              # no constant ability
    # Known by the function, whatever name it is registered under (a declared card borrowing it).
    assert POWER_LAYER["Shield Bugs"] in TURN_FREE and POWER_LAYER["Goblin Werewolf"] not in TURN_FREE
