"""Building HTML report pages for the tests: the sample corpus verified, and
a large run made from it (the same games under new ids)."""

from __future__ import annotations

import json
import re

import msgspec

from oracle.replay.reader import read_all
from oracle.replay.verify import verify_game
from oracle.report.page import HtmlReport, MAX_BOARDS, MAX_CONFORMING_BOARDS, log_lines
from oracle.games.mindbug.board import game_steps

_TAG = re.compile(r'<script type="application/json" id="game-(\d+)">(.*?)</script>')


def game_data(html: str) -> dict[int, dict]:
    """Every game's data in a page, by its index in the list."""
    return {int(m.group(1)): json.loads(m.group(2)) for m in _TAG.finditer(html)}


_INDEX = re.compile(r'<script type="application/json" id="game-index">(.*?)</script>')


def game_index(html: str) -> list[dict]:
    """The rows of the game list: id, verdict, codes, clauses, board, file, line."""
    idx = json.loads(_INDEX.search(html).group(1))
    keys = ("id", "verdict", "codes", "clauses", "cards", "board", "file", "line")
    out = []
    for r in idx["rows"]:
        row = dict(zip(keys, r))
        row["file"] = idx["files"][row["file"]]
        out.append(row)
    return out


def sample_games(root):
    """(report, steps, log lines) of every sample game."""
    out = []
    for raw in read_all((str(root / "replays"),)):
        rep = verify_game(raw)
        _, steps = game_steps(raw)
        out.append((rep, steps, log_lines(raw)))
    return out


def large_page(samples, n: int, path) -> None:
    """A page of `n` games: the sample games over and over under new ids,
    with boards for as many games as a verify run draws."""
    page = HtmlReport(title=f"{n} games", command="test", inputs=["replays"])
    boards = {"conforms": 0, "other": 0}
    for k in range(n):
        rep, steps, log = samples[k % len(samples)]
        rep = msgspec.structs.replace(rep, id=f"{rep.id}-{k:05d}")
        key = "conforms" if rep.verdict == "conforms" else "other"
        if boards[key] < (MAX_CONFORMING_BOARDS if key == "conforms" else MAX_BOARDS):
            boards[key] += 1
            page.game(rep, steps=steps, log=log)
        else:
            page.game(rep, no_board="board_limit")
    with open(path, "w", encoding="utf-8") as f:
        page.finish(f)
