"""conform always ends and leaves no process behind: the adapter runs in a
session of its own, marked, and stopping it stops every process it
started (oracle.harness.adapter_process). The adapters here are small
scripts that start a sleeping grandchild holding their output, never answer
hello, start a child in a new session, or leave a child that ignores
SIGTERM; each process they start carries a tag, and the test stops any
left over itself."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

from oracle.fuzz.processes import tagged as _tagged      # the live processes whose command line carries a tag

ADAPTER = r'''
import json, os, signal, subprocess, sys, time
kind, tag = sys.argv[1], sys.argv[2]
SLEEPER = [sys.executable, "-c", "import signal, sys, time\n"
           "if sys.argv[1] == 'stubborn': signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
           "time.sleep(300)", kind, tag]
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if kind in ("grandchild", "stubborn"):
    subprocess.Popen(SLEEPER)                                   # holds the adapter's output open
elif kind == "setsid":
    subprocess.Popen(SLEEPER, start_new_session=True, **quiet)  # a session of its own
elif kind == "orphan":
    if os.fork() == 0:                                          # a grandchild left to init, output held
        os.setsid()
        subprocess.Popen(SLEEPER)
        os._exit(0)
elif kind == "silent":
    time.sleep(300)
elif kind == "leaves":
    sys.stdin.readline()
    print(json.dumps({"protocol": "mb-engine/1", "name": kind, "editions": ["en-revised"]}), flush=True)
    sys.stdin.readline()
    subprocess.Popen(SLEEPER)                                   # holds the output of an adapter gone
    os._exit(0)
for line in sys.stdin:
    op = json.loads(line)["op"]
    if op == "hello":
        print(json.dumps({"protocol": "mb-engine/1", "name": kind, "editions": ["en-revised"]}), flush=True)
    elif op == "quit":
        break
    else:
        print(json.dumps({"error": "this engine plays nothing"}), flush=True)
'''


@pytest.fixture
def adapter(tmp_path):
    """(a command line for an adapter of a kind, its tag); whatever it
    leaves running is found and stopped after the test."""
    script = tmp_path / "adapter.py"
    script.write_text(ADAPTER, encoding="utf-8")
    tag = f"mb-test-{secrets.token_hex(6)}"
    yield (lambda kind: f"{sys.executable} {script} {kind} {tag}"), tag
    for pid in _tagged(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _left(tag: str, seconds: float = 5.0) -> list[int]:
    """The tagged processes still running after a few seconds' grace (an
    orphan is reaped by init, not at once)."""
    deadline = time.monotonic() + seconds
    while _tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _tagged(tag)


def _conform(command: str, tmp_path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oracle", "conform", "--engine", command, "--budget", "1",
                           "--timeout", "3", "--out", str(tmp_path / "out"), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to see the adapter's processes")


@pytest.mark.parametrize("kind", ["grandchild", "stubborn", "orphan"])
def test_conform_ends_when_a_process_the_adapter_started_holds_its_output(adapter, tmp_path, kind):
    command, tag = adapter
    start = time.monotonic()
    r = _conform(command(kind), tmp_path)
    assert time.monotonic() - start < 30
    assert r.returncode == 1 and '"t":"summary"' in r.stdout, r.stderr   # the engine refused the deal
    assert _left(tag) == []


def test_an_adapter_that_never_answers_hello_is_stopped(adapter, tmp_path):
    command, tag = adapter
    r = _conform(command("silent"), tmp_path)
    assert r.returncode == 2 and "no reply to hello within 3 s" in r.stderr
    assert _left(tag) == []


def test_a_child_of_the_adapter_in_a_session_of_its_own_is_stopped(adapter, tmp_path):
    command, tag = adapter
    r = _conform(command("setsid"), tmp_path)
    assert r.returncode == 1, r.stderr
    assert _left(tag) == []


def test_the_engine_client_stops_what_the_adapter_started(adapter):
    from oracle.harness.engine_client import Engine, EngineFault

    command, tag = adapter
    engine = Engine(command("stubborn"), timeout=3)
    engine.start()
    assert len(_tagged(tag)) == 2           # the adapter and its sleeper
    start = time.monotonic()
    engine.stop()
    assert time.monotonic() - start < 10 and _left(tag, 1) == []
    engine = Engine(command("silent"), timeout=0.5)
    with pytest.raises(EngineFault, match="no reply to hello"):
        engine.start()
    assert engine.proc is None and _left(tag, 1) == []


def test_conform_terminated_stops_the_adapter_and_what_it_started(adapter, tmp_path):
    command, tag = adapter
    proc = subprocess.Popen([sys.executable, "-m", "oracle", "conform", "--engine", command("grandchild"),
                             "--budget", "100000", "--no-shrink", "--out", str(tmp_path / "out")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while len(_tagged(tag)) < 2:            # the adapter and its sleeper, the games under way
            assert time.monotonic() < deadline and proc.poll() is None, "the adapter did not start"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and "terminated" in err and "Traceback" not in err, err
    assert _left(tag) == []


def test_an_adapter_that_exits_leaving_a_process_on_its_output_is_said_to_have_exited(adapter):
    from oracle.games.mindbug.harness import engine_protocol as mep
    from oracle.games.mindbug.harness.start import seeded_deal, setup_line
    from oracle.harness.engine_client import Engine, EngineFault

    command, tag = adapter
    engine = Engine(command("leaves"), timeout=3)
    engine.start()
    try:
        with pytest.raises(EngineFault) as e:
            engine.send(mep.Deal(edition="en-revised", setup=setup_line(seeded_deal(1, "en-revised"))))
    finally:
        engine.stop()
    assert str(e.value) == ("no reply to deal within 3 s: the engine exited with status 0, its standard output "
                            "still open (held by a process it started)")
    assert _left(tag, 1) == []


FLOODER = r'''
import json, sys
for line in sys.stdin:
    op = json.loads(line)["op"]
    if op == "hello":
        chunk = "x" * 65535 + "\n"
        for _ in range(320):                         # 20 MB of standard error
            sys.stderr.write(chunk)
        sys.stderr.write("the last words\n")
        sys.stderr.flush()
        print(json.dumps({"protocol": "mb-engine/1", "name": "flood", "editions": ["en-revised"]}), flush=True)
    else:
        sys.exit(3)
'''


def _kept_in_files() -> int:
    """Bytes held by this process's open regular files (a temporary file is one, even unlinked)."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            st = os.fstat(int(fd))
        except OSError:
            continue
        if (st.st_mode & 0o170000) == 0o100000:
            total += st.st_size
    return total


