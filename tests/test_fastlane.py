"""The fast lane gives a game's report only when the full verifier gives the
same one, byte for byte; it takes the plain games it exists for, and hands
every other game on."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from oracle.games.mindbug.editions import EDITIONS
from oracle.fuzz.strategies import mutated_game
from oracle.games.mindbug.fuzz.lines import VOCABULARY
from oracle.games.mindbug.replay.fastlane import fast_report
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.games.mindbug.replay.verifier import Verifier

ROOT = Path(__file__).resolve().parents[1]
FOREIGN = ROOT.parent / "shared" / "design" / "foreign-logs"


def _games(data: bytes, name: str = "<test>"):
    return list(split_games(io.BytesIO(data), name))


def _same_or_none(raw, edition=None, readings=None, strict=False) -> bool:
    """Whether the fast lane took the game; fails if it gave another report."""
    fast = fast_report(raw, edition, readings, strict)
    if fast is None:
        return False
    full = Verifier(raw, edition, False, readings, strict=strict).run()
    assert msgspec.json.encode(fast) == msgspec.json.encode(full), raw.lines[0][1][:80]
    return True


@pytest.mark.parametrize("edition", EDITIONS)
def test_plain_self_play_games_take_the_fast_lane_with_the_same_report(edition):
    data = b"\n".join(selfplay_lines(30, 5, edition, "random", "every")) + b"\n"
    taken = [_same_or_none(r) for r in _games(data)]
    assert all(taken), f"{taken.count(False)} plain games left the fast lane"


def test_every_sample_log_gets_the_full_verifiers_report():
    files = sorted((ROOT / "replays").rglob("*.jsonl"))
    if FOREIGN.is_dir():
        files += sorted(FOREIGN.rglob("*.jsonl"))
    taken = 0
    for f in files:
        for raw in _games(f.read_bytes(), str(f)):
            taken += _same_or_none(raw)
            taken += _same_or_none(raw, strict=True)
    assert taken, "no sample took the fast lane"


def test_a_game_that_violates_the_rules_never_takes_the_fast_lane():
    lines = list(selfplay_lines(1, 9, "en-revised", "random", "turn"))
    # A claim of the wrong life total.
    at = next(i for i, b in enumerate(lines) if b.startswith(b'{"t":"state"') and b'"life":[3,3]' in b)
    lines[at] = lines[at].replace(b'"life":[3,3]', b'"life":[3,2]', 1)
    raw = _games(b"\n".join(lines) + b"\n")[0]
    assert fast_report(raw, None, None, False) is None
    assert Verifier(raw).run().verdict == "violates"


def test_a_decision_by_the_wrong_player_never_takes_the_fast_lane():
    lines = list(selfplay_lines(1, 9, "en-revised", "random", "turn"))
    at = next(i for i, b in enumerate(lines) if b.startswith(b'{"t":"play","p":'))
    lines[at] = lines[at].replace(b'"p":0', b'"p":1') if b'"p":0' in lines[at] else lines[at].replace(b'"p":1', b'"p":0')
    raw = _games(b"\n".join(lines) + b"\n")[0]
    assert fast_report(raw, None, None, False) is None
    assert Verifier(raw).run().findings[0].code == "ILLEGAL_DECISION"


def test_a_forced_step_left_out_goes_to_the_full_verifier_and_conforms():
    lines = list(selfplay_lines(40, 3, "en-revised", "random", "turn"))
    # A hunt with no enemy creature to name is forced: `hunt null` may be left out.
    forced = [i for i, b in enumerate(lines) if b == b'{"t":"hunt","p":0,"card":null}'
              or b == b'{"t":"hunt","p":1,"card":null}']
    assert forced, "the sample holds no HUNTER attack"
    del lines[forced[0]]
    raws = _games(b"\n".join(lines) + b"\n")
    changed = next(r for r in raws if r.first_line <= forced[0] + 1 <= r.lines[-1][0])
    assert fast_report(changed, None, None, False) is None


def test_unknown_fields_give_the_same_notes_in_both_lanes():
    lines = list(selfplay_lines(1, 4, "fr-revised", "random", "turn"))
    lines = [b.replace(b'{"t":"state",', b'{"t":"state","ts":17,', 1) for b in lines]
    raw = _games(b"\n".join(lines) + b"\n")[0]
    assert _same_or_none(raw)
    rep = fast_report(raw, None, None, False)
    assert any("ts" in n for n in rep.notes)
    assert fast_report(raw, None, None, True) is None   # --strict: a finding, for the full verifier


def _setup_written(change) -> tuple:
    """A plain self-played game whose setup line is `change`d: (the game, the setup line)."""
    lines = list(selfplay_lines(1, 6, "en-revised", "random", "turn"))
    at = next(i for i, b in enumerate(lines) if b.startswith(b'{"t":"setup",'))
    lines[at] = change(lines[at])
    return _games(b"\n".join(lines) + b"\n")[0], lines[at]


@pytest.mark.parametrize("change, twice", [
    # A card's id given twice in `cards`, with its own name: the mapping decodes as before.
    (lambda b: b.replace(b'{"1":', b'{"1":"Shark Dog","1":', 1), "1"),
    # The starting player given twice, the same both times.
    (lambda b: b.replace(b'"first":', b'"first":0,"first":', 1) if b'"first":' in b
     else b[:-1] + b',"first":0,"first":0}', "first"),
    # The same, with a blank after a key's quotes.
    (lambda b: b.replace(b'"decks":', b'"unused" :[],"decks":', 1), "unused"),
])
def test_a_key_given_twice_in_the_setup_line_is_said_in_both_lanes(change, twice):
    raw, setup = _setup_written(change)
    full = Verifier(raw).run()
    assert any("given twice" in n and n.endswith(f": {twice}") for n in full.notes), (setup[:120], full.notes)
    fast = fast_report(raw, None, None, False)
    assert fast is None or msgspec.json.encode(fast) == msgspec.json.encode(full)


def test_a_setup_line_written_with_blanks_keeps_the_fast_lane():
    # Blanks after the colons and commas (another writer's style): each key once, the same report.
    raw, _ = _setup_written(lambda b: b.replace(b'":', b'": ').replace(b",", b", "))
    assert _same_or_none(raw)
    # Blanks before the colons and after the braces too: the keys are counted by their quotes.
    raw, _ = _setup_written(lambda b: b.replace(b'":', b'" :\t').replace(b"{", b"{ ").replace(b"}", b" }"))
    assert _same_or_none(raw)


@pytest.mark.parametrize("change, once", [
    (lambda b: b, True),
    (lambda b: b.replace(b'":', b'" :\t').replace(b"{", b"{ ").replace(b"}", b" }"), True),   # blanks anywhere
    (lambda b: b.replace(b'"decks":', b'"unused" :[],"decks":', 1), False),                   # a key twice
    (lambda b: b.replace(b'{"1":', b'{"1":"Shark Dog","1":', 1), False),                      # a card's id twice
    (lambda b: b.replace(b'{"1":"', b'{"1":"\\"', 1), False),                               # a quote in a name
])
def test_a_setup_line_gives_each_key_once_when_its_quotes_are_its_keys_and_names(change, once):
    # fastlane._keys_once, on the line decoded as the fast lane decodes it (the cards: the ids 1 to N, in order).
    from oracle.games.mindbug.replay.fastlane import _keys_once
    from oracle.games.mindbug.replay.format import ordered_setup

    _, setup = _setup_written(change)
    line = msgspec.json.Decoder(ordered_setup(48)).decode(setup)
    assert _keys_once(setup, line, 48) is once


def _cards_rewritten(change) -> tuple:
    """A plain self-played game whose setup line's cards (id -> name) are
    `change`d and written back: (the game, the setup line)."""
    def rewrite(b: bytes) -> bytes:
        setup = msgspec.json.decode(b)
        setup["cards"] = change(setup["cards"])
        return msgspec.json.encode(setup)
    return _setup_written(rewrite)


def _renumbered(cards: dict, base: int) -> dict:
    return {str(int(k) + base): v for k, v in cards.items()}


@pytest.mark.parametrize("change, fast", [
    # The ids 1 to N in order, as self-play writes them (format.ordered_setup).
    (lambda cards: cards, True),
    # In another order, or other ids: read as a mapping, in the fast lane all the same.
    (lambda cards: dict(reversed(list(cards.items()))), True),
    # Two cards' names swapped: the same deck, dealt otherwise (a card of the hand changes design).
    (lambda cards: {**cards, "1": cards["48"], "48": cards["1"]}, None),
    # One card named as another design of the set: no longer the deck of First Contact.
    (lambda cards: {**cards, "1": next(n for n in cards.values() if n != cards["1"])}, False),
    # An id left out.
    (lambda cards: {k: v for k, v in cards.items() if k != "7"}, False),
])
def test_the_cards_of_a_setup_line_in_any_form_get_the_full_verifiers_report(change, fast):
    raw, setup = _cards_rewritten(change)
    taken = _same_or_none(raw)
    if fast is not None:
        assert taken == fast, setup[:120]


def test_cards_numbered_from_another_id_keep_the_fast_lane():
    # Ids 101 to 148 throughout the game: the deal read as a mapping.
    lines = list(selfplay_lines(1, 6, "en-revised", "random", "turn"))
    def shifted(v):
        if isinstance(v, dict):
            return {(str(int(k) + 100) if k.isdigit() else k): shifted(x) for k, x in v.items()}
        if isinstance(v, list):
            return [shifted(x) for x in v]
        return v + 100 if type(v) is int and v > 0 else v
    out = []
    for b in lines:
        line = msgspec.json.decode(b)
        if line["t"] in ("setup", "play", "attack", "block", "hunt", "choose", "random", "activate", "state"):
            keep = {k: line[k] for k in ("t", "p", "life", "mindbugs", "deck", "active", "turn") if k in line}
            line = {**shifted(line), **keep}
            if "played" in line and line["played"] is not None:
                line["played"] = line["played"]
        out.append(msgspec.json.encode(line))
    raw = _games(b"\n".join(out) + b"\n")[0]
    assert Verifier(raw).run().verdict == "conforms"
    assert _same_or_none(raw)


def _game_line_written(change, edition: str = "en-revised") -> object:
    """A plain self-played game whose game line (as a dict) is `change`d."""
    lines = list(selfplay_lines(1, 8, edition, "random", "turn"))
    lines[0] = msgspec.json.encode(change(msgspec.json.decode(lines[0])))
    return _games(b"\n".join(lines) + b"\n")[0]


@pytest.mark.parametrize("change", [
    lambda g: g,                                                     # as self-play writes it
    lambda g: {k: v for k, v in g.items() if k != "edition"},       # no edition: the default's, with a note
    lambda g: {k: v for k, v in g.items() if k != "impl"},
    lambda g: {**g, "impl": {"name": "x"}},                          # an engine without a version
    lambda g: {**g, "readings": {}},                                 # no reading, written
    lambda g: {**g, "edition": "fr-first"},                          # another edition than the one played
    lambda g: {**g, "edition": "de-first"},                          # an edition the oracle does not know
    lambda g: {**g, "sets": ["first-contact", "no-such-set"]},       # a set it does not know
    lambda g: {"t": "game", **{k: v for k, v in g.items() if k != "t"}, "ts": 3},   # a field of another engine
])
@pytest.mark.parametrize("edition", [None, "en-revised", "fr-first"])
def test_a_game_line_in_any_form_gets_the_full_verifiers_report(change, edition):
    raw = _game_line_written(change)
    _same_or_none(raw, edition)


def test_a_game_line_written_with_blanks_keeps_the_fast_lane():
    lines = list(selfplay_lines(1, 8, "en-revised", "random", "turn"))
    lines[0] = lines[0].replace(b'":', b'": ').replace(b",", b", ")
    raw = _games(b"\n".join(lines) + b"\n")[0]
    assert _same_or_none(raw)


@pytest.mark.parametrize("change", [
    lambda s: {k: v for k, v in s.items() if k != "reveals"} | {"first": 1},   # no reveals: a note
    lambda s: {**s, "reveals": []},
    lambda s: {**s, "life_cards": [s["unused"][:3], s["unused"][3:6]]},        # life cards en-revised does not take
    lambda s: {**s, "first": 1 - s.get("first", 0)} if "reveals" in s else s,  # reveals that make the other player start
])
def test_a_setup_line_in_any_form_gets_the_full_verifiers_report(change):
    def rewrite(b: bytes) -> bytes:
        return msgspec.json.encode(change(msgspec.json.decode(b)))
    raw, _ = _setup_written(rewrite)
    _same_or_none(raw)


@pytest.mark.parametrize("change", [
    lambda e: e,
    lambda e: {**e, "winner": 1 - e["winner"]},                       # the other player
    lambda e: {**e, "reason": "no-action" if e["reason"] == "life" else "life"},
    lambda e: {**e, "winner": None, "reason": "aborted"},              # stopped, though the rules ended it
    lambda e: {**e, "winner": None, "reason": "aborted", "detail": "timeout"},
])
def test_an_end_line_in_any_form_gets_the_full_verifiers_report(change):
    lines = list(selfplay_lines(1, 8, "en-revised", "random", "turn"))
    assert lines[-1].startswith(b'{"t":"end"')
    lines[-1] = msgspec.json.encode(change(msgspec.json.decode(lines[-1])))
    raw = _games(b"\n".join(lines) + b"\n")[0]
    full = Verifier(raw).run()
    assert _same_or_none(raw) == (full.verdict == "conforms" and not full.notes)


# Whole games, each a tuple of its lines, broken by the fuzz suite's own mutations.
_GAMES = tuple(tuple(line for _, line in raw.lines)
               for edition in ("en-first", "en-revised")
               for raw in _games(b"\n".join(selfplay_lines(3, 21, edition, "random", "turn")) + b"\n"))


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_game(_GAMES, VOCABULARY), st.sampled_from([None, *EDITIONS]))
def test_games_broken_at_random_get_the_full_verifiers_report(lines, edition):
    for raw in _games(b"\n".join(lines) + b"\n"):
        _same_or_none(raw, edition)


def test_the_strict_decoder_knows_every_line_type():
    from oracle.games.mindbug.replay import format as fmt

    tags = {cls.__struct_config__.tag for cls in fmt.strict_decoder.type.__args__}
    assert tags == set(fmt.LINE_TYPES)


@pytest.mark.parametrize("edition,sets", [("en-first", ("first-contact",)),
                                          ("fr-revised", ("first-contact", "new-servants")),
                                          ("en-revised", ("beyond-eternity", "beyond-evolution", "promo-2022"))])
def test_the_claim_written_as_bytes_is_the_claim_encoded(edition, sets, monkeypatch):
    """The fast lane compares a claim's bytes with `claim_into`: written
    directly for plain boards, into one buffer from claim to claim, it must
    be the bytes of `claim` encoded, on every state of games of every
    edition, with stages and boost cards too."""
    import oracle.games.mindbug.replay.selfplay as selfplay
    from oracle.games.mindbug.replay.claims import claim, claim_into

    checked = []
    buf = bytearray()

    def both(g):
        full = claim(g)
        assert claim_into(g, buf) == msgspec.json.encode(full)
        checked.append(bool(g.state.boosts or g.table.flags.lines))
        return full

    monkeypatch.setattr(selfplay, "claim", both)
    list(selfplay_lines(12, 5, edition, claims="every", sets=sets))
    assert len(checked) > 200
    assert any(checked) == (edition == "en-revised")     # the later sets' boards took the other way


def test_claims_in_another_form_are_compared_as_fields():
    """A log whose claims state the rules' state in another key order is no
    longer compared as bytes, and takes the fast lane all the same."""
    data = b"".join(line + b"\n" for line in selfplay_lines(3, 9, "en-revised", claims="every"))
    shuffled = []
    for line in data.splitlines():
        if line.startswith(b'{"t":"state"'):
            d = msgspec.json.decode(line)
            line = msgspec.json.encode({"turn": d.pop("turn"), **d})
        shuffled.append(line + b"\n")
    for raw in _games(b"".join(shuffled)):
        assert _same_or_none(raw)
        assert fast_report(raw, None, None, False).verdict == "conforms"


@pytest.mark.parametrize("ids", [(1, 2, 3), (511, 512, 70000), (0, -4, 2**40)])
def test_the_claim_written_as_bytes_holds_any_card_id(ids):
    """Creatures are written from rows made once for small ids and written
    when met for the others (large, negative): the same bytes as `claim`
    encoded, exhausted or not."""
    from oracle.games.mindbug.cards import lookup
    from oracle.games.mindbug.engine import Game
    from oracle.games.mindbug.replay.claims import claim, claim_into

    a, b, c = ids
    defs = {a: lookup("Gorillion"), b: lookup("Strange Barrel"), c: lookup("Axolotl Healer")}
    g = Game.position("en-revised", {("play", 0): [a, c], ("play", 1): [b]}, defs, exhausted=[c])
    assert g.state.exhausted == {c}
    written = bytes(claim_into(g, bytearray()))
    assert written == msgspec.json.encode(claim(g))
    assert b'{"card":%d,"exhausted":true}' % c in written
