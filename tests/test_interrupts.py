"""Ctrl-C ends every command with exit status 130 and one line on standard
error, whenever it comes: while the command starts, while it runs, while
its reports are written; never click's "Aborted!" and 1 (the status of a
game that violates the rules). A report that holds what was done so far
(fuzz's) is printed first. The processes are stopped only once they have
spent a little processor time (their modules loaded): a wait on what the
process has done, not on the clock of a loaded machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"
OLD = b"the report of the last run\n"
INTERRUPTED = b"mb-oracle: interrupted\n"


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt_after(argv: list[str], cpu: float, timeout: float = 120) -> tuple[int, bytes, bytes]:
    """Run the command, send SIGINT once it has used `cpu` seconds of
    processor time; (exit status, standard output, standard error)."""
    p = subprocess.Popen([sys.executable, "-m", "oracle", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + timeout
        while _cpu_seconds(p.pid) < cpu:
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, f"{argv}: not {cpu} s of processor time within {timeout} s"
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, out, err


pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to see the processor time spent")


@pytest.mark.parametrize("argv", [
    ["perft", "--seed", "1", "--depth", "30"],
    ["perft", "--seed", "1", "--depth", "30", "--divide"],
    ["hunt", "--budget", "1000000", "--no-progress"],
    ["bench", "--games", "20000", "--no-instructions"],
], ids=["perft", "perft-divide", "hunt", "bench"])
def test_ctrl_c_ends_a_long_command_with_130_and_one_line(argv):
    status, out, err = _interrupt_after(argv, cpu=1.5)
    assert (status, err[-len(INTERRUPTED):]) == (130, INTERRUPTED), err
    assert b"Traceback" not in err and b"Aborted!" not in err


def test_ctrl_c_in_fuzz_reports_what_was_tried_so_far(tmp_path):
    status, out, err = _interrupt_after(["fuzz", "--budget", "1000000", "--target", "text", "--cli-every", "0",
                                         "--out", str(tmp_path / "found")], cpu=3)
    assert (status, err[-len(INTERRUPTED):]) == (130, INTERRUPTED), err
    assert out.startswith(b"fuzz: seed ") and b"tracebacks: 0 distinct" in out, out


STOP_AT = ("import importlib, sys\n"
           "where = importlib.import_module({module!r})\n"
           "*path, name = {name!r}.split('.')\n"
           "for step in path:\n"
           "    where = getattr(where, step)\n"
           "def stop(*a, **k):\n"
           "    raise KeyboardInterrupt\n"
           "setattr(where, name, stop)\n"
           "from oracle.launch import main\n"
           "main()\n")


def _stopped_at(module: str, name: str, *argv) -> subprocess.CompletedProcess:
    """The command run with a Ctrl-C where `module.name` is called."""
    return subprocess.run([sys.executable, "-c", STOP_AT.format(module=module, name=name), *argv],
                          capture_output=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("options", [(), ("--format", "json")], ids=["plain", "with-options"])
def test_ctrl_c_while_verify_starts_is_130(options):
    r = _stopped_at("oracle.replay.outputs", "Reporter", "verify", str(LOG), *options)
    assert (r.returncode, r.stderr) == (130, INTERRUPTED)


def test_ctrl_c_while_the_html_page_is_written_is_130_and_leaves_the_old_page(tmp_path):
    html, junit = tmp_path / "report.html", tmp_path / "oracle.xml"
    html.write_bytes(OLD)
    r = _stopped_at("oracle.report.page", "HtmlReport.finish", "verify", str(LOG), "--output", f"junit={junit}",
                    "--output", f"html={html}")
    assert (r.returncode, r.stderr) == (130, INTERRUPTED)
    assert r.stdout.startswith(b"ok ")           # the lines of the games verified so far
    assert html.read_bytes() == OLD and sorted(p.name for p in tmp_path.iterdir()) == ["oracle.xml", "report.html"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")     # the exception Python drops
def test_a_ctrl_c_swallowed_by_a_garbage_collector_callback_is_raised_again():
    """Python prints an exception raised in a callback of the garbage
    collector as ignored and goes on: a Ctrl-C that comes while Hypothesis's
    callback runs would never end a fuzz run. `raise_if_stopped`, called at
    each input, raises it again."""
    import gc

    from oracle.ending import raise_if_stopped, stops_raise

    fired = []

    def callback(phase, info):
        if phase == "start" and not fired:
            fired.append(True)
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):       # bytecodes: the handler runs here, in the callback
                pass

    with stops_raise():
        raise_if_stopped()              # nothing taken yet: nothing raised
        gc.callbacks.append(callback)
        try:
            gc.collect()                # the KeyboardInterrupt raised in the callback is dropped
        finally:
            gc.callbacks.remove(callback)
        assert fired
        with pytest.raises(KeyboardInterrupt):
            raise_if_stopped()
    raise_if_stopped()                  # the block closed: its stop is forgotten
