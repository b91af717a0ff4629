"""An engine's hello may name its card sets as a replay game line does: by
id or by name ("First Contact", "New Servants"). conform reads both, so such
an engine is played (it was refused: "the engine deals First Contact, New
Servants, not first-contact") and gets the scenarios of the sets it deals."""

from __future__ import annotations

import json
import sys

from conftest import ROOT
from test_harness_conform import conform, reports, wrapped_adapter


def test_an_engine_that_names_its_sets_in_hello_is_played_in_those_sets(tmp_path):
    script = wrapped_adapter(tmp_path / "named.py",
                             "    if msg['op'] == 'hello':\n"
                             "        reply['sets'] = ['First Contact', 'New Servants']\n")
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "2", "--seed", "3", "--sets",
                "first-contact,new-servants", "--edition", "en-revised", "--format", "json",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr[-2000:]
    games = [g for g in reports(r) if g["t"] == "game"]
    assert len(games) == 2 and all(g["verdict"] == "conforms" for g in games)
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "0", "--format", "json",
                "--scenarios", str(ROOT / "scenarios" / "new-servants.yaml"), "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "a set the engine does not deal" not in r.stderr
    assert [g for g in reports(r) if g["t"] == "game"]
