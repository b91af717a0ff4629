"""Card database: designs, names in both languages, slugs, and abilities.

`CARDS` maps the canonical English name to its `CardDef`; `lookup()` also
accepts French names and slugs. Abilities live in `oracle.cards.abilities`,
next to this data, written with the engine's shared effect verbs.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .first_contact import (
    DESIGNS,
    FRENZY,
    HUNTER,
    KEYWORD_FRENCH,
    KEYWORD_NAMES,
    POISONOUS,
    SNEAKY,
    TOUGH,
)

__all__ = [
    "CARDS", "CardDef", "UnknownCard", "lookup", "slugify", "keyword_list", "full_set",
    "FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "KEYWORD_NAMES", "SET_ID",
]

SET_ID = "first-contact"


@dataclass(frozen=True, slots=True)
class CardDef:
    name: str
    french: str
    slug: str
    power: int
    keywords: int
    copies: int
    trigger: str | None  # "play" | "attack" | "defeated" | None (constant or vanilla)
    text: str

    @property
    def keyword_names(self) -> list[str]:
        return keyword_list(self.keywords)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "french": self.french,
            "slug": self.slug,
            "power": self.power,
            "keywords": self.keyword_names,
            "keywords_fr": [KEYWORD_FRENCH[b] for b in KEYWORD_NAMES if self.keywords & b],
            "copies": self.copies,
            "trigger": self.trigger,
            "ability": self.text,
            "set": SET_ID,
        }


class UnknownCard(LookupError):
    """A card name that is neither an English name, a French name nor a slug."""


def keyword_list(mask: int) -> list[str]:
    return [name for bit, name in KEYWORD_NAMES.items() if mask & bit]


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


CARDS: dict[str, CardDef] = {
    name: CardDef(name, fr, slugify(name), power, kw, copies, trigger, text)
    for name, fr, power, kw, copies, trigger, text in DESIGNS
}

_ALIASES: dict[str, str] = {}
for _c in CARDS.values():
    for _alias in (_c.name, _c.french, _c.slug, slugify(_c.french)):
        _ALIASES[_alias.casefold()] = _c.name
        _ALIASES[slugify(_alias)] = _c.name


def lookup(name: str) -> CardDef:
    """The card called `name` in English, French, or as a slug."""
    key = _ALIASES.get(name.casefold()) or _ALIASES.get(slugify(name))
    if key is None:
        raise UnknownCard(name)
    return CARDS[key]


def full_set() -> list[str]:
    """The 48 card names of the set, each copy once, in database order."""
    return [c.name for c in CARDS.values() for _ in range(c.copies)]
