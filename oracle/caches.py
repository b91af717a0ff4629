"""Where the search library keeps its caches: not in the folder a command
runs in.

Hypothesis, which `hunt` and `fuzz` draw their cases from, keeps caches
(the constants it reads in the code it searches, Unicode tables) under
`.hypothesis/` in the current folder by default: a run in a checkout would
leave that folder there. `keep_out_of_the_folder()` sends them to the
user's cache folder instead, `$XDG_CACHE_HOME/mb-oracle/hypothesis` (by
default `~/.cache/mb-oracle/hypothesis`), unless
HYPOTHESIS_STORAGE_DIRECTORY already names a place. Only the place
changes: what a search draws does not depend on it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

VARIABLE = "HYPOTHESIS_STORAGE_DIRECTORY"


def cache_folder() -> Path:
    """The folder for Hypothesis's caches: under $XDG_CACHE_HOME, else
    ~/.cache, else (no home folder) the system's temporary folder."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            base = tempfile.gettempdir()
    return Path(base) / "mb-oracle" / "hypothesis"


def keep_out_of_the_folder() -> None:
    """Point Hypothesis's caches at `cache_folder()`, unless the user
    named a place. Called before the search starts (Hypothesis reads the
    variable once, when it first stores something)."""
    if not os.environ.get(VARIABLE):
        os.environ[VARIABLE] = str(cache_folder())
