"""conform reports its games only once every game is played and every root
cause shrunk; each game's JUnit time is still its own (before, the first
case carried the whole run and the others 0.000)."""

from __future__ import annotations

import re
import sys

from conftest import ROOT
from test_harness_conform import conform


def test_each_game_of_a_conform_run_has_its_own_time_in_junit(tmp_path):
    adapter = f"{sys.executable} {ROOT / 'examples' / 'engine_adapter.py'} --plant sneaky"
    r = conform("--engine", adapter, "--budget", "4", "--seed", "2", "--edition", "en-revised", "--format", "junit",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 1, r.stderr[-2000:]
    times = [float(t) for t in re.findall(r'<testcase [^>]*time="([0-9.]+)"', r.stdout)]
    assert len(times) == 4 and all(t >= 0.001 for t in times), times
