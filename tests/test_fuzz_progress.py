"""`mb-oracle fuzz` tells how far it has got on standard error (a line every
N inputs; by default every 500 when standard error is not a terminal), and
SIGTERM or Ctrl-C ends it with the summary of what was tried so far on
standard output, one line on standard error and exit status 143 or 130."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys

import pytest
from conftest import ROOT

pytest.importorskip("hypothesis")

from oracle.fuzz import checks  # noqa: E402
from oracle.fuzz.progress import DEFAULT_EVERY, DEFAULT_SECONDS, FuzzProgress  # noqa: E402

LINE = re.compile(r"fuzz: ([\d,]+)/([\d,]+) inputs? \((\d+)%\), \d+:\d\d, (\d+) problems?; (.+)")


def _fuzz(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "oracle", "fuzz", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=ROOT)


def _stopped_after_first_line(sig: int, target: str, tmp_path) -> tuple[int, bytes, bytes, bytes]:
    """A long run sent `sig` once its first progress line is out:
    (exit status, that line, standard output, the rest of standard error)."""
    p = _fuzz("--budget", "1000000", "--target", target, "--cli-every", "0", "--progress-every", "2",
              "--seed", "3", "--out", str(tmp_path / "found"))
    try:
        first = p.stderr.readline()
        assert first, p.communicate(timeout=60)
        p.send_signal(sig)
        out, err = p.communicate(timeout=90)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, first, out, err


@pytest.mark.parametrize("sig,status,last,target", [
    (signal.SIGTERM, 143, b"mb-oracle: terminated\n", "streams"),     # its checks verify with two jobs
    (signal.SIGINT, 130, b"mb-oracle: interrupted\n", "text"),
], ids=["sigterm", "sigint"])
def test_a_stopped_run_prints_its_summary_and_exits_as_the_signal_says(sig, status, last, target, tmp_path):
    code, first, out, err = _stopped_after_first_line(sig, target, tmp_path)
    m = LINE.fullmatch(first.decode().rstrip("\n"))
    assert m, first
    assert m.group(2) == "1,000,000" and m.group(5).startswith(f"{target} ")
    assert code == status, (code, out, err)
    assert err.endswith(last) and err.count(b"mb-oracle:") == 1, err
    summary = re.match(rb"fuzz: seed 3, (\d+) inputs in \d+ s \(" + target.encode() + rb" \d+\)", out)
    assert summary and int(summary.group(1)) >= 2, out
    for title in (b"games in: ", b"tracebacks: 0 distinct", b"hangs: 0 distinct", b"broken counts: 0 distinct",
                  b"command-line failures: 0 distinct"):
        assert title in out, out
    assert b"Traceback" not in err


def test_progress_lines_count_the_inputs_of_each_format(tmp_path):
    p = _fuzz("--budget", "6", "--target", "text", "--target", "replay-lines", "--cli-every", "0",
              "--progress-every", "2", "--out", str(tmp_path / "found"))
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, (out, err)
    lines = err.decode().splitlines()
    assert len(lines) == 3, lines
    done = [LINE.fullmatch(x) for x in lines]
    assert all(done), lines
    assert [m.group(1) for m in done] == ["2", "4", "6"] and {m.group(2) for m in done} == {"6"}
    assert done[-1].group(3) == "100"
    # Each format begun, in the order of the run, with its share of the budget.
    assert re.fullmatch(r"replay-lines (\d)/\1, text (\d)/\2", done[-1].group(5)), lines[-1]
    assert out.startswith(b"fuzz: seed 0, 6 inputs in ")


def test_no_progress_writes_nothing_on_standard_error(tmp_path):
    p = _fuzz("--budget", "3", "--target", "text", "--cli-every", "0", "--no-progress",
              "--out", str(tmp_path / "found"))
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and err == b"", (out, err)
    assert out.startswith(b"fuzz: seed 0, 3 inputs in ")


def test_progress_every_and_no_progress_exclude_each_other():
    p = _fuzz("--budget", "3", "--no-progress", "--progress-every", "2")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 2 and b"--progress-every and --no-progress exclude each other" in err, err
    assert b"Traceback" not in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _tally(inputs: dict, problems=()) -> checks.Tally:
    t = checks.Tally()
    t.inputs = dict(inputs)
    for target, key in problems:
        t.add("traceback", target, key, "message", b"data", ".txt")
    return t


def test_off_a_terminal_a_line_comes_every_500_inputs_by_default():
    stream = io.StringIO()
    prog = FuzzProgress(1200, None, stream=stream)
    prog.plan({"games": 700, "text": 500})
    tally = checks.Tally()
    for i in range(1200):
        target = "games" if i < 700 else "text"
        tally.count(target)
        prog.tried(tally, target)
    lines = stream.getvalue().splitlines()
    assert DEFAULT_EVERY == 500 and len(lines) == 2, lines
    assert lines[0].startswith("fuzz: 500/1,200 inputs (41%), ") and lines[0].endswith("; games 500/700")
    assert lines[1].startswith("fuzz: 1,000/1,200 inputs (83%), ") and \
        lines[1].endswith("; games 700/700, text 300/500")


def test_off_a_terminal_slow_inputs_still_get_a_line_every_minute():
    now = [0.0]
    stream = io.StringIO()
    prog = FuzzProgress(1000, None, stream=stream, clock=lambda: now[0])
    prog.plan({"adapters": 1000})
    tally = checks.Tally()
    for seconds in (20, 30, 15, 10, 70):       # after each input, the clock moves on
        now[0] += seconds
        tally.count("adapters")
        prog.tried(tally, "adapters")
    lines = stream.getvalue().splitlines()
    assert DEFAULT_SECONDS == 60 and len(lines) == 2, lines
    assert lines[0].startswith("fuzz: 3/1,000 inputs (0%), 1:05, ")
    assert lines[1].startswith("fuzz: 5/1,000 inputs (0%), 2:25, ")
    # An N asked for is N inputs, however slow they come.
    stream = io.StringIO()
    prog = FuzzProgress(1000, 4, stream=stream, clock=lambda: now[0])
    for _ in range(3):
        now[0] += 100
        tally.count("adapters")
        prog.tried(tally, "adapters")
    assert stream.getvalue().count("\n") == 1 and stream.getvalue().startswith("fuzz: 8/")


def test_on_a_terminal_the_default_is_one_line_drawn_in_place():
    stream = _Terminal()
    prog = FuzzProgress(10, None, stream=stream)
    prog.plan({"text": 10})
    tally = checks.Tally()
    tally.count("text")
    prog.tried(tally, "text")
    prog.close()
    shown = stream.getvalue()
    assert "\n" not in shown and shown.startswith("\rfuzz: 1/10 inputs") and "0 problems, text 1/10" in shown
    assert shown.endswith("\033[K\r\033[K")     # drawn, then cleared before the summary


def test_a_line_counts_the_problems_of_each_format():
    prog = FuzzProgress(100, 10, stream=io.StringIO())
    prog.plan({"games": 60, "scenarios": 40})
    tally = _tally({"games": 60, "scenarios": 5},
                   [("games", "KeyError at a.py:1"), ("cli-games", "exit 3"), ("scenarios", "Hang")])
    line = prog.line(tally)
    assert line.startswith("fuzz: 65/100 inputs (65%), ") and ", 3 problems; " in line, line
    assert line.endswith("; games 60/60 (2 problems), scenarios 5/40 (1 problem)"), line
