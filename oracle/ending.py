"""How a command ends on a failure it does not report itself: a package the
install lacks, standard output closed by its reader, a write that fails.

Shared by the click group (oracle.cli) and the fast path of a plain
`verify PATH...` (oracle.launch), which must end the same way; click-free.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager

# The exit status when standard output is closed before the output is
# complete: a process ended by SIGPIPE gives the same in a shell.
CLOSED_OUTPUT = 128 + 13

# Ctrl-C: the exit status (128 + SIGINT) and the one line on standard
# error, whenever it comes (start-up, the run, the writing of the reports).
INTERRUPTED_STATUS = 128 + 2
INTERRUPTED = b"mb-oracle: interrupted\n"
# SIGTERM: the same, with 128 + SIGTERM.
TERMINATED_STATUS = 128 + 15
TERMINATED = b"mb-oracle: terminated\n"

# the module a command may miss -> the package that provides it
PACKAGES = {"hypothesis": "hypothesis", "yaml": "PyYAML", "msgspec": "msgspec", "jinja2": "Jinja2"}


def stdout_closed() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone."""
    import select

    try:
        poll = select.poll()
        poll.register(1, select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poll.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def discard_stdout() -> None:
    """From now on, what is written to standard output (what its buffer still
    holds, flushed at exit) goes nowhere, without another error."""
    to_devnull(1)


def to_devnull(fd: int) -> None:
    """Descriptor `fd` pointed at /dev/null (left as it is if that fails)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def say_interrupted() -> int:
    """Ctrl-C that reached the command line (no handler of the run's own
    took it): what standard output holds is written out, the one line goes
    to standard error; INTERRUPTED_STATUS, to exit with. Temporary files of
    outputs go at exit (oracle.safefile)."""
    return _say(INTERRUPTED, INTERRUPTED_STATUS)


def _say(line: bytes, status: int) -> int:
    """What standard output holds written out, `line` on standard error;
    `status`, to exit with."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    try:
        os.write(2, line)
    except OSError:            # no standard error: the exit status says it
        pass
    return status


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run stands while `stops_raise` is open: it
    unwinds as Ctrl-C's KeyboardInterrupt does."""


_raising: list[bool] = []       # open `stops_raise` blocks
_taken: list[type] = []         # the stops taken while one is open (KeyboardInterrupt, Terminated)
_holding: list[int] = []        # open `held_stops` blocks: the stops taken when each was opened


def stops_raising() -> bool:
    """Whether a command took SIGINT and SIGTERM as exceptions (`stops_raise`):
    the handlers that would end the process at once leave them alone."""
    return bool(_raising)


@contextmanager
def stops_raise():
    """While open, SIGINT raises KeyboardInterrupt and SIGTERM raises
    `Terminated` wherever the run stands, for a command that reports what it
    has done so far before it exits (`say_stopped`). Outside the main thread
    the signals are left as they are."""
    import signal

    owner = os.getpid()

    def on_term(signum, frame):
        if os.getpid() != owner:    # a forked child before it set its own handler
            os._exit(TERMINATED_STATUS)
        _taken.append(Terminated)
        if not _holding:
            raise Terminated

    def on_int(signum, frame):
        if os.getpid() != owner:
            os._exit(INTERRUPTED_STATUS)
        _taken.append(KeyboardInterrupt)
        if not _holding:
            raise KeyboardInterrupt

    try:
        previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, on_term),
                    signal.SIGINT: signal.signal(signal.SIGINT, on_int)}
    except ValueError:              # not the main thread
        yield
        return
    _raising.append(True)
    try:
        yield
    finally:
        _raising.pop()
        if not _raising:
            _taken.clear()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def held_stops():
    """While open, a stop that `stops_raise` takes (SIGINT, SIGTERM) is held,
    and raised as the block ends: for a few steps that must all be done or
    none, such as starting a process and noting it among those to stop as
    the command ends. A stop raised half-way would leave a process running
    that nothing knows of, or one noted but not yet ready to be stopped. An
    exception of the block itself gives way to the held stop."""
    since = len(_taken)
    _holding.append(since)
    try:
        yield
    finally:
        _holding.pop()
        if len(_taken) > since and not _holding:
            raise _taken[-1] from None      # in place of the block's own exception, if any


def raise_if_stopped() -> None:
    """Raise again the stop that `stops_raise` took (KeyboardInterrupt, or
    Terminated), for a loop to call at each step. A signal's exception is
    raised in whatever Python code runs when it comes; in a callback of the
    garbage collector (Hypothesis installs one) Python prints it as ignored
    and goes on, and the run would never stop."""
    if _taken:
        raise _taken[-1]


def say_stopped(e: KeyboardInterrupt) -> int:
    """The end of a run that `stops_raise` stopped: as `say_interrupted` for
    Ctrl-C; for SIGTERM (`Terminated`) its own line and TERMINATED_STATUS."""
    if not isinstance(e, Terminated):
        return say_interrupted()
    return _say(TERMINATED, TERMINATED_STATUS)


def _prefix(command: str) -> str:
    return f"mb-oracle{' ' + command if command else ''}"


def missing_package(e: ModuleNotFoundError, command: str) -> str | None:
    """The one line of advice for a package the install lacks; None when the
    missing module is the oracle's own (a bug: its traceback is shown)."""
    top = (e.name or "").split(".")[0]
    if not top or top == "oracle":
        return None
    package = PACKAGES.get(top, top)
    return f"{_prefix(command)}: needs the Python package {package!r}, which is not installed here (pip install {package})"


def closed_output(e: OSError) -> bool:
    """Whether `e` is standard output closed by its reader (`| head -1`): the
    command ends quietly with CLOSED_OUTPUT, what is still buffered discarded."""
    return e.errno == errno.EPIPE and stdout_closed()


def cannot_go_on(e: OSError, command: str) -> str:
    """The line for any other failure to write (a full disk, an I/O error, a
    pipe that is not standard output); the command exits with status 2."""
    where = f" ({e.filename})" if e.filename else ""
    return f"{_prefix(command)}: cannot go on: {e.strerror or e}{where}"
