"""With -j N the workers render the report lines and the parent only writes
them: the reports stay those of one job, byte for byte, in every format,
with the notes the parent adds (a duplicate game id) and the summary."""

import re

import click
import pytest
from conftest import ROOT, run_cli

from oracle.replay import report as render
from oracle.replay.findings import DUPLICATE_NOTE
from oracle.replay.outcome import plain_outcome
from oracle.replay.parallel import Options, iter_rendered
from oracle.games.mindbug.replay.selfplay import selfplay_lines


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    """Games twice over (every id a duplicate the second time), a game with a
    field the format does not define (a note), and the sample violations."""
    games = b"".join(line + b"\n" for line in selfplay_lines(12, 5, "en-revised"))
    extra = games.replace(b'{"t":"game",', b'{"t":"game","mood":"sunny",', 1)
    violations = (ROOT / "replays" / "violations").glob("*.jsonl")
    path = tmp_path_factory.mktemp("rendered") / "games.jsonl"
    path.write_bytes(games + extra + b"".join(p.read_bytes() for p in sorted(violations)))
    return path


def _no_times(data: bytes) -> bytes:
    return re.sub(rb' time="[0-9.]+"', b"", data)     # JUnit's measured times


@pytest.mark.parametrize("flags", [("--color", "never"), ("--color", "always"), ("--format", "json"),
                                   ("--format", "junit"), ("--strict", "--format", "json"),
                                   ("--strict", "--color", "always"), ("-q", "--statistics", "--color", "never"),
                                   ("--keep-going", "--which-editions", "--format", "json")])
def test_two_jobs_write_the_bytes_of_one(log, flags):
    one = run_cli("verify", str(log), "--no-progress", *flags)
    two = run_cli("verify", str(log), "--no-progress", "-j", "2", *flags)
    assert one.returncode in (1, 2) and (one.returncode, one.stderr) == (two.returncode, two.stderr)
    assert _no_times(one.stdout) == _no_times(two.stdout)
    if "-q" not in flags:       # the duplicates conform: -q leaves them out
        assert DUPLICATE_NOTE.encode() in one.stdout or b"DUPLICATE_GAME" in one.stdout


def test_two_jobs_write_the_files_of_one(log, tmp_path):
    out = {}
    for jobs in ("1", "2"):
        folder = tmp_path / jobs
        folder.mkdir()
        r = run_cli("verify", str(log), "--no-progress", "-j", jobs, "--format", "junit",
                    "--output", f"json={folder / 'r.jsonl'}", "--output", f"human={folder / 'r.txt'}")
        assert r.returncode == 1, r.stderr
        out[jobs] = [_no_times(r.stdout)] + [(folder / f).read_bytes() for f in ("r.jsonl", "r.txt")]
    assert out["1"] == out["2"] and all(out["1"])


def test_the_workers_render_the_lines_the_parent_would(log):
    seen = 0
    for rep, lines in iter_rendered((str(log),), Options(), jobs=2, wanted=("json", "plain", "styled")):
        assert lines is not None and lines.report is rep       # rendered in a worker
        assert rep.outcome == plain_outcome(rep)
        assert lines.json == render.json_game(rep)
        assert lines.styled == render.human_game(rep)
        assert lines.plain == click.unstyle(render.human_game(rep))
        seen += 1
    assert seen > 24
    # One job, or lines not asked for: the parent renders.
    assert all(lines is None for _, lines in iter_rendered((str(log),), Options(), jobs=1, wanted=("json",)))
    assert all(lines is None for _, lines in iter_rendered((str(log),), Options(), jobs=2))
