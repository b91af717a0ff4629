"""Hand-written logs, as another engine would write them from the replay
format alone (sparse ids, claims by name and partial, forced steps left
out, keys in any order), and the clauses verify cites for planted mistakes:
the turn after a Mindbug, an exhausted TOUGH creature defeated, a third
FRENZY attack."""

from __future__ import annotations

import io
import json

from oracle.replay.reader import split_games
from oracle.games.mindbug.cards import full_set
from oracle.replay.verify import verify_game

HAND_0 = ["Killer Bee", "Spider Owl", "Gorillion", "Tiger Squirrel", "Strange Barrel",
          "Luchataur", "Axolotl Healer", "Shield Bugs", "Bee Bear", "Deathweaver"]
HAND_1 = ["Tusked Extorter", "Ferret Bomber", "Rhino Turtle", "Brain Fly", "Elephantopus",
          "Snail Hydra", "Kangasaurus Rex", "Plated Scorpion", "Harpy Mother", "Giraffodile"]


def _deal():
    """Ids 101, 108, 115...: one per card of First Contact; the draw piles above."""
    names = full_set(["first-contact"])
    cards = {101 + 7 * i: n for i, n in enumerate(names)}
    free = dict(cards)

    def take(name):
        i = next(k for k, v in free.items() if v == name)
        del free[i]
        return i

    decks = [[take(n) for n in HAND_0], [take(n) for n in HAND_1]]
    return cards, decks, list(free)


def _game(edition="en-revised"):
    """A whole game, player 0 wins on turn 7 (every line legal)."""
    cards, decks, unused = _deal()
    ids = {}
    for d in decks:
        for i in d:
            ids.setdefault(cards[i], i)
    i = ids.__getitem__
    lines = [
        {"format": "mb-replay/1", "t": "game", "id": "hand-written", "edition": edition,
         "impl": {"version": "0.1", "name": "by hand"}, "x": {"seed": 7}},
        {"t": "setup", "first": 0, "unused": unused, "decks": decks, "cards": {str(k): v for k, v in cards.items()}},
        {"p": 0, "t": "play", "card": i("Killer Bee")},
        {"t": "state", "played": i("Killer Bee")},
        {"t": "pass", "p": 1},
        {"t": "state", "life": [3, 2], "deck": [4, 5], "active": 1, "turn": 2},
        {"t": "play", "p": 1, "card": i("Ferret Bomber")},
        {"t": "mindbug", "p": 0},
        {"t": "choose", "p": 1, "cards": [i("Snail Hydra"), i("Brain Fly")]},
        {"t": "state", "mindbugs": [1, 2], "discard": [[], ["Brain Fly", "Snail Hydra"]], "active": 1, "turn": 2},
        {"t": "play", "p": 1, "card": i("Rhino Turtle")},
        {"t": "pass", "p": 0},
        {"t": "attack", "p": 0, "card": i("Ferret Bomber")},          # SNEAKY: no block to write
        {"t": "attack", "p": 1, "card": i("Rhino Turtle")},
        {"t": "block", "p": 0, "card": i("Killer Bee")},
        {"t": "attack", "p": 1, "card": i("Rhino Turtle")},           # FRENZY's second attack
        {"t": "block", "p": 0, "card": None},
        {"t": "state", "life": [2, 1]},
        {"t": "play", "p": 0, "card": i("Tiger Squirrel")},
        {"t": "pass", "p": 1},                                        # its one target: no choose written
        {"t": "state", "play": [[{"card": "Ferret Bomber"}, {"card": "Tiger Squirrel"}],
                                [{"card": "Rhino Turtle", "exhausted": True}]]},
        {"t": "play", "p": 1, "card": i("Plated Scorpion")},
        {"t": "mindbug", "p": 0},
        {"t": "attack", "p": 1, "card": i("Rhino Turtle")},
        {"t": "block", "p": 0, "card": i("Plated Scorpion")},
        {"t": "state", "play": [[{"card": i("Ferret Bomber")}, {"card": i("Tiger Squirrel")},
                                 {"card": i("Plated Scorpion"), "exhausted": True}], []], "active": 0, "turn": 7},
        {"t": "attack", "p": 0, "card": i("Ferret Bomber")},
        {"winner": 0, "t": "end", "reason": "life"},
    ]
    return lines, i


def _verify(lines):
    data = ("\n".join(json.dumps(x) for x in lines) + "\n").encode()
    (game,) = list(split_games(io.BytesIO(data), "hand.jsonl"))
    return verify_game(game)


def _first(lines):
    report = _verify(lines)
    assert report.findings, "the planted mistake was not found"
    return report.findings[0]


def _at(lines, pred, k=0):
    return [n for n, x in enumerate(lines) if pred(x)][k]


def test_the_hand_written_game_conforms_with_its_partial_and_named_claims():
    lines, _ = _game()
    report = _verify(lines)
    assert report.findings == []
    assert report.result is not None and report.result["winner"] == 0


