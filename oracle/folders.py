"""Searching a folder for input files, recursively, without losing a
folder on the way.

`search(folder, wanted)` gives the files under `folder` whose names
`wanted` accepts, and every folder it could not read: one that cannot be
listed (no permission) or whose path is longer than the system takes
(4,096 bytes on Linux). A search never enters a symlinked folder (a link to
a folder above it would make it endless), and a file reached through a
link counts. The callers turn each unread folder into an error naming it,
as they do an unreadable file.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable


def why_unread(e: OSError) -> str:
    """Why a folder could not be searched, in words."""
    if e.errno == errno.ENAMETOOLONG:
        return "its path is longer than the system takes (File name too long)"
    return e.strerror or str(e)


def search(folder: str, wanted: Callable[[str], bool]) -> tuple[list[str], list[tuple[str, str]]]:
    """(files, unread): the regular files (or links to them) under
    `folder` whose names `wanted` accepts, sorted, named as pathlib names
    them (`folder/sub/name`, `name` under `.`); and (folder, why) for each
    folder that could not be read, sorted."""
    root = os.fspath(folder)
    from pathlib import Path

    root = str(Path(root))
    files: list[str] = []
    unread: list[tuple[str, str]] = []
    todo = [root]
    while todo:                           # a stack, not recursion: a deep tree is no error of its own
        here = todo.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError as e:
            unread.append((here, why_unread(e)))
            continue
        for entry in entries:
            path = entry.name if here == "." else os.path.join(here, entry.name)
            try:
                is_dir = entry.is_dir() and not entry.is_symlink()
            except OSError:
                is_dir = False
            if is_dir:
                todo.append(path)
            elif wanted(entry.name):
                try:
                    if entry.is_file():
                        files.append(path)
                except OSError:
                    pass
    return sorted(files), sorted(unread)
