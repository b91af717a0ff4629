"""Expanding a glob that the shell left alone (`verify 'logs/**/*.jsonl'`),
for oracle.replay.reader."""

from __future__ import annotations

import os
from typing import Callable


def glob_paths(pattern: str, unread: Callable[[str, str], str]) -> list[str]:
    """The paths `pattern` matches, as glob.glob(pattern, recursive=True)
    gives them, except that `**` never enters a symlinked folder (a link back
    to a folder above it would make the search endless), and that a folder
    the search could not read is among them as `unread(folder, why)`."""
    import errno
    import fnmatch
    import glob

    from ..folders import why_unread

    parts = pattern.split(os.sep)
    magic = next((i for i, part in enumerate(parts) if glob.has_magic(part)), None)
    if magic is None:
        return glob.glob(pattern)
    root = os.sep.join(parts[:magic]) or (os.sep if pattern.startswith(os.sep) else "")
    found: list[str] = []

    def entries(folder: str) -> list[os.DirEntry]:
        try:
            with os.scandir(folder or os.curdir) as it:
                return sorted(it, key=lambda e: e.name)
        except OSError as e:
            if e.errno == errno.ENAMETOOLONG or os.path.isdir(folder or os.curdir):   # not a file or a missing path
                found.append(unread(folder or os.curdir, why_unread(e)))
            return []

    def is_dir(entry: os.DirEntry, links: bool = True) -> bool:
        try:
            return entry.is_dir(follow_symlinks=links)      # the entry's type as listed: no path to look up
        except OSError:
            return False

    def walk(folder: str, rest: list[str]) -> None:
        if not rest:
            if folder:
                found.append(folder)
            return
        part, more = rest[0], rest[1:]
        if part == "**":
            walk(folder, more)                      # no folder at all
            for entry in entries(folder):
                path = os.path.join(folder, entry.name)
                if entry.name.startswith("."):
                    continue
                if not is_dir(entry):
                    if not more:
                        found.append(path)      # a file (or a link to one)
                elif not entry.is_symlink():
                    walk(path, rest)
            return
        if not glob.has_magic(part):
            path = os.path.join(folder, part)
            if os.path.lexists(path):
                walk(path, more)
            return
        for entry in entries(folder):
            name = entry.name
            if (part.startswith(".") or not name.startswith(".")) and fnmatch.fnmatchcase(name, part):
                if not more or is_dir(entry):
                    walk(os.path.join(folder, name), more)

    walk(root, parts[magic:])
    return list(dict.fromkeys(found))     # `**/**` reaches a path more than once
