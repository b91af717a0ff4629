"""How the scenario runner writes cards, options and events: by the names
scenarios give cards (`Name`, `Name#2`), never by engine ids."""

from __future__ import annotations

import re
from functools import cache

from ..cards import SETS, version
from ..engine.state import asks_number
from .cards import all_ids, card_name, step_card
from .loader import step_kind

_CARD_IN_TEXT = re.compile(r"\b((?:life |revealed )?card|id) (\d+)\b")
_CARD_LIST = re.compile(r"\b(cards\b[^\[\]{}\n]{0,40}?)([\[{])(\d+(?:, *\d+)*)([\]}])")


def _named(text: str) -> str:
    """Engine messages name cards by id (`card 12`, `cards placed twice:
    [3, 4]`); scenarios name them by name, and so do their messages."""
    def one(m):
        cid = int(m.group(2))
        if cid not in _names():
            return m.group(0)
        if m.group(1) == "card":
            return card_name(cid)
        return f"{m.group(1)} {card_name(cid)}" if m.group(1).endswith("card") else card_name(cid)

    def many(m):
        ids = [int(x) for x in m.group(3).split(",")]
        if not all(c in _names() for c in ids):
            return m.group(0)
        return m.group(1) + m.group(2) + ", ".join(card_name(c) for c in ids) + m.group(4)
    return _CARD_IN_TEXT.sub(one, _CARD_LIST.sub(many, text))


def _cards(ids) -> str:
    return "[" + ", ".join(card_name(c) for c in ids) + "]"


def option_text(kind: str, arg, numbers: bool = False) -> str:
    """A decision as a step writes it; `numbers`: its picks are numbers (a
    die's face, a named power), written as such, not as cards."""
    if kind in ("mindbug", "pass"):
        return kind
    if arg is None:
        return f"{kind}: null"
    if isinstance(arg, tuple):
        return f"{kind}: {list(arg) if numbers else _cards(arg)}"
    return f"{kind}: {card_name(arg)}"


def event_text(ev) -> str:
    parts = [ev.kind]
    if ev.card is not None:
        parts.append(card_name(ev.card))
    if ev.cards is not None:
        parts.append(_cards(ev.cards))
    if ev.amount is not None and ev.kind not in ("turn",):
        parts.append(str(ev.amount))
    if ev.player is not None:
        parts.append(f"(player {ev.player})")
    if ev.source is not None:
        parts.append(f"from {card_name(ev.source)}")
    return " ".join(parts) + " [" + ", ".join(ev.clauses) + "]"


def _decision(step) -> tuple[str, object]:
    """(kind, engine argument) of a step."""
    kind, value, _by = step_kind(step)
    if kind in ("mindbug", "pass"):
        return kind, None
    if kind in ("choose", "random"):
        return kind, tuple(sorted(step_card(kind)(r) if isinstance(r, str) else r for r in value))
    return kind, (None if value is None else step_card(kind)(value))


def _names() -> frozenset:
    return _names_of(version())


@cache
def _names_of(_version) -> frozenset:
    return frozenset(all_ids(tuple(SETS)))


def options_text(g) -> str:
    if not g.pending:
        return "nothing (game over)"
    numbers = asks_number(g.pending)
    return ", ".join(option_text(k, a, numbers) for k, a in g.pending.options)
