"""The games the oracle knows: a registry of game name -> the module that
holds the game's entry, imported only when the game is used.

A game is a package, a folder of its own laid out as every game's: its
rules engine (`engine/`), its cards, clause catalogue, editions and
readings, its replay vocabulary (`replay/`), its scenario vocabulary
(`scenarios/`), its board (`board`), its hunt, harness and fuzz targets.
Its entry module (the value below) imports nothing at load: it names the
parts the core calls, as "module:attribute" strings imported when used
(`attribute(game, "VERIFY")`). The parts, what each is and which every
game must give, are written once, in oracle.games.interface (PARTS).

Adding a game is one new folder under oracle/games/ and one line here.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

DEFAULT = "mindbug"

# game name -> the module of its entry
GAMES: dict[str, str] = {
    "mindbug": "oracle.games.mindbug",
    "mind-up": "oracle.games.mindup",
}


# format id -> game, for a game line that names its format and not its game
# (a mu-replay/1 line is a game of Mind Up! with or without `"game": "mind-up"`)
FORMATS: dict[str, str] = {
    "mb-replay/1": "mindbug",
    "mu-replay/1": "mind-up",
}


class UnknownGame(ValueError):
    """A game name the registry does not know; the message names the known ones."""


def names() -> tuple[str, ...]:
    return tuple(GAMES)


def check(name: str) -> str:
    if name not in GAMES:
        import difflib

        near = difflib.get_close_matches(str(name), list(GAMES), n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise UnknownGame(f"unknown game {name!r}{hint} (known: {', '.join(GAMES)})")
    return name


def entry(name: str) -> ModuleType:
    """The entry module of a game (imported on first use)."""
    return importlib.import_module(GAMES[check(name)])


def attribute(name: str, what: str):
    """A part of a game, by the name its entry gives it ("module:attribute"):
    e.g. attribute("mind-up", "VERIFY") is its verify_game."""
    module, attr = getattr(entry(name), what).split(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=None)
def _named():
    """The decoder of a game line's `game` field, made on first use: the
    registry is imported by every command, msgspec only by those that read."""
    import msgspec

    class _Named(msgspec.Struct):
        game: object = DEFAULT

    return msgspec.json.Decoder(_Named)


def game_of(head: bytes) -> object:
    """The game a game line names (its `game` field; without one, the game
    whose format it names, else Mindbug). A Mindbug game line holds the
    text "game" once (its type), so it costs a few byte searches and no
    parse; any other value is returned as written (the caller reports a
    game the registry does not know)."""
    if head.count(b'"game"') < 2:
        return _game_of_format(head)
    import msgspec

    try:
        return _named().decode(head).game
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        # A broken line (cut short, a bad escape): a known game it names
        # plainly, whose verifier words the problem; else Mindbug's does.
        import re

        named = re.search(rb'"game"\s*:\s*"([a-z-]{1,40})"', head)
        game = named.group(1).decode() if named else None
        return game if game in GAMES else DEFAULT


def _game_of_format(head: bytes) -> str:
    """The game of the format a game line without `game` names: Mindbug
    unless its `format` is another game's."""
    for name, game in FORMATS.items():
        if game != DEFAULT and head.find(name.encode()) >= 0:   # `find`: `in` tries the bytes as a number first
            import re

            if re.search(rb'"format"\s*:\s*"' + re.escape(name.encode()) + rb'"', head):
                return game
    return DEFAULT
