"""Mindbug's vocabulary for `mb-oracle fuzz`: mb-replay/1 lines of every
type (structured, plausible or not), a field set to another value, a line
kept well-formed but made wrong (another player or card in a decision, a
claim of the wrong shape or value, a deal that breaks the setup rules,
another result). The shared machinery (oracle.fuzz.strategies) mutates
whole games and streams with these."""

from __future__ import annotations

from hypothesis import strategies as st

from ....fuzz import strategies as fs
from ....fuzz.strategies import LineTable, Vocabulary, json_values
from ..cards import CARDS, SETS, full_set
from ..editions import EDITIONS
from ..replay.format import LINE_TYPES
from .words import WORDS

NAMES = WORDS["names"]
SHIPPED = {s for s, card_set in SETS.items() if card_set.later} | {"first-contact", "new-servants"}
# Stage faces of evolution lines and names of the later sets' cards (verify's claims of stages and faces).
# Shipped cards only, whatever else the process has loaded: the same draws in every process.
FACES = sorted({c.name for c in CARDS.values() if c.stage and c.card_set in SHIPPED} | {"Sea-Rex", "Typhoon Princess"})
CLAUSES = WORDS["clauses"]
KEYWORDS = WORDS["keywords"]

card = st.one_of(st.integers(1, 48), st.integers(1, 48), st.integers(-2, 60), st.sampled_from(NAMES),
                 st.none(), st.integers(min_value=2**63 - 2, max_value=2**70))
player = st.sampled_from([0, 1, 0, 1, 2, -1, None, "0", True, 1.0])
cards = st.lists(card, max_size=12)


def pair(x) -> st.SearchStrategy:
    return st.one_of(st.lists(x, min_size=2, max_size=2), st.lists(x, max_size=4))


creature = st.fixed_dictionaries({"card": card}, optional={
    "exhausted": st.one_of(st.booleans(), json_values), "power": st.one_of(st.integers(-5, 15), json_values),
    "keywords": st.lists(st.sampled_from(KEYWORDS), max_size=4),
    # later sets: a stage, the face shown, the boost cards under it
    "stage": st.one_of(st.integers(-1, 4), json_values), "face": st.one_of(st.sampled_from(FACES), json_values),
    "boosts": st.one_of(cards, json_values)})
setup_cards = st.one_of(
    st.permutations(full_set()).map(lambda names: {str(i + 1): n for i, n in enumerate(names)}),
    st.dictionaries(st.one_of(st.integers(-2, 60).map(str), st.text(max_size=3)), st.sampled_from(NAMES),
                    max_size=50))

FIELDS: dict[str, st.SearchStrategy] = {
    "format": st.sampled_from(["mb-replay/1", "mb-replay/1", "mb-replay/2", "", "MB-REPLAY/1"]),
    "id": st.text(max_size=12), "edition": st.sampled_from(EDITIONS + ("xx-first", "")),
    "sets": st.lists(st.sampled_from(["first-contact", "beyond", "beyond-eternity", "beyond-evolution", "promo-2023"]),
                     max_size=2),
    "impl": st.fixed_dictionaries({"name": st.text(max_size=5)}, optional={"version": json_values}),
    "decks": pair(st.lists(st.integers(-1, 50), max_size=12)), "unused": st.one_of(cards, st.integers(-1, 40)),
    "first": player, "reveals": st.lists(pair(card), max_size=3), "life_cards": pair(st.lists(card, max_size=4)),
    "p": player, "card": card, "life": pair(st.integers(-2, 8)), "mindbugs": pair(st.integers(-2, 3)),
    "hand": pair(cards), "discard": pair(cards), "play": pair(st.lists(creature, max_size=5)),
    "deck": pair(st.one_of(st.integers(-2, 12), cards)), "played": card, "active": player,
    "turn": st.integers(-2, 200), "winner": player,
    "reason": st.sampled_from(["life", "no-action", "card", "aborted", "timeout"]), "detail": st.text(max_size=10),
    "text": st.text(max_size=10), "x": json_values,
}
LINE_FIELDS = {
    "game": ("format", "id", "edition", "sets", "impl"),
    "setup": ("cards", "decks", "unused", "first", "reveals", "life_cards"),
    "play": ("p", "card"), "attack": ("p", "card"), "mindbug": ("p",), "pass": ("p",), "hunt": ("p", "card"),
    "block": ("p", "card"), "choose": ("p", "cards"), "random": ("cards",),
    "state": ("life", "mindbugs", "hand", "play", "discard", "deck", "unused", "played", "active", "turn"),
    "end": ("winner", "reason", "detail"), "note": ("text",),
}


