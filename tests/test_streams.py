"""Output streams, one rule for every command (README, Output streams):
the report on standard output; errors about the input files, warnings,
progress and notes on standard error."""

from __future__ import annotations

import gzip
import sys

from conftest import ROOT, run_cli

LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"


def _cut_gzip(tmp_path):
    """A gzip log cut short: the file cannot be read to its end."""
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(LOG.read_bytes())[:300])
    return cut


def test_verify_says_a_file_it_cannot_read_on_standard_error_and_judges_it_in_the_report(tmp_path):
    cut = _cut_gzip(tmp_path)
    for fmt in ("human", "json"):
        r = run_cli("verify", str(cut), str(LOG), "--format", fmt)
        assert r.returncode == 2
        err = r.stderr.decode()
        assert err.startswith(f"error: {cut}") and "cannot read the file" in err, err
        assert b"UNREADABLE" in r.stdout and b"UNREADABLE" not in r.stderr   # the verdict is the report's


def test_verify_sends_nothing_but_the_report_to_standard_output_and_nothing_to_standard_error_when_all_is_well():
    r = run_cli("verify", str(LOG), "--format", "json")
    assert r.returncode == 0 and r.stderr == b""


def test_annotate_says_each_game_it_cannot_annotate_on_standard_error(tmp_path):
    cut = _cut_gzip(tmp_path)
    violates = ROOT / "replays" / "violations" / "wrong-winner.jsonl"
    r = run_cli("annotate", str(cut), str(violates))
    assert r.returncode == 2
    err = r.stderr.decode().splitlines()
    assert any(x.startswith(f"error: {cut}:") and "UNREADABLE" in x for x in err), err
    assert f"note: {violates}:63: game violation-wrong-winner: violates: WRONG_RESULT: the log says player 1 " \
           f"won (life); the rules say player 0 (life)" in err
    assert all(x.startswith(b"{") for x in r.stdout.splitlines())   # standard output: logs only
    ok = run_cli("annotate", str(LOG))
    assert ok.returncode == 0 and ok.stderr == b""


def test_a_control_character_in_a_file_name_reaches_standard_error_escaped(tmp_path):
    bad = tmp_path / "a\x1b[31mb.yaml"
    bad.write_text("id: [\n")
    r = run_cli("scenarios", str(bad))
    assert r.returncode == 2 and b"\x1b" not in r.stderr and b"\\x1b[31m" in r.stderr


def test_conform_says_a_scenario_file_it_skips_on_standard_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [\n")
    r = run_cli("conform", "--engine", f"{sys.executable} examples/engine_adapter.py", "--scenarios", str(bad),
                "--budget", "0", "--out", str(tmp_path / "out"))
    assert r.returncode == 2
    assert r.stderr.decode().startswith(f"error: {bad}:2: invalid YAML")
    assert b"BAD_SCENARIO" in r.stdout and b"BAD_SCENARIO" not in r.stderr
