"""Writing an output without destroying a file.

Every file the tool writes (a report of `--output`, the page of `show -o`,
a draft scenario, a shrunk game) is written to a temporary file beside it
and renamed into place only when complete: an error, Ctrl-C or a full disk
leaves the file that was there as it was, never empty or half-written. An
output that is one of the run's inputs is refused before anything is
written (`clash`), and so is a file its user may not write (one made
read-only), which a rename would replace all the same. What is written to a terminal, a pipe or a device
(`/dev/stdout`, `/dev/null`) goes there directly: there is nothing to keep.

A run that ends without unwinding (the Ctrl-C of `verify`, which exits at
once) calls `discard_pending()` first; any other exit removes the
temporary files through `atexit`. A signal that would end the process
where it stands (SIGHUP, SIGTERM, SIGQUIT and the others in `ENDING`),
while a temporary file is pending and nothing else handles that signal,
removes them too, then ends the process by the same signal.
"""

from __future__ import annotations

import atexit
import errno
import io
import os
import stat
from typing import IO

from .term import visible


class OutputError(Exception):
    """An output cannot be written; the message names the file and why."""


# temporary files not yet renamed into place -> the process that made
# each (a forked worker inherits the set, and must not remove its parent's)
_pending: dict[str, int] = {}

# The signals whose default action ends the process without unwinding.
ENDING = ("SIGHUP", "SIGTERM", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU", "SIGVTALRM")


def discard_pending() -> None:
    """Remove every temporary file of this process not yet renamed into
    place (the files they were to replace stay as they were)."""
    me = os.getpid()
    for tmp, owner in list(_pending.items()):
        if owner != me:
            continue
        _pending.pop(tmp, None)
        try:
            os.unlink(tmp)
        except OSError:
            pass


atexit.register(discard_pending)


def _end_by(signum, frame) -> None:
    """A signal of ENDING while a temporary file is pending: the files
    removed, then the process ended by the signal's default action."""
    import _signal

    discard_pending()
    _signal.signal(signum, _signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)      # not reached: the signal ends the process


def _guard() -> None:
    """Each signal of ENDING that has its default action gets `_end_by`
    (from the main thread; a handler set later, such as verify's Ctrl-C
    and SIGTERM, takes its place while it is set)."""
    import _signal

    for name in ENDING:
        signum = getattr(_signal, name, None)
        if signum is not None and _signal.getsignal(signum) == _signal.SIG_DFL:
            try:
                _signal.signal(signum, _end_by)
            except ValueError:      # not the main thread: signals are the main thread's to set
                return


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def clash(output: str | os.PathLike, inputs) -> str | None:
    """The input (a path, or `-` for standard input) that writing `output`
    would overwrite: the same file by device and inode (a hard link, a
    symbolic link, `/dev/stdin` for standard input read from a file or a
    pipe) or by resolved path; None when there is none, or when `output` is
    a terminal or a device."""
    try:
        out = os.stat(output)
    except (OSError, ValueError):
        out = None
    if out is not None and (stat.S_ISCHR(out.st_mode) or stat.S_ISBLK(out.st_mode)):
        return None         # a terminal or a device: writing there destroys no file
    where = os.path.realpath(output)
    for i in inputs:
        if i is None or i == "":
            continue
        if i == "-":
            try:
                if out is not None and _same(out, os.fstat(0)):
                    return "-"
            except OSError:
                pass
            continue
        try:
            if out is not None and _same(out, os.stat(i)):
                return str(i)
        except (OSError, ValueError):
            pass
        if os.path.realpath(i) == where:
            return str(i)
    return None


def stdout_clash(inputs) -> str | None:
    """The input (a path, or `-`) that standard output writes to (`annotate
    LOG >> LOG`): the run would read what it writes, `annotate` without end.
    None when standard output is not a regular file (a terminal, a pipe) or
    is none of them."""
    try:
        out = os.fstat(1)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(out.st_mode):
        return None
    for i in inputs:
        try:
            if i and _same(out, os.fstat(0) if i == "-" else os.stat(i)):
                return str(i)
        except (OSError, ValueError):
            pass
    return None


def input_name(i: str) -> str:
    """An input as a message names it: on one line, whatever its name holds."""
    return "standard input" if i == "-" else visible(str(i))


class Replacement:
    """An output written beside `path` and renamed onto it by `commit()`;
    `discard()` (or an exception inside `with`) removes it and leaves `path`
    as it was. `mode` is "w" (UTF-8 text, LF line ends) or "wb". A symbolic
    link at `path` is followed: the file it leads to is replaced, the link
    stays."""

    def __init__(self, path: str | os.PathLike, mode: str = "w"):
        self.path = os.fspath(path)
        self.tmp: str | None = None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise OutputError(f"{visible(self.path)}: cannot write: {e.strerror}") from None
        if st is not None and not stat.S_ISREG(st.st_mode):
            if stat.S_ISDIR(st.st_mode):
                raise OutputError(f"{visible(self.path)}: cannot write: it is a folder")
            # A terminal, a pipe, a device: written as it comes.
            try:
                self.file = _wrap(os.open(self.path, os.O_WRONLY | os.O_APPEND), mode, self.path)
            except OSError as e:
                raise OutputError(f"{visible(self.path)}: cannot write: {e.strerror}") from None
            return
        if st is not None and not os.access(self.path, os.W_OK):
            # a file its owner made read-only: renamed over, it would be gone though
            # writing it is refused (the folder's permission is not the file's)
            raise OutputError(f"{visible(self.path)}: cannot write: {os.strerror(errno.EACCES)}")
        target = os.path.realpath(self.path)
        folder, name = os.path.split(target)
        import secrets      # here: it loads the OpenSSL bindings, which a run without --output never needs

        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        _guard()
        _pending[tmp] = os.getpid()     # before it is made: a signal may come as soon as it is there
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError as e:
            _pending.pop(tmp, None)
            if e.errno != errno.ENOENT:
                what = e.strerror
            else:       # a folder that is there but takes no new file (/proc) says ENOENT too
                what = "the folder takes no new file" if os.path.isdir(folder or ".") else "no such folder"
            raise OutputError(f"{visible(self.path)}: cannot write: {what} ({visible(folder or '.')})") from None
        self.tmp, self.target = tmp, target
        if st is not None:
            try:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            except OSError:
                pass
        self.file = _wrap(fd, mode, self.path)

    def commit(self) -> None:
        """Flush, sync and rename into place."""
        f = self.file
        if self.tmp is None:
            f.close()
            return
        try:
            f.flush()
            try:
                os.fsync(f.fileno())
            except OSError as e:
                raise _named(e, self.path)
            f.close()
            os.replace(self.tmp, self.target)
        except BaseException:
            self.discard()
            raise
        _pending.pop(self.tmp, None)
        self.tmp = None

    def discard(self) -> None:
        try:
            self.file.close()
        except (OSError, ValueError):
            pass
        if self.tmp is not None:
            _pending.pop(self.tmp, None)
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None

    def __enter__(self) -> IO:
        return self.file

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _named(e: OSError, path: str) -> OSError:
    """`e`, naming the output `path` if it names no file: a full disk or an
    I/O error is then said of the output it struck (`cannot go on: No space
    left on device (report.html)`), not of no file at all."""
    if e.filename is None:
        e.filename = path
    return e


class _Output(io.FileIO):
    """The file descriptor of an output: an error writing it names the output."""

    def __init__(self, fd: int, path: str, mode: str = "w"):
        super().__init__(fd, mode)
        self.path = path

    def write(self, b) -> int:
        try:
            return super().write(b)
        except OSError as e:
            raise _named(e, self.path)


def spool(text: bool = False) -> IO:
    """A temporary file, gone when closed, that holds part of a report until
    the report is written (binary, or UTF-8 text with `text`): an error
    writing it (a full disk) names the folder it is in."""
    import tempfile

    with tempfile.TemporaryFile() as f:
        fd = os.dup(f.fileno())
    raw = io.BufferedRandom(_Output(fd, f"a temporary file in {tempfile.gettempdir()}", "r+"))
    return io.TextIOWrapper(raw, encoding="utf-8", newline="\n") if text else raw


def _wrap(fd: int, mode: str, path: str) -> IO:
    raw = io.BufferedWriter(_Output(fd, path))
    if mode == "wb":
        return raw
    return io.TextIOWrapper(raw, encoding="utf-8", newline="\n")


def write_file(path: str | os.PathLike, data: str | bytes) -> None:
    """Write the whole of `data` to `path`, replacing it only when complete."""
    with Replacement(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
