"""Mind Up! with and without --keep-going: a round line showing an id that
is no objective is refused alike (mu.objectives.cards), and a game the
implementation aborted is counted alike, wherever verification stopped."""

from __future__ import annotations

import io
import json

import pytest

from oracle.games.mindup.replay.selfplay import play_game
from oracle.replay.outcome import Tally
from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game


def verify(lines: list[dict], keep_going: bool):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    (rep,) = [verify_game(r, keep_going=keep_going) for r in split_games(io.BytesIO(data), "<test>")]
    return rep


def game(objectives=2, seed=1) -> list[dict]:
    return list(play_game(4, seed, game_id=f"kg-{objectives}-{seed}", objectives=objectives))


@pytest.mark.parametrize("value", [0, -1, 15, 60, 99, 2**63])
@pytest.mark.parametrize("nth", [0, 1])
def test_an_objective_out_of_range_on_a_round_line_is_refused_alike_in_both_modes(value, nth):
    lines = game()
    i = [k for k, x in enumerate(lines) if x["t"] == "round"][nth]
    lines[i]["objectives"][0] = value
    for keep_going in (False, True):
        rep = verify(lines, keep_going)
        f = rep.findings[0]
        assert (rep.verdict, f.code, f.clauses, f.line) == ("violates", "ILLEGAL_RANDOM", ["mu.objectives.cards"],
                                                             i + 1), (keep_going, f.message)
        assert all(x.code != "INTERNAL_ERROR" for x in rep.findings)


def test_a_full_claim_showing_an_id_that_is_no_objective_is_not_taken_as_a_position():
    lines = game()
    i = [k for k, x in enumerate(lines) if x["t"] == "round"][0]
    lines[i]["objectives"][0] = 99
    for x in lines[i + 1:]:
        if x["t"] == "state":
            x["objectives"] = [99, 3]
    rep = verify(lines, keep_going=True)
    assert [f.code for f in rep.findings] == ["ILLEGAL_RANDOM"]


def test_an_aborted_game_is_counted_alike_with_and_without_keep_going():
    lines = game()
    turn = [k for k, x in enumerate(lines) if x["t"] == "turn"][2]
    lines[turn]["cards"].reverse()                  # a card not in its player's hand
    lines[-1] = {"t": "end", "reason": "aborted", "detail": "stopped by the test"}
    seen = []
    for keep_going in (False, True):
        rep = verify(lines, keep_going)
        assert rep.verdict == "violates" and rep.findings[0].line == turn + 1
        tally = Tally()
        tally.add(rep)
        seen.append((rep.aborted, tally.aborted))
    assert seen == [(True, 1), (True, 1)]
