"""Every `mb-oracle` command line of the README and of spec/ runs as written.

Commands are the lines of the fenced code blocks (```sh and plain ```) that
run `mb-oracle`: as a line's first command, after `|`, or after `&&` (a
chain such as `python3 -m venv ... && mb-oracle verify replays/` runs from
its `mb-oracle` part: the install before it is the test suite's own; a
`mkdir` before it, which makes the folder the command writes to, runs
too). A line ending in `\\` goes on on the next.

The commands of one document run in order in one temporary folder that
holds the project's examples/, scenarios/, replays/ and spec/, so that a
command reads what an earlier one wrote (`verify out/conform-mindbug/*.jsonl`
reads what `conform` wrote). The input files the documents assume (games.jsonl,
game.jsonl, games/, known-divergences.yaml) are made first, by selfplay.
Where a command would run long, a smaller budget is put in (SMALLER). A
line that cannot run on a test machine (an engine of one's own, a Dask
scheduler on another host, an S3 bucket) or that is a synopsis, not a
command, is in NOT_RUN with the reason.

A command runs as written when it exits 0 or 1 (1: the documents' examples
include games that break the rules on purpose and a planted bug), writes no
traceback, and writes something (on standard output, or to the file it
redirects standard output to).

What the commands write goes under one folder, `out/`, which .gitignore
lists: each document's commands run in order in a fresh copy of the
project's folders, and nothing outside `out/` may be made, changed or
removed there. That one run checks all of it, command by command. A line
that runs `node` is also an item of its own, which skips, naming Node.js,
where it is missing (the document's run then leaves it out).

The `mb-oracle ...` spans in the prose are synopses (LOG, FILE, N stand for
what the user gives); for them, the command must exist and take every
option the span names.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "spec").glob("*.md"))]

# (text in the line, what is put in its place): budgets fit for a test run.
SMALLER = [
    ("fuzz --budget 20000", "fuzz --budget 20"),
    ("--budget 200 ", "--budget 2 "),
    ("--budget 2000 ", "--budget 20 "),
    ('--engine "./my-adapter"', '--engine "python examples/engine_adapter.py"'),
    ("--cluster local:4", "--cluster local:1"),
    ("bench --no-instructions ", "bench --no-instructions --games 20 --repeat 1 "),
]

# text in the line -> why it is not run
NOT_RUN = {
    "tcp://HOST:8786": "a Dask scheduler on another machine and an S3 bucket",
    "[PATHS...]": "a synopsis (placeholders in brackets), not a command",
    "--counted-games 24": "minutes under valgrind (tests/test_bench_counting.py counts a corpus of a few games)",
    "--count plain,keep-going": "minutes under valgrind (tests/test_bench_counting.py counts a corpus of a few games)",
}

# (file, content) made before a document's commands; `selfplay` writes the games.
SELFPLAY = ["mb-oracle", "selfplay", "--games", "3", "--seed", "5", "--edition", "en-revised"]
EXPECT = "format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    clause: keywords.sneaky\n"


def _runs_mb_oracle(line: str) -> bool:
    return bool(re.search(r"(^|\|\s*|&&\s*)mb-oracle\s", line))


def command_lines(path: Path) -> list[str]:
    """The lines of `path`'s shell code blocks that run mb-oracle, in order."""
    out = []
    for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", path.read_text(), re.S | re.M):
        if lang not in ("", "sh", "bash", "shell"):
            continue
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.strip()
            if not _runs_mb_oracle(line):
                continue
            if "&&" in line and not line.startswith("mb-oracle"):
                parts = [p.strip() for p in line.split("&&")]
                first = next(i for i, p in enumerate(parts) if p.startswith("mb-oracle"))
                line = " && ".join([p for p in parts[:first] if p.startswith("mkdir ")] + parts[first:])
            out.append(line)
    return out


LINES = [(doc, i, line) for doc in DOCUMENTS for i, line in enumerate(command_lines(doc))]
CASES = [(doc, i, line) for doc, i, line in LINES if not any(text in line for text in NOT_RUN)]


def test_each_line_not_run_is_still_in_the_documents():
    """NOT_RUN names lines the documents hold (a stale entry would hide nothing)."""
    for text in NOT_RUN:
        assert any(text in line for _, _, line in LINES), text


def test_the_documents_hold_the_commands_a_user_starts_with():
    """The extraction finds the lines a new user copies first (a test that
    ran nothing would pass on anything)."""
    lines = {(doc.name, line) for doc, _, line in LINES}
    assert ("README.md", "mb-oracle verify replays/") in lines
    assert any(d == "README.md" and x.startswith("mkdir -p out && mb-oracle perft --seed 1 --edition en-revised "
                                                 "--show-deal > out/deal.json") for d, x in lines)
    assert any(d == "perft.md" and "--show-deal" in x for d, x in lines)
    assert any(d == "engine-protocol.md" and "--budget 0 --scenarios scenarios/" in x for d, x in lines)
    assert len(CASES) >= 18


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    """One folder per document, made on first use."""
    made: dict[str, Path] = {}

    def get(doc: Path) -> Path:
        if doc.name not in made:
            made[doc.name] = _workspace(tmp_path_factory.mktemp(doc.stem.lower().replace(".", "-")), copy=False)
        return made[doc.name]

    return get


