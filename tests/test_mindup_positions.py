"""Positions of Mind Up! (a scenario's `given`, serve's `new` with a
`position`, the position conform sends an adapter when it cuts a game
short): a position carries all an engine needs to go on under any reading,
and one the cards cannot settle is read the same whoever sits first."""

from __future__ import annotations

import io
import json
import random

import pytest

from oracle.games.mindup.engine import Game, RuleError
from oracle.games.mindup.harness.lockstep import position_of
from oracle.games.mindup.harness.play import game_from_position
from oracle.harness.serve import serve

RETIRED = {"mu.objectives.letters-later": "letter-retired"}


def _session(*requests) -> list[dict]:
    out = io.BytesIO()
    serve(io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def _game(readings=None, seed=3) -> Game:
    """Round 2 of a 3-player game showing one objective a round (objective
    1, letter A, in round 1; objective 3, letter B, in round 2), two turns in."""
    rng = random.Random(seed)
    deck = list(range(1, 61))
    rng.shuffle(deck)
    g = Game.deal(3, [deck[7 * p:7 * p + 7] for p in range(3)], deck[21:24], deck[24:], 1, readings)
    g.start_round([2, 4, 1, 5, 3], objectives=[1])
    while g.pending.kind == "choose":
        g.play_turn([h[0] for h in g.state.hands])
    g.start_round([5, 4, 3, 2, 1], objectives=[3])
    for _ in range(2):
        g.play_turn([h[-1] for h in g.state.hands])
    return g


def _to_round_end(g: Game) -> None:
    while g.pending.kind == "choose":
        g.play_turn([h[0] for h in g.state.hands])


def _refusal(g: Game, objectives) -> tuple | None:
    try:
        g.copy().start_round([1, 2, 3, 4, 5], objectives=objectives)
    except RuleError as e:
        return e.code, e.clause
    return None


@pytest.mark.parametrize("readings,objective,clause", [
    (None, [1], "mu.objectives.renew"),                         # a discarded objective does not come back
    (RETIRED, [2], "mu.objectives.letters-later"),              # nor, under letter-retired, its letter
])
def test_a_position_carries_the_objectives_discarded_before(readings, objective, clause):
    g = _game(readings)
    pos = position_of(g)
    assert pos["objectives"] == [3] and pos["shown_before"] == [1]
    from_pos = game_from_position(json.loads(json.dumps(pos)), readings)
    _to_round_end(g)
    _to_round_end(from_pos)
    assert _refusal(g, objective) == ("ILLEGAL_RANDOM", clause)
    assert _refusal(from_pos, objective) == ("ILLEGAL_RANDOM", clause)
    assert _refusal(from_pos, [11]) is None


def test_serve_starts_a_position_with_the_objectives_shown_before():
    """`new` with a position's `shown_before`: the service refuses a round
    that brings back a retired letter, as the game it came from would."""
    pos = position_of(_game(RETIRED))
    turns = len(pos["hands"][0]) - 1
    requests = [{"op": "new", "game": "mind-up", "readings": RETIRED, "position": pos}]
    requests += [{"op": "apply", "game": "g1", "decision": {"t": "turn", "cards": [h[k] for h in pos["hands"]]}}
                 for k in range(turns)]
    requests.append({"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 2, 3, 4, 5],
                                                                "objectives": [2]}})
    replies = _session(*requests)
    assert replies[0]["ok"], replies[0]
    assert replies[-2]["pending"]["kind"] == "round"
    refusal = replies[-1]["refusal"]
    assert (refusal["code"], refusal["clause"]) == ("ILLEGAL_RANDOM", "mu.objectives.letters-later")


@pytest.mark.parametrize("holder", [0, 1, 2])
def test_the_turns_of_a_position_are_read_the_same_whoever_holds_the_won_cards(holder):
    """A ruling may give some players fewer Score cards: the turns revealed
    are the most any player has won this round, not player A's count."""
    columns = [[] for _ in range(3)]
    columns[holder] = [[8], [6]]
    pos = {"round": 1, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37],
           "columns": columns}
    g = game_from_position(pos)
    assert g.state.turn == 2
    state = _session({"op": "new", "game": "mind-up", "position": pos}, {"op": "state", "game": "g1"})[1]["state"]
    assert state["turn"] == 2
    g.play_turn([1, 60, 3])
    assert g.state.turn == 3


