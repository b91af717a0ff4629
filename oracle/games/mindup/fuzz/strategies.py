"""Mind Up!'s vocabulary for `mb-oracle fuzz`: mu-replay/1 lines of every
type (structured, plausible or not), a field set to another value, a line
kept well-formed but made wrong (another card, a player twice, a Score
order that is not one, a claim moved), sessions of service requests on
Mind Up! games, and the k-th legal step of a game (so that sessions get
deep into play). The shared machinery (oracle.fuzz) mutates whole games
and streams with these."""

from __future__ import annotations

import json
import random

from hypothesis import strategies as st

from ....fuzz import strategies as fs
from ....fuzz.strategies import LineTable, Vocabulary, byte_mutation, json_values
from ..readings import READINGS
from ..replay.format import LINE_TYPES

card = st.one_of(st.integers(1, 60), st.integers(1, 60), st.integers(-2, 62), st.none(), st.sampled_from(["7", 1.5]),
                 st.integers(min_value=2**63 - 2, max_value=2**70))
cards = st.lists(card, max_size=10)
player = st.sampled_from([0, 1, 2, 3, 4, 5, 6, -1, None, "0", True])
order = st.one_of(st.permutations([1, 2, 3, 4, 5]).map(list), st.lists(st.integers(-1, 7), max_size=6))
by_player = st.lists(cards, max_size=7)

FIELDS: dict[str, st.SearchStrategy] = {
    "game": st.sampled_from(["mind-up", "mind-up", "mind-up", "mindbug", "mindup", ""]),
    "format": st.sampled_from(["mu-replay/1", "mu-replay/1", "mu-replay/2", "mb-replay/1", ""]),
    "id": st.text(max_size=12), "players": st.integers(-1, 8), "objectives": st.integers(-1, 7),
    "edition": st.sampled_from(["fr", "fr", "en", ""]),
    "readings": st.dictionaries(st.sampled_from([r.clause for r in READINGS] + ["mu.no_such_reading"]),
                                st.sampled_from(["final", "change-allowed", "nobody", "x"]), max_size=2),
    "impl": st.fixed_dictionaries({"name": st.text(max_size=5)}),
    "deck": st.one_of(st.permutations(range(1, 61)).map(list), cards), "hands": by_player, "line": cards,
    "pile": st.one_of(cards, st.integers(-1, 60)), "round": st.integers(-1, 5), "order": order,
    "draws": cards, "cards": cards, "p": player, "card": card, "turn": st.integers(-1, 30),
    "columns": st.lists(st.lists(cards, max_size=6), max_size=7),
    "scores": st.lists(st.lists(st.integers(-20, 200), max_size=4), max_size=7),
    "totals": st.lists(st.integers(-20, 400), max_size=7), "winners": st.lists(player, max_size=3),
    "reason": st.sampled_from(["aborted", "timeout", ""]), "detail": st.text(max_size=10),
    "text": st.text(max_size=10), "x": json_values,
}
LINE_FIELDS = {
    "game": ("game", "format", "id", "players", "objectives", "edition", "readings", "impl"),
    "setup": ("deck", "hands", "line", "pile"), "round": ("round", "order", "draws", "objectives"),
    "turn": ("cards",), "choose": ("p", "card"), "reveal": (), "last": ("cards",),
    "state": ("round", "turn", "hands", "line", "columns", "order", "scores", "totals", "pile", "objectives"),
    "end": ("scores", "winners", "reason", "detail"), "note": ("text",),
}


def field_value(tag: str, name: str) -> st.SearchStrategy:
    if name == "objectives" and tag != "game":
        return st.lists(st.integers(-1, 16), max_size=6)
    return st.one_of(FIELDS.get(name, json_values), FIELDS.get(name, json_values), json_values)


LINES = LineTable(LINE_TYPES, LINE_FIELDS, field_value, ("zz", "x", "card", "t", ""))


