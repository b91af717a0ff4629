"""The processes a fuzz case leaves running, found by a tag their command
line carries (an engine adapter and its children): listed, and killed
after a grace period."""

from __future__ import annotations

import os
import signal
import time


def tagged(tag: str) -> list[int]:
    """The live processes whose command line carries `tag` (/proc)."""
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if tag.encode() in cmd and state != b"Z":
            out.append(int(name))
    return out


def left_running(tag: str, grace: float = 3.0) -> list[int]:
    """The processes of the case still running after `grace` seconds
    (an orphan is reaped by init, not at once); they are then killed, so
    that a fuzz run leaves nothing behind either."""
    deadline = time.monotonic() + grace
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = tagged(tag)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left
