"""Talking to an engine adapter: a child process that speaks mb-engine/1 on
its standard input and output. Every way the adapter can fail (it exits,
hangs, writes something that is not a reply) is an `EngineFault` with a
message naming what went wrong; the adapter is then restarted."""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import tempfile
import threading
import time

import msgspec

from ..cards import DEFAULT_SETS
from ..replay.limits import text_problem
from . import engine_protocol as ep


READ_AHEAD = 16    # reply lines read from the adapter before the oracle asks for them, at most


class EngineFault(Exception):
    """The adapter broke the protocol; the message says how."""


def _pump(stream, q: queue.Queue) -> None:
    try:
        while True:
            line = stream.readline(ep.MAX_REPLY_BYTES + 1)
            q.put(line)
            if not line:
                return
    except (OSError, ValueError):
        q.put(b"")


class Engine:
    """One adapter process, started from a shell-style COMMAND."""

    def __init__(self, command: str, timeout: float = 10.0):
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as e:      # an unbalanced quote
            raise EngineFault(f"cannot read the engine command {command!r}: {e}") from None
        if not self.argv:
            raise EngineFault("the engine command is empty")
        self.timeout = timeout
        self.proc = None
        self.hello: ep.Reply | None = None
        self.name = self.argv[0]
        self.editions: list[str] = []
        self.positions = False
        self.sets: list[str] = list(DEFAULT_SETS)

    # -- the process -----------------------------------------------------------
    def start(self) -> None:
        """Start the adapter and read its hello."""
        self._spawn()
        line = self._exchange("hello", ep.message_encoder.encode(ep.Hello()))
        reply = read_reply("hello", line)
        problem = _hello_problem(reply, line)
        if problem:
            shown = line[:120].decode("utf-8", "replace").strip()
            raise EngineFault(f"the reply to hello is not {ep.PROTOCOL}: {problem}; expected "
                              f'{{"protocol": "{ep.PROTOCOL}", "name": ..., "editions": [...], "positions": ...}}, '
                              f"got {shown!r}")
        self.hello = reply
        self.name = reply.name if reply.name is not msgspec.UNSET else self.argv[0]
        self.version = reply.version if reply.version is not msgspec.UNSET else ""
        self.editions = list(reply.editions) if reply.editions is not msgspec.UNSET else []
        self.positions = reply.positions is True
        if reply.sets is not msgspec.UNSET:
            self.sets = list(reply.sets)

    def _spawn(self) -> None:
        self._err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err)
        except OSError as e:
            raise EngineFault(f"cannot start the engine command {self.command!r}: {e.strerror or e}") from None
        # Bounded: an adapter that floods its output waits for the oracle to read.
        self._replies: queue.Queue = queue.Queue(maxsize=READ_AHEAD)
        self._pump = threading.Thread(target=_pump, args=(self.proc.stdout, self._replies), daemon=True)
        self._pump.start()

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        p = self.proc
        if p is None:
            return
        self.proc = None
        try:
            if p.poll() is None:
                p.stdin.write(ep.message_encoder.encode(ep.Quit()) + b"\n")
                p.stdin.close()
                p.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        if p.poll() is None:
            p.kill()
            p.wait()
        self._drain()       # the pump, perhaps waiting on a full queue, reads on to the end of the output
        for f in (p.stdout, p.stdin):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        self._drain()
        self._err.close()

    def _drain(self, seconds: float = 1.0) -> None:
        """Drop unread replies until the pump thread ends (or `seconds` pass:
        a process the adapter started may hold its output open)."""
        pump = getattr(self, "_pump", None)
        deadline = time.monotonic() + seconds
        while pump is not None and pump.is_alive() and time.monotonic() < deadline:
            try:
                self._replies.get(timeout=0.01)
            except queue.Empty:
                pass

    def _stderr_tail(self) -> str:
        try:
            self._err.seek(0, os.SEEK_END)
            size = self._err.tell()
            self._err.seek(max(0, size - 600))
            tail = self._err.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return f"; its standard error ends: {tail[-600:]}" if tail else ""

    # -- messages --------------------------------------------------------------
    def send(self, message) -> ep.Reply:
        """Send one message and read its reply; EngineFault if there is none,
        or if it is not a reply."""
        op = message.__struct_config__.tag
        return read_reply(op, self._exchange(op, ep.message_encoder.encode(message)))

    def _exchange(self, op: str, data: bytes) -> bytes:
        """Write one message line to the adapter; its reply line."""
        p = self.proc
        if p is None:
            raise EngineFault("the engine is not running")
        try:
            p.stdin.write(data + b"\n")
            p.stdin.flush()
        except (OSError, ValueError):
            raise EngineFault(self._exited(f"could not send {op}")) from None
        try:
            line = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineFault(f"no reply to {op} within {self.timeout:g} s") from None
        if not line:
            raise EngineFault(self._exited(f"no reply to {op}"))
        return line

    def _exited(self, what: str) -> str:
        p = self.proc
        status = p.poll() if p is not None else None
        if status is None and p is not None:
            try:
                status = p.wait(timeout=1)
            except subprocess.TimeoutExpired:
                status = None
        how = f"the engine exited with status {status}" if status is not None else "the engine closed its output"
        return f"{what}: {how}{self._stderr_tail()}"


def _hello_problem(reply: ep.Reply, line: bytes) -> str:
    """What keeps `reply` from being a reply to hello ("" if nothing): the
    protocol it names, the editions it lists; a line with an `op` is a
    message, not a reply (an adapter that echoes its input, such as `cat`)."""
    if reply.protocol is msgspec.UNSET or reply.protocol != ep.PROTOCOL:
        said = "no protocol" if reply.protocol is msgspec.UNSET else f"protocol {reply.protocol!r}"
        return f"it says {said}"
    data = msgspec.json.decode(line)
    if "op" in data:
        return f"it is a message (op {data['op']!r}), not a reply: is the command an echo of its input?"
    if reply.editions is msgspec.UNSET:
        return "it lists no editions"
    return ""


def read_reply(op: str, line: bytes) -> ep.Reply:
    """An adapter's reply line to `op`, decoded; EngineFault, saying what is
    wrong, for a line that is not a reply."""
    if len(line) > ep.MAX_REPLY_BYTES:
        raise EngineFault(f"the reply to {op} is longer than {ep.MAX_REPLY_BYTES} bytes")
    problem = text_problem(line)
    if problem is not None:
        raise EngineFault(f"bad reply to {op}: {problem[1]}")
    try:
        return ep.reply_decoder.decode(line)
    except msgspec.ValidationError as e:
        raise EngineFault(f"bad reply to {op}: {e}") from None
    except msgspec.DecodeError:
        shown = line[:120].decode("utf-8", "replace").strip()
        raise EngineFault(f"the reply to {op} is not a JSON object: {shown!r}") from None