@fs.line_edit
def semantic_mutation(draw, obj: dict) -> None:
    """A line kept well-formed but made wrong in the game's terms."""
    t = obj.get("t")
    if t == "turn" and isinstance(obj.get("cards"), list) and obj["cards"]:
        c = obj["cards"]
        how = draw(st.sampled_from(["twice", "other", "short", "long"]))
        if how == "twice" and len(c) > 1:
            c[1] = c[0]
        elif how == "other":
            c[draw(st.integers(0, len(c) - 1))] = draw(st.integers(1, 60))
        elif how == "short":
            c.pop()
        else:
            c.append(c[0])
    elif t == "choose":
        obj[draw(st.sampled_from(["p", "card"]))] = draw(st.one_of(st.integers(0, 6), st.integers(1, 60)))
    elif t == "round":
        how = draw(st.sampled_from(["order", "repeat", "draws", "objectives", "round"]))
        if how == "order":
            obj["order"] = draw(order)
        elif how == "repeat":
            obj["order"] = [1, 2, 3, 4, 5]
        elif how == "draws":
            d = obj.get("draws")
            obj["draws"] = d[::-1] if isinstance(d, list) and len(d) > 1 else draw(cards)
        elif how == "objectives":
            obj["objectives"] = draw(st.lists(st.integers(1, 14), max_size=5))
        else:
            obj["round"] = draw(st.integers(0, 4))
    elif t == "state":
        name = draw(st.sampled_from(LINE_FIELDS["state"]))
        value = obj.get(name)
        if isinstance(value, list) and value and draw(st.booleans()):
            obj[name] = value[::-1] if draw(st.booleans()) else value[:-1]
        elif isinstance(value, int) and not isinstance(value, bool):
            obj[name] = value + draw(st.sampled_from([-1, 1, 100]))
        else:
            obj.pop(name, None)
    elif t == "setup":
        deck = obj.get("deck")
        if isinstance(deck, list) and len(deck) > 2:
            deck[draw(st.integers(0, len(deck) - 1))] = deck[0] if draw(st.booleans()) else draw(card)
        else:
            obj["pile"] = draw(cards)
    elif t == "game":
        obj[draw(st.sampled_from(["players", "objectives", "readings"]))] = draw(
            st.one_of(st.integers(-1, 8), FIELDS["readings"]))
    elif t == "end":
        obj[draw(st.sampled_from(["scores", "winners"]))] = draw(st.lists(st.integers(-1, 90), max_size=6))


VOCABULARY = Vocabulary(LINES, semantic_mutation)


# -- service sessions ---------------------------------------------------------------

def _new() -> st.SearchStrategy:
    base = {"op": st.just("new"), "game": st.sampled_from(["mind-up"] * 8 + ["mind-uq", "", 3])}
    players = st.one_of(*[st.integers(3, 6)] * 5, st.sampled_from([2, 7, -1, "4", None]))
    seeded = st.fixed_dictionaries({**base, "players": players,
                                    "seed": st.integers(-2, 10**6) | st.sampled_from([2**70, "7", 1.5])},
                                   optional={"objectives": st.integers(-1, 6)})
    dealt = st.fixed_dictionaries({**base, "players": players, "setup": st.one_of(
        st.permutations(range(1, 61)).map(lambda d: {"deck": list(d)}),
        st.fixed_dictionaries({}, optional={k: FIELDS[k] for k in ("deck", "hands", "line", "pile")}))})
    position = st.fixed_dictionaries({**base, "position": st.fixed_dictionaries(
        {"order": order, "hands": by_player, "line": cards},
        optional={"round": st.integers(0, 4), "columns": FIELDS["columns"], "pile": cards,
                  "scores": FIELDS["scores"], "objectives": st.lists(st.integers(0, 15), max_size=6)})})
    extras = st.fixed_dictionaries({}, optional={"id": st.integers() | st.text(max_size=5) | st.none(),
                                                 "rpc": st.sampled_from(["mb-oracle-rpc/1", "mb-oracle-rpc/2"]),
                                                 "readings": FIELDS["readings"], "edition": FIELDS["edition"]})
    return st.tuples(st.one_of(seeded, seeded, seeded, dealt, position),
                     st.one_of(st.just({}), st.just({}), extras)).map(lambda t: {**t[0], **t[1]})


@st.composite
def rpc_session(draw) -> list:
    """Requests for one service, in order (as oracle.games.mindbug.fuzz.rpc_strategies.rpc_session):
    request objects, raw bytes, or ("legal", k), the k-th legal step of game g1."""
    game = st.sampled_from(["g1", "g1", "g2", "g3", "g0", "", 1, None])
    simple = st.one_of(
        st.fixed_dictionaries({"op": st.sampled_from(["pending", "state", "fork", "close", "events", "nope", "hello"])},
                              optional={"game": game, "since": st.integers(-3, 10**9), "id": st.integers(-3, 3)}),
        st.fixed_dictionaries({"op": st.just("apply"), "game": game, "decision": VOCABULARY.structured_line()}),
    )
    requests = [draw(_new())]
    for _ in range(draw(st.integers(0, 40))):      # a round of 3 players is 1 + 18 steps
        kind = draw(st.sampled_from(["legal"] * 12 + ["simple", "simple", "new", "raw"]))
        if kind == "legal":
            requests.append(("legal", draw(st.integers(0, 10**6))))
        elif kind == "simple":
            requests.append(draw(simple))
        elif kind == "new":
            requests.append(draw(_new()))
        else:
            requests.append(draw(byte_mutation(json.dumps(draw(simple), default=str).encode())))
    return requests


def legal_step(game, k: int) -> dict | None:
    """The k-th legal step of a Mind Up! game, as a mu-replay/1 line: a
    round's chance (an order drawn from k), or one waiting player's card."""
    pending = game.pending
    if pending.kind == "round":
        order = [1, 2, 3, 4, 5]
        random.Random(k).shuffle(order)
        return {"t": "round", "order": order}
    if pending.kind != "choose":
        return None
    waiting = sorted(pending.players)
    p = waiting[k % len(waiting)]
    hand = game.legal(p)
    return {"t": "choose", "p": p, "card": hand[(k // len(waiting)) % len(hand)]} if hand else None
