"""Expanding a glob that the shell left alone (`verify 'logs/**/*.jsonl'`),
for oracle.replay.reader."""

from __future__ import annotations

import os


def glob_paths(pattern: str) -> list[str]:
    """The paths `pattern` matches, as glob.glob(pattern, recursive=True)
    gives them, except that `**` never enters a symlinked folder: a link back
    to a folder above it would make the search endless."""
    import fnmatch
    import glob

    if "**" not in pattern:
        return glob.glob(pattern)
    parts = pattern.split(os.sep)
    magic = next(i for i, part in enumerate(parts) if glob.has_magic(part))
    root = os.sep.join(parts[:magic]) or (os.sep if pattern.startswith(os.sep) else "")
    found: list[str] = []

    def names(folder: str) -> list[str]:
        try:
            return sorted(os.listdir(folder or os.curdir))
        except OSError:
            return []

    def walk(folder: str, rest: list[str]) -> None:
        if not rest:
            if folder:
                found.append(folder)
            return
        part, more = rest[0], rest[1:]
        if part == "**":
            walk(folder, more)                      # no folder at all
            for name in names(folder):
                path = os.path.join(folder, name)
                if name.startswith("."):
                    continue
                if not os.path.isdir(path):
                    if not more:
                        found.append(path)      # a file (or a link to one)
                elif not os.path.islink(path):
                    walk(path, rest)
            return
        if not glob.has_magic(part):
            path = os.path.join(folder, part)
            if os.path.lexists(path):
                walk(path, more)
            return
        for name in names(folder):
            if (part.startswith(".") or not name.startswith(".")) and fnmatch.fnmatchcase(name, part):
                path = os.path.join(folder, name)
                if not more or os.path.isdir(path):
                    walk(path, more)

    walk(root, parts[magic:])
    return list(dict.fromkeys(found))     # `**/**` reaches a path more than once