def test_an_adapter_flooding_its_standard_error_leaves_only_its_last_words_kept(tmp_path):
    from oracle.harness import engine_protocol as ep
    from oracle.harness.engine_client import Engine, EngineFault

    script = tmp_path / "flood.py"
    script.write_text(FLOODER, encoding="utf-8")
    before = _kept_in_files()
    engine = Engine(f"{sys.executable} {script}", timeout=30)
    engine.start()
    try:
        assert _kept_in_files() - before < 1 << 20       # not the 20 MB in a temporary file
        from oracle.harness.adapter_process import ErrorTail

        assert len(engine._err.tail()) <= ErrorTail.KEEP
        with pytest.raises(EngineFault, match="(?s)exited with status 3; its standard error ends: .*the last words$"):
            engine.send(ep.Quit())
    finally:
        engine.stop()


DEAF = r'''
import json, os, sys, time
line = sys.stdin.readline()
print(json.dumps({"protocol": "mb-engine/1", "name": "deaf", "editions": ["en-revised"]}), flush=True)
os.close(0)                                  # reads no more, and lives on
time.sleep(60)
'''


def test_an_adapter_that_closes_its_standard_input_is_said_to_have_closed_its_input(tmp_path):
    from oracle.harness import engine_protocol as ep
    from oracle.harness.engine_client import Engine, EngineFault

    script = tmp_path / "deaf.py"
    script.write_text(DEAF, encoding="utf-8")
    engine = Engine(f"{sys.executable} {script}", timeout=30)
    engine.start()
    try:
        deadline = time.monotonic() + 30
        while os.path.exists(f"/proc/{engine.proc.pid}/fd/0"):      # until the adapter has closed its input
            assert time.monotonic() < deadline, "the adapter did not close its input within 30 s"
            time.sleep(0.02)
        with pytest.raises(EngineFault) as e:
            engine.send(ep.Quit())
        message = str(e.value)
    finally:
        engine.stop()
    assert message == "could not send quit: the engine closed its standard input"


