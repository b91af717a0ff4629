"""A state claim that lists one card in the same place many times (a boost
card a thousand times under each creature) is one place listed many times:
the diff writes each place out once and the clauses are worked out on each
place once, and both say exactly what they said of the places one by one."""

import io
import json

from hypothesis import given, settings, strategies as st

from oracle.games.mindbug.replay.claims import _sorted_entries
from oracle.games.mindbug.replay.places import distinct_places, sorted_places
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.reader import split_games
from oracle.replay.report import json_game
from oracle.replay.verify import verify_game

_PLACE = st.fixed_dictionaries({"zone": st.sampled_from(["hand", "play", "boost"]), "player": st.integers(0, 1)},
                               optional={"under": st.integers(1, 3), "power": st.integers(-2, 9)})


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLACE, min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), st.integers(1, 40)), max_size=30))
def test_places_sort_as_their_texts_the_same_objects_in_the_same_order(kinds, picks):
    # Each pair a place and the times the log lists it there in a row; the same place may come back later.
    pairs = [(kinds[i % len(kinds)], times) for i, times in picks]
    places = [place for place, times in pairs for _ in range(times)]
    listed = sorted_places(pairs)
    assert [id(p) for p in listed] == [id(p) for p in sorted(places, key=repr)]
    assert [id(p) for p in distinct_places(listed)] == [id(p) for p in {id(p): p for p in listed}.values()]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLACE, min_size=1, max_size=4), st.lists(st.integers(0, 3), max_size=30))
def test_distinct_places_keeps_every_place_once_in_the_order_each_first_comes(kinds, picks):
    places = [kinds[i % len(kinds)] for i in picks]
    once = distinct_places(places)
    assert {id(p) for p in once} == {id(p) for p in places}
    firsts = list({id(p): p for p in places}.values())
    assert [id(p) for p in once] == [id(p) for p in firsts]


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


def test_a_place_listed_a_thousand_times_keeps_each_place_once_beside_the_list():
    under = [{"zone": "boost", "player": 0, "under": c} for c in (3, 1, 2)]
    listed = sorted_places([(pl, 1000) for pl in under])
    assert len(listed) == 3000 and listed[:1000] == [under[1]] * 1000
    # What is worked out of the places is worked out of the three, not of the 3,000.
    assert distinct_places(listed) == [under[1], under[2], under[0]]
    assert distinct_places(listed) is distinct_places(listed)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.booleans(),
                          st.none() | st.lists(st.integers(1, 3) | st.sampled_from(["Sea-Rex", "Bee"]),
                                               max_size=6).map(tuple)), max_size=12))
def test_play_entries_sort_as_the_texts_of_their_parts(entries):
    # A creature's boost cards are written once for every creature that lists the same ones.
    rows = [(c, ex, None, None, None, None, boosts) for c, ex, boosts in entries]
    assert [id(e) for e in _sorted_entries(rows)] == \
        [id(e) for e in sorted(rows, key=lambda e: tuple(str(x) for x in e))]