FOLDERS = ("examples", "scenarios", "replays", "spec")


def _workspace(where: Path, copy: bool) -> Path:
    """`where` with the project's folders (linked, or copied so that what a
    command writes into them stays in `where`) and the input files the
    documents assume."""
    for name in FOLDERS:
        if copy:
            shutil.copytree(ROOT / name, where / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (where / name).symlink_to(ROOT / name)
    games = subprocess.run(SELFPLAY, capture_output=True, env=_env(), cwd=where, check=True).stdout
    (where / "games.jsonl").write_bytes(games)
    (where / "game.jsonl").write_bytes(games)
    (where / "games").mkdir()
    (where / "games" / "games.jsonl").write_bytes(games)
    (where / "known-divergences.yaml").write_text(EXPECT)
    return where


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    return env


def _as_run(line: str) -> str:
    """The line as the tests run it: with the smaller budgets of SMALLER."""
    for text, smaller in SMALLER:
        line = line.replace(text, smaller)
    return line


def _not_as_written(doc: Path, line: str, done: subprocess.CompletedProcess, where: Path) -> str | None:
    """What is wrong with a command's run (`line` run in `where`), or None:
    an exit status other than 0 or 1, a traceback, or nothing written."""
    err = done.stderr.decode(errors="replace")
    said = f"{doc.name}: {line}\nexit {done.returncode}\n{err[-2000:]}"
    if done.returncode not in (0, 1) or "Traceback" in err:
        return said
    target = re.search(r">\s*(\S+)", line.split("#")[0].replace("2>", ""))
    wrote = (where / target.group(1)).read_bytes() if target else done.stdout
    return None if wrote.strip() else f"{said}\nwrote nothing"


NODE_CASES = [(doc, i, line) for doc, i, line in CASES if line.startswith("node ")]


@pytest.mark.parametrize("doc,index,line", NODE_CASES, ids=[f"{d.name}:{i}" for d, i, _ in NODE_CASES])
def test_documented_node_command_runs_as_written(doc, index, line, workspaces):
    """A line that runs `node` (the JavaScript client of `serve`), alone:
    where Node.js is missing this skips and says so, and the document's run
    in order (below) leaves the line out."""
    if shutil.which("node") is None:
        pytest.skip(f"Node.js is not installed, which {line!r} needs")
    line = _as_run(line)
    where = workspaces(doc)
    done = subprocess.run(["bash", "-c", line], capture_output=True, cwd=where, env=_env(), timeout=60)
    wrong = _not_as_written(doc, line, done, where)
    assert wrong is None, wrong


def _spans() -> list[tuple[str, str]]:
    out = []
    for doc in DOCUMENTS:
        for span in re.findall(r"`(mb-oracle\s[^`]+)`", doc.read_text()):
            out.append((doc.name, " ".join(span.split())))
    return out


def test_documented_synopses_name_real_commands_and_options():
    """Every `mb-oracle COMMAND --option` span of the prose names a command
    and options it takes (the global --color included)."""
    import click

    from oracle.cli import main

    ctx = click.Context(main)
    wrong = []
    spans = _spans()
    assert len(spans) > 40
    for doc, span in spans:
        words = [w for w in shlex.split(span.replace("\\|", "|"), posix=False)[1:]]
        name = next((w for w in words if not w.startswith("-")), None)
        command = main.get_command(ctx, name) if name else None
        if command is None:
            wrong.append(f"{doc}: `{span}`: no command {name!r}")
            continue
        known = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)} | {"--color"}
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", span):
            if option not in known:
                wrong.append(f"{doc}: `{span}`: {name} has no option {option}")
    assert not wrong, "\n".join(wrong)


OUT = "out"