def field_value(tag: str, name: str) -> st.SearchStrategy:
    if name == "cards":
        return setup_cards if tag == "setup" else cards
    return st.one_of(FIELDS.get(name, json_values), FIELDS.get(name, json_values), json_values)


LINES = LineTable(LINE_TYPES, LINE_FIELDS, field_value, ("zz", "x", "lifes", "t", ""))


PAIR_FIELDS = ("life", "mindbugs", "hand", "play", "discard", "deck")


@fs.line_edit
def semantic_mutation(draw, obj: dict) -> None:
    """A line kept well-formed but made wrong: another player or card in a
    decision, a claim of the wrong shape or value, a deal that breaks the
    setup rules, another result."""
    t = obj.get("t")
    if t in ("play", "attack", "hunt", "block", "mindbug", "pass", "choose"):
        what = draw(st.sampled_from(["p", "card", "cards", "t"]))
        if what == "p":
            obj["p"] = 1 - obj["p"] if obj.get("p") in (0, 1) else 0
        elif what == "card":
            obj["card"] = draw(st.one_of(st.integers(1, 48), st.none()))
        elif what == "cards":
            obj["cards"] = draw(st.lists(st.integers(1, 48), max_size=3))
        else:
            obj["t"] = draw(st.sampled_from(["play", "attack", "hunt", "block", "mindbug", "pass", "choose"]))
    elif t == "state":
        name = draw(st.sampled_from(PAIR_FIELDS + ("unused", "played", "active", "turn")))
        value = obj.get(name)
        how = draw(st.sampled_from(["one", "three", "swap", "bump", "names", "drop"]))
        if isinstance(value, list) and how == "one":
            obj[name] = value[:1]
        elif isinstance(value, list) and how == "three":
            obj[name] = value + value[:1]
        elif isinstance(value, list) and how == "swap":
            obj[name] = value[::-1]
        elif how == "bump":
            if isinstance(value, int) and not isinstance(value, bool):
                obj[name] = value + draw(st.sampled_from([-1, 1, -100, 2**40]))
            elif isinstance(value, list) and value and isinstance(value[0], int):
                obj[name] = [v + draw(st.sampled_from([-1, 1, -5])) for v in value]
            elif isinstance(value, list) and value and isinstance(value[0], list) and value[0]:
                obj[name] = [value[0][1:], value[1] + value[0][:1]] if len(value) > 1 else value
        elif how == "names" and name in ("hand", "discard") and isinstance(value, list):
            obj[name] = [[draw(st.sampled_from(NAMES)) for _ in side] if isinstance(side, list) else side
                         for side in value]
        elif how == "drop":
            obj.pop(name, None)
    elif t == "setup":
        what = draw(st.sampled_from(["swap", "drop", "first", "reveals", "life_cards"]))
        decks, unused = obj.get("decks"), obj.get("unused")
        if what == "swap" and isinstance(decks, list) and len(decks) == 2 and decks[0] and isinstance(unused, list):
            i = draw(st.integers(0, len(decks[0]) - 1))
            j = draw(st.integers(0, max(0, len(unused) - 1)))
            if unused:
                decks[0][i], unused[j] = unused[j], decks[0][i]
        elif what == "drop" and isinstance(unused, list) and unused:
            unused.pop()
        elif what == "first":
            obj["first"] = draw(player)
        elif what == "reveals":
            obj["reveals"] = draw(st.lists(pair(st.integers(1, 48)), max_size=3))
        elif isinstance(unused, list):
            obj["life_cards"] = draw(st.sampled_from([[unused[:3]], [unused[:3], unused[3:6]], [unused[:3], unused[:3]],
                                                      [unused[:2], unused[3:6]], [], [unused[:3], unused[3:6], []]]))
    elif t == "end":
        obj[draw(st.sampled_from(["winner", "reason"]))] = draw(st.one_of(player, st.sampled_from(
            ["life", "no-action", "card", "aborted"])))


VOCABULARY = Vocabulary(LINES, semantic_mutation)
