"""The cards of a deal (rulebook: Game Setup, components; the later sets):
each card's design from the name a log gives it, whether the cards are
exactly those of the sets played, and whether the edition deals them.

What this needs of the card database is worked out once per choice of sets
and kept (`_Known`) while the database stays as it is."""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from msgspec.structs import astuple

from ..cards import DEFAULT_SETS, SETS, CardDef, UnknownCard, UnknownSet, lookup, table_cards, version
from ..cards.abilities import LATER
from .errors import SetupError
from .presence import Flags, flags_of
from .state import COMPILED


class _Known:
    """What a deal needs to know of the card database, kept from deal to deal
    while the database stays as it is (`cards.version`): the design of each
    card name as logs write it, and the deck of each choice of sets as its
    sorted design names. Bounded: names beyond MAX_NAMES are looked up each
    time."""

    MAX_NAMES = 2048

    def __init__(self):
        self.version = -1
        self.designs: dict = {}
        self.decks: dict = {}
        self.places: dict = {}
        self.flags: dict = {}
        self.named: dict = {}
        self.later: dict = {}
        self.ids: dict[int, dict] = {}

    def fresh(self) -> "_Known":
        if self.version != version():
            self.version = version()
            self.designs.clear()
            self.decks.clear()
            self.places.clear()
            self.flags.clear()
            self.named.clear()
            self.later.clear()
        return self

    def id_mapping(self, n: int) -> dict:
        """A mapping of the ids 1 to `n`, each to None, kept to be copied (at
        most MAX_NAMES ids)."""
        ids = self.ids.get(n)
        if ids is None:
            ids = dict.fromkeys(range(1, n + 1))
            if n <= self.MAX_NAMES:
                if len(self.ids) >= 16:
                    self.ids.clear()
                self.ids[n] = ids
        return ids

    def remember(self, name, design) -> None:
        if len(self.designs) < self.MAX_NAMES:
            self.designs[name] = design

    def deck(self, sets) -> list[str]:
        """The design names of the cards of `sets` (cards.table_cards: the deck
        and the set-aside cards), sorted."""
        key = tuple(sets)
        names = self.decks.get(key)
        if names is None:
            names = self.decks[key] = sorted(table_cards(sets))   # raises UnknownSet as full_set does
        return names

    def places_of(self, sets) -> tuple[dict[str, int], list[int]] | None:
        """The deck of `sets` (as `deck`) by places: each of its names -> its
        place among them, and the copies of each name, by place; None if a
        name of the deck is not its design's own."""
        key = tuple(sets)
        if key not in self.places:
            names = self.deck(sets)
            place: dict[str, int] = {}
            copies: list[int] = []
            for n in names:
                if n not in place:
                    if lookup(n).name != n:
                        self.places[key] = None
                        return None
                    place[n] = len(place)
                    copies.append(0)
                copies[place[n]] += 1
            self.places[key] = (place, copies)
        return self.places[key]

    def entries(self, sets) -> tuple[dict[str, tuple], list[int]] | None:
        """The deck of `sets` by names as `places_of` gives it, each name with
        its design: name -> (design, place), and the copies by place; None
        where `places_of` is None."""
        key = tuple(sets)
        if key not in self.named:
            places = self.places_of(sets)
            self.named[key] = None if places is None else (
                {n: (lookup(n), k) for n, k in places[0].items()}, places[1])
        return self.named[key]

    def later_in(self, sets) -> bool:
        """Whether the deck of `sets` holds a card that `check_mechanics`
        refuses in an edition without the later sets."""
        key = tuple(sets)
        later = self.later.get(key)
        if later is None:
            later = self.later[key] = any(_later_card(lookup(n), "") is not None for n in set(self.deck(sets)))
        return later

    def deck_flags(self, sets, defs: dict) -> Flags:
        """The Flags (engine.presence) of a deal of exactly the cards of
        `sets`, whose designs are `defs`: the same for every such deal."""
        key = tuple(sets)
        f = self.flags.get(key)
        if f is None:
            f = self.flags[key] = flags_of(defs)
        return f


_known = _Known()
_COMPILED: Final = COMPILED      # the engine runs compiled (state.COMPILED)


def resolve_cards(cards: dict) -> dict:
    """Card ids to their designs; raises SetupError naming an unknown card."""
    designs: dict = _known.fresh().designs
    fast: dict = {}
    for cid, name in cards.items():
        d = designs.get(name) if isinstance(name, str) else None
        if d is None or type(cid) is not int:
            break       # a name not met yet, or an id written as text: looked up one by one below
        fast[cid] = d
    else:
        return fast
    defs = {}
    for cid, name in cards.items():
        try:
            design = lookup(name)
        except UnknownCard as e:
            raise SetupError("UNKNOWN_CARD", "setup.components", f"unknown card {name!r} (id {cid}){e.hint}",
                             {"card": cid, "name": name}) from None
        defs[int(cid)] = design
        _known.remember(name, design)
    return defs


def numbered(cards: Any) -> dict:
    """The cards of a deal as a mapping (id -> name): `cards` itself, or the
    names of a struct of the ids 1 to N in order (format.ordered_setup)."""
    if type(cards) is dict:
        return cards
    return {i: name for i, name in enumerate(astuple(cards), 1)}


