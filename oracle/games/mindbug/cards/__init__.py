"""Card database: card sets, designs, names in both languages, slugs, and abilities.

`CARDS` maps the canonical English name to its `CardDef`; `lookup()` also
accepts French names and slugs. Every card belongs to a set (`SETS`); a
game deals from the deck of the sets it names (`full_set(sets)`: every card
of those sets, setup.sets). Abilities live in `oracle.games.mindbug.cards.abilities`,
next to this data, written with the engine's shared effect verbs.
"""

from __future__ import annotations

import re
import unicodedata

from msgspec import Struct

from . import beyond_eternity, beyond_evolution, new_servants, promo_2022, promo_2023, promo_later, promo_unconfirmed
from .first_contact import (
    DESIGNS,
    FAST,
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
    "FAST", "FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "KEYWORD_NAMES", "SET_ID", "add_set", "version",
    "SETS", "DEFAULT_SETS", "UnknownSet", "check_sets", "every_card", "make_def", "triggers_of", "next_stage",
    "STAGE_AFTER", "set_aside_cards", "table_cards", "OTHER_NAMES", "SHIPPED_SETS",
]

SET_ID = "first-contact"   # the base set, the deck of a game that names no set
DEFAULT_SETS: tuple[str, ...] = (SET_ID,)


class CardSet(Struct, frozen=True):
    """A set: its deck designs `(name, French name, power, keywords, copies,
    trigger(s), text)`; the stage faces of its evolution lines `(name, French
    name, power, keywords, stage, trigger(s), text)`; its lines (stage I deck
    card -> (stage II face, stage III face)); whether only the editions with
    the later sets may deal it (setup.sets.later)."""

    id: str
    name: str
    french: str
    designs: tuple
    faces: tuple = ()
    lines: tuple = ()     # (stage I, stage II, stage III) name triples
    later: bool = False

    def to_json(self) -> dict:
        out = {"id": self.id, "name": self.name, "french": self.french, "designs": len(self.designs),
               "cards": sum(d[4] for d in self.designs)}
        if self.faces:
            out["faces"] = len(self.faces)
            out["set_aside"] = len(self.lines)
        return out


def _later(module) -> CardSet:
    """A set of the later series (Beyond sets, promos), from its module."""
    return CardSet(module.SET_ID, module.NAME, module.FRENCH, module.DESIGNS, module.FACES,
                   tuple((one, *faces) for one, faces in module.LINES.items()), later=True)


_LATER_MODULES = (beyond_eternity, beyond_evolution, promo_2022, promo_2023, promo_later, promo_unconfirmed)

# Known sets, in the order their cards are numbered everywhere (ids of a
# scenario, the database order): the shipped sets first, the sets of the
# later series after them, so that adding these never moved an id.
SETS: dict[str, CardSet] = {
    SET_ID: CardSet(SET_ID, "First Contact", "Premier Contact", DESIGNS),
    new_servants.SET_ID: CardSet(new_servants.SET_ID, "New Servants", "Nouveaux Serviteurs", new_servants.DESIGNS),
    **{m.SET_ID: _later(m) for m in _LATER_MODULES},
}
SHIPPED_SETS: tuple[str, ...] = tuple(SETS)   # the sets of the database (declared ones come after)


class UnknownSet(LookupError):
    """A set name that is not one of `SETS`, or a list of sets the rules cannot deal from."""


# Other names public sources give the shipped sets (any case and spacing).
SET_ALIASES = {
    "first-contact": ("First Contact", "Premier Contact"),
    "new-servants": ("New Servants", "Nouveaux Serviteurs", "First Contact: Add-On", "First Contact Addon Pack"),
    "beyond-eternity": ("Beyond Eternity", "Éternité Suprême", "Mindbug: Beyond Eternity"),
    "beyond-evolution": ("Beyond Evolution", "Évolution Suprême", "Mindbug: Beyond Evolution"),
    "promo-2022": ("Promo 2022", "Promos 2022"),
    "promo-2023": ("Promo 2023", "Promos 2023"),
    "promo-later": ("Later promos", "Promo 2024", "Promo 2025"),
    "promo-unconfirmed": ("Unconfirmed promos",),
}


