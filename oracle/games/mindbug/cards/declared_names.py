"""The names of declared cards (oracle.games.mindbug.cards.declared): a
declared card or set takes no name the database knows already (as written,
in another case, as a slug), none that looks like another card's (the
confusable skeletons of .lookalike), none a scenario could not name it by,
and none holding a character a terminal would act on or hide."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....term import visible
from . import lookalike

if TYPE_CHECKING:
    from .declared import CardFile, CardSpec


def _aliases(spec: CardSpec) -> list[tuple[list, str]]:
    """(field path, name) of every name a card is known by: its name and its
    names in other languages (each also in any case and as its slug)."""
    return [(["name"], spec.name)] + [(["names", lang], n) for lang, n in spec.names.items()]


def _hidden(alias: str) -> str | None:
    """Why a name may not be shown as it is, or None."""
    if visible(alias) != alias:
        return f"'{visible(alias)}': a name holds a control, format or line-separator character"
    return None


def _unnamable(alias: str) -> str | None:
    """Why a scenario could not name the card by `alias`, or None."""
    if "#" in alias:
        return (f"{alias!r}: a scenario names a card's copies with '#' (Spider Owl#2), so a card's name holds "
                "no '#'")
    return None


def check_names(cf: CardFile, fail, declared: dict | None) -> None:
    """No name or alias of a declared card or set, in any form (as written,
    in another case, as a slug), may be one the database knows already: it
    would take that name over in every game of the run, not only in the
    games that deal this set. Nor may two cards of the file share one, nor
    may a name hold a character a terminal would act on or hide."""
    from . import SETS, name_keys, set_id

    for path, alias in [(["set", "name"], cf.set.name)] + [(["set", "names", k], v) for k, v in cf.set.names.items()]:
        if _hidden(alias):
            fail(path, _hidden(alias))
        elif set_id(alias) in SETS:
            fail(path, f"{alias!r} is the name of the set {set_id(alias)!r} already; name the declared set "
                       "differently")
    by = {c.name: d.path for d in (declared or {}).values() for c in d.cards}
    mine: dict[str, int] = {}   # name key -> the card of this file known by it
    alike: dict[str, int] = {}  # look-alike key -> the card of this file whose name has it
    for i, c in enumerate(cf.cards):
        for path, alias in _aliases(c):
            at = ["cards", i] + path
            problem = _name_problem(cf, i, path, alias, mine, by) or _alike_problem(cf, i, alias, alike, by)
            if problem:
                fail(at, problem)                 # one problem a name
            for key in name_keys(alias):
                mine.setdefault(key, i)
            for key in lookalike.keys(alias):
                alike.setdefault(key, i)


def _name_problem(cf: CardFile, i: int, path: list, alias: str, mine: dict, by: dict) -> str | None:
    """What is wrong with the name `alias` of card `i` (at `path`), or None:
    `mine` holds the name keys of the file's cards so far, `by` the file that
    declared each card of another file of the run."""
    from . import card_key, name_keys

    if _hidden(alias) or _unnamable(alias):
        return _hidden(alias) or _unnamable(alias)
    first = mine.get(alias.casefold(), i)
    if path == ["name"] and first != i and cf.cards[first].name.casefold() == alias.casefold():
        return f"{alias!r} is declared twice"
    for key in name_keys(alias):
        owner = card_key(key)
        if owner is not None:
            return (f"{alias!r} is a name of {owner!r} already ({_whose(owner, by)}; in any case or as a slug): "
                    "a declared card takes names no other card is known by")
        if mine.get(key, i) != i:
            return f"{alias!r} names {cf.cards[mine[key]].name!r} of this file too"
    return None


def _whose(owner: str, by: dict) -> str:
    """Whose the card `owner` is: a file of the run (`by`), or a shipped set."""
    from . import CARDS

    return (f"declared already in this run, by {by[owner]}" if owner in by
            else f"a card of the shipped set {CARDS[owner].card_set!r}")


def _alike_problem(cf: CardFile, i: int, alias: str, alike: dict, by: dict) -> str | None:
    """Whether the name `alias` of card `i` looks like a name of another
    card (the confusable skeletons of .lookalike): of the database, of
    another file of the run (`by`), or of this file (`alike`)."""
    from . import look_alike

    strangers = lookalike.strangers(alias)
    why = ", ".join(strangers)
    owner = look_alike(alias)
    if owner is not None:
        about = "; ".join(filter(None, [_whose(owner, by), why]))
        return (f"{alias!r} looks like a name of {owner!r} ({about}): a declared card takes no name that reads as "
                "another card's")
    other = next((alike[k] for k in sorted(lookalike.keys(alias)) if alike.get(k, i) != i), None)
    if other is not None:
        return f"{alias!r} looks like {cf.cards[other].name!r} of this file" + (f" ({why})" if why else "")
    return None
