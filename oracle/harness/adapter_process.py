"""The processes of an engine adapter, so that none outlives the run.

The adapter starts in a session (and process group) of its own, with a
mark in its environment that every process it starts inherits. Stopping it
ends the whole group and every process carrying the mark or descending
from the adapter, wherever it went (a grandchild that holds the adapter's
output open, a child that started a session of its own): SIGTERM first,
SIGKILL after a grace period. The process table is read from /proc where
there is one; elsewhere the process group alone is stopped.

What the adapter writes to its standard error is read as it comes and only
its last `ErrorTail.KEEP` bytes are kept (`ErrorTail`), for the message of
a fault: an adapter that floods it costs neither memory nor disk.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import threading
import time

MARK = "MB_ORACLE_ADAPTER"      # the environment variable that marks an adapter's processes
GRACE = 1.0                     # seconds between SIGTERM and SIGKILL


def spawn(argv: list[str], stderr) -> tuple[subprocess.Popen, str]:
    """Start the adapter in a new session, marked; (the process, its mark).
    OSError when it cannot be started."""
    token = secrets.token_hex(12)
    env = dict(os.environ, **{MARK: token})
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env,
                            start_new_session=True)
    return proc, token


class ErrorTail:
    """The adapter's standard error: a pipe read by a thread of its own
    that keeps the last KEEP bytes and drops the rest."""

    KEEP = 4096

    def __init__(self):
        self._read, self.write_end = os.pipe()
        self._kept = b""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, daemon=True)

    def started(self) -> None:
        """The adapter has its copy of the write end: ours is closed, the reading begins."""
        os.close(self.write_end)
        self._thread.start()

    def abandon(self) -> None:
        """The adapter could not be started: both ends closed."""
        for fd in (self._read, self.write_end):
            try:
                os.close(fd)
            except OSError:
                pass

    def _drain(self) -> None:
        try:
            while True:
                try:
                    data = os.read(self._read, 65536)
                except OSError:
                    return
                if not data:
                    return
                with self._lock:
                    self._kept = (self._kept + data)[-self.KEEP:]
        finally:
            os.close(self._read)

    def tail(self, settle: float = 0.0) -> bytes:
        """The last bytes written; with `settle`, first wait up to that long
        for the writers to close the pipe (what an adapter that has exited
        wrote is then all read, unless a process it started holds it open)."""
        if settle and self._thread.is_alive():
            self._thread.join(settle)
        with self._lock:
            return self._kept


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, from /proc; None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    rest = data[data.rfind(b")") + 2:].split()
    try:
        return int(rest[1]), rest[0].decode(), int(rest[19])
    except (IndexError, ValueError):
        return None


def members(token: str, root: int) -> set[tuple[int, int]]:
    """The processes of the adapter `root` with the mark `token`: (pid, start
    time) of each that carries the mark or descends from `root`."""
    try:
        pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return set()
    needle = f"{MARK}={token}".encode()
    me = os.getpid()
    table: dict[int, tuple[int, str, int]] = {}
    found: set[int] = set()
    for pid in pids:
        if pid == me:
            continue
        st = _stat(pid)
        if st is None or st[1] == "Z":
            continue
        table[pid] = st
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.add(pid)
        except OSError:
            pass
    if root in table:
        found.add(root)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _, _) in table.items():
            if pid not in found and ppid in found:
                found.add(pid)
                grew = True
    return {(pid, table[pid][2]) for pid in found}


def _alive(known: set[tuple[int, int]]) -> set[tuple[int, int]]:
    out = set()
    for pid, start in known:
        st = _stat(pid)
        if st is not None and st[1] != "Z" and st[2] == start:
            out.add((pid, start))
    return out


def _signal(proc: subprocess.Popen, known: set[tuple[int, int]], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for pid, _ in _alive(known):
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def stop(proc: subprocess.Popen, token: str, known: set[tuple[int, int]] = frozenset(),
         grace: float = GRACE) -> None:
    """End the adapter `proc`, its process group and every process of its
    mark (and those in `known`, found earlier): SIGTERM, then SIGKILL what
    is left after `grace` seconds; the adapter is reaped."""
    known = set(known) | members(token, proc.pid)
    _signal(proc, known, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        proc.poll()
        known = _alive(known)
        if not known and proc.returncode is not None and _group_gone(proc.pid):
            known = members(token, proc.pid)     # one that started meanwhile?
            if not known:
                return
        time.sleep(0.02)
    _signal(proc, known | members(token, proc.pid), signal.SIGKILL)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
