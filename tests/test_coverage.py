"""Clause coverage: every rule of the catalogue is checked by a scenario or a
test, every scenario file is sound (no clause or card that does not exist),
and every card of the set is the subject of some scenario."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.games.mindbug.cards import CARDS, lookup
from oracle.games.mindbug.clauses import load_catalogue
from oracle.coverage import compute, coverage_report
from oracle.scenarios.loader import load_paths

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def library():
    files, errors = load_paths([ROOT / "scenarios"])
    return files, errors + [e for f in files for e in f.errors]


def test_every_scenario_file_loads_without_error(library):
    # Unknown clause ids and unknown cards are load errors, with file and line.
    _, errors = library
    assert not errors, "\n".join(str(e) for e in errors)


def test_scenarios_cite_only_existing_clauses_and_cards(library):
    files, _ = library
    catalogue = load_catalogue()
    for f in files:
        for sc in f.scenarios:
            if sc.game != "mindbug":
                continue
            assert set(sc.doc.clauses) <= catalogue.keys(), sc.id
            for name in sc.doc.cards:
                lookup(name)


def test_every_clause_is_cited_by_a_scenario_or_a_test():
    cov = compute(ROOT)
    assert not cov.errors
    assert cov.uncited == [], f"clauses cited by nothing: {cov.uncited}"


def test_every_card_of_the_set_is_the_subject_of_a_scenario(library):
    files, _ = library
    named = {lookup(n).name for f in files for sc in f.scenarios if sc.game == "mindbug" for n in sc.doc.cards}
    shipped = {n for n, d in CARDS.items() if d.card_set in ("first-contact", "new-servants")}   # not declared ones
    assert len(shipped) == 44 and sorted(shipped - named) == []


def test_the_library_is_large_and_runs_in_every_edition(library):
    files, _ = library
    scenarios = [sc for f in files for sc in f.scenarios if sc.game == "mindbug"]
    assert len(scenarios) >= 150
    by_edition = {e: sum(e in sc.editions() for sc in scenarios)
                  for e in ("en-first", "fr-first", "fr-revised", "en-revised")}
    assert min(by_edition.values()) >= 140, by_edition


def test_coverage_counts_quoted_ids_in_tests_only(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "A = 'keywords.tough'\nB = \"keywords.sneaky\"\n# keywords.frenzy unquoted does not count\n")
    cov = compute(tmp_path)
    assert cov.clauses["keywords.tough"].tests == ["tests/test_x.py"]
    assert cov.clauses["keywords.sneaky"].tests == ["tests/test_x.py"]
    assert not cov.clauses["keywords.frenzy"].cited
    assert "keywords.frenzy" in cov.uncited


def test_coverage_report_fails_on_an_uncited_clause(tmp_path, monkeypatch, capsys):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("A = 'keywords.tough.poisonous'\n")
    monkeypatch.chdir(tmp_path)
    assert coverage_report(False, ("keywords.tough.poisonous",)) == 0
    assert "1 of 1 clauses cited" in capsys.readouterr().out
    assert coverage_report(True, ("keywords.tough",)) == 1  # the ids starting with keywords.tough
    doc = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in doc["clauses"]][:2] == ["keywords.tough", "keywords.tough.effects"]
    assert "keywords.tough" in doc["uncited"] and "keywords.tough.poisonous" not in doc["uncited"]


def test_coverage_report_fails_on_a_broken_scenario_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "bad.yaml").write_text("format: mb-scenario/1\nid: x\n")
    monkeypatch.chdir(tmp_path)
    assert coverage_report(False, ()) == 1
    assert "bad.yaml:1:" in capsys.readouterr().out


def test_coverage_names_a_scenarios_folder_with_odd_bytes_escaped(tmp_path):
    # the working directory's name: a bidi override, a byte that is not UTF-8
    where = tmp_path / os.fsdecode(b"w\xe2\x80\xae\xff")
    (where / "scenarios").mkdir(parents=True)
    (where / "scenarios" / "bad.yaml").write_text("format: mb-scenario/1\nid: x\n")
    for args in ((), ("--json",)):
        r = subprocess.run([sys.executable, "-m", "oracle", "clauses", "--coverage", *args],
                           capture_output=True, cwd=where)
        out = r.stdout.decode("utf-8")         # where a raw \xff made it no UTF-8 text
        assert r.returncode == 1 and "\u202e" not in out, out[:300]
        if args:
            assert json.loads(out)["scenario_folder"] == f"{tmp_path}/w\u202e\\udcff/scenarios"
        else:
            assert f"scenarios read from {tmp_path}/w\\u202e\\udcff/scenarios" in out


def test_cli_clauses_coverage_exits_0_for_the_project():
    p = subprocess.run([sys.executable, "-m", "oracle", "clauses", "--coverage", "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    doc = json.loads(p.stdout)
    assert doc["uncited"] == [] and doc["errors"] == []
    tough = next(c for c in doc["clauses"] if c["id"] == "keywords.tough.poisonous")
    assert "editions.tough-against-poisonous-in-every-edition" in tough["scenarios"]
