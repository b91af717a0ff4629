"""Seed inputs for the fuzz run, as each game's targets read them
(oracle.games.<game>.fuzz): the games of a stream or of a folder of logs,
the scenario documents and the YAML files of a folder."""

from __future__ import annotations

import io
from pathlib import Path


def file_games(folder: str | Path | None) -> tuple[tuple[bytes, ...], ...]:
    """The games of the *.jsonl files under `folder` (e.g. replays/), if it exists."""
    if folder is None or not Path(folder).is_dir():
        return ()
    games: list[tuple[bytes, ...]] = []
    for path in sorted(Path(folder).rglob("*.jsonl")):
        games += stream_games(path.read_bytes(), str(path))
    return tuple(games)


def stream_games(data: bytes, name: str) -> list[tuple[bytes, ...]]:
    """The games of a stream as tuples of lines, cut where the reader cuts them."""
    from ..replay.reader import split_games

    return [tuple(line for _, line in raw.lines) for raw in split_games(io.BytesIO(data), name) if raw.kind == "game"]


def scenario_documents(folder: str | Path | None) -> tuple[str, ...]:
    """Each scenario document of the YAML files under `folder`, as text."""
    docs: list[str] = []
    if folder is not None and Path(folder).is_dir():
        for path in sorted(Path(folder).rglob("*.yaml")):
            for part in path.read_text(encoding="utf-8").split("\n---\n"):
                if "mb-scenario/" in part:
                    docs.append(part)
    return tuple(docs)


def yaml_texts(folder: str | Path | None, marker: str) -> tuple[str, ...]:
    """The YAML files under `folder` that hold `marker` (a format, e.g. "mb-cards/"), as text."""
    docs: list[str] = []
    if folder is not None and Path(folder).is_dir():
        for path in sorted(Path(folder).rglob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            if marker in text:
                docs.append(text)
    return tuple(docs)
