"""The target `big-claims`: real games with one state claim of a hostile
size (an id repeated, many ids, boost cards, names, a draw pile in order).
Every game gets its verdict, a finding lists at most MAX_DIFF_ENTRIES
cards, and the report stays of a size bounded by the claim's."""

from __future__ import annotations

import io
import json

from hypothesis import strategies as st

from ....fuzz.cli_checks import cli_stream


_SHAPES = ("an id repeated", "many ids", "boost cards", "names", "a draw pile in order")


@st.composite
def big_claim(draw, games: tuple) -> bytes:
    """A real game with one state claim made of a hostile size."""
    game = list(draw(st.sampled_from(games)))
    states = [k for k, x in enumerate(game) if x.startswith(b'{"t":"state"')] or [len(game) - 1]
    k = draw(st.sampled_from(states))
    n = draw(st.sampled_from((30, 300, 1000)))
    card = draw(st.integers(0, 60))
    shape = draw(st.sampled_from(_SHAPES))
    claim: dict = {"t": "state"}
    if shape == "an id repeated":
        claim["hand"] = [[card] * n, []]
    elif shape == "many ids":
        claim["discard"] = [list(range(n)), list(range(n, 2 * n))[:1000]]
    elif shape == "boost cards":
        claim["play"] = [[{"card": c, "exhausted": False, "boosts": [card] * n} for c in range(48)], []]
    elif shape == "names":
        claim["play"] = [[{"card": "Sea-Rex", "exhausted": draw(st.booleans())}] * n, []]
    else:
        claim["deck"] = [[card] * n, 5]
    game[k:k + 1] = [json.dumps(claim, separators=(",", ":")).encode()]
    return b"".join(x + b"\n" for x in game)


def check_big_claim(tally, data: bytes) -> None:
    """Every game gets its verdict; a claim's finding lists at most
    MAX_DIFF_ENTRIES cards and designs, and the report is of a size bounded
    by the claim's. (That it is judged in time is the run's time limit.)"""
    from ....replay import report as render
    from ....replay.reader import split_games
    from ....replay.verify import verify_game
    from ..replay.diff import MAX_DIFF_ENTRIES

    longest = max(len(x) for x in data.split(b"\n"))
    raws = list(split_games(io.BytesIO(data), "<fuzz>"))
    tally.games_in += len(raws)
    for raw in raws:
        rep = verify_game(raw)
        tally.verdicts_out += 1
        for f in rep.findings:
            cards = [e for e in f.diff or () if e.field is None and e.more is None]
            assert len(cards) <= MAX_DIFF_ENTRIES, f"big-claims: a finding lists {len(cards)} cards"
        size = len(render.json_game(rep))
        assert size <= 3 * longest + 200_000, f"big-claims: a report of {size} bytes for lines of {longest}"


def cli_big_claim(tally, data: bytes, seconds: float) -> None:
    cli_stream(tally, data, data, seconds, keep_going=True)
