"""hypothesis strategies that break Mindbug's card files (mb-cards/1):
files the card checks accept (the hunt's generator), those with a few
values changed, and seed files mutated as data or text, with the words of
the format (verbs, triggers, keywords, sides, filters)."""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from ....fuzz.yaml_strategies import dump, mutated_yaml, tree_mutation, yaml_values
from .lines import NAMES

CARD_KEYS = ("abilities", "code", "octonite", "distribute", "copies", "power", "keywords", "names", "text",
             "target", "count", "all", "up_to", "amount", "who", "keyword", "when", "cost", "trigger", "effect",
             "side", "power_min", "power_max", "others", "set", "id", "cards")


@cache
def _card_values() -> st.SearchStrategy:
    from ..cards.declared import KEYWORDS as CARD_KEYWORDS, TRIGGERS, VERBS

    words = sorted(VERBS) + list(TRIGGERS) + list(CARD_KEYWORDS) + [
        "enemy", "allied", "any", "me", "opponent", "always", "own-turn", "octonite", "first-contact",
        "new-servants", "Fuzz 1", "Fuzz 2"]
    return st.one_of(
        yaml_values, st.sampled_from(words), st.integers(-3, 250), st.sampled_from(NAMES),
        st.fixed_dictionaries({}, optional={"side": st.sampled_from(["enemy", "allied", "any", "both"]),
                                            "power_min": st.integers(-2, 14), "power_max": st.integers(-2, 14),
                                            "others": st.booleans()}),
        st.lists(st.sampled_from(CARD_KEYWORDS), max_size=3))


@st.composite
def card_file(draw, texts: tuple) -> bytes:
    """A card file: one the card checks accept (the hunt's generator), that
    one with a few values changed, or a seed file mutated as data or text."""
    from ..hunt.card_strategies import card_file as legal_card_file

    how = draw(st.sampled_from(["legal", "legal", "legal-mutated", "tree", "text", "both"]))
    if how.startswith("legal"):
        doc = draw(legal_card_file("fuzz-lab", "Fuzz", n=draw(st.integers(1, 4)), later=draw(st.booleans())))
        if how == "legal-mutated":
            doc = draw(tree_mutation(doc, _card_values(), CARD_KEYS))
        return dump(doc).encode("utf-8", "surrogatepass")
    return draw(mutated_yaml(draw(st.sampled_from(texts)), how, _card_values(), CARD_KEYS))
