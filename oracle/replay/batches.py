"""What the reader (oracle.replay.reader) looks up in a batch of lines,
compiled: whether a line is blank or space-led, and which lines may be game
lines.

Interpreted, `min(batch)` and `list.index` answer these with loops in C;
compiled, a loop over the lines that reads their lengths and first bytes
costs a fifth of their comparisons of whole lines. The reader calls these
only in the compiled build (`COMPILED`).
"""

from __future__ import annotations

import types
from typing import Final

_GAME: Final = b'"game"'


def low_line(batch: list[bytes]) -> bool:
    """Whether a line of `batch` is empty or starts with a byte that sorts
    before b"!" (blank or space-led): `not min(batch)[:1] > b" "`."""
    for line in batch:
        if len(line) == 0 or line[0] <= 32:
            return True
    return False


def game_marks(block: bytes, end: int, lines: list[bytes]) -> list[int]:
    """The indexes in `lines` (the lines of `block[:end]`, in order) of the
    lines that hold the text "game" in quotes, in order: the only ones that
    can be game lines (`reader._maybe_games`). Each is found by its offset
    in `block`, counted from the lengths of the lines before it."""
    out: list[int] = []
    pos = block.find(_GAME, 0, end)
    i = 0
    start = 0           # where line i starts in block
    n = len(lines)
    while pos >= 0:
        # The line that holds `pos`: the first that ends after it.
        while i < n and start + len(lines[i]) < pos:
            start += len(lines[i]) + 1
            i += 1
        if i == n:
            break               # not a line of `lines`: never so when they are block[:end]'s own
        out.append(i)
        start += len(lines[i]) + 1
        i += 1
        pos = block.find(_GAME, start, end)
    return out


# Whether this module runs compiled (mypyc makes built-in functions of its functions).
COMPILED: Final = not isinstance(low_line, types.FunctionType)
