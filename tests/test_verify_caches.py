"""What verify keeps from game to game (the designs of card names, the deck
of each choice of sets, the set checks, the decision lines already decoded)
never changes a report: a game verified in a stream of other games gets the
report it gets alone, whatever came before it."""

from __future__ import annotations

import io

import msgspec

from oracle.games.mindbug.engine import deck
from oracle.games.mindbug.replay import fastlane, verifier
from oracle.replay.limits import MAX_LINE_BYTES
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game


def _forget() -> None:
    """Empty every cache kept across games, as in a fresh process."""
    deck._known.version = -1
    deck._known.fresh()
    fastlane._decisions.clear()
    verifier._checked_sets.cache_clear()


def _games(lines: list[bytes]):
    return list(split_games(io.BytesIO(b"\n".join(lines) + b"\n"), "<test>"))


def _alone(raw) -> bytes:
    _forget()
    return msgspec.json.encode(verify_game(raw))


def _stream_matches_alone(raws) -> list[str]:
    _forget()
    in_stream = [msgspec.json.encode(verify_game(r)) for r in raws]
    assert in_stream == [_alone(r) for r in raws]
    return [msgspec.json.decode(b)["verdict"] for b in in_stream]


def test_games_of_other_editions_sets_and_readings_get_their_own_reports_in_one_stream():
    lines = [
        *selfplay_lines(2, 4, "en-first", "greedy", "every", sets=("first-contact", "new-servants")),
        *selfplay_lines(2, 4, "en-revised", "random", "every"),
        *selfplay_lines(2, 4, "fr-revised", "random", "turn", readings={"effects.hunter-order": "hunter-first"}),
        *selfplay_lines(2, 4, "fr-first", "greedy", "turn", sets=("new-servants",)),
    ]
    raws = _games(lines)
    # The same games once more, under another edition, or naming fewer sets
    # than they deal (a deal the rules refuse).
    swapped = [
        line.replace(b'"edition":"en-revised"', b'"edition":"fr-first"')
        .replace(b'"sets":["first-contact","new-servants"]', b'"sets":["first-contact"]')
        if line.startswith(b'{"t":"game"') else line for line in lines
    ]
    verdicts = _stream_matches_alone(raws + _games(swapped))
    assert verdicts[:8] == ["conforms"] * 8
    assert verdicts[8:10] == ["violates"] * 2
    assert len(verdicts) == 16


def test_a_deal_of_the_wrong_cards_after_right_ones_is_still_refused():
    good = list(selfplay_lines(1, 7, "en-revised", "random", "turn"))
    # One Spider Owl dealt as a third Luchataur: the composition of the set is broken.
    bad = [line.replace(b'"Spider Owl"', b'"Luchataur"', 1) if line.startswith(b'{"t":"setup"') else line
           for line in good]
    # The first game again, its cards written by their French names.
    french = [line.replace(b'"Spider Owl"', b'"Arachnhibou"') if line.startswith(b'{"t":"setup"') else line
              for line in good]
    raws = _games(good + bad + french + bad)
    verdicts = _stream_matches_alone(raws)
    assert verdicts == ["conforms", "violates", "conforms", "violates"]
    report = verify_game(raws[1])
    assert report.findings[0].code == "BAD_SETUP" and report.findings[0].clauses == ["setup.components"]


def test_a_line_cut_for_its_length_is_never_read_as_a_decision_seen_before():
    lines = list(selfplay_lines(1, 7, "en-revised", "random", "turn"))
    at = next(i for i, b in enumerate(lines) if b == b'{"t":"pass","p":1}')
    padded = b'{"t":"pass","p":1}'.ljust(200)     # the start of the over-long line below, exactly
    first = lines[:at] + [padded] + lines[at + 1:]
    second = lines[:at] + [padded + b" " * (MAX_LINE_BYTES + 1)] + lines[at + 1:]
    raws = _games(first + second)
    verdicts = _stream_matches_alone(raws)
    assert verdicts == ["conforms", "malformed"]
    assert verify_game(raws[1]).findings[0].code == "TOO_LARGE"


def test_a_claim_beyond_the_limits_gets_the_full_verifiers_finding():
    from oracle.games.mindbug.replay.fastlane import fast_report
    from oracle.games.mindbug.replay.verifier import Verifier

    lines = list(selfplay_lines(1, 7, "en-revised", "random", "turn"))
    at = next(i for i, b in enumerate(lines) if b.startswith(b'{"t":"state"'))
    deep = b'"x":' + b"[" * 65 + b"]" * 65 + b","
    blank = b" " * MAX_LINE_BYTES     # too long, though every field is the contract's
    for extra, code in ((deep, "TOO_LARGE"), (blank, "TOO_LARGE"), (b'"x":"\xff",', "BAD_JSON")):
        raw = _games(lines)[0]
        # Put in place after reading (the reader cuts an over-long line short).
        n, claim = raw.lines[at]
        raw.lines[at] = (n, claim.replace(b'{"t":"state",', b'{"t":"state",' + extra, 1))
        assert fast_report(raw, None, None, False) is None
        assert Verifier(raw).run().findings[0].code == code
