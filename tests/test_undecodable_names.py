"""A file name that is not UTF-8 (`bad\\xff.jsonl`): every report writes it
as the human report does (`bad\\udcff.jsonl`: the byte as a visible escape),
and every game gets its verdict."""

import json
import os
import sys

import pytest
from conftest import ROOT, run_cli

from oracle.term import json_document, json_encode_visible, surrogates_visible, visible

LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"
SHOWN = "bad\\udcff.jsonl"          # the name as every report writes it


@pytest.fixture
def folder(tmp_path):
    """A folder holding one log named with the byte 0xff."""
    d = tmp_path / "logs"
    d.mkdir()
    with open(os.path.join(os.fsencode(d), b"bad\xff.jsonl"), "wb") as f:
        f.write(LOG.read_bytes())
    return d


def games_in(log) -> int:
    return log.read_bytes().count(b'"t":"game"')


def json_lines(data: bytes) -> list[dict]:
    return [json.loads(x) for x in data.splitlines()]


def test_the_escape_is_the_human_reports():
    name = os.fsdecode(b"bad\xff.jsonl")
    assert visible(name) == SHOWN
    assert surrogates_visible({"file": name, "notes": [name, 3]}) == {"file": SHOWN, "notes": [SHOWN, 3]}
    import msgspec

    assert json.loads(json_encode_visible(msgspec.json.Encoder().encode, {"file": name})) == {"file": SHOWN}
    assert json.loads(json_document({"file": name})) == {"file": SHOWN}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_json_report_names_the_file_escaped_and_judges_every_game(folder, jobs):
    r = run_cli("verify", str(folder), "--format", "json", "-j", jobs)
    assert r.returncode == 0, r.stderr
    games = [x for x in json_lines(r.stdout) if x["t"] == "game"]
    assert len(games) == games_in(LOG) and all(g["verdict"] == "conforms" for g in games)
    assert {g["file"] for g in games} == {f"{folder}/{SHOWN}"}


def test_the_human_and_junit_reports_name_it_the_same_way(folder):
    human = run_cli("verify", str(folder))
    junit = run_cli("verify", str(folder), "--format", "junit")
    assert human.returncode == junit.returncode == 0
    assert f"{folder}/{SHOWN}:1" in human.stdout.decode()
    assert f'file="{folder}/{SHOWN}"' in junit.stdout.decode()


def test_the_html_report_and_the_outputs_name_it_escaped(folder, tmp_path):
    page = run_cli("verify", str(folder), "--format", "html")
    assert page.returncode == 0, page.stderr
    assert SHOWN.replace("\\", "\\\\") in page.stdout.decode()      # in the page's JSON: the backslash escaped
    out_json, out_html = tmp_path / "r.json", tmp_path / "r.html"
    r = run_cli("verify", str(folder), "--output", f"json={out_json}", "--output", f"html={out_html}")
    assert r.returncode == 0, r.stderr
    games = [x for x in json_lines(out_json.read_bytes()) if x["t"] == "game"]
    assert len(games) == games_in(LOG) and {g["file"] for g in games} == {f"{folder}/{SHOWN}"}
    assert SHOWN.replace("\\", "\\\\") in out_html.read_text()


def test_show_writes_the_page_of_a_game_in_such_a_file(folder, tmp_path):
    page = tmp_path / "game.html"
    r = run_cli("show", os.path.join(str(folder), os.fsdecode(b"bad\xff.jsonl")), "-o", str(page))
    assert r.returncode == 0, r.stderr
    text = page.read_text()
    assert SHOWN.replace("\\", "\\\\") in text and '"steps"' in text     # the board too: the file is read again


def test_an_expectation_file_so_named_is_named_escaped_in_the_summary(folder, tmp_path):
    expect = os.path.join(str(tmp_path), os.fsdecode(b"x\xfe.yaml"))
    with open(expect, "w") as f:
        f.write("format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n")
    r = run_cli("verify", str(folder), "--expect", expect, "--format", "json")
    assert r.returncode == 0, r.stderr
    summary = json_lines(r.stdout)[-1]
    assert summary["t"] == "summary" and summary["games"] == games_in(LOG)
    assert [s["file"] for s in summary["stale"]] == [f"{tmp_path}/x\\udcfe.yaml"]


def test_conform_reports_a_scenario_file_so_named_as_json(tmp_path):
    sc = tmp_path / "sc"
    sc.mkdir()
    with open(os.path.join(os.fsencode(sc), b"dr\xfe.yaml"), "wb") as f:
        f.write((ROOT / "scenarios" / "drawing.yaml").read_bytes())
    r = run_cli("conform", "--engine", f"{sys.executable} examples/engine_adapter.py", "--budget", "0",
                "--scenarios", str(sc), "--format", "json", "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    games = [x for x in json_lines(r.stdout) if x["t"] == "game"]
    assert games and {g["file"] for g in games} == {f"{sc}/dr\\udcfe.yaml"}
    assert all(g["verdict"] == "conforms" for g in games)
