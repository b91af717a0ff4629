"""Talking to an engine adapter: a child process that speaks mb-engine/1 on
its standard input and output. Every way the adapter can fail (it exits,
hangs, writes something that is not a reply) is an `EngineFault` with a
message naming what went wrong; the adapter is then restarted. The replies
are read as the game played says (its registry entry's ENGINE_REPLY)."""

from __future__ import annotations

import os
import queue
import select
import shlex
import subprocess
import threading
import time

import msgspec

from .. import games
from ..ending import held_stops
from ..replay.limits import text_problem
from . import adapter_process
from . import engine_protocol as ep


READ_AHEAD = 16    # reply lines read from the adapter before the oracle asks for them, at most
QUIT_WAIT = 2.0    # seconds the adapter has to end after quit before it is stopped


class EngineFault(Exception):
    """The adapter broke the protocol; the message says how."""


def _pump(stream, q: queue.Queue, stopped: threading.Event) -> None:
    """Read the adapter's reply lines into `q` until its output ends or the
    adapter is stopped; the stream is closed here, by its only reader (a
    process the adapter started may hold the output open: closing it from
    another thread would wait for this read)."""
    try:
        while True:
            try:
                line = stream.readline(ep.MAX_REPLY_BYTES + 1)
            except (OSError, ValueError):
                line = b""
            while True:
                try:
                    q.put(line, timeout=0.05)
                    break
                except queue.Full:
                    if stopped.is_set():
                        return
            if not line or stopped.is_set():
                return
    finally:
        try:
            stream.close()
        except (OSError, ValueError):
            pass


# The engines started and not yet stopped: a command stops them all as it
# ends (`stop_all`), including one that Ctrl-C or SIGTERM caught before the
# command had it in hand (its campaign still being made, a restart under way).
_running: set = set()


def stop_all() -> None:
    """Stop every engine adapter still running (Engine.stop), to the end: a
    Ctrl-C or SIGTERM that comes meanwhile does not cut it short (the command
    is ending already)."""
    while _running:
        try:
            for engine in list(_running):
                engine.stop()
        except KeyboardInterrupt:
            continue