def set_id(name) -> str:
    """The id of a set from its id, its name or a known other name; the
    name unchanged when it is none of those."""
    if name in SETS:
        return name
    key = slugify(str(name))
    for sid, card_set in SETS.items():
        if key in (sid, slugify(card_set.name), slugify(card_set.french),
                   *(slugify(a) for a in SET_ALIASES.get(sid, ()))):
            return sid
    return name


def check_sets(sets) -> tuple[str, ...]:
    """The named sets (ids, names or known other names) as ids in database
    order; raises UnknownSet for an unknown name, a set named twice, or no
    set at all."""
    sets = [set_id(s) for s in sets]
    if not sets:
        raise UnknownSet("no card set named: a game deals from at least one set")
    for s in sets:
        if s not in SETS:
            import difflib      # only for a name that is wrong

            near = difflib.get_close_matches(str(s), list(SETS), n=1, cutoff=0.5)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise UnknownSet(f"unknown card set {s!r}{hint}; known: {', '.join(SETS)}")
    twice = sorted({s for s in sets if sets.count(s) > 1})
    if twice:
        raise UnknownSet(f"card set {twice[0]!r} is named twice")
    return tuple(s for s in SETS if s in sets)


class CardDef(Struct, frozen=True):
    name: str
    french: str
    slug: str
    power: int
    keywords: int
    copies: int
    trigger: str | None  # "play" | "attack" | "defeated" | "when" | None (constant or vanilla): the first of `triggers`
    text: str
    card_set: str = SET_ID
    # Every triggered ability of the design (Goat Dragon: play and attack): "play", "attack", "defeated",
    # "action" (an Action), "when", "end-of-turn", "to-discard" (put into its owner's discard pile from
    # anywhere), "in-discard" (works only while the card lies in a discard pile), "mindbug-used",
    # "replacement" ("if it would be defeated").
    triggers: tuple[str, ...] = ()
    stage: int = 0                   # evolution lines: 1, 2 or 3 (0: the design is no stage of a line)
    line: str = ""                   # the stage I design of its line ("" when none)

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
            "set": self.card_set,
            **({"triggers": list(self.triggers)} if len(self.triggers) > 1 else {}),
            **({"stage": self.stage, "line": self.line} if self.stage else {}),
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
        from ....term import did_you_mean

        return did_you_mean(self.name, close=self.suggestions, quote=False)

    def __str__(self) -> str:
        return f"unknown card {self.name!r}{self.hint}"


def keyword_list(mask: int) -> list[str]:
    return [name for bit, name in KEYWORD_NAMES.items() if mask & bit]


_NOT_SLUG: list = []


def slugify(text: str) -> str:
    slug = _SLUGIFIED.get(text) if type(text) is str else None
    if slug is None:
        if not _NOT_SLUG:       # compiled when first needed
            _NOT_SLUG.append(re.compile(r"[^a-z0-9]+").sub)
        ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
        slug = _NOT_SLUG[0]("-", ascii_text.lower()).strip("-")
        if type(text) is str and len(_SLUGIFIED) < 4096:      # the names of the cards and sets, and a bounded number of others
            _SLUGIFIED[text] = slug
    return slug


_SLUGIFIED: dict[str, str] = {}


def triggers_of(trigger) -> tuple[str, ...]:
    """A design row's trigger (None, one name, or a tuple of names) as the tuple of its triggers."""
    if trigger is None:
        return ()
    return (trigger,) if isinstance(trigger, str) else tuple(trigger)


def make_def(name, fr, power, kw, copies, trigger, text, set_id, stage=0, line="") -> CardDef:
    """The design of a set's row; `trigger` may name several triggers (a tuple)."""
    trig = triggers_of(trigger)
    return CardDef(name, fr, slugify(name), power, kw, copies, trig[0] if trig else None, text, set_id, trig,
                   stage, line)


