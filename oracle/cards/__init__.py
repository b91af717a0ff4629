"""Card database: designs, names in both languages, slugs, and abilities.

`CARDS` maps the canonical English name to its `CardDef`; `lookup()` also
accepts French names and slugs. Abilities live in `oracle.cards.abilities`,
next to this data, written with the engine's shared effect verbs.
"""

from __future__ import annotations

import difflib
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
    "CARDS", "CardDef", "UnknownCard", "lookup", "suggest", "slugify", "keyword_list", "full_set",
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
    """A card name that is neither an English name, a French name nor a slug.

    `name` is the name as given; `suggestions` the closest card names in
    English (worked out when first asked for, so that a caller that only
    catches the error pays nothing), and `str()` reads
    "unknown card 'X' (did you mean Y?)"."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name

    @property
    def suggestions(self) -> tuple[str, ...]:
        return suggest(self.name)

    @property
    def hint(self) -> str:
        """" (did you mean A or B?)", or "" when no card name is close."""
        close = self.suggestions
        return f" (did you mean {' or '.join(close)}?)" if close else ""

    def __str__(self) -> str:
        return f"unknown card {self.name!r}{self.hint}"


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
_SLUGS: dict[str, str] = {}   # slugs of the English and French names -> English name
for _c in CARDS.values():
    for _alias in (_c.name, _c.french, _c.slug, slugify(_c.french)):
        _ALIASES[_alias.casefold()] = _c.name
        _ALIASES[slugify(_alias)] = _c.name
        _SLUGS[slugify(_alias)] = _c.name


def lookup(name: str) -> CardDef:
    """The card called `name` in English, French, or as a slug; raises
    UnknownCard with the closest names when there is none."""
    key = _ALIASES.get(name.casefold()) or _ALIASES.get(slugify(name))
    if key is None:
        raise UnknownCard(name)
    return CARDS[key]


def suggest(name: str, n: int = 2) -> tuple[str, ...]:
    """The English names of the cards whose English name, French name or
    slug is closest to `name` (at most `n`, closest first)."""
    key = slugify(str(name))
    if not key:
        return ()
    close = difflib.get_close_matches(key, list(_SLUGS), n=n * 3, cutoff=0.6)
    if not close and len(key) >= 3:   # the start of a name: "kanga"
        close = [k for k in _SLUGS if k.startswith(key)]
    out: list[str] = []
    for k in close:
        if _SLUGS[k] not in out:
            out.append(_SLUGS[k])
    return tuple(out[:n])


def full_set() -> list[str]:
    """The 48 card names of the set, each copy once, in database order."""
    return [c.name for c in CARDS.values() for _ in range(c.copies)]
