"""The promos: self-played games with them conform with the invariants; the
effect kinds they bring, checked on positions, including the one card no
set deals (Ivybug, built here with make_def)."""

import io

import msgspec
import pytest

from oracle.games.mindbug.cards import TOUGH, lookup, make_def
from oracle.games.mindbug.engine import Decision, position
from oracle.games.mindbug.engine.state import State
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import play_game, selfplay_lines
from oracle.replay.verify import verify_game

PROMO_SETS = ("first-contact", "promo-2022", "promo-later")
IVYBUG = make_def("Ivybug", "Ivybug", 5, 0, 1, None, "You may use your life as Mindbugs (unconfirmed).",
                  "promo-later")


def defs(*names):
    return {i: (IVYBUG if n == "Ivybug" else lookup(n)) for i, n in enumerate(names, 1)}


def game(names, zones, **kw):
    d = defs(*names)
    ids = {x.name: i for i, x in d.items()}
    z = {k: [ids[n] for n in v] for k, v in zones.items()}
    return position("en-revised", z, d, **kw), ids


def test_selfplay_with_the_promos_conforms_with_invariants():
    data = b"".join(x + b"\n" for x in selfplay_lines(60, 5, "en-revised", check=True, sets=PROMO_SETS))
    reps = [verify_game(r) for r in split_games(io.BytesIO(data), "<t>")]
    assert [r.verdict for r in reps] == ["conforms"] * 60, [r.findings for r in reps if r.findings][:1]
    assert b'"reason":"card"' in data                      # some game ended by a card's text


def test_a_card_ending_claimed_as_a_life_ending_is_wrong():
    for seed in range(1, 200):
        lines = list(play_game("en-revised", seed, "random", "g", "turn", sets=PROMO_SETS))
        if lines[-1].get("reason") == "card":
            break
    else:
        pytest.fail("no self-played game ended by a card's text")
    lines[-1]["reason"] = "life"
    data = b"".join(msgspec.json.encode(x) + b"\n" for x in lines)
    rep = verify_game(next(iter(split_games(io.BytesIO(data), "<t>"))))
    assert rep.verdict == "violates"
    assert "promo.win-lose" in rep.findings[0].clauses


def test_ivybug_pays_life_for_a_mindbug_when_none_is_left():
    g, id_ = game(["Gorillion", "Bee Bear", "Ivybug", "Brain Fly"],
                  {("hand", 0): ["Gorillion", "Bee Bear"], ("play", 1): ["Ivybug"], ("hand", 1): ["Brain Fly"]},
                  mindbugs=(2, 0))
    g.apply(Decision("play", 0, id_["Gorillion"]))
    assert ("mindbug", None) in g.pending.options
    events = g.apply(Decision("mindbug", 1))
    assert g.state.life[1] == 2 and g.state.mindbugs[1] == 0 and id_["Gorillion"] in g.state.play[1]
    assert any(e.kind == "lose-life" and "promo.life-as-mindbugs" in e.clauses for e in events)


def test_ivybug_spends_mindbugs_first_and_without_it_none_left_means_pass():
    g, id_ = game(["Gorillion", "Bee Bear", "Ivybug", "Brain Fly"],
                  {("hand", 0): ["Gorillion", "Bee Bear"], ("play", 1): ["Ivybug"], ("hand", 1): ["Brain Fly"]},
                  mindbugs=(2, 1))
    g.apply(Decision("play", 0, id_["Gorillion"]))
    g.apply(Decision("mindbug", 1))
    assert g.state.life[1] == 3 and g.state.mindbugs[1] == 0
    g2, id2 = game(["Gorillion", "Bee Bear", "Brain Fly"],
                   {("hand", 0): ["Gorillion", "Bee Bear"], ("hand", 1): ["Brain Fly"]}, mindbugs=(2, 0))
    g2.apply(Decision("play", 0, id2["Gorillion"]))
    assert g2.pending.options == [("pass", None)]


def test_knightmare_keeps_the_life_mindbug_bug_would_take():
    g, id_ = game(["Mindbug Bug", "Gorillion", "Bee Bear", "Knightmare", "Brain Fly"],
                  {("play", 0): ["Mindbug Bug"], ("hand", 0): ["Gorillion", "Bee Bear"],
                   ("play", 1): ["Knightmare"], ("hand", 1): ["Brain Fly"]}, life=(3, 1))
    g.apply(Decision("play", 0, id_["Gorillion"]))
    events = g.apply(Decision("mindbug", 1))
    assert not g.is_over and g.state.life[1] == 1 and id_["Gorillion"] in g.state.play[1]
    assert any(e.kind == "no-life-loss" and "promo.cannot-lose-life" in e.clauses for e in events)