def _card_defs(card_set: CardSet):
    """The CardDefs of a set: its deck designs, then its stage faces. A stage
    II face is the double-sided card set aside (1 copy, setup.set-aside); a
    stage III face is that card's back (0 copies). A face of no known line
    (Evilcat) is a card of its own (1 copy) that is never dealt."""
    stage_of = {}
    for one, two, three in card_set.lines:
        stage_of.update({one: (1, one), two: (2, one), three: (3, one)})
    for name, fr, power, kw, copies, trigger, text in card_set.designs:
        stage, line = stage_of.get(name, (0, ""))
        yield make_def(name, fr, power, kw, copies, trigger, text, card_set.id, stage, line)
    for name, fr, power, kw, stage, trigger, text in card_set.faces:
        _stage, line = stage_of.get(name, (stage, ""))
        copies = 1 if stage == 2 or not line else 0
        yield make_def(name, fr, power, kw, copies, trigger, text, card_set.id, stage, line)


CARDS: dict[str, CardDef] = {d.name: d for card_set in SETS.values() for d in _card_defs(card_set)}

# Names other sources give cards of the later series (any case and spacing).
OTHER_NAMES: dict[str, tuple[str, ...]] = {n: o for m in _LATER_MODULES for n, o in m.OTHER_NAMES.items()}

# Evolution lines (later sets): the design a creature of a line turns into
# when it evolves: stage I -> stage II face, stage II -> stage III face.
STAGE_AFTER: dict[str, str] = {a: b for card_set in SETS.values() for one, two, three in card_set.lines
                                for a, b in ((one, two), (two, three))}


def next_stage(d: CardDef) -> CardDef | None:
    """The design `d` evolves into, or None (not a line, or its last stage)."""
    n = STAGE_AFTER.get(d.name)
    return None if n is None else CARDS[n]


# The names every card is found by, made when a name is first looked up
# (`_aliases`): a log whose cards are named as the database writes them
# never asks, and the index is a third of this module's start.
_ALIASES: dict[str, str] = {}   # a name key (`name_keys`) of any name of a card -> English name
_SLUGS: dict[str, str] = {}   # slugs of the English and French names -> English name


def name_keys(alias: str) -> tuple[str, ...]:
    """The keys a card is found by under the name `alias`: the name in any
    case, and its slug (none for a name with no letter or digit of a-z, 0-9)."""
    slug = slugify(alias)
    return (alias.casefold(), slug) if slug else (alias.casefold(),)


def card_key(key: str) -> str | None:
    """The English name of the card a name key (`name_keys`) finds, if any."""
    return (_ALIASES or _aliases()).get(key)


_ALIKE: dict[int, dict[str, str]] = {}     # database version -> look-alike key -> English name


def look_alike(alias: str) -> str | None:
    """The English name of a card one of whose names `alias` looks like
    (the confusable skeletons of oracle.games.mindbug.cards.lookalike, in
    any case and as slugs), if any."""
    from .lookalike import keys

    index = _ALIKE.get(_VERSION[0])
    if index is None:
        index = {}
        written = [(n, c.name) for c in CARDS.values() for n in (c.name, c.french, *OTHER_NAMES.get(c.name, ()))]
        for known, owner in written + list((_ALIASES or _aliases()).items()):     # as written (a capital I looks like an l), folded
            for k in keys(known):
                index.setdefault(k, owner)
        _ALIKE.clear()
        _ALIKE[_VERSION[0]] = index
    return next((index[k] for k in sorted(keys(alias)) if k in index), None)


def _index(c: CardDef, *others: str) -> None:
    name = c.name
    for alias in (name, c.french, c.slug, slugify(c.french), *others):
        slug = slugify(alias)                     # name_keys(alias), its slug made once
        _ALIASES[alias.casefold()] = name
        if slug:
            _ALIASES[slug] = name
            _SLUGS[slug] = name


