"""A state claim that lists one card in the same place many times (a boost
card a thousand times under each creature) is one place listed many times:
the diff writes each place out once and the clauses are worked out on each
place once, and both say exactly what they said of the places one by one."""

import io
import json

from hypothesis import given, settings, strategies as st

from oracle.games.mindbug.replay.attribution import _once
from oracle.games.mindbug.replay.diff import _sorted_places
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.reader import split_games
from oracle.replay.report import json_game
from oracle.replay.verify import verify_game

_PLACE = st.fixed_dictionaries({"zone": st.sampled_from(["hand", "play", "boost"]), "player": st.integers(0, 1)},
                               optional={"under": st.integers(1, 3), "power": st.integers(-2, 9)})


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLACE, min_size=1, max_size=4), st.lists(st.integers(0, 3), max_size=30))
def test_places_sort_as_their_texts_the_same_objects_in_the_same_order(kinds, picks):
    places = [kinds[i % len(kinds)] for i in picks]        # some places listed several times
    assert [id(p) for p in _sorted_places(places)] == [id(p) for p in sorted(places, key=repr)]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLACE, min_size=1, max_size=4), st.lists(st.integers(0, 3), max_size=30))
def test_each_place_once_keeps_every_place_and_only_those(kinds, picks):
    places = [kinds[i % len(kinds)] for i in picks]
    once = _once(places)
    assert {id(p) for p in once} == {id(p) for p in places}
    assert len(once) == len({id(p) for p in places}) or len(places) <= 2


def _boosted_claim_game(times: int) -> bytes:
    """A self-played game whose last state claim puts card 1, `times` times, under each creature
    of player 0 (the shape of fuzz's big-claims target)."""
    lines = [json.loads(x) for x in selfplay_lines(1, 3, "en-revised", "random", "turn")]
    k = max(i for i, x in enumerate(lines) if x["t"] == "state" and x["play"][0])
    lines[k]["play"][0] = [{**c, "boosts": [1] * times} for c in lines[k]["play"][0]]
    return b"".join(json.dumps(x, separators=(",", ":")).encode() + b"\n" for x in lines)


def test_a_card_listed_many_times_is_reported_as_one_place_listed_that_many_times():
    raw, = split_games(io.BytesIO(_boosted_claim_game(300)), "<t>")
    rep = verify_game(raw)
    f, = [f for f in rep.findings if f.code == "STATE_MISMATCH"]
    entry, = [e for e in f.diff if e.card == 1]
    assert len(entry.log) == 20 and sum(entry.left_out.values()) > 0        # MAX_PLACES_SAID listed, the rest counted
    assert f"and {entry.left_out['log']:,} more places" in entry.text
    assert "later.boost" in f.clauses
    assert json_game(rep) == json_game(verify_game(raw))                    # the same bytes each time
