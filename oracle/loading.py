"""Loading a command's modules with the garbage collector paused.

What importing makes (modules, classes, functions, tables) lives as long as
the process, yet the collector would walk it again and again while the
imports run, and once more at the exit, freeing none of it: a third of a
short command's start. `collector_paused()` holds the collector off while
the modules load, then, if any did, sets what they made aside for good
(gc.freeze). A block whose modules were all loaded already (a command run
again in the same process, as the tests do) leaves the collector as it was.

A command's modules are loaded after msgspec, which nearly every command
reads its input with, loaded without typing_extensions (`msgspec_first`)."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager


def msgspec_first() -> None:
    """Import msgspec with typing_extensions out of its sight. msgspec takes
    two typing helpers from typing_extensions whenever it is installed (it
    is, beside mypy, jsonschema and much else) and from `typing` otherwise;
    on Python 3.11 both give the same for the project's formats, which use
    `typing` alone. What typing_extensions brings with it (inspect, ast,
    dis, tokenize) is about 38 M instructions, a sixth of a one-log verify.
    typing_extensions stays importable for everything after."""
    if "msgspec" in sys.modules or "typing_extensions" in sys.modules or sys.version_info < (3, 11):
        return
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]
    try:
        import msgspec  # noqa: F401
    except ImportError:
        pass                # the command's own import says what is missing
    finally:
        del sys.modules["typing_extensions"]


@contextmanager
def collector_paused():
    collecting = gc.isenabled()
    loaded = len(sys.modules)
    gc.disable()
    try:
        yield
    finally:
        if len(sys.modules) != loaded:
            gc.freeze()
        if collecting:
            gc.enable()