def test_a_new_turn_claimed_after_a_mindbug_in_the_revised_english_rules_cites_the_extra_action():
    lines, _ = _game()
    n = _at(lines, lambda x: x.get("t") == "state" and x.get("turn") == 2, 1)
    lines[n]["turn"] = 3                 # the first editions' extra turn
    f = _first(lines)
    assert (f.code, f.line) == ("STATE_MISMATCH", n + 1)
    assert f.clauses[0] == "mindbug.extra-action"


def test_the_same_turn_claimed_after_a_mindbug_in_the_first_editions_cites_the_extra_turn():
    lines, _ = _game("en-first")
    n = _at(lines, lambda x: x.get("t") == "state" and x.get("turn") == 2, 1)
    f = _first(lines)
    assert (f.code, f.line) == ("STATE_MISMATCH", n + 1)
    assert f.clauses[0] == "mindbug.extra-action"


def test_an_exhausted_tough_creature_kept_in_play_after_a_second_defeat_cites_tough():
    lines, _ = _game()
    n = _at(lines, lambda x: x.get("t") == "state" and x.get("turn") == 7)
    lines[n]["play"][1] = [{"card": "Rhino Turtle", "exhausted": True}]
    f = _first(lines)
    assert (f.code, f.line) == ("STATE_MISMATCH", n + 1)
    assert "keywords.tough" in f.clauses
    assert "Rhino Turtle" in f.message


def test_a_third_attack_by_the_frenzy_creature_cites_frenzy_first():
    lines, i = _game()
    n = _at(lines, lambda x: x.get("t") == "block" and x.get("card") is None)
    lines.insert(n + 1, {"t": "attack", "p": 1, "card": i("Rhino Turtle")})
    f = _first(lines)
    assert (f.code, f.line) == ("ILLEGAL_DECISION", n + 2)
    assert f.clauses[0] == "keywords.frenzy"


def test_a_second_attack_by_a_creature_without_frenzy_cites_no_frenzy():
    lines, i = _game()
    n = _at(lines, lambda x: x.get("t") == "attack" and x["p"] == 0)
    lines.insert(n + 1, {"t": "attack", "p": 0, "card": i("Ferret Bomber")})
    f = _first(lines)
    assert f.code == "ILLEGAL_DECISION"
    assert "keywords.frenzy" not in f.clauses


def test_pass_written_for_no_block_says_how_a_block_is_declined():
    lines, _ = _game()
    n = _at(lines, lambda x: x.get("t") == "block" and x.get("card") is None)
    lines[n] = {"t": "pass", "p": 0}
    f = _first(lines)
    assert (f.code, f.line, f.clauses) == ("ILLEGAL_DECISION", n + 1, ["combat.block"])
    assert f.message.endswith("nothing here can be declined with 'pass': a block is declined with 'block null'")


def test_pass_written_for_no_hunter_choice_is_pointed_out_at_the_missing_choice():
    lines, i = _game()
    n = _at(lines, lambda x: x.get("t") == "attack" and x["p"] == 0)
    lines[n:n + 1] = [{"t": "attack", "p": 0, "card": i("Killer Bee")}, {"t": "pass", "p": 0},
                      {"t": "block", "p": 1, "card": None}]
    report = _verify(lines)
    f = report.findings[0]
    assert (f.code, f.line, f.clauses[0]) == ("MISSING_DECISION", n + 3, "keywords.hunter")
    assert "declines a FRENZY second attack, not HUNTER: HUNTER is declined with 'hunt null'" in f.message
    assert any(note.startswith(f"line {n + 2}: 'pass' declines a FRENZY second attack") for note in report.notes)


def _tough_ignored(lines, i, forced_written: bool):
    """The claim after Tiger Squirrel's Play effect puts Rhino Turtle in the
    discard pile (TOUGH ignored); its one target is written or left out."""
    n = _at(lines, lambda x: x.get("t") == "state" and x.get("play", [[], []])[1] == [
        {"card": "Rhino Turtle", "exhausted": True}])
    lines[n] = {"t": "state", "play": [[{"card": "Ferret Bomber"}, {"card": "Tiger Squirrel"}], []],
                "discard": [["Killer Bee"], ["Snail Hydra", "Brain Fly", "Rhino Turtle"]]}
    if forced_written:
        lines.insert(n + 1, {"t": "choose", "p": 0, "cards": [i("Rhino Turtle")]})
    return n


def test_a_claim_after_a_forced_step_the_log_leaves_out_is_read_after_it_when_tied():
    lines, i = _game()
    n = _tough_ignored(lines, i, forced_written=False)
    f = _first(lines)
    assert (f.code, f.line) == ("STATE_MISMATCH", n + 1)
    assert f.clauses[0] == "keywords.tough" and "triggers.play" in f.clauses
    assert any(e.kind == "exhaust" and e.card == i("Rhino Turtle") for e in f.events)


def test_a_claim_before_a_forced_step_the_log_writes_next_is_read_before_it():
    lines, i = _game()
    n = _tough_ignored(lines, i, forced_written=True)
    f = _first(lines)
    assert (f.code, f.line) == ("STATE_MISMATCH", n + 1)
    assert not any(e.kind == "exhaust" for e in f.events)      # Tiger Squirrel's choice is still to come
    assert "keywords.tough" not in f.clauses
