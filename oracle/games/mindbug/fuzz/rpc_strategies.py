"""hypothesis strategies for the protocols: sessions of requests to the
service (mb-oracle-rpc/1, mostly accepted so that games get played, some
broken) and the replies of an engine adapter to break (mb-engine/1,
`conform`)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from ....fuzz.strategies import byte_mutation
from ..editions import EDITIONS
from .lines import CLAUSES, NAMES, VOCABULARY, cards, pair, player, semantic_mutation

# -- service sessions (mb-oracle-rpc/1) ----------------------------------------

GAME_HANDLES = st.sampled_from(["g1", "g1", "g2", "g3", "g0", "", "G1", 1, None])


def _rpc_new(setups: tuple) -> st.SearchStrategy:
    # Mostly requests the service accepts, so that games get played; some broken.
    base = {"op": st.just("new"), "edition": st.one_of(*[st.sampled_from(EDITIONS)] * 6, st.sampled_from(["", "en", 3]))}
    seeded = st.fixed_dictionaries({**base, "seed": st.integers(-2, 10**6) | st.sampled_from([2**70, "7", 1.5])})
    dealt = st.fixed_dictionaries({**base, "setup": st.sampled_from(setups).flatmap(
        lambda raw: st.one_of(st.just(raw), st.just(raw), VOCABULARY.field_mutation(raw), semantic_mutation(raw))
        .map(_as_object))})
    position = st.fixed_dictionaries({**base, "position": st.fixed_dictionaries(
        {"cards": st.dictionaries(st.integers(-1, 60).map(str), st.sampled_from(NAMES) | st.text(max_size=4),
                                  max_size=14)},
        optional={"hand": pair(cards), "play": pair(cards), "discard": pair(cards), "deck": pair(cards),
                  "exhausted": cards, "unused": cards, "out": cards, "active": player,
                  "life": pair(st.integers(-1, 9)), "mindbugs": pair(st.integers(-1, 3)),
                  "octonite": st.dictionaries(st.integers(-1, 60).map(str) | st.sampled_from(["x", ""]),
                                              st.integers(-1, 101) | st.sampled_from([True, 1.5, "2", None]),
                                              max_size=3)})})
    scenario = st.fixed_dictionaries({**base, "scenario": st.fixed_dictionaries(
        {"path": st.sampled_from(["scenarios/combat.yaml", "scenarios", "nope.yaml", "", "/dev/null", "/etc/hostname"]),
         "id": st.text(max_size=12) | st.sampled_from(["combat.unblocked", "x"])})})
    extras = st.fixed_dictionaries({}, optional={"id": st.integers() | st.text(max_size=5) | st.none() | st.floats(),
                                                 "rpc": st.sampled_from(["mb-oracle-rpc/1", "mb-oracle-rpc/2"]),
                                                 "readings": st.dictionaries(st.sampled_from(CLAUSES), st.text(max_size=6),
                                                                             max_size=2),
                                                 "sets": st.lists(st.sampled_from(["first-contact", "new-servants", ""]),
                                                                  max_size=2)})
    return st.tuples(st.one_of(seeded, seeded, seeded, dealt, dealt, position, scenario),
                     st.one_of(st.just({}), st.just({}), st.just({}), extras)).map(lambda t: {**t[0], **t[1]})


def _as_object(raw: bytes):
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


@st.composite
def rpc_session(draw, setups: tuple) -> list:
    """Requests for one service, in order: each a request object, raw bytes
    (a line that is not one), or ("legal", k): the k-th legal decision of
    game g1 at that moment, so that games get deep into play."""
    game = GAME_HANDLES
    simple = st.one_of(
        st.fixed_dictionaries({"op": st.sampled_from(["hello", "pending", "state", "fork", "close", "events", "nope"])},
                              optional={"game": game, "since": st.integers(-3, 10**9), "id": st.integers(-3, 3)}),
        st.fixed_dictionaries({"op": st.just("apply"), "game": game, "decision": VOCABULARY.structured_line()}),
    )
    requests = [draw(_rpc_new(setups))]
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["legal", "legal", "legal", "legal", "simple", "simple", "new", "raw"]))
        if kind == "legal":
            requests.append(("legal", draw(st.integers(0, 30))))
        elif kind == "simple":
            requests.append(draw(simple))
        elif kind == "new":
            requests.append(draw(_rpc_new(setups)))
        else:
            line = json.dumps(draw(simple), default=str).encode()
            requests.append(draw(byte_mutation(line)))
    return requests


def legal_step(game, k: int) -> dict | None:
    """The k-th legal decision of a Mindbug game (k taken modulo their
    number), as an mb-replay/1 line; None when it has none."""
    options = game.legal_decisions()
    return options[k % len(options)].to_json() if options else None


# -- engine adapters (mb-engine/1, `conform`) -------------------------------------

@st.composite
def engine_case(draw) -> tuple:
    """(seed, {reply number: (how it is broken, a number)}, edition): the
    replies of an otherwise faithful adapter that a case breaks
    (engine.py)."""
    from .engine import BREAKS

    breaks = draw(st.dictionaries(st.integers(1, 40), st.tuples(st.sampled_from(BREAKS), st.integers(0, 10**6)),
                                  min_size=1, max_size=3))
    return draw(st.integers(0, 10**6)), breaks, draw(st.sampled_from(EDITIONS))
