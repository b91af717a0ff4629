"""The head of a game line (its id, format and edition as written), read
whatever the game and even when the line breaks its format's contract."""

from __future__ import annotations

import msgspec

from .limits import LONG_LINE_HEAD, LONG_LINE_TAIL, RefusedLine, long_game_line


class _Head(msgspec.Struct):
    """The parts of a game line read even when the line breaks the contract."""

    id: str = "?"
    format: object = None
    edition: object = None


_head = msgspec.json.Decoder(_Head)


def loose_head(raw: bytes) -> _Head:
    """A game line's id, format and edition as written, whatever their types."""
    if raw.__class__ is RefusedLine:
        return _Head(id=raw.game_id or "?")   # too long to read: the id the reader saw, if any
    try:
        return _head.decode(raw)
    except msgspec.ValidationError:
        return _Head()
    except (msgspec.DecodeError, ValueError, RecursionError):
        # Invalid JSON or UTF-8, or nested too deep: the id, if it reads as one.
        return _Head(id=long_game_line(raw[:LONG_LINE_HEAD], raw[-LONG_LINE_TAIL:])[1] or "?")
