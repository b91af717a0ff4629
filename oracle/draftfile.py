"""Draft files in an output folder (`hunt --out`, `hunt --cards --out`,
`conform --out`), written so that nothing a person made is lost.

A draft's first line is a stamp with the hash of the rest of the file as
written, so a later run tells a draft a person has edited (or a file no
run wrote) from its own: such a file is not overwritten unless forced. A
name in the folder that is a symbolic link leading out of the folder is
never written through, forced or not. Each draft is written complete and
renamed into place (`oracle.safefile`).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
from pathlib import Path

from .safefile import write_file
from .term import visible

_STAMP = "# Draft written by mb-oracle {}; edit freely (sha256 of the text below: {})\n"
_STAMP_RE = re.compile(r"^# Draft written by mb-oracle [a-z -]{1,40}; edit freely "
                       r"\(sha256 of the text below: ([0-9a-f]{64})\)$")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stamped(body: str, writer: str) -> str:
    """`body` with its stamp line first; `writer` names the command (`hunt`)."""
    return _STAMP.format(writer, digest(body)) + body


def edited(path: Path) -> bool:
    """True when `path` exists and is not a draft exactly as a run wrote it
    (a person changed it, or no run wrote it)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    first, _, rest = text.partition("\n")
    m = _STAMP_RE.match(first)
    return m is None or digest(rest) != m.group(1)


def outside(path: Path, folder: Path) -> str | None:
    """Where `path` leads when it is a symbolic link (or under one) out of
    `folder`; None when writing it stays in the folder."""
    base = os.path.realpath(folder)
    where = os.path.realpath(path)
    if os.path.commonpath([base, where]) != base:
        return where
    return None


def refusal(path: Path, folder: Path, force: bool = False, edited_check=edited) -> str | None:
    """Why the draft `path` in `folder` may not be written (a sentence
    naming the file), or None."""
    away = outside(path, folder)
    if away is not None:
        return f"{path} is a symbolic link to {away}, outside {folder}: not written through"
    if os.path.isdir(path):
        return f"{path} is a folder"
    if not force and edited_check(path):
        return f"{path} changed since it was written (or was not written as a draft)"
    return None


def unusable_out(folder: Path) -> str | None:
    """Why `--out folder` cannot hold what a run writes there (drafts, shrunk
    games, fuzz reproducers), a sentence naming it; None when it is a folder
    this user may write in, or is not there yet (it is made at the first
    file). A symbolic link to nothing is not a folder: making one there fails."""
    if not os.path.lexists(folder):
        return None
    if os.path.isdir(folder):
        if os.access(folder, os.W_OK | os.X_OK):
            return None
        return f"--out {visible(str(folder))}: cannot write there: {os.strerror(errno.EACCES)}"
    if os.path.islink(folder) and not os.path.exists(folder):
        return f"--out {visible(str(folder))}: not a folder (a symbolic link to {visible(os.readlink(folder))}, " \
               "which is not there)"
    return f"--out {visible(str(folder))}: not a folder"


class DraftRefused(Exception):
    """A draft may not be written; the message says which file and why."""


def write_draft(path: Path, folder: Path, body: str, writer: str, force: bool = False) -> Path:
    """Write the stamped draft `body` to `path` in `folder`; DraftRefused
    (naming the file) for a link out of the folder, or a file someone
    edited unless `force`."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    why = refusal(path, folder, force)
    if why is not None:
        raise DraftRefused(why)
    write_file(path, stamped(body, writer))
    return path
