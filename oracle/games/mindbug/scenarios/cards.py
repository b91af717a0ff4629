"""How scenarios name cards and keywords: each card of every known set has
an instance id (First Contact's 48 first, declared sets last), written
`Name` for a first copy and `Name#2` for a second; keywords in English or
French, in any case."""

from __future__ import annotations

import re
from functools import cache

from msgspec import UNSET

from ..cards import CARDS, DEFAULT_SETS, KEYWORD_NAMES, UnknownCard, check_sets, every_card, lookup, version
from ..cards.first_contact import KEYWORD_FRENCH


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
                           f"not a card of its own: it names a creature in play at that stage (a step, a "
                           f"creature in `play`, `power`, `stage`...), else name its stage I card, "
                           f"{design.line} (in `given`: {{card: {design.line}, stage: {design.stage}}})")
    if not 1 <= copy <= design.copies:
        n = design.copies
        raise CardRefError(f"{design.name} has {n} cop{'y' if n == 1 else 'ies'} in the set, "
                           f"so {ref!r} does not exist")
    return _instances()[0][(design.name, copy)]


def face(ref: str) -> tuple[str, int] | None:
    """When `ref` names the stage II or III face of an evolution line
    (later.evolve): the line's stage I card, as a scenario names it (with
    the same copy), and the stage; else None."""
    m = _COPY.match(ref)
    name, copy = (m.group(1), int(m.group(2))) if m else (ref, 1)
    try:
        design = lookup(name)
    except UnknownCard:
        return None
    if design.stage < 2 or not design.line or design.line == design.name:
        return None
    return (design.line if copy == 1 else f"{design.line}#{copy}"), design.stage


def creature_id(ref: str) -> int:
    """The id of the creature in play `ref` names: its card, or for a stage
    face (Frog Prophet) the line's stage I card (Curious Tadpole), which is
    the creature at that stage; raises CardRefError."""
    f = face(ref)
    return card_id(f[0] if f else ref)


def step_card(kind: str):
    """How a step of `kind` names a card: as a creature in play (a stage
    face names its line's stage I card), except a card played from hand and
    a random outcome, which name the card itself."""
    return card_id if kind in ("play", "random") else creature_id


def references(cards: dict[int, str]) -> dict[int, str]:
    """Each card id of a table (id -> design name) as a scenario names it:
    the copies of a design numbered in the order of their ids, `Name` for
    the first and `Name#2` for the second."""
    seen: dict[str, int] = {}
    out = {}
    for cid in sorted(cards):
        name = cards[cid]
        copy = seen[name] = seen.get(name, 0) + 1
        out[cid] = name if copy == 1 else f"{name}#{copy}"
    return out


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
