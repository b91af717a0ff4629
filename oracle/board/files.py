"""The files the board reads and writes: only under the folders named on
the command line (`--scenarios DIR`, `--log FILE`).

A file the page names is a plain relative path: no `..`, not absolute, a
`.yaml` or `.yml` file, resolved (symbolic links followed) and kept inside
its folder, a regular file of at most 1 MiB (oracle.safeyaml.read_within).
A ruling is saved in the first folder, written whole or not at all
(oracle.safefile), never over a file that is there unless the page asks
to and names the file as it opened it (its sha256): a file someone edited
meanwhile is refused.
"""

from __future__ import annotations

import hashlib
import os

from ..safeyaml import MAX_BYTES
from . import play

SUFFIXES = (".yaml", ".yml")


class FileRefused(Exception):
    """A file the board may not read or write: status, code, message, field."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _folders(settings) -> tuple[str, ...]:
    if not settings.scenario_dirs:
        raise FileRefused(400, "NO_SCENARIOS", "this board reads and writes no scenario file: start it with "
                                               "`mb-oracle board --scenarios DIR`")
    return settings.scenario_dirs


def relative(name: str, field: str) -> str:
    """A file name the page gives, checked: relative, no `..`, a YAML file."""
    parts = name.replace("\\", "/").split("/")
    if (not name or name.startswith(("/", "\\")) or os.path.isabs(name) or ".." in parts or "\0" in name
            or any(p in ("", ".") for p in parts) or len(name) > 255):
        raise FileRefused(400, "BAD_PATH", f"{name!r}: a file is named by a plain path relative to the scenario "
                                           "folder (no `..`, not absolute)", field)
    if os.path.splitext(name)[1] not in SUFFIXES:
        raise FileRefused(400, "BAD_PATH", f"{name!r}: a scenario file ends in .yaml or .yml", field)
    return name


def _inside(folder: str, name: str, field: str) -> str:
    """The real path of `name` under `folder`, symbolic links followed; refused when it leaves the folder."""
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([real, root]) != root:
        raise FileRefused(400, "BAD_PATH", f"{name!r}: no such file in the scenario folders", field)
    return real


def read(settings, name: str, field: str = "?file") -> tuple[str, bytes]:
    """(the folder, the bytes) of a scenario file the page names."""
    from ..safeyaml import NotReadable, read_within

    relative(name, field)
    for folder in _folders(settings):
        real = _inside(folder, name, field)
        if os.path.lexists(os.path.join(folder, name)):
            try:
                return folder, read_within(real, [folder])
            except NotReadable as e:
                raise FileRefused(400, "BAD_PATH", str(e).replace(repr(real), repr(name)), field) from None
    raise FileRefused(404, "NOT_FOUND", f"{name!r}: no such file in the scenario folders", field)


def listing(settings) -> list[dict]:
    """Each scenario file under the folders (regular files within them, at
    most 1 MiB), with the id, game and title of each of its documents (read
    as YAML only: the loader judges a scenario when it is opened), or why
    it cannot be read; then each folder under them that cannot be listed,
    with why."""
    from .. import safeyaml
    from ..safeyaml import NotReadable, read_within

    from ..folders import why_unread

    out = []
    for folder in _folders(settings):
        root = os.path.realpath(folder)
        unread: list[OSError] = []          # the folders the walk could not list: named, not skipped
        for here, dirs, names in os.walk(root, onerror=unread.append):
            dirs.sort()
            for n in sorted(names):
                if os.path.splitext(n)[1] not in SUFFIXES:
                    continue
                rel = os.path.relpath(os.path.join(here, n), root)
                entry = {"file": rel, "folder": folder}
                try:
                    data = read_within(os.path.join(here, n), [root])
                    entry["sha256"] = sha256(data)
                    docs = [d for _node, d in safeyaml.documents(data.decode("utf-8"))]
                    entry["scenarios"] = [{"id": d["id"], "game": d.get("game", "mindbug"), "title": d.get("title")}
                                          for d in docs if isinstance(d, dict) and isinstance(d.get("id"), str)]
                except NotReadable as e:
                    entry["problem"] = str(e)
                except (safeyaml.YamlProblem, UnicodeDecodeError, ValueError) as e:
                    entry["problem"] = f"not read as YAML: {e}"
                out.append(entry)
        out += [{"file": os.path.relpath(e.filename, root), "folder": folder,
                 "problem": f"cannot read the folder: {why_unread(e)}"} for e in unread]
    return out


def scenario(settings, name: str, scenario_id: str) -> dict:
    """A scenario of a file as the page opens it: {document, sha256}."""
    from .. import safeyaml

    folder, data = read(settings, name)
    try:
        text = data.decode("utf-8")
        docs = [doc for _node, doc in safeyaml.documents(text)]
    except (safeyaml.YamlProblem, UnicodeDecodeError, ValueError) as e:
        raise FileRefused(400, "BAD_FILE", f"{name!r}: cannot be read as YAML: {e}", "?file") from None
    for doc in docs:
        if isinstance(doc, dict) and doc.get("id") == scenario_id:
            out = {"document": doc, "sha256": sha256(data), "file": name}
            sf, problems = play.load_text(settings, text, os.path.join(folder, name))
            sc = next((x for x in sf.scenarios if x.id == scenario_id), None)
            if sc is None:
                out["problems"] = problems
            else:
                out.update(play.scenario_decisions(settings, sc))
            return out
    known = ", ".join(str(d.get("id")) for d in docs if isinstance(d, dict)) or "none"
    raise FileRefused(404, "NOT_FOUND", f"{name!r}: no scenario {scenario_id!r} (ids: {known})", "?id")


def save(settings, body, built: dict) -> dict:
    """The ruling `built` (oracle.board.play.ruling) written to `body.file`
    in the first scenario folder: {path, sha256, passes}."""
    from ..safefile import OutputError, write_file

    folder = _folders(settings)[0]
    name = relative(body.file, "$.file")
    if not built["passes"]:
        raise FileRefused(400, "RULING_FAILS", "the ruling does not pass the scenario runner; it is not saved "
                                               "(/api/ruling shows why)", "$.ticks")
    real = _inside(folder, name, "$.file")
    data = built["yaml"].encode("utf-8")
    if os.path.lexists(os.path.join(folder, name)):
        if not body.overwrite:
            raise FileRefused(409, "EXISTS", f"{name!r} is there already; overwrite it only as you opened it "
                                             "(`overwrite` with its `base`)", "$.file")
        try:
            _, now = read(settings, name, "$.file")
        except FileRefused:
            now = None
        if now is None or body.base is None or sha256(now) != body.base:
            raise FileRefused(409, "CHANGED", f"{name!r} is not the file as it was opened (someone edited it "
                                              "meanwhile, or no `base` was given): not overwritten", "$.base")
    if len(data) > MAX_BYTES:
        raise FileRefused(413, "TOO_LARGE", f"the ruling is longer than {MAX_BYTES} bytes", "$")
    try:
        os.makedirs(os.path.dirname(real), exist_ok=True)
        write_file(real, data)
    except (OSError, OutputError) as e:
        raise FileRefused(500, "CANNOT_WRITE", f"{name!r}: {getattr(e, 'strerror', None) or e}", "$.file") from None
    return {"path": name, "sha256": sha256(data), "passes": True}