def _tree(where: Path) -> dict[str, tuple]:
    """Every file, folder and link under `where` (links not followed):
    its kind, and for a file its size, time of change and content."""
    import hashlib

    seen = {}
    for folder, dirs, files in os.walk(where):
        for name in dirs + files:
            path = Path(folder) / name
            st = path.lstat()
            key = path.relative_to(where).as_posix()
            if stat.S_ISREG(st.st_mode):
                seen[key] = ("file", st.st_size, st.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
            elif stat.S_ISLNK(st.st_mode):
                seen[key] = ("link", os.readlink(path))
            else:
                seen[key] = ("folder" if stat.S_ISDIR(st.st_mode) else "other",)
    return seen


def _outside(changed: list[str]) -> list[str]:
    return [k for k in changed if k != OUT and not k.startswith(OUT + "/")]


def _run_in_copy(doc: Path, where: Path) -> tuple[list[str], list[str]]:
    """Run `doc`'s commands in order in `where`, a fresh copy of the
    project's folders: (each command that did not run as written, with
    why; each command that wrote outside out/, with what)."""
    _workspace(where, copy=True)
    env = _env()
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    env["XDG_CACHE_HOME"] = str(where.parent / "cache")     # the user's cache folder, outside the copy
    env["PYTHONDONTWRITEBYTECODE"] = "1"                    # Python's own caches are no command's output
    failed = []
    wrong = []
    for d, _, line in CASES:
        if d != doc or (line.startswith("node ") and shutil.which("node") is None):
            continue
        line = _as_run(line)
        before = _tree(where)
        done = subprocess.run(["bash", "-c", line], capture_output=True, cwd=where, env=env, timeout=60)
        not_as_written = _not_as_written(doc, line, done, where)
        if not_as_written is not None:
            failed.append(not_as_written)
        after = _tree(where)
        outside = _outside(sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)))
        if outside:
            wrong.append(f"{doc.name}: {line}\n  wrote {', '.join(outside[:10])}")
    return failed, wrong


def test_out_is_ignored_and_the_check_sees_a_stray_file(tmp_path):
    """.gitignore lists out/, and the comparison of trees names a file
    written beside it (a check that saw nothing would pass on anything)."""
    assert f"\n{OUT}/\n" in "\n" + (ROOT / ".gitignore").read_text()
    (tmp_path / OUT).mkdir()
    before = _tree(tmp_path)
    (tmp_path / OUT / "report.html").write_text("x")
    (tmp_path / "report.html").write_text("x")
    after = _tree(tmp_path)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert _outside(changed) == ["report.html"]


def test_the_check_of_a_run_sees_each_way_a_command_fails(tmp_path):
    """A run as written passes; an exit status of 2, a traceback, or nothing
    written (on standard output, or in the file a line redirects it to) is
    said, with the line (a check that saw nothing would pass on anything)."""
    doc = ROOT / "README.md"

    def run(code: int, out: bytes = b"ok\n", err: bytes = b"") -> subprocess.CompletedProcess:
        return subprocess.CompletedProcess([], code, out, err)

    (tmp_path / "full.json").write_bytes(b"{}\n")
    (tmp_path / "empty.json").write_bytes(b"")
    assert _not_as_written(doc, "mb-oracle verify x", run(1), tmp_path) is None
    assert _not_as_written(doc, "mb-oracle perft > full.json  # a comment", run(0, b""), tmp_path) is None
    assert "exit 2" in _not_as_written(doc, "mb-oracle verify x", run(2), tmp_path)
    assert "Traceback" in _not_as_written(doc, "mb-oracle verify x", run(0, err=b"Traceback (most recent"), tmp_path)
    assert "wrote nothing" in _not_as_written(doc, "mb-oracle verify x", run(0, b" \n"), tmp_path)
    assert "wrote nothing" in _not_as_written(doc, "mb-oracle perft > empty.json", run(0), tmp_path)


def test_the_readme_commands_run_as_written_and_write_only_under_out(tmp_path):
    """The README's commands, run in order in a fresh copy of the project's
    folders as a new user runs them, each run as written and write nothing
    outside `out/`; what they write is there, and the two games' conform
    runs keep their findings apart."""
    where = tmp_path / "checkout"
    failed, wrong = _run_in_copy(ROOT / "README.md", where)
    assert not failed, "README commands that do not run as written:\n" + "\n\n".join(failed)
    assert not wrong, "README commands that write outside out/:\n" + "\n".join(wrong)
    written = {p.relative_to(where / OUT).as_posix() for p in (where / OUT).rglob("*") if p.is_file()}
    for made in ("report.html", "oracle.xml", "oracle.jsonl", "deal.json", "mu.jsonl", "one.jsonl"):
        assert made in written, sorted(written)
    assert any(p.startswith("conform-mindbug/") for p in written), sorted(written)
    assert any(p.startswith("conform-mind-up/") for p in written), sorted(written)


@pytest.mark.parametrize("doc", [d for d in DOCUMENTS[1:] if any(x == d for x, _, _ in CASES)],
                         ids=lambda d: d.name)
def test_the_spec_commands_run_as_written_and_write_only_under_out(doc, tmp_path):
    """The same for each document of spec/ that holds commands."""
    failed, wrong = _run_in_copy(doc, tmp_path / "checkout")
    assert not failed, "commands that do not run as written:\n" + "\n\n".join(failed)
    assert not wrong, "commands that write outside out/:\n" + "\n".join(wrong)
