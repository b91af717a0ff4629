"""The games of the replay log named with `mb-oracle board --log FILE`:
their ids, and one game at the start of a turn as a position the page can
start from (each game's BOARD_EDIT: log_position). The log is read as
verify reads it (oracle.replay.reader: gzip data, limits on lines)."""

from __future__ import annotations

import os

from .. import games
from ..replay.reader import READ_ERRORS, open_log, split_games
from .files import FileRefused
from .play import edit_part

MAX_GAMES = 10_000          # the games of a log the board lists


def _games(path: str):
    try:
        with open_log(path) as stream:
            for n, raw in enumerate(split_games(stream, path)):
                if n >= MAX_GAMES:
                    break
                if raw.kind == "game" and raw.lines:
                    yield raw
    except READ_ERRORS as e:
        raise FileRefused(400, "BAD_LOG", f"the log cannot be read: {getattr(e, 'strerror', None) or e}") from None


def _id(raw) -> str:
    from ..replay.lines import loose_head

    return str(loose_head(raw.lines[0][1]).id)


def game_ids(path: str) -> list[str]:
    return [_id(raw) for raw in _games(path)]


def summary(log_file: str | None) -> dict | None:
    """The replay log of `--log`: its name and the ids of its games."""
    if log_file is None:
        return None
    return {"file": os.path.basename(log_file), "games": game_ids(log_file)}


def position(path: str | None, game_id: str, step: int) -> dict:
    """{"document", "step", "game"}: game `game_id` of the log at the start
    of the turn at or before `step`."""
    if path is None:
        raise FileRefused(400, "NO_LOG", "this board reads no replay log: start it with `mb-oracle board --log FILE`")
    for raw in _games(path):
        if _id(raw) != game_id:
            continue
        game = games.game_of(raw.lines[0][1])
        if not isinstance(game, str) or game not in games.GAMES:
            raise FileRefused(400, "BAD_LOG", f"game {game_id!r} is of a game this board does not know", "?game")
        try:
            out = edit_part(game).log_position(raw, step)
        except ValueError as e:
            raise FileRefused(400, "BAD_LOG", str(e), "?step") from None
        return {**out, "game": game}
    raise FileRefused(404, "NOT_FOUND", f"the log has no game {game_id!r}", "?game")
