"""Every `mb-oracle` command line of the README and of spec/ runs as written.

Commands are the lines of the fenced code blocks (```sh and plain ```) that
run `mb-oracle`: as a line's first command, after `|`, or after `&&` (a
chain such as `python3 -m venv ... && mb-oracle verify replays/` runs from
its `mb-oracle` part: the install before it is the test suite's own). A
line ending in `\\` goes on on the next.

The commands of one document run in order in one temporary folder that
holds the project's examples/, scenarios/, replays/ and spec/, so that a
command reads what an earlier one wrote (`verify conform-out/*.jsonl` reads
what `conform` wrote). The input files the documents assume (games.jsonl,
game.jsonl, games/, known-divergences.yaml) are made first, by selfplay.
Where a command would run long, a smaller budget is put in (SMALLER). A
line that cannot run on a test machine (an engine of one's own, a Dask
scheduler on another host, an S3 bucket) or that is a synopsis, not a
command, is in NOT_RUN with the reason.

A command runs as written when it exits 0 or 1 (1: the documents' examples
include games that break the rules on purpose and a planted bug), writes no
traceback, and writes something (on standard output, or to the file it
redirects standard output to).

The `mb-oracle ...` spans in the prose are synopses (LOG, FILE, N stand for
what the user gives); for them, the command must exist and take every
option the span names.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
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
                line = " && ".join(parts[next(i for i, p in enumerate(parts) if p.startswith("mb-oracle")):])
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
    assert any(d == "README.md" and "perft --seed 1 --edition en-revised --show-deal > deal.json" in x
               for d, x in lines)
    assert any(d == "perft.md" and "--show-deal" in x for d, x in lines)
    assert any(d == "engine-protocol.md" and "--budget 0 --scenarios scenarios/" in x for d, x in lines)
    assert len(CASES) >= 18


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    """One folder per document, made on first use."""
    made: dict[str, Path] = {}

    def get(doc: Path) -> Path:
        if doc.name not in made:
            where = tmp_path_factory.mktemp(doc.stem.lower().replace(".", "-"))
            for name in ("examples", "scenarios", "replays", "spec"):
                (where / name).symlink_to(ROOT / name)
            env = _env()
            games = subprocess.run(SELFPLAY, capture_output=True, env=env, cwd=where, check=True).stdout
            (where / "games.jsonl").write_bytes(games)
            (where / "game.jsonl").write_bytes(games)
            (where / "games").mkdir()
            (where / "games" / "games.jsonl").write_bytes(games)
            (where / "known-divergences.yaml").write_text(EXPECT)
            made[doc.name] = where
        return made[doc.name]

    return get


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    return env


@pytest.mark.parametrize("doc,index,line", CASES, ids=[f"{d.name}:{i}" for d, i, _ in CASES])
def test_documented_command_runs_as_written(doc, index, line, workspaces):
    if line.startswith("node ") and shutil.which("node") is None:
        pytest.skip(f"Node.js is not installed, which {line!r} needs")
    for text, smaller in SMALLER:
        line = line.replace(text, smaller)
    where = workspaces(doc)
    done = subprocess.run(["bash", "-c", line], capture_output=True, cwd=where, env=_env(), timeout=60)
    err = done.stderr.decode(errors="replace")
    said = f"{doc.name}: {line}\nexit {done.returncode}\n{err[-2000:]}"
    assert done.returncode in (0, 1), said
    assert "Traceback" not in err, said
    target = re.search(r">\s*(\S+)", line.split("#")[0].replace("2>", ""))
    wrote = (where / target.group(1)).read_bytes() if target else done.stdout
    assert wrote.strip(), f"{said}\nwrote nothing"


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
