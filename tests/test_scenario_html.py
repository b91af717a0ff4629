"""The HTML page of `mb-oracle scenarios`, read without a browser: the
problems of the scenario files are on it as the JSON report has them, the
differences carry their values (a list is a list), what happened at the
failing step is a list of events, a failed run is said to fail, a
difference of a field that is no card is not put with the cards, and
`--format html` writes the page to standard output."""

from __future__ import annotations

import json
import re

import pytest

from oracle.games.mindbug.cards import CARDS

from html_pages import game_data, game_index
from conftest import ROOT, run_cli

_MIND_UP_END = (ROOT / "scenarios" / "mind-up" / "end.yaml").read_text(encoding="utf-8").split("\n---\n")

# A shared victory (players 0 and 1) that the scenario expects, wrongly, for player 1 alone.
WRONG_WINNERS = next(d for d in _MIND_UP_END if "id: mind-up.end.shared-win" in d).replace(
    "winners: [0, 1]", "winners: [1]")

BAD_DOCUMENT = """\
format: mb-scenario/1
id: demo.no-title
clauses: [life.gain]
colour: green
"""

GOOD_THEN_BAD = WRONG_WINNERS + "\n---\n" + BAD_DOCUMENT


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One run over a file with a failing Mind Up! scenario and a bad
    document, and a file that is not YAML: the page, and the JSON report."""
    d = tmp_path_factory.mktemp("schtml")
    (d / "mixed.yaml").write_text(GOOD_THEN_BAD, encoding="utf-8")
    (d / "broken.yaml").write_text("format: mb-scenario/1\nid: [unclosed\n", encoding="utf-8")
    r = run_cli("scenarios", str(d / "mixed.yaml"), str(d / "broken.yaml"),
                "--output", f"html={d / 'p.html'}", "--output", f"json={d / 'p.json'}")
    assert r.returncode == 2, r.stderr.decode()     # problems in the files
    return (d / "p.html").read_text(encoding="utf-8"), json.loads((d / "p.json").read_text(encoding="utf-8"))


def _failing(html: str) -> dict:
    (d,) = [d for d in game_data(html).values() if d["report"]["verdict"] != "malformed"]
    return d


def test_every_problem_of_the_files_is_on_the_page_as_in_the_json_report(run):
    html, report = run
    assert report["errors"]
    malformed = [d for d in game_data(html).values() if d["report"]["verdict"] == "malformed"]
    shown = sorted((d["report"]["file"], f["line"], f["message"]) for d in malformed for f in d["report"]["findings"])
    expected = sorted((e["file"], e["line"] or 0, f"{e['field']}: {e['message']}" if e["field"] else e["message"])
                      for e in report["errors"])
    assert shown == expected
    assert {f["code"] for d in malformed for f in d["report"]["findings"]} == {"SCENARIO_ERROR"}
    # the bad document is shown with its own lines (not the good one before it), the problem lines among them
    (doc,) = [d for d in malformed if d["report"]["file"].endswith("mixed.yaml")]
    first = len(WRONG_WINNERS.splitlines()) + 2
    assert doc["log"][0] == [first, "format: mb-scenario/1"] and doc["log"][-1][1] == "colour: green"
    assert all(first <= f["line"] <= doc["log"][-1][0] for f in doc["report"]["findings"])
    # the list of entries and the summary count them
    rows = game_index(html)
    assert sorted(r["verdict"] for r in rows) == ["fails", "malformed", "malformed"]
    assert "2</strong> documents or files that cannot be read" in html


def test_a_difference_in_a_list_shows_the_list_not_a_string(run):
    html, _ = run
    (f,) = _failing(html)["report"]["findings"]
    (e,) = f["diff"]
    assert e["field"] == "winners" and e["log"] == [1] and e["rules"] == [0, 1]
    assert f["log"] == {"winners": [1]} and f["rules"] == {"winners": [0, 1]}
    assert '"[0, 1]"' not in html


def test_what_happened_at_the_failing_step_is_one_event_an_item(run):
    html, report = run
    (result,) = [r for r in report["results"] if r["status"] == "fail"]
    d = _failing(html)
    (f,) = d["report"]["findings"]
    assert len(f["events"]) == len(result["happened"]) > 3
    for event, line in zip(f["events"], result["happened"], strict=True):
        # the text without its clauses, which are the event's own (shown as clause chips)
        assert line == event["text"] + " [" + ", ".join(event["clauses"]) + "]" and event["clauses"]
    assert f["events"][-1]["clauses"] == ["mu.game.rounds", "mu.game.winner"]
    assert not any("what happened" in n for n in d["report"]["notes"])


def test_a_failed_run_is_said_to_fail_not_to_violate(run):
    html, _ = run
    d = _failing(html)
    assert d["report"]["verdict"] == "fails" and d["kind"] == "scenario"
    verdict_filter = re.search(r'<select id="f-verdict".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="(\w+)"', verdict_filter) == ["fails", "malformed"]
    assert "violat" not in re.sub(r"<(script|style).*?</(script|style)>", "", html, flags=re.S).lower()
    assert "1</strong> failing run" in html


def test_a_winners_difference_is_a_field_not_a_card(run):
    # The page puts an entry with a card under "card by card", any other under "field by field".
    html, _ = run
    (e,) = _failing(html)["report"]["findings"][0]["diff"]
    assert "card" not in e and e["field"] == "winners"


def test_a_difference_about_one_card_stays_with_the_cards(tmp_path):
    text = (ROOT / "tests" / "test_html_report.py").read_text(encoding="utf-8")
    scenario = re.search(r'SCENARIO = """\\\n(.*?)"""', text, re.S).group(1)
    # Axolotl Healer's power expected wrongly: a difference about that card
    wrong = scenario.replace("    - {life: 3}\n", "    - {life: 3}\n  power: {Axolotl Healer: 9}\n")
    assert wrong != scenario
    (tmp_path / "p.yaml").write_text(wrong, encoding="utf-8")
    out = tmp_path / "p.html"
    assert run_cli("scenarios", str(tmp_path / "p.yaml"), "--output", f"html={out}").returncode == 1
    (d,) = game_data(out.read_text(encoding="utf-8")).values()
    by_field = {e["field"]: e for e in d["report"]["findings"][0]["diff"]}
    assert by_field["players[0].life"]["log"] == 6 and "card" not in by_field["players[0].life"]
    power = by_field["power[Axolotl Healer]"]
    assert isinstance(power["card"], int) and (power["log"], power["rules"]) == (9, CARDS["Axolotl Healer"].power)


def test_format_html_writes_the_page_to_standard_output(tmp_path):
    (tmp_path / "w.yaml").write_text(WRONG_WINNERS, encoding="utf-8")
    out = tmp_path / "p.html"
    r = run_cli("scenarios", str(tmp_path / "w.yaml"), "--format", "html", "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    page = r.stdout.decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page == out.read_text(encoding="utf-8")
    (d,) = game_data(page).values()
    assert d["report"]["id"] == "mind-up.end.shared-win[fr]" and d["steps"]


def test_a_passing_run_writes_a_page_with_no_entry(tmp_path):
    (tmp_path / "ok.yaml").write_text(_MIND_UP_END[0], encoding="utf-8")
    r = run_cli("scenarios", str(tmp_path / "ok.yaml"), "--format", "html")
    assert r.returncode == 0, r.stderr.decode()
    page = r.stdout.decode("utf-8")
    assert game_index(page) == [] and "1 run: 1 passed, 0 failed" in page