def test_alien_brain_stops_a_steal_and_the_cards_stay():
    g, id_ = game(["Strange Barrel", "Gorillion", "Bee Bear", "Alien Brain", "Brain Fly", "Luchataur"],
                  {("play", 0): ["Gorillion"], ("hand", 0): ["Bee Bear"],
                   ("play", 1): ["Strange Barrel", "Alien Brain"], ("hand", 1): ["Brain Fly"]}, active=0)
    # Strange Barrel (player 1's) is defeated: player 1 would steal two of player 0's cards, but Alien Brain
    # is player 1's own creature, so it is player 0's hand that is closed; player 1 steals as usual.
    g.apply(Decision("attack", 0, id_["Gorillion"]))
    g.apply(Decision("block", 1, id_["Strange Barrel"]))
    assert g.pending.stage == "random"
    g.apply(Decision("random", None, (id_["Bee Bear"],)))
    assert id_["Bee Bear"] in g.state.hand[1]
    g2, i2 = game(["Strange Barrel", "Gorillion", "Bee Bear", "Alien Brain", "Brain Fly"],
                  {("play", 0): ["Gorillion", "Alien Brain"], ("hand", 0): ["Bee Bear"],
                   ("play", 1): ["Strange Barrel"], ("hand", 1): ["Brain Fly"]})
    g2.apply(Decision("attack", 0, i2["Gorillion"]))
    g2.apply(Decision("block", 1, i2["Strange Barrel"]))
    g2.apply(Decision("random", None, (i2["Bee Bear"],)))
    assert g2.state.hand[0] == [i2["Bee Bear"]] and g2.state.hand[1] == [i2["Brain Fly"]]


def test_set_aside_and_side_markers_round_trip_and_every_card_is_in_one_place():
    g, id_ = game(["Alpacoodle", "Bee Bear", "Gorillion", "Sluggernaut", "Luchataur", "Brain Fly"],
                  {("hand", 0): ["Alpacoodle", "Bee Bear"], ("play", 0): ["Gorillion"],
                   ("play", 1): ["Sluggernaut", "Luchataur"], ("hand", 1): ["Brain Fly"]})
    g.state.sides = ((id_["Sluggernaut"], 8),)
    g.apply(Decision("play", 0, id_["Alpacoodle"]))
    g.apply(Decision("pass", 1))
    s = g.state
    assert s.held and not s.sides                         # Sluggernaut left play: its side is forgotten
    back = State.from_builtins(msgspec.json.decode(msgspec.json.encode(s.to_builtins())))
    assert back.to_builtins() == s.to_builtins()
    placed = [c for _z, _p, cards in s.zones() for c in cards]
    assert sorted(placed) == sorted(g.table.defs)


def test_sluggernaut_power_follows_its_side():
    g, id_ = game(["Sluggernaut", "Bee Bear", "Brain Fly"],
                  {("play", 0): ["Sluggernaut"], ("hand", 0): ["Bee Bear"], ("hand", 1): ["Brain Fly"]})
    assert g.power(id_["Sluggernaut"]) == 6 and g.keywords(id_["Sluggernaut"]) == TOUGH
    g.state.sides = ((id_["Sluggernaut"], 5),)
    g.changed()
    assert g.power(id_["Sluggernaut"]) == 5


def test_every_promo_design_with_an_ability_is_played_by_a_ruling():
    import yaml

    from conftest import ROOT
    from oracle.games.mindbug.cards import promo_2022, promo_2023, promo_later

    named = set()
    with open(ROOT / "scenarios" / "promos.yaml", encoding="utf-8") as f:
        for doc in yaml.safe_load_all(f):
            named |= set(doc.get("cards", ()))
    missing = []
    for mod in (promo_2022, promo_2023, promo_later):
        line_of = {face: stage_one for stage_one, faces in mod.LINES.items() for face in faces}
        for row in mod.DESIGNS + mod.FACES:
            name, text = row[0], row[-1]
            if text and line_of.get(name, name) not in named:
                missing.append(name)
    assert not missing, f"promo designs no ruling plays: {missing}"
