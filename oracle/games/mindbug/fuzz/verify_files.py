"""The files `verify` reads beside the logs, for the targets `expect` and
`cards` (and the files of `yaml-values`): the expectation loader in
process, and both files through the command line, on a self-played game."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from ....fuzz.checks import Tally
from ....fuzz.cli_checks import cli_problem, run_cli
from .corpus import selfplay_games


def _sample_reports():
    from ....replay.reader import split_games
    from ....replay.verify import verify_game

    games = selfplay_games()[:2]
    data = b"\n".join(b"\n".join(g) for g in games) + b"\n"
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<fuzz>")]


def check_expect(tally: Tally, data: bytes) -> list:
    """The expectation loader: an ExpectError or entries that apply to
    reports; the stale expectations (none when the file is refused)."""
    from ....replay import expect

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "expect.yaml"
        path.write_bytes(data)
        try:
            entries = expect.load(str(path))
        except expect.ExpectError:
            return []
    for rep in _sample_reports():
        entries.apply(rep)
    return entries.stale()


def cli_expect(tally: Tally, data: bytes, seconds: float) -> None:
    _cli_verify_with(tally, "cli-expect", "--expect", data, seconds)


def _cli_verify_with(tally: Tally, target: str, option: str, data: bytes, seconds: float) -> None:
    """`mb-oracle verify --format json OPTION FILE` (FILE holding `data`) on a
    self-played game: a clear error or a verdict, never a traceback."""
    tally.cli_runs += 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.yaml"
        path.write_bytes(data)
        games = Path(tmp) / "games.jsonl"
        games.write_bytes(b"\n".join(selfplay_games()[0]) + b"\n")
        r = run_cli(["verify", "--format", "json", option, str(path), str(games)], seconds)
    cli_problem(tally, target, data, ".yaml", r)


def cli_cards(tally: Tally, data: bytes, seconds: float) -> None:
    _cli_verify_with(tally, "cli-cards", "--cards", data, seconds)