class Engine:
    """One adapter process, started from a shell-style COMMAND, to play `game`."""

    def __init__(self, command: str, timeout: float = 10.0, game: str = games.DEFAULT):
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as e:      # an unbalanced quote
            raise EngineFault(f"cannot read the engine command {command!r}: {e}") from None
        if not self.argv:
            raise EngineFault("the engine command is empty")
        self.timeout = timeout
        self.reply_decoder = games.attribute(game, "ENGINE_REPLY")     # a reply line that names no decoder
        self.proc = None
        self.hello: ep.HelloReply | None = None
        self.name = self.argv[0]
        self.editions: list[str] = []
        self.positions = False
        self.sets: list[str] | None = None      # the card sets its hello lists, as written (None: it lists none)
        self.deviations: list[str] = []     # clauses the engine knowingly does not follow (hello)

    # -- the process -----------------------------------------------------------
    def start(self) -> None:
        """Start the adapter and read its hello; an adapter that does not
        answer it as one is stopped (EngineFault)."""
        self._spawn()
        try:
            line = self._exchange("hello", ep.message_encoder.encode(ep.Hello()))
            reply = read_reply("hello", line, self.reply_decoder)
            problem = _hello_problem(reply, line)
            if problem:
                shown = line[:120].decode("utf-8", "replace").strip()
                raise EngineFault(f"the reply to hello is not {ep.PROTOCOL}: {problem}; expected "
                                  f'{{"protocol": "{ep.PROTOCOL}", "name": ..., "editions": [...], "positions": ...}}, '
                                  f"got {shown!r}")
        except BaseException:
            self.stop()
            raise
        self.hello = reply
        self.name = reply.name if reply.name is not msgspec.UNSET else self.argv[0]
        self.version = reply.version if reply.version is not msgspec.UNSET else ""
        self.editions = list(reply.editions) if reply.editions is not msgspec.UNSET else []
        self.games = list(reply.games) if reply.games is not msgspec.UNSET else [games.DEFAULT]
        self.positions = reply.positions is True
        if reply.sets is not msgspec.UNSET:
            self.sets = list(reply.sets)
        self.deviations = [] if reply.deviations is msgspec.UNSET else list(reply.deviations)

    def _spawn(self) -> None:
        # All or nothing: a Ctrl-C or SIGTERM comes out once the adapter is
        # noted among the engines to stop (`_running`) and can be stopped,
        # never between its start and that (it would be left running), nor
        # before its pump exists (`stop` would fail on it).
        with held_stops():
            self._err = adapter_process.ErrorTail()
            try:
                self.proc, self._mark = adapter_process.spawn(self.argv, self._err.write_end)
            except OSError as e:
                self._err.abandon()
                raise EngineFault(f"cannot start the engine command {self.command!r}: {e.strerror or e}") from None
            # Bounded: an adapter that floods its output waits for the oracle to read.
            self._replies: queue.Queue = queue.Queue(maxsize=READ_AHEAD)
            self._stopped = threading.Event()
            self._pump = threading.Thread(target=_pump, args=(self.proc.stdout, self._replies, self._stopped),
                                          daemon=True)
            _running.add(self)
            self._err.started()
            os.set_blocking(self.proc.stdin.fileno(), False)     # a write waits at most the timeout
            self._pump.start()

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        """Ask the adapter to quit, then end it and every process it started
        (oracle.harness.adapter_process); never waits on its pipes. A stop
        that Ctrl-C or SIGTERM cuts short leaves the engine running, so that
        `stop_all` stops it again as the command ends."""
        p = self.proc
        if p is None:
            return
        before = adapter_process.members(self._mark, p.pid)    # before the adapter's children lose their parent
        if p.poll() is None and not p.stdin.closed:
            try:
                self._write(p, ep.message_encoder.encode(ep.Quit()) + b"\n", "quit", QUIT_WAIT)
            except EngineFault:
                pass
        try:
            p.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            p.wait(timeout=QUIT_WAIT)
        except subprocess.TimeoutExpired:
            pass
        adapter_process.stop(p, self._mark, before)
        self.proc = None
        _running.discard(self)
        self._stopped.set()
        self._pump.join(timeout=adapter_process.GRACE)

    def _stderr_tail(self) -> str:
        exited = self.proc is None or self.proc.poll() is not None
        tail = self._err.tail(settle=0.5 if exited else 0.0).decode("utf-8", "replace").strip()
        return f"; its standard error ends: {tail[-600:]}" if tail else ""

    # -- messages --------------------------------------------------------------
    def send(self, message, decoder=None):
        """Send one message and read its reply; EngineFault if there is none,
        or if it is not a reply (`decoder`: the reply's, else the game's)."""
        op = message.__struct_config__.tag
        return read_reply(op, self._exchange(op, ep.message_encoder.encode(message)), decoder or self.reply_decoder)

    def _exchange(self, op: str, data: bytes) -> bytes:
        """Write one message line to the adapter; its reply line."""
        p = self.proc
        if p is None:
            raise EngineFault("the engine is not running")
        self._unasked(op)
        self._write(p, data + b"\n", op, self.timeout)
        try:
            line = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            status = p.poll()
            held = "" if status is None else (f": the engine exited with status {status}, its standard output "
                                              f"still open (held by a process it started){self._stderr_tail()}")
            raise EngineFault(f"no reply to {op} within {self.timeout:g} s{held}") from None
        if not line:
            raise EngineFault(self._exited(f"no reply to {op}", "standard output"))
        return line

    def _unasked(self, op: str) -> None:
        """EngineFault if a line of the adapter waits before `op` is sent: a
        reply given twice, or one nobody asked for, would be taken for the
        reply to `op` and every later message, into the next games."""
        try:
            line = self._replies.get_nowait()
        except queue.Empty:
            return
        if not line:
            raise EngineFault(self._exited(f"could not send {op}", "standard output"))
        shown = line[:120].decode("utf-8", "replace").strip()
        raise EngineFault(f"the engine wrote a line before {op} was sent (a reply given twice, or one "
                          f"nobody asked for): {shown!r}")

    def _write(self, p, data: bytes, op: str, timeout: float) -> None:
        """Write `data` to the adapter within `timeout` seconds (an adapter
        that reads no more input is a fault, not a wait for ever)."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        try:
            fd = p.stdin.fileno()
            while view:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise EngineFault(f"could not send {op} within {timeout:g} s: the engine reads no input")
                if not select.select([], [fd], [], left)[1]:
                    continue
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:
                    pass
        except (OSError, ValueError):
            raise EngineFault(self._exited(f"could not send {op}", "standard input")) from None

    def _exited(self, what: str, closed: str) -> str:
        """`what` went wrong, and why: the engine's exit status, or, while
        it runs on, the stream of its that it `closed`."""
        p = self.proc
        status = p.poll() if p is not None else None
        if status is None and p is not None:
            try:
                status = p.wait(timeout=1)
            except subprocess.TimeoutExpired:
                status = None
        how = f"the engine exited with status {status}" if status is not None else f"the engine closed its {closed}"
        return f"{what}: {how}{self._stderr_tail()}"


def _hello_problem(reply: ep.HelloReply, line: bytes) -> str:
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


def read_reply(op: str, line: bytes, decoder):
    """An adapter's reply line to `op`, decoded by `decoder`; EngineFault,
    saying what is wrong, for a line that is not a reply."""
    if len(line) > ep.MAX_REPLY_BYTES:
        raise EngineFault(f"the reply to {op} is longer than {ep.MAX_REPLY_BYTES} bytes")
    problem = text_problem(line)
    if problem is not None:
        raise EngineFault(f"bad reply to {op}: {problem[1]}")
    try:
        return decoder.decode(line)
    except msgspec.ValidationError as e:
        raise EngineFault(f"bad reply to {op}: {e}") from None
    except msgspec.DecodeError:
        shown = line[:120].decode("utf-8", "replace").strip()
        raise EngineFault(f"the reply to {op} is not a JSON object: {shown!r}") from None