_OTHER_DECLARED: dict[str, tuple[str, ...]] = {}    # a declared card -> its names in other languages


def _aliases() -> dict[str, str]:
    """`_ALIASES`, indexed first if it is empty (before the first lookup by
    name, and after `compiled.snapshot` put back a database that had none)."""
    if not _ALIASES:
        for c in CARDS.values():
            _index(c, *OTHER_NAMES.get(c.name, ()), *_OTHER_DECLARED.get(c.name, ()))
    return _ALIASES


_VERSION = [0]


def version() -> int:
    """How many sets were added since start-up (caches of card ids key on it)."""
    return _VERSION[0]


def add_set(card_set: CardSet, defs: list, other_names: dict | None = None) -> None:
    """Add a declared set and its cards (oracle.games.mindbug.cards.declared) to the database.
    `other_names` maps a card name to its names in other languages."""
    SETS[card_set.id] = card_set
    STAGE_AFTER.update({a: b for one, two, three in card_set.lines for a, b in ((one, two), (two, three)) if b})
    indexed = bool(_ALIASES)
    for d in defs:
        CARDS[d.name] = d
        others = _OTHER_DECLARED[d.name] = tuple((other_names or {}).get(d.name, ()))
        if indexed:
            _index(d, *others)
    _VERSION[0] += 1


def lookup(name: str) -> CardDef:
    """The card called `name` in English, French, or as a slug; raises
    UnknownCard with the closest names when there is none."""
    found = CARDS.get(name)             # the English name, as logs and decks write it
    if found is not None:
        return found
    aliases = _ALIASES or _aliases()
    key = aliases.get(name.casefold()) or aliases.get(slugify(name))
    if key is None:
        raise UnknownCard(name)
    return CARDS[key]


def suggest(name: str, n: int = 2) -> tuple[str, ...]:
    """The English names of the cards whose English name, French name or
    slug is closest to `name` (at most `n`, closest first)."""
    key = slugify(str(name))
    if not key:
        return ()
    import difflib              # only for a name that is wrong

    _aliases()
    close = difflib.get_close_matches(key, list(_SLUGS), n=n * 3, cutoff=0.6)
    if not close and len(key) >= 3:   # the start of a name: "kanga"
        close = [k for k in _SLUGS if k.startswith(key)]
    out: list[str] = []
    for k in close:
        if _SLUGS[k] not in out:
            out.append(_SLUGS[k])
    return tuple(out[:n])


def full_set(sets=DEFAULT_SETS) -> list[str]:
    """The deck of the named sets (setup.sets): every card name, each copy
    once, in database order; never a stage face (setup.set-aside). First
    Contact alone is 48 cards."""
    keep = set(check_sets(sets))
    return [c.name for c in CARDS.values() if c.card_set in keep and c.stage < 2 for _ in range(c.copies)]


def set_aside_cards(sets=DEFAULT_SETS) -> list[str]:
    """The double-sided cards a game of the named sets sets aside before the
    deal (setup.set-aside), each named by its stage II face, in database
    order: one for each evolution line whose stage I card is in the deck.
    A line whose stage I card is in none of the sets is left out (its card
    could never be used; the sources do not say it is set aside, Q1.1): to
    set every line's card aside, drop the test on `deck`."""
    keep = set(check_sets(sets))
    deck = {c.name for c in CARDS.values() if c.card_set in keep and c.stage == 1}
    return [c.name for c in CARDS.values() if c.stage == 2 and c.line in deck]


def table_cards(sets=DEFAULT_SETS) -> list[str]:
    """Every card of a game of the named sets: the deck, then the set-aside
    double-sided cards (the `cards` of a log's setup line)."""
    return full_set(sets) + set_aside_cards(sets)


def every_card() -> list[str]:
    """Every card of every known set, each copy once, in database order: the
    numbering of scenario card ids (First Contact's 48 first). A set's
    double-sided cards (named by their stage II face) follow its deck cards."""
    return [c.name for c in CARDS.values() for _ in range(c.copies)]
