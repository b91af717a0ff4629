"""Each game's board on the page, through the registry (oracle.games): the
module its entry names BOARD, imported when a page first needs it."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..games import DEFAULT, GAMES, entry, game_of


def board(game) -> ModuleType | None:
    """The board of `game` (its entry's BOARD module), or None for a game
    the registry does not know or that has no board."""
    if not isinstance(game, str) or game not in GAMES:
        return None
    where = getattr(entry(game), "BOARD", None)
    return None if where is None else importlib.import_module(where)


def game_of_raw(raw) -> object:
    """The game a game read from a log names (its game line's `game`; none: the default game)."""
    return game_of(bytes(raw.lines[0][1])) if raw.kind == "game" and raw.lines else DEFAULT


def drawn() -> str:
    """The games the page draws a board for, by title: "Mindbug and Mind Up!"."""
    titles = [entry(g).TITLE for g in GAMES if getattr(entry(g), "BOARD", None) is not None]
    return " and ".join([", ".join(titles[:-1]), titles[-1]]) if len(titles) > 1 else "".join(titles)
