"""Loading a command's modules with the garbage collector paused.

What importing makes (modules, classes, functions, tables) lives as long as
the process, yet the collector would walk it again and again while the
imports run, and once more at the exit, freeing none of it: a third of a
short command's start. `collector_paused()` holds the collector off while
the modules load, then, if any did, sets what they made aside for good
(gc.freeze). A block whose modules were all loaded already (a command run
again in the same process, as the tests do) leaves the collector as it was."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager


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
