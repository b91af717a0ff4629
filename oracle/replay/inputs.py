"""Which files the paths given to a command stand for: files as given,
folders searched for logs, globs the shell left alone expanded, standard
input; a folder that cannot be searched stands as an `Unread` path.
oracle.replay.reader reads them."""

from __future__ import annotations

import os
import sys

from .globs import glob_paths

LOG_SUFFIXES = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")
_GLOB_CHARS = ("*", "?", "[")


class NoInput(Exception):
    """The paths hold no game to verify: a usage error (exit status 2)."""


def _is_log_name(name: str) -> bool:
    return name.endswith(LOG_SUFFIXES)


class Unread(str):
    """A folder of the inputs that could not be searched (oracle.folders):
    read as one UNREADABLE game named by it, as an unreadable file is."""

    why: str

    def __new__(cls, path: str, why: str) -> "Unread":
        out = super().__new__(cls, path)
        out.why = why
        return out

    def __reduce__(self):
        return Unread, (str(self), self.why)


def _logs_under(folder: str) -> list[str]:
    """The logs under `folder`, sorted, with the folders that could not be searched among them."""
    from ..folders import search

    files, unread = search(folder, _is_log_name)
    return sorted([*files, *(Unread(f, why) for f, why in unread)])


def expand_paths(paths: tuple[str, ...]) -> list[str]:
    """Files as given; folders give their logs (*.jsonl, *.ndjson and the
    same gzip-compressed: *.jsonl.gz, *.ndjson.gz), sorted, recursively;
    globs that the shell left alone are expanded here. Raises NoInput for a
    path that matches nothing and a folder without logs. A folder that
    cannot be searched on the way is an `Unread` path, read as an
    UNREADABLE game."""
    out: list[str] = []
    for p in paths or ("-",):
        if p == "-" or "://" in p:
            out.append(p)       # standard input; a URL is read through fsspec (oracle.replay.shares)
            continue
        if os.path.isfile(p):
            out.append(p)       # a file, as given (a run on files loads no pathlib: start-up)
            continue
        from pathlib import Path

        path = Path(p)
        try:
            is_dir = path.is_dir()
        except OSError:
            out.append(p)       # longer than the system takes: read as a file, it is UNREADABLE, named
            continue
        if is_dir:
            found = _logs_under(p)
            if not found:
                from ..term import visible

                raise NoInput(f"no replay logs in folder {visible(p)} (searched recursively for "
                              f"{', '.join('*' + s for s in LOG_SUFFIXES)})")
            out.extend(found)
        elif path.exists():
            out.append(p)
        elif any(c in p for c in _GLOB_CHARS):
            files = []
            for m in sorted(glob_paths(p, Unread)):
                files.extend(_logs_under(m) if not isinstance(m, Unread) and os.path.isdir(m) else [m])
            if not files:
                from ..term import visible

                raise NoInput(f"no file matches {visible(p)}")
            out.extend(dict.fromkeys(files))     # a folder and the folders in it (`**`) name a log once
        else:
            from ..term import visible

            raise NoInput(f"no such file or folder: {visible(p)}")
    return out


def check_input(paths: tuple[str, ...]) -> list[str]:
    """The files `paths` stand for; raises NoInput when they hold no game
    to read (a path that matches nothing, a folder without logs, standard
    input closed)."""
    files = expand_paths(paths)
    if "-" in files and sys.stdin is None:
        raise NoInput("standard input is closed; give PATHS or pipe a log in")
    return files