def test_a_stop_before_the_campaign_is_made_stops_the_adapter_it_started(adapter, monkeypatch):
    from click.testing import CliRunner

    from oracle import games
    from oracle.cli import main
    from oracle.harness.engine_client import Engine

    command, tag = adapter
    real = games.attribute

    def attribute(game, part):
        if part != "CONFORM":
            return real(game, part)

        def campaign(cmd, settings, players):
            Engine(cmd, 3).start()          # the adapter up, the campaign not yet in the command's hands
            raise KeyboardInterrupt
        return campaign

    monkeypatch.setattr(games, "attribute", attribute)
    res = CliRunner().invoke(main, ["conform", "--engine", command("grandchild"), "--budget", "1"])
    assert res.exit_code == 130, res.output
    assert _left(tag) == []


def test_sigterm_half_way_through_stopping_the_adapter_does_not_leave_it_running(adapter, monkeypatch):
    from oracle.ending import Terminated, stops_raise
    from oracle.harness import adapter_process
    from oracle.harness.engine_client import Engine, stop_all

    command, tag = adapter
    engine = Engine(command("grandchild"), timeout=3)
    engine.start()
    real = adapter_process.stop
    calls = []

    def signalled(*args, **kw):
        calls.append(1)
        if len(calls) <= 2:
            os.kill(os.getpid(), signal.SIGTERM)    # the signal comes as the processes are being stopped
            time.sleep(1)                           # taken here, whichever thread the kernel gave it to
        return real(*args, **kw)

    monkeypatch.setattr(adapter_process, "stop", signalled)
    with pytest.raises(Terminated), stops_raise():
        engine.stop()
    assert engine.proc is not None              # cut short: still running, still to be stopped
    with stops_raise():
        stop_all()                              # as the command ends: a second signal does not cut it short
    assert engine.proc is None and len(calls) == 3
    assert _left(tag) == []


@pytest.mark.parametrize("where", ["spawn", "pump"])
def test_sigterm_while_the_adapter_starts_leaves_it_noted_and_then_stopped(adapter, monkeypatch, where):
    """A SIGTERM that comes between the adapter's start and the moment it is
    noted among the engines to stop, or before its pump exists, is held to
    the end of those steps: the command's `stop_all` then stops it, and
    nothing is left running (a stop raised half-way left the adapter
    running, or made `stop` fail on an engine without a pump)."""
    from oracle.ending import Terminated, stops_raise
    from oracle.harness import adapter_process, engine_client
    from oracle.harness.engine_client import Engine, stop_all

    command, tag = adapter
    real_spawn, real_thread = adapter_process.spawn, engine_client.threading.Thread

    def spawn_then_signal(*args, **kw):
        got = real_spawn(*args, **kw)
        os.kill(os.getpid(), signal.SIGTERM)    # taken here, in the main thread: the process exists, unnoted
        time.sleep(0.2)
        return got

    class ThreadAfterSignal(real_thread):
        def __init__(self, *args, **kw):
            os.kill(os.getpid(), signal.SIGTERM)    # after the start, before the pump exists
            time.sleep(0.2)
            super().__init__(*args, **kw)

    if where == "spawn":
        monkeypatch.setattr(adapter_process, "spawn", spawn_then_signal)
    else:
        monkeypatch.setattr(engine_client.threading, "Thread", ThreadAfterSignal)
    engine = Engine(command("grandchild"), timeout=3)
    with pytest.raises(Terminated), stops_raise():
        engine.start()
    monkeypatch.undo()
    assert engine in engine_client._running and engine.proc is not None
    with stops_raise():
        stop_all()
    assert engine.proc is None and not engine_client._running
    assert _left(tag) == []


def test_a_held_stop_is_raised_as_the_block_ends():
    from oracle.ending import Terminated, held_stops, stops_raise

    done = []
    with pytest.raises(Terminated), stops_raise():
        with held_stops():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)
            done.append("after the signal")
    assert done == ["after the signal"]
    with pytest.raises(KeyboardInterrupt) as e, stops_raise():
        with held_stops():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
            raise OSError("the block's own failure")      # gives way to the held stop
    assert type(e.value) is KeyboardInterrupt
    with stops_raise():
        with held_stops():
            pass                                            # no stop: nothing raised
