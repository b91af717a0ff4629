"""New Servants: self-played mixed decks conform in every edition with the
invariants holding; the mechanics the add-on brings, checked directly."""

import io

import msgspec
import pytest
from conftest import run_cli

from oracle.games.mindbug.cards import lookup
from oracle.games.mindbug.engine import Decision
from oracle.games.mindbug.engine import position
from oracle.games.mindbug.engine.state import State
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

MIXED = ("first-contact", "new-servants")
EDITIONS = ("en-first", "fr-first", "fr-revised", "en-revised")
NAMES = ["Count Draculeech", "Hyenix", "Turf the Surfer", "The Lurker", "Gorillion", "Luchataur", "Spider Owl",
         "Bee Bear", "Brain Fly"]
DEFS = {i: lookup(n) for i, n in enumerate(NAMES, 1)}
ID = {d.name: i for i, d in DEFS.items()}


@pytest.mark.parametrize("edition", EDITIONS)
def test_mixed_deck_selfplay_conforms_with_invariants(edition):
    data = b"".join(x + b"\n" for x in selfplay_lines(60, 7, edition, check=True, sets=MIXED))
    reps = [verify_game(r) for r in split_games(io.BytesIO(data), "<t>")]
    assert len(reps) == 60
    assert [r.verdict for r in reps] == ["conforms"] * 60, [r.findings for r in reps if r.findings][:1]
    played = {n for line in data.splitlines() if b'"setup"' in line
              for n in msgspec.json.decode(line)["cards"].values()}
    assert "Hyenix" in played and "Hungry Hungry Hamster" in played


def test_greedy_bot_mixed_deck_conforms():
    data = b"".join(x + b"\n" for x in selfplay_lines(8, 3, "en-revised", "greedy", check=True, sets=MIXED))
    assert all(verify_game(r).verdict == "conforms" for r in split_games(io.BytesIO(data), "<t>"))


def test_cards_command_lists_the_twelve_designs():
    r = run_cli("cards", "--set", "new-servants")
    names = [line.split("  ")[0] for line in r.stdout.decode().splitlines() if not line.startswith(" ")]
    assert r.returncode == 0 and len(names) == 12 and names[0] == "Bugserker" and names[-1] == "Turf the Surfer"


def test_selfplay_sets_option_and_a_bad_set():
    r = run_cli("selfplay", "--games", "2", "--sets", "first-contact,new-servants", "--check-invariants")
    assert r.returncode == 0 and b'"sets":["first-contact","new-servants"]' in r.stdout
    bad = run_cli("selfplay", "--games", "1", "--sets", "first-contact,new-servents")
    assert bad.returncode == 2 and b"did you mean new-servants" in bad.stderr and b"Traceback" not in bad.stderr


def game(p0_play, p1_play, p0_discard=(), active=0):
    zones = {("play", 0): [ID[n] for n in p0_play], ("play", 1): [ID[n] for n in p1_play],
             ("hand", 0): [ID["Bee Bear"]], ("hand", 1): [ID["Brain Fly"]],
             ("discard", 0): [ID[n] for n in p0_discard]}
    return position("en-revised", zones, DEFS, active=active)


def test_a_lasting_mark_survives_a_state_round_trip_and_ends_with_the_turn():
    g = game(["Turf the Surfer"], ["Gorillion", "Luchataur"])
    g.apply(Decision("attack", 0, ID["Turf the Surfer"]))
    g.apply(Decision("choose", 0, (ID["Gorillion"],)))
    assert g.state.lasting == ((ID["Gorillion"], "no-block"),)
    back = State.from_builtins(msgspec.json.decode(msgspec.json.encode(g.state.to_builtins())))
    assert back.lasting == g.state.lasting
    assert ("block", ID["Gorillion"]) not in g.pending.options
    g.apply(Decision("block", 1, None))
    assert g.state.active == 1 and g.state.lasting == ()


def test_hyenix_waits_until_the_defeat_of_count_draculeech_is_chosen():
    g = game(["Count Draculeech"], ["Gorillion"], p0_discard=["Hyenix"])
    g.apply(Decision("attack", 0, ID["Count Draculeech"]))
    assert g.pending.source == ID["Count Draculeech"]
    assert ("choose", (ID["Hyenix"],)) not in g.pending.options
    g.apply(Decision("choose", 0, (ID["Gorillion"],)))
    assert g.pending.source == ID["Hyenix"] and g.pending.player == 0