def test_a_claim_with_fewer_than_five_score_cards_says_all_five_are_listed(tmp_path):
    """spec/mind-up/replay-format.md: `columns` gives every player's five
    Score cards; a claim that leaves out the empty ones is malformed, and the
    error names the field and what it must hold."""
    from oracle.games.mindup.replay.verifier import verify_game
    from oracle.replay.reader import split_games

    deck = [6, 38, 22, 14, 40, 26, 52, 1, 20, 8, 47, 55, 44, 35, 31, 29, 7, 27, 3, 25, 19, 17, 48, 16, 46, 9, 24, 13,
            57, 36, 11, 59, 39, 18, 23, 51, 5, 50, 45, 42, 2, 32, 15, 58, 41, 4, 49, 28, 10, 37, 30, 56, 53, 54, 33,
            12, 60, 21, 43, 34]
    lines = [{"t": "game", "game": "mind-up", "format": "mu-replay/1", "id": "short", "players": 3},
             {"t": "setup", "deck": deck}, {"t": "round", "round": 1, "order": [2, 4, 3, 5, 1]},
             {"t": "turn", "cards": [6, 1, 19]},
             {"t": "state", "columns": [[[17], [], [], [], []], [[16]], [[48], [], [], [], []]]}]
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    (raw,) = split_games(io.BytesIO(data), "short.jsonl")
    f = verify_game(raw).findings[0]
    assert f.code == "BAD_LINE" and f.line == 5
    assert f.message.startswith("field columns[1]: player B's Score cards: `columns` lists all five"), f.message


def test_an_adapter_whose_claim_leaves_out_empty_score_cards_is_told_all_five_are_listed(tmp_path):
    import sys
    from pathlib import Path

    from oracle.games.mindup.harness.conform import campaign
    from oracle.harness.conform import Settings

    adapter = Path(__file__).resolve().parents[1] / "examples" / "mindup_engine_adapter.py"
    script = tmp_path / "short_columns.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(adapter.parent)!r})\n"
        "import mindup_engine_adapter as a\n"
        "full = a.state_claim\n"
        "def short(g):\n"
        "    claim = full(g)\n"
        "    claim['columns'] = [[c for c in cols if c] for cols in claim['columns']]\n"
        "    return claim\n"
        "a.state_claim = short\n"
        "a.main([])\n")
    camp = campaign(f"{sys.executable} {script}", Settings(budget=1, seed=1, out=None, shrink=False), (3,))
    try:
        (rep,) = camp.run()
    finally:
        camp.engine.stop()
    f = rep.findings[0]
    assert f.code == "ENGINE_FAULT"
    assert "player A's Score cards: `columns` lists all five" in f.message and "$.state.columns[0]" in f.message, \
        f.message


@pytest.mark.parametrize("change,clause", [
    ({"hands": [[], [], []]}, "mu.round.last-card"),
    ({"shown_before": [1]}, "mu.objectives.renew"),                                    # no variant
    ({"objectives": [1], "shown_before": [1]}, "mu.objectives.renew"),                 # shown again
    ({"objectives": [1, 3, 5], "shown_before": [7]}, "mu.objectives.renew"),           # three stay all game
    ({"round": 1, "scores": [], "objectives": [3], "shown_before": [1]}, "mu.objectives.renew"),
    ({"objectives": [2], "shown_before": [1], "readings": RETIRED}, "mu.objectives.letters-later"),
])
def test_a_position_no_game_reaches_is_refused_with_its_clause(change, clause):
    pos = {"round": 2, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37],
           "scores": [[1, 2, 3]]}
    pos.update(change)
    readings = pos.pop("readings", {})
    (reply,) = _session({"op": "new", "game": "mind-up", "readings": readings, "position": pos})
    assert reply["error"]["code"] == "BAD_SETUP" and reply["error"]["clause"] == clause, reply
    assert reply["error"]["field"] == "$.position"


def test_a_position_showing_the_sister_of_an_earlier_objective_stands_under_the_team_reading():
    pos = {"round": 2, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37],
           "scores": [[1, 2, 3]], "objectives": [2], "shown_before": [1]}
    (reply,) = _session({"op": "new", "game": "mind-up", "position": pos})
    assert reply["ok"] and reply["pending"]["kind"] == "choose"


def _keep_going_findings(lines: list[dict]) -> list[tuple]:
    from oracle.replay.verify import verify_game
    from oracle.replay.reader import split_games

    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    (raw,) = split_games(io.BytesIO(data), "kept.jsonl")
    return [(f.code, f.line) for f in verify_game(raw, keep_going=True).findings]


