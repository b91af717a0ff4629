"""How scenarios name cards and keywords: each card of every known set has
an instance id (First Contact's 48 first, declared sets last), written
`Name` for a first copy and `Name#2` for a second; keywords in English or
French, in any case."""

from __future__ import annotations

import re
from functools import cache

from msgspec import UNSET

from ..games.mindbug.cards import (CARDS, DEFAULT_SETS, KEYWORD_NAMES, UnknownCard, check_sets, every_card, lookup,
                                   version)
from ..games.mindbug.cards.first_contact import KEYWORD_FRENCH


def _instances() -> tuple[dict[tuple[str, int], int], dict[int, str]]:
    return _instances_of(version())


@cache
def _instances_of(_version: int) -> tuple[dict[tuple[str, int], int], dict[int, str]]:
    """Card ids over every known card; declared sets (a new `version`) come last."""
    ids: dict[tuple[str, int], int] = {}
    names: dict[int, str] = {}
    seen: dict[str, int] = {}
    for cid, name in enumerate(every_card(), 1):
        copy = seen[name] = seen.get(name, 0) + 1
        ids[(name, copy)] = cid
        names[cid] = name if copy == 1 else f"{name}#{copy}"
    return ids, names


class CardRefError(ValueError):
    pass


_COPY = re.compile(r"^(.*?)\s*#\s*(\d+)$")


def card_id(ref: str) -> int:
    """The instance id of `Name` (first copy) or `Name#2`; raises CardRefError."""
    m = _COPY.match(ref)
    name, copy = (m.group(1), int(m.group(2))) if m else (ref, 1)
    try:
        design = lookup(name)
    except UnknownCard as e:
        raise CardRefError(f"unknown card {ref!r}{e.hint}") from None
    if design.copies == 0 and design.stage >= 2 and design.line:
        raise CardRefError(f"{design.name} is the stage {'I' * design.stage} face of {design.line}'s line, "
                           f"not a card of its own: a creature at that stage is named by its stage I card, "
                           f"{design.line} (in `given`: {{card: {design.line}, stage: {design.stage}}})")
    if not 1 <= copy <= design.copies:
        n = design.copies
        raise CardRefError(f"{design.name} has {n} cop{'y' if n == 1 else 'ies'} in the set, "
                           f"so {ref!r} does not exist")
    return _instances()[0][(design.name, copy)]


def card_name(cid: int) -> str:
    """`Name` for a first copy, `Name#2` for a second one."""
    return _instances()[1][cid]


def all_ids(sets=DEFAULT_SETS) -> list[int]:
    """The ids of the deck of `sets` (setup.sets)."""
    keep = set(sets)
    return [cid for cid, name in _instances()[1].items() if CARDS[name.split("#")[0]].card_set in keep]


def scenario_sets(doc, extra=()) -> tuple[str, ...]:
    """The sets a scenario is played with: its own (First Contact by
    default) and `extra` ones (`mb-oracle scenarios --sets`)."""
    own = DEFAULT_SETS if doc.sets is UNSET else doc.sets
    return check_sets(dict.fromkeys([*own, *extra]))


_KEYWORDS = {n.casefold(): n for n in KEYWORD_NAMES.values()}
_KEYWORDS.update({KEYWORD_FRENCH[b].casefold(): n for b, n in KEYWORD_NAMES.items()})


def keyword_name(word: str) -> str | None:
    """The English keyword for FRENZY/FURIE... in any case, or None."""
    return _KEYWORDS.get(word.casefold())
