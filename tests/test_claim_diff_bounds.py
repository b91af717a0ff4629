"""A state claim of a hostile size: comparing it costs time linear in its
size, and its finding lists a bounded number of cards and places, the rest
counted ("and 28 more cards or designs that differ", "and 80 more places")."""

import io
import json
import sys

import msgspec

from oracle.games.mindbug.replay.diff import MAX_DIFF_ENTRIES, MAX_PLACES_SAID
from oracle.replay.reader import split_games
from oracle.replay.report import human_game, json_game
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

HEAD = [json.loads(x) for x in list(selfplay_lines(1, 5, "en-revised", "random", "every"))[:2]]


def log_with(claim: dict) -> bytes:
    """A game's first lines (game, setup) and the state claim `claim`."""
    return b"".join(json.dumps(x).encode() + b"\n" for x in [*HEAD, {"t": "state", **claim}])


def boosted(creatures: int, boosts: int) -> dict:
    """Creatures 0 to `creatures - 1`, each claiming card 3 `boosts` times under it."""
    return {"play": [[{"card": c, "exhausted": False, "boosts": [3] * boosts} for c in range(creatures)], []]}


def verified(data: bytes):
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<test>")]


def lines_run(data: bytes) -> int:
    """How many lines of Python verifying `data` executes (a count, not a time)."""
    n = 0

    def local(frame, event, arg):
        nonlocal n
        if event == "line":
            n += 1
        return local

    sys.settrace(lambda frame, event, arg: local)
    try:
        verified(data)
    finally:
        sys.settrace(None)
    return n


def test_a_claims_comparison_costs_the_same_for_each_card_it_adds():
    # 24 creatures with 25, 100 and 175 boost cards each: each step adds
    # 1,800 references; a comparison linear in the claim's size costs each
    # step as much as the one before, and little per reference (an
    # order-aware deep diff cost thirty times as much per reference, and more
    # with every step).
    small, middle, large = (lines_run(log_with(boosted(24, b))) for b in (25, 100, 175))
    first, second = middle - small, large - middle
    assert second <= 1.1 * first, (small, middle, large)
    assert first / (24 * 75) < 1500, first


def test_a_finding_lists_a_bounded_number_of_cards_and_counts_the_others():
    claim = boosted(48, 400)
    rep = verified(log_with(claim))[0]
    [f] = [f for f in rep.findings if f.code == "STATE_MISMATCH"]
    cards = [e for e in f.diff if e.field is None and e.more is None]
    assert len(cards) == MAX_DIFF_ENTRIES
    [tail] = [e for e in f.diff if e.more is not None]
    # Cards 0 to 47 (0 no card of this game; 3 also listed under each creature).
    assert tail.more == 48 - MAX_DIFF_ENTRIES and f.diff[MAX_DIFF_ENTRIES] is tail
    assert tail.text == f"and {48 - MAX_DIFF_ENTRIES} more cards or designs that differ"
    assert "(and 47 more)" in f.message
    assert f"differs:    and {48 - MAX_DIFF_ENTRIES} more" in human_game(rep)
    # The report holds the claim whole (the finding's `log`) and little more.
    size = len(json.dumps(claim))
    assert len(json_game(rep)) < 1.5 * size + 20_000, (len(json_game(rep)), size)
    assert msgspec.json.decode(json_game(rep))["findings"][0]["diff"][MAX_DIFF_ENTRIES]["more"] == tail.more


def test_an_entry_says_a_bounded_number_of_places_and_counts_the_others():
    # Card 3 a hundred times in a draw pile claimed in order: a hundred places.
    rep = verified(log_with({"deck": [[3] * 100, 5]}))[0]
    [f] = [f for f in rep.findings if f.code == "STATE_MISMATCH"]
    [entry] = [e for e in f.diff if e.card == 3]
    assert len(entry.log) == MAX_PLACES_SAID and entry.left_out == {"log": 100 - MAX_PLACES_SAID}
    said = entry.text.split("; the rules")[0]
    assert said.count("from the top") == MAX_PLACES_SAID
    assert said.endswith(f" and {100 - MAX_PLACES_SAID} more places")


def test_a_card_listed_many_times_in_one_place_is_said_once_with_its_count():
    rep = verified(log_with({"hand": [[3] * 1000, []]}))[0]
    [f] = [f for f in rep.findings if f.code == "STATE_MISMATCH"]
    [entry] = [e for e in f.diff if e.card == 3]
    assert "the log has it in player 0's hand, 1000 times" in entry.text