@pytest.mark.parametrize("turn_no", [2, 6, 8])
def test_after_a_refused_turn_a_full_claim_without_turn_is_taken_with_its_turns(turn_no):
    """--keep-going: after a refused turn the next full claim is the state
    to go on from; written without `turn`, the turns are read from its
    Score cards (one won card a turn, the last card after a round's end),
    so the later claims that count turns are not one off."""
    from oracle.games.mindup.replay.selfplay import selfplay_lines

    lines = [json.loads(x) for x in selfplay_lines(1, 2, 3)]
    turns = [i for i, x in enumerate(lines) if x["t"] == "turn"]
    at = turns[turn_no - 1]                     # 6: round 1's last turn; 8: round 2's second
    other = lines[at]["cards"][1]
    lines[at]["cards"][0] = other               # player A plays player B's card
    claim = next(i for i in range(at + 1, len(lines)) if lines[i]["t"] == "state")
    lines.insert(claim + 1, dict(lines[claim]))         # the same claim again, with its turns
    del lines[claim]["turn"]
    assert "turn" in lines[claim + 1]
    assert _keep_going_findings(lines) == [("ILLEGAL_DECISION", at + 1)]


def test_after_a_refused_round_a_full_claim_brings_the_pile_and_the_objectives_along():
    """--keep-going: a round line refused (an order that is not the five
    values) leaves the round unstarted; the next full claim is taken as the
    state, with the cards drawn since gone from the pile and the objectives
    the log's round line shows, so nothing after it is reported again."""
    from oracle.games.mindup.replay.selfplay import selfplay_lines

    lines = [json.loads(x) for x in selfplay_lines(1, 2, 3, "random", 2)]
    at = [i for i, x in enumerate(lines) if x["t"] == "round"][1]
    assert lines[at]["objectives"] and lines[at]["draws"]
    lines[at]["order"] = [1, 1, 1, 1, 1]
    assert _keep_going_findings(lines) == [("ILLEGAL_RANDOM", at + 1)]


@pytest.mark.parametrize("players,objectives,readings", [
    (3, 2, {}), (6, 1, {}), (4, 3, {}),
    (5, 2, {"mu.objectives.letters-later": "letter-retired", "mu.round.order-repeat": "must-differ"}),
])
def test_a_game_set_up_from_its_position_at_any_turn_goes_on_as_the_game(players, objectives, readings):
    """At every turn start of a seeded game, the position conform would send
    an adapter (through JSON) starts a game whose every later step, refusals
    of the chance included, and result are the game's own."""
    import msgspec

    from oracle.games.mindup.harness import play
    from oracle.games.mindup.harness import protocol as pr
    from oracle.games.mindup.harness.conform import _next_step

    rng = random.Random(players * 10 + objectives)
    g = play.game_from_deal(players, play.seeded_deal(players, players), objectives, readings)
    pile = list(range(1, 15))
    rng.shuffle(pile)
    steps, starts = [], []
    while not g.is_over:
        starts.append(g.copy())
        step = _next_step(g, "random", rng, pile)
        play.apply_step(g, pr.step_decoder.decode(msgspec.json.encode(step)))
        steps.append(step)
    tried = 0
    for k, start in enumerate(starts):
        if start.pending.kind != "choose":
            continue
        a, b = start.copy(), game_from_position(json.loads(json.dumps(position_of(start))), readings)
        assert play.state_claim(a) == play.state_claim(b), k
        for step in steps[k:]:
            if step["t"] == "round" and objectives < 3:         # the objectives already shown, again
                again = a.state.shown[:objectives]
                assert _refusal(a, again) == _refusal(b, again) == ("ILLEGAL_RANDOM", "mu.objectives.renew")
            line = pr.step_decoder.decode(msgspec.json.encode(step))
            play.apply_step(a, line)
            play.apply_step(b, line)
            assert play.state_claim(a) == play.state_claim(b), (k, step)
        assert (a.totals(), a.winners()) == (b.totals(), b.winners())
        tried += 1
    assert tried == 21                  # 6, 7 and 8 turns in the three rounds


def test_a_round_after_a_position_with_unequal_score_cards_is_refused():
    """A ruling may give the players unequal Score cards for one round; the
    next round would deal them hands of different sizes, which no game has:
    its start is refused [mu.round.take-back] instead of a player later
    playing a last card as a turn. perft counts no turn past it."""
    from oracle.games.mindup.harness import perft as pf

    pos = {"round": 1, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37],
           "columns": [[[8], [6]], [[30]], [[31]]]}
    replies = _session({"op": "new", "game": "mind-up", "position": pos},
                       {"op": "apply", "game": "g1", "decision": {"t": "turn", "cards": [1, 60, 3]}},
                       {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 2, 3, 4, 5]}})
    assert replies[1]["applied"] and replies[1]["pending"]["kind"] == "round"
    refusal = replies[2]["refusal"]
    assert (refusal["code"], refusal["clause"]) == ("ILLEGAL_RANDOM", "mu.round.take-back")
    assert "player A 4, player B 3, player C 3" in refusal["message"]
    g = game_from_position(pos)
    assert pf.count(g, 1, pf.orders(1)) == 8 and pf.count(g, 2, pf.orders(1)) == 0
