"""Names that look alike: the confusable skeleton of Unicode's security
mechanisms (UTS #39, section 4), so that a declared card cannot take a
name that looks like another card's ("Spider Owl" with a Cyrillic O, a
dotless i, a capital I for an l).

The data is Unicode's confusables.txt as the package confusable-homoglyphs
ships it: each character written as its prototype's look-alike is paired
with that prototype, in both directions. Every prototype's class is so a
star around it (the prototype is paired with every other member, each
other member with the prototype alone); the skeleton writes each member
as the prototype. Where a class has two members, either may be the
prototype for all equality needs, except that a sequence of several
characters is always the prototype (a look-alike is one character).

`keys(name)` gives the keys two names share when they look alike, in any
case and as slugs, as `name_keys` does for names found as they are.
"""

from __future__ import annotations

import unicodedata

_LRM = "\u200e"             # the data wraps right-to-left characters in marks, for display
_PROTOTYPE: dict[str, str] = {}


def _table() -> dict[str, str]:
    """character -> the prototype it looks like (read once, when first asked)."""
    if not _PROTOTYPE:
        from confusable_homoglyphs.confusables import confusables_data

        near: dict[str, set[str]] = {}
        for a, found in confusables_data.items():
            a = a.replace(_LRM, "")
            for h in found:
                b = h["c"].replace(_LRM, "")
                if a and b and a != b:
                    near.setdefault(a, set()).add(b)
                    near.setdefault(b, set()).add(a)
        for a, others in near.items():
            if len(a) != 1 or len(others) != 1:
                continue            # a sequence, or a prototype (paired with several look-alikes)
            (b,) = others
            if len(near[b]) > 1 or len(b) > 1 or b < a:
                _PROTOTYPE[a] = b
    return _PROTOTYPE


def look_alikes(c: str) -> list[str]:
    """The single characters that look like `c` (its prototype's class,
    `c` left out), in code point order: what a spoofed name would use."""
    table = _table()
    proto = table.get(c, c)
    return sorted(s for s in {proto, *(k for k, v in table.items() if v == proto)} if len(s) == 1 and s != c)


def skeleton(text: str) -> str:
    """`text` with each character written as the prototype it looks like (UTS #39 skeleton)."""
    table = _table()
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in nfd))


def strangers(name: str) -> list[str]:
    """The characters of `name` beyond ASCII that look like another, each
    as `U+041E CYRILLIC CAPITAL LETTER O looks like 'O'`, for a message."""
    table = _table()
    return [f"U+{ord(c):04X} {unicodedata.name(c, '?')} looks like {table[c]!r}"
            for c in dict.fromkeys(unicodedata.normalize("NFD", name)) if ord(c) > 127 and c in table]


def keys(name: str) -> set[str]:
    """The look-alike keys of a name: its skeleton's slug, taken as the
    name is written, folded and in capitals (a capital I looks like an l;
    folded, it is an i): two names in any case that look alike share one."""
    from . import slugify

    out = set()
    for text in (name, name.casefold(), name.upper()):
        slug = slugify(skeleton(text).casefold())
        if slug:
            out.add(slug)
    return out
