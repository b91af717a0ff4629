"""Loading a command's modules with the garbage collector paused.

What importing makes (modules, classes, functions, tables) lives as long as
the process, yet the collector would walk it again and again while the
imports run, and once more at the exit, freeing none of it: a third of a
short command's start. `collector_paused()` holds the collector off while
the modules load, then sets what they made aside for good (gc.freeze)."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
