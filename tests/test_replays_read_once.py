"""A game that breaks the rules is verified again under each other reading
(basis.classify): its replays read each of its lines once between them
(verifier.ReadLines), and say exactly what they said reading each line
themselves."""

import io
import json
import random

import pytest

from oracle.games.mindbug.replay import verifier
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.reader import split_games
from oracle.replay.report import json_game
from oracle.replay.verify import verify_game


def _broken_games(n: int, seed: int) -> list:
    """Self-played games, each with a claim broken (a life added) part way through."""
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        lines = [json.loads(x) for x in selfplay_lines(1, seed + k, "en-revised", "random", "turn")]
        states = [i for i, x in enumerate(lines) if x["t"] == "state"]
        at = states[rnd.randrange(len(states))]
        lines[at]["life"][0] += 1
        if k % 2:
            lines[at]["vendor"] = {"note": "an unknown field"}        # said as a note in every run
        data = b"".join(json.dumps(x, separators=(",", ":")).encode() + b"\n" for x in lines)
        out.extend(split_games(io.BytesIO(data), "<t>"))
    return out


@pytest.mark.parametrize("keep_going", [False, True])
def test_the_replays_of_a_game_read_each_line_once(monkeypatch, keep_going):
    read: list[int] = []
    once = verifier._read_line_once

    def counted(raw_line):
        read.append(raw_line)
        return once(raw_line)

    monkeypatch.setattr(verifier, "_read_line_once", counted)
    for raw in _broken_games(4, 31):
        read.clear()
        rep = verify_game(raw, keep_going=keep_going)
        assert rep.verdict == "violates"
        team = len(raw.lines)       # the first run reads each line itself, the replays share theirs
        assert len(read) <= 2 * team, (len(read), team)


@pytest.mark.parametrize("keep_going", [False, True])
def test_replays_that_share_their_lines_say_what_they_said_alone(monkeypatch, keep_going):
    games = _broken_games(6, 47)
    shared = [json_game(verify_game(raw, keep_going=keep_going)) for raw in games]
    monkeypatch.setattr(verifier.ReadLines, "ROOM", 0)         # nothing kept: each replay reads every line
    alone = [json_game(verify_game(raw, keep_going=keep_going)) for raw in games]
    assert shared == alone
    assert any(b"an unknown field" in r or b"vendor" in r for r in shared)