def resolve_deck(cards: Any, sets) -> tuple[dict, bool]:
    """`resolve_cards` in one pass with the test of `check_composition`, for
    a deal that names every card by its design's own name, of the deck of
    `sets`: (designs by card id, True) when the deal is exactly that deck;
    otherwise (`resolve_cards`, False), and the composition is still to be
    checked. `cards`: id -> name, or the names of the ids 1 to N in order
    (`numbered`)."""
    try:
        named = _known.fresh().entries(sets)
    except UnknownSet:
        named = None        # raised again by check_composition, after the cards are resolved
    if type(cards) is not dict:
        if named is not None:
            ordered = _ordered(cards, named[0], named[1])
            if ordered is not None:
                return ordered, True
        return resolve_cards(numbered(cards)), False
    if named is not None:
        entry: dict[str, tuple[CardDef, int]] = named[0]
        deck: list[int] = named[1]
        # A copy of the deal's own mapping, each name then replaced by its
        # design: the copy is made at once, where a dict filled id by id grows again and again.
        defs: dict = dict(cards)
        copies: list[int] = [0] * len(deck)
        for cid, name in cards.items():
            e: tuple[CardDef, int] | None = entry.get(name) if isinstance(name, str) else None
            if e is None or type(cid) is not int:
                break
            defs[cid] = e[0]
            k: int = e[1]
            copies[k] = copies[k] + 1     # an add of the compiled build's own ints, where `+=` adds objects
        else:
            if copies == deck:
                return defs, True
    return resolve_cards(cards), False


def _ordered(cards: Any, entry: dict[str, tuple[CardDef, int]], deck: list[int]) -> dict | None:
    """`resolve_deck` of the names of the ids 1 to N in order: the designs by
    id when they are exactly the deck whose names and copies by place are
    `entry` and `deck` (`_Known.entries`); else None. The mapping is built
    as the designs are looked up, where a decoded one would be copied."""
    names = astuple(cards)
    # A copy of a mapping of the ids 1 to N, each design then put in its place:
    # the copy is made at once, where a dict filled id by id grows again and again.
    defs: dict = _known.id_mapping(len(names)).copy()
    copies: list[int] = [0] * len(deck)
    cid = 0
    for name in names:
        cid += 1
        e: tuple[CardDef, int] | None = entry.get(name)
        if e is None:
            return None
        defs[cid] = e[0]
        k: int = e[1]
        copies[k] = copies[k] + 1
    if not _COMPILED:
        return defs if copies == deck else None
    for i in range(len(deck)):      # compared as the compiled build's own ints, where == compares objects
        if copies[i] != deck[i]:
            return None
    return defs


def check_composition(defs: dict, sets=DEFAULT_SETS, written=None) -> None:
    """setup.components, setup.sets: every card of the named sets (48 for First
    Contact alone), each design in its number of copies, and the double-sided
    cards the sets put aside (setup.set-aside). `written`: the names of the
    cards of `defs` as the log writes them, if known."""
    known = _known.fresh()
    if written is not None:
        # The names as written, each a name of the sets' deck, and so the
        # name of the card's own design (resolve_cards): counted by their
        # places among the deck's names.
        places = known.places_of(sets)
        if places is not None:
            place, deck = places
            copies = [0] * len(deck)
            for n in written:
                k = place.get(n)
                if k is None:
                    break
                copies[k] += 1
            else:
                if copies == deck:
                    return
    names = [d.name for d in defs.values()]
    names.sort()
    if names == known.deck(sets):
        return
    have = Counter(d.name for d in defs.values())
    want = Counter(table_cards(sets))
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        # Whole sets among the extra cards: a game line that does not name them in `sets`.
        unnamed = [k for k in SETS if k not in sets and table_cards((k,)) and Counter(table_cards((k,))) <= have - want]
        hint = (f" (every card of {', '.join(unnamed)}: the game line's sets names "
                f"{'it' if len(unnamed) == 1 else 'them'})" if unnamed else "")
        raise SetupError("BAD_SETUP", "setup.components",
                         f"the cards are not the {sum(want.values())} cards of "
                         f"{'the set' if len(sets) == 1 else 'the sets'} {', '.join(sets)}"
                         + (f"; too many: {', '.join(extra)}{hint}" if extra else "")
                         + (f"; missing: {', '.join(missing)}" if missing else ""),
                         {"extra": extra, "missing": missing, "actual": {"extra": extra, "missing": missing}})


def check_mechanics(prof, defs: dict) -> None:
    """setup.sets.later: the cards of the later sets (Beyond sets, promos)
    are dealt only in the edition that knows them; later.octonite: declared
    cards that use a later-set mechanic (FAST, Harvest, Octonite, steal life,
    refresh, unused-pile draws) are dealt only in an edition that has those
    mechanics."""
    if prof.later_sets:
        return
    for d in defs.values():
        err = _later_card(d, prof.edition)
        if err is not None:
            raise err


def _later_card(d, edition: str) -> SetupError | None:
    """Why `edition`, an edition without the later sets, refuses to deal the
    design `d` (`check_mechanics`), or None."""
    card_set = SETS.get(d.card_set)
    if card_set is not None and card_set.later:
        return SetupError("BAD_SETUP", "setup.sets.later",
                          f"{d.name} is a card of {card_set.name}, a set the {edition} rules do not know "
                          "(only en-revised deals the later sets and promos)",
                          {"card": d.name, "set": card_set.id})
    if d.name in LATER:
        return SetupError("BAD_SETUP", "later.octonite",
                          f"{d.name} uses {', '.join(LATER[d.name])}, which the {edition} rules do not "
                          "have (only en-revised)", {"card": d.name})
    return None
