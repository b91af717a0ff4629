"""An input none of whose lines is a JSON object is not JSON Lines: one
NOT_JSON_LINES report for it, named by the input, in every format and with
any number of workers."""

from __future__ import annotations

import json
import subprocess
import sys
from xml.etree import ElementTree as ET

import pytest
from conftest import ROOT, run_cli

from oracle.games.mindbug.replay.selfplay import selfplay_lines


def _games() -> bytes:
    return b"".join(x + b"\n" for x in selfplay_lines(2, 9, "en-revised"))


def test_the_readme_is_not_json_lines_in_every_format(tmp_path):
    readme = str(ROOT / "README.md")
    human = run_cli("verify", readme, "--color", "never", "--output", f"junit={tmp_path / 'r.xml'}")
    out = human.stdout.decode()
    assert human.returncode == 2 and "NOT_JSON_LINES" in out and "LINE_OUTSIDE_GAME" not in out
    assert "not JSON Lines" in out and "begins '# mb-oracle'" in out and out.count("MALFORMED") == 1
    lines = [json.loads(x) for x in run_cli("verify", readme, "--format", "json").stdout.splitlines()]
    assert len(lines) == 2 and lines[0]["id"] == readme and lines[0]["findings"][0]["code"] == "NOT_JSON_LINES"
    case = ET.parse(tmp_path / "r.xml").getroot().find(".//testcase")
    assert case.get("name") == readme and case.find("error").get("type") == "NOT_JSON_LINES"


def test_text_before_games_is_still_lines_outside_a_game(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"exported by my-engine\n" + _games())
    r = run_cli("verify", str(path), "--format", "json")
    reps = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
    assert [x["findings"][0]["code"] if x["findings"] else x["verdict"] for x in reps] == \
        ["LINE_OUTSIDE_GAME", "conforms", "conforms"]
    objects = tmp_path / "o.jsonl"
    objects.write_bytes(b'{"event": "start"}\nplain text\n')
    r = run_cli("verify", str(objects), "--format", "json")
    assert json.loads(r.stdout.splitlines()[0])["findings"][0]["code"] == "LINE_OUTSIDE_GAME"


@pytest.mark.parametrize("then_games", [False, True])
def test_a_long_text_is_one_report_whatever_the_workers(tmp_path, then_games):
    """More lines than a game may hold (MAX_GAME_LINES), read whole, in
    shares (-j 2), or from a pipe: the same report, byte for byte."""
    path = tmp_path / "big.txt"
    path.write_bytes(b"".join(b"row %d, value\n" % i for i in range(120_000)) + (_games() if then_games else b""))
    one = run_cli("verify", str(path), "--format", "json")
    two = run_cli("verify", str(path), "--format", "json", "-j", "2")
    assert one.stdout == two.stdout and one.returncode == 2
    first = json.loads(one.stdout.splitlines()[0])
    code = "LINE_OUTSIDE_GAME" if then_games else "NOT_JSON_LINES"
    assert first["findings"][0]["code"] == code and "120000" in first["findings"][0]["message"]
    assert len(one.stdout.splitlines()) == (4 if then_games else 2)
    piped = [subprocess.run([sys.executable, "-m", "oracle", "verify", "--format", "json", *jobs],
                            input=path.read_bytes(), capture_output=True, cwd=ROOT).stdout for jobs in ([], ["-j", "2"])]
    assert piped[0] == piped[1] and json.loads(piped[0].splitlines()[0])["findings"][0]["code"] == code


def test_the_first_line_quoted_is_escaped(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"\x1b[31mred\x07\nmore\n")
    out = run_cli("verify", str(path), "--color", "never").stdout
    assert b"NOT_JSON_LINES" in out and b"\x1b" not in out and b"\x07" not in out
