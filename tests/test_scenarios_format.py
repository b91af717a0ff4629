"""The scenario format mb-scenario/1: loading (errors name the file, the
line and the field, never a traceback), running (a wrong expectation fails
naming the step, the clause and the difference), the command line's exit
codes and outputs, the pytest plugin, and the JSON Schema."""

from __future__ import annotations

import json
from collections import Counter

import json
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from oracle.games.mindbug.scenarios.cards import card_id, card_name
from oracle.scenarios.document import FORMAT, scenario_schema
from oracle.scenarios.loader import load_paths, load_text
from oracle.scenarios.report import failure_text
from oracle.scenarios.runner import run

ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
format: mb-scenario/1
id: test.sneaky-unblocked
title: A SNEAKY attacker facing no SNEAKY creature costs a life
clauses: [keywords.sneaky]
source: {kind: rulebook, ref: "SNEAKY"}
given:
  players:
    - hand: [Bee Bear]
      play: [Spider Owl]
    - hand: [Brain Fly]
      play: [Gorillion]
steps:
  - attack: Spider Owl
expect:
  players:
    - {}
    - life: 2
"""


def load_one(text: str, name: str = "t.yaml"):
    f = load_text(text, name)
    assert not f.errors, [str(e) for e in f.errors]
    assert len(f.scenarios) == 1
    return f.scenarios[0]


def errors_of(text: str, name: str = "bad.yaml") -> list[str]:
    f = load_text(text, name)
    return [str(e) for e in f.errors]


def line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


# -- card names ----------------------------------------------------------------------


def test_cards_are_named_in_english_french_or_slug_and_copies_are_numbered():
    assert card_id("Spider Owl") == card_id("Arachnhibou") == card_id("spider-owl")
    assert card_id("Spider Owl#2") != card_id("Spider Owl")
    assert card_name(card_id("Spider Owl#2")) == "Spider Owl#2"
    assert card_name(card_id("Gorillion")) == "Gorillion"
    assert len({card_id(card_name(i)) for i in range(1, 49)}) == 48


# -- bad files: every kind of error names the file, the line and the field ----------

BAD = {
    # name: (text transformation, line needle, message fragment)
    "invalid yaml": (lambda t: t.replace("title: A SNEAKY", "title: [A SNEAKY"), "clauses:",
                     "invalid YAML: expected ',' or ']', but got ':' (while parsing a flow sequence started at line 3)"),
    "unknown key": (lambda t: t.replace("      play: [Spider Owl]", "      plya: [Spider Owl]"), "plya",
                    "given.players[0].plya: scenario test.sneaky-unblocked: unknown key 'plya'"),
    "unknown card": (lambda t: t.replace("[Brain Fly]", "[Brian Fly]"), "Brian Fly",
                     "given.players[1].hand[0]: scenario test.sneaky-unblocked: unknown card 'Brian Fly'"),
    "copy that does not exist": (lambda t: t.replace("play: [Gorillion]", "play: [Gorillion#2]"),
                                 "Gorillion#2", "Gorillion has 1 copy"),
    "card in two places": (lambda t: t.replace("play: [Gorillion]", "play: [Gorillion, Bee Bear]"),
                           "Gorillion, Bee Bear", "Bee Bear is already placed at given.players[0].hand[0]"),
    "unknown clause": (lambda t: t.replace("clauses: [keywords.sneaky]", "clauses: [keywords.snaeky]"),
                       "clauses:", "clauses[0]: scenario test.sneaky-unblocked: unknown clause id 'keywords.snaeky'"),
    "wrong type": (lambda t: t.replace("life: 2", "life: two"), "life: two",
                   "expect.players[1].life: scenario test.sneaky-unblocked: Expected `int`, got `str`"),
    "missing key": (lambda t: t.replace("title: A SNEAKY attacker facing no SNEAKY creature costs a life\n", ""),
                    "format:", "missing required key 'title'"),
    "format version": (lambda t: t.replace("mb-scenario/1", "mb-scenario/9"), "format:",
                       "format: format 'mb-scenario/9' is not 'mb-scenario/1'"),
    "duplicate key": (lambda t: t.replace("id: test", "id: other\nid: test"), "id: test", "duplicate key 'id'"),
    "two decisions in a step": (lambda t: t.replace("  - attack: Spider Owl", "  - {attack: Spider Owl, block: null}"),
                                "{attack: Spider Owl", "steps[0]"),
    "unknown bare step": (lambda t: t.replace("  - attack: Spider Owl", "  - atack"), "- atack",
                          "Invalid enum value 'atack'"),
    "illegal step out of range": (lambda t: t + "illegal: {step: 4}\n", "illegal:", "step 4 does not exist"),
    "unknown edition": (lambda t: t + "editions: [en-second]\n", "editions:", "unknown edition 'en-second'"),
    "unknown keyword": (lambda t: t + "  keywords: {Spider Owl: [SLY]}\n", "keywords:", "unknown keyword 'SLY'"),
    "card not in the position": (lambda t: t + "  power: {Luchataur: 9}\n", "power:",
                                 "Luchataur is not in the given position"),
    "checks nothing": (lambda t: t.split("expect:")[0], "format:", "the scenario checks nothing"),
    "power of a wrong type": (lambda t: t + "  power: {Spider Owl: high}\n", "power:",
                              "expect.power.Spider Owl: scenario test.sneaky-unblocked: Expected `int`, got `str`"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_file_is_reported_with_file_line_and_field(kind):
    change, needle, fragment = BAD[kind]
    text = change(GOOD)
    errors = errors_of(text, "scenarios/bad.yaml")
    assert len(errors) == 1, errors
    message = errors[0]
    assert message.startswith(f"scenarios/bad.yaml:{line_of(text, needle)}: "), message
    assert fragment in message
    assert "Traceback" not in message


def test_a_document_that_is_not_a_mapping_is_an_error():
    errors = errors_of("- attack: Spider Owl\n")
    assert errors and errors[0].startswith("bad.yaml:1: a scenario must be a mapping")


def test_a_file_with_no_scenario_is_an_error():
    assert errors_of("# nothing here\n") == ["bad.yaml: no scenario in this file"]


def test_a_bad_document_is_left_out_and_the_others_are_kept():
    text = GOOD + "---\n" + GOOD.replace("id: test.sneaky-unblocked", "id: test.other").replace("Bee Bear", "Be Bear")
    f = load_text(text, "two.yaml")
    assert [s.id for s in f.scenarios] == ["test.sneaky-unblocked"]
    assert len(f.errors) == 1 and f.errors[0].line == line_of(text, "Be Bear")


def test_duplicate_ids_across_files_are_errors(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    files, errors = load_paths([tmp_path])
    problems = [str(e) for f in files for e in f.errors]
    assert len(problems) == 1 and "duplicate scenario id 'test.sneaky-unblocked'" in problems[0]
    assert problems[0].startswith(str(tmp_path / "b.yaml") + ":1:")


# -- running -------------------------------------------------------------------------


def test_a_scenario_passes_in_every_edition():
    sc = load_one(GOOD)
    assert sc.editions() == ["en-first", "fr-first", "fr-revised", "en-revised"]
    for edition in sc.editions():
        assert run(sc, edition).passed


def test_a_wrong_expectation_fails_naming_the_step_the_clause_and_the_difference():
    sc = load_one(GOOD.replace("life: 2", "life: 3\n      play: [Gorillion, Spider Owl]"))
    r = run(sc, "fr-revised")
    assert r.status == "fail"
    assert r.step == 1 and r.step_text == "attack: Spider Owl"
    assert r.clause == "keywords.sneaky"
    fields = {d.field: (d.expected, d.actual) for d in r.differences}
    assert fields["players[1].life"] == ("3", "2")
    assert fields["players[1].play"][0] == "[Gorillion, Spider Owl]"
    assert "missing [Spider Owl]" in fields["players[1].play"][1]
    text = failure_text(r)
    assert text.splitlines()[0] == (f"t.yaml:{line_of(GOOD, 'expect:')}: FAIL test.sneaky-unblocked [fr-revised] "
                                    "at step 1 (attack: Spider Owl) [keywords.sneaky]: players[1].life: expected 3, got 2")
    assert "what happened at step 1:" in text
    assert "lose-life 1 (player 1) from Spider Owl [combat.unblocked, life.lose]" in text


def test_a_refused_step_fails_with_the_refusal_clause_and_the_legal_options():
    sc = load_one(GOOD.replace("  - attack: Spider Owl", "  - attack: Spider Owl\n  - block: Gorillion"))
    r = run(sc, "en-revised")
    assert r.status == "fail" and r.step == 2 and r.clause == "keywords.sneaky"
    assert "was refused" in r.message and "has no SNEAKY, so it may not block Spider Owl" in r.message
    assert "legal here: block: null" in r.message


def test_an_expected_refusal_that_does_not_happen_fails():
    sc = load_one(GOOD.replace("expect:\n  players:\n    - {}\n    - life: 2\n",
                               "illegal: {step: 1, clause: combat.attack}\n"))
    r = run(sc, "en-first")
    assert r.status == "fail" and r.step == 1 and r.clause == "combat.attack"
    assert "was accepted, but a refusal ILLEGAL_DECISION [combat.attack] was expected" in r.message


def test_a_refusal_with_another_clause_fails_with_the_difference():
    text = GOOD.replace("  - attack: Spider Owl", "  - attack: Spider Owl\n  - block: Gorillion").replace(
        "expect:\n  players:\n    - {}\n    - life: 2\n", "illegal: {clause: combat.block}\n")
    r = run(load_one(text), "en-first")
    assert r.status == "fail"
    assert [(d.field, d.expected, d.actual) for d in r.differences] == [
        ("illegal.clause", "combat.block", "keywords.sneaky")]


def test_expect_by_edition_overrides_field_by_field_and_player_by_player():
    text = GOOD.replace("    - life: 2\n", "    - life: 2\n      hand: [Brain Fly]\n") + textwrap.dedent("""\
        expect_by_edition:
          en-first:
            expect:
              players: [{}, {life: 9}]
        """)
    sc = load_one(text)
    e, _ = sc.expectation("en-first")
    assert e.players[1].life == 9 and e.players[1].hand == ["Brain Fly"]
    assert run(sc, "fr-first").passed
    r = run(sc, "en-first")
    assert [d.field for d in r.differences] == ["players[1].life"]


def test_forced_decisions_can_be_left_out_and_settle_stops_at_a_turn_action():
    text = textwrap.dedent("""\
        format: mb-scenario/1
        id: test.forced
        title: forced decisions
        clauses: [mindbug.none-left]
        source: {kind: rulebook, ref: x}
        given:
          players:
            - hand: [Luchataur, Gorillion]
            - hand: [Brain Fly]
              mindbugs: 0
        steps:
          - play: Luchataur
        expect:
          players: [{play: [Luchataur]}]
          pending: {stage: action, player: 1, options: [{play: Brain Fly}]}
        """)
    assert run(load_one(text), "en-revised").passed
    unsettled = load_one(text.replace("steps:", "settle: false\nsteps:").replace(
        "players: [{play: [Luchataur]}]\n  pending: {stage: action, player: 1, options: [{play: Brain Fly}]}",
        "pending: {stage: mindbug, player: 1, options: [pass]}"))
    assert run(unsettled, "en-revised").passed


def test_a_step_of_the_pending_kind_is_applied_even_when_only_one_option_is_legal():
    # Only `block: null` is legal against SNEAKY; `block: Gorillion` is still tried, and refused.
    text = GOOD.replace("  - attack: Spider Owl", "  - attack: Spider Owl\n  - block: Gorillion").replace(
        "expect:\n  players:\n    - {}\n    - life: 2\n", "illegal: {clause: keywords.sneaky}\n")
    assert run(load_one(text), "en-revised").passed


def test_the_setup_can_be_the_refused_step():
    text = textwrap.dedent("""\
        format: mb-scenario/1
        id: test.setup
        title: nine cards
        clauses: [setup.deal]
        source: {kind: rulebook, ref: x}
        given:
          deal:
            decks: [[Luchataur], [Gorillion]]
            first: 0
        illegal: {step: 0, code: BAD_SETUP, clause: setup.deal}
        """)
    assert run(load_one(text), "fr-first").passed
    wrong = load_one(text.replace("clause: setup.deal}", "clause: setup.first-player}"))
    r = run(wrong, "fr-first")
    assert r.status == "fail" and r.step == 0 and r.differences[0].field == "illegal.clause"


def test_an_impossible_position_fails_at_the_setup_without_a_traceback():
    # EN first tracks life with cards from the unused pile: with all 48 cards placed there are none.
    files, _ = load_paths([ROOT / "scenarios" / "traps.yaml"])
    sc = next(s for s in files[0].scenarios if s.id == "trap.copy-counts")
    assert "en-first" not in sc.editions()
    r = run(sc, "en-first")
    assert r.status == "fail" and r.step == 0
    assert "life cards" in r.message and "Traceback" not in failure_text(r)


def test_the_example_in_the_spec_loads_and_passes():
    doc = (ROOT / "spec" / "scenario-format.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(.*?)```", doc, re.S).group(1)
    f = load_text(example, "spec/scenario-format.md")
    assert not f.errors, [str(e) for e in f.errors]
    assert len(f.scenarios) == 2
    for sc in f.scenarios:
        for edition in sc.editions():
            assert run(sc, edition).passed, failure_text(run(sc, edition))


# -- the command line ------------------------------------------------------------------


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "oracle", "scenarios", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_cli_exit_0_when_every_run_passes(tmp_path):
    (tmp_path / "ok.yaml").write_text(GOOD)
    p = cli(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 scenario, 4 runs: 4 passed, 0 failed" in p.stdout


def test_cli_exit_1_when_a_run_fails(tmp_path):
    (tmp_path / "fail.yaml").write_text(GOOD.replace("life: 2", "life: 3"))
    p = cli(tmp_path / "fail.yaml", "--edition", "en-first")
    assert p.returncode == 1
    assert "FAIL test.sneaky-unblocked [en-first] at step 1 (attack: Spider Owl)" in p.stdout
    assert "players[1].life: expected 3" in p.stdout
    assert "1 scenario, 1 run: 0 passed, 1 failed" in p.stdout


def test_cli_exit_2_for_a_bad_file_without_traceback(tmp_path):
    (tmp_path / "ok.yaml").write_text(GOOD)
    bad = GOOD.replace("test.sneaky-unblocked", "test.bad").replace("[Brain Fly]", "[Brian Fly]")
    (tmp_path / "bad.yaml").write_text(bad)
    p = cli(tmp_path)
    assert p.returncode == 2
    # The problem in the file on standard error, the report (which counts it) on standard output.
    assert f"error: {tmp_path / 'bad.yaml'}:{line_of(bad, 'Brian Fly')}: given.players[1].hand[0]" in p.stderr
    assert "Brian Fly" not in p.stdout and "1 error in 1 file" in p.stdout
    assert "Traceback" not in p.stdout + p.stderr
    assert "4 passed" in p.stdout  # the good file still ran


def test_cli_exit_2_for_a_missing_path(tmp_path):
    p = cli(tmp_path / "nowhere.yaml")
    assert p.returncode == 2 and "no such file or directory" in p.stderr and "nowhere" not in p.stdout


def test_cli_file_errors_on_standard_error_whatever_the_format(tmp_path):
    """Output streams (README): a file that cannot be read is said on
    standard error in every format; the JSON, JUnit and human file reports
    record it as well, so that each is complete by itself."""
    (tmp_path / "ok.yaml").write_text(GOOD)
    (tmp_path / "bad.yaml").write_text("id: [\n")
    human = tmp_path / "report.txt"
    for fmt in ("human", "json", "junit"):
        p = cli(tmp_path, "--format", fmt, "--output", f"human={human}")
        assert p.returncode == 2 and p.stderr.startswith(f"error: {tmp_path / 'bad.yaml'}:"), (fmt, p.stderr)
        assert human.read_text().startswith(f"{tmp_path / 'bad.yaml'}:")
    assert json.loads(cli(tmp_path, "--format", "json").stdout)["errors"][0]["file"] == str(tmp_path / "bad.yaml")


COUNTS_UNUSED = """\
format: mb-scenario/1
id: test.unused-count
title: The cards not dealt form the unused pile
clauses: [terms.unused-pile]
source: {kind: rulebook, ref: "Game Setup"}
given:
  deal:
    decks:
      - [Axolotl Healer, Compost Dragon, Explosive Toad, Ferret Bomber, Goblin Werewolf,
         Grave Robber, Kangasaurus Rex, Killer Bee, Luchataur, Plated Scorpion]
      - [Axolotl Healer#2, Compost Dragon#2, Explosive Toad#2, Ferret Bomber#2, Goblin Werewolf#2,
         Grave Robber#2, Kangasaurus Rex#2, Killer Bee#2, Luchataur#2, Plated Scorpion#2]
    first: 0
expect:
  unused: 28
editions: [en-revised]
"""


def test_a_scenario_that_holds_with_exactly_its_sets_is_not_applicable_when_sets_are_added(tmp_path):
    """`exact_sets: true`: a ruling that counts the deck holds with its own
    sets only; `--sets` adding others reports it not applicable, counted,
    not failed. Without the key the added cards make it fail."""
    f = tmp_path / "count.yaml"
    f.write_text(COUNTS_UNUSED)
    p = cli(f, "--sets", "new-servants")
    assert p.returncode == 1 and "unused: expected 28 cards, got 52 cards" in p.stdout
    f.write_text(COUNTS_UNUSED.replace("editions:", "exact_sets: true\neditions:"))
    assert "1 run: 1 passed" in cli(f).stdout
    p = cli(f, "--sets", "new-servants", "-v")
    assert p.returncode == 0, p.stdout
    assert "not applicable test.unused-count [en-revised]: holds with exactly its sets (first-contact; " \
           "exact_sets), not with first-contact, new-servants" in p.stdout
    assert "1 run: 0 passed, 0 failed, 1 not applicable" in p.stdout
    doc = json.loads(cli(f, "--sets", "new-servants", "--format", "json").stdout)
    assert doc["summary"]["not_applicable"] == 1 and doc["results"][0]["status"] == "not-applicable"
    root = ET.fromstring(cli(f, "--sets", "new-servants", "--format", "junit").stdout)
    assert root.find(".//testcase/skipped") is not None
    # Naming the scenario's own set again is no other set: it runs.
    assert "1 passed" in cli(f, "--sets", "first-contact").stdout


def test_sets_leave_the_rulings_of_mind_up_as_they_are_and_the_help_says_so():
    plain = cli("scenarios/mind-up", "--format", "json")
    added = cli("scenarios/mind-up", "--format", "json", "--sets", "new-servants")
    assert plain.returncode == added.returncode == 0 and plain.stdout == added.stdout
    assert "Mind Up!'s rulings have their one deck" in " ".join(cli("--help").stdout.split())


def test_the_library_passes_with_new_servants_added():
    p = cli("--sets", "new-servants")
    assert p.returncode == 0, p.stdout[-3000:]
    assert " 0 failed, 16 not applicable" in p.stdout


def test_cli_json_and_junit(tmp_path):
    (tmp_path / "mixed.yaml").write_text(
        GOOD + "---\n" + GOOD.replace("test.sneaky-unblocked", "test.wrong").replace("life: 2", "life: 3"))
    p = cli(tmp_path, "--format", "json", "--edition", "en-revised")
    assert p.returncode == 1
    doc = json.loads(p.stdout)
    assert doc["format"] == "mb-scenario-results/1"
    assert doc["summary"] == {"scenarios": 2, "runs": 2, "passed": 1, "failed": 1, "not_applicable": 0,
                              "bad_files": 0, "errors": 0}
    wrong = next(r for r in doc["results"] if r["status"] == "fail")
    assert wrong["step"] == 1 and wrong["clause"] == "keywords.sneaky"
    assert wrong["differences"] == [{"field": "players[1].life", "expected": "3", "actual": "2"}]
    p = cli(tmp_path, "--format", "junit")
    root = ET.fromstring(p.stdout)
    assert root.get("tests") == "8" and root.get("failures") == "4"
    failed = [tc.get("name") for tc in root.iter("testcase") if tc.find("failure") is not None]
    assert sorted(failed) == sorted(f"test.wrong[{e}]" for e in ("en-first", "fr-first", "fr-revised", "en-revised"))
    # spec/scenario-format.md, Running: a failure's type is the clause at stake.
    assert {tc.find("failure").get("type") for tc in root.iter("testcase") if tc.find("failure") is not None} == \
        {"keywords.sneaky"}
    spec = (ROOT / "spec" / "scenario-format.md").read_text()
    running = spec.split("`--format junit`")[1].split("`--format html`")[0]
    assert "`type` the clause at stake" in running


def test_every_field_of_the_json_results_is_one_the_spec_names(tmp_path):
    """spec/scenario-format.md, Running, names each field of
    `mb-scenario-results/1`: a CI reading it finds nothing undocumented."""
    (tmp_path / "bad.yaml").write_text("format: mb-scenario/1\nid: x\n")
    (tmp_path / "mixed.yaml").write_text(
        GOOD + "---\n" + GOOD.replace("test.sneaky-unblocked", "test.wrong").replace("life: 2", "life: 3"))
    doc = json.loads(cli(tmp_path, "--format", "json").stdout)
    keys = {"(top)": set(doc), "summary": set(doc["summary"]),
            "errors": {k for e in doc["errors"] for k in e}, "results": {k for r in doc["results"] for k in r}}
    assert doc["errors"] and keys["results"] >= {"scenario", "status", "clauses"}
    spec = (ROOT / "spec" / "scenario-format.md").read_text()
    running = spec[spec.index("`--format json` prints"):spec.index("`--format junit`")]
    named = {word for span in re.findall(r"`([^`]*)`", running) for word in re.findall(r"[a-z_]+", span)}
    assert {k: v - named for k, v in keys.items() if v - named} == {}


# -- pytest plugin -------------------------------------------------------------------------


def run_pytest(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", str(path), "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(path.parent)], capture_output=True, text=True, cwd=path.parent)


def test_pytest_makes_one_item_per_scenario_and_edition(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(GOOD + "---\n" + GOOD.replace("test.sneaky-unblocked", "test.two") + "editions: [en-first]\n")
    p = run_pytest(f)
    assert p.returncode == 0, p.stdout
    assert "5 passed" in p.stdout


def test_pytest_failure_shows_step_clause_and_difference(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(GOOD.replace("life: 2", "life: 3") + "editions: [fr-first]\n")
    p = run_pytest(f)
    assert p.returncode == 1
    assert "FAIL test.sneaky-unblocked [fr-first] at step 1 (attack: Spider Owl) [keywords.sneaky]" in p.stdout
    assert "players[1].life: expected 3" in p.stdout
    assert "Traceback" not in p.stdout and "runner.py" not in p.stdout


def test_pytest_reports_a_bad_file_with_file_and_line(tmp_path):
    f = tmp_path / "s.yaml"
    bad = GOOD.replace("[Brain Fly]", "[Brian Fly]")
    f.write_text(bad)
    p = run_pytest(f)
    assert p.returncode != 0
    assert f"{f}:{line_of(bad, 'Brian Fly')}: given.players[1].hand[0]" in p.stdout
    assert "Traceback" not in p.stdout


# -- the JSON Schema -------------------------------------------------------------------------


def test_schema_is_generated_from_the_structs():
    schema = scenario_schema()
    assert schema["title"] == f"{FORMAT} scenario"
    # A Mind Up! scenario when `game` is mind-up, a Mindbug one otherwise.
    assert schema["if"] == {"type": "object", "properties": {"game": {"const": "mind-up"}}, "required": ["game"]}
    assert schema["then"] == {"$ref": "#/$defs/MindUpScenario"}
    assert schema["else"] == {"$ref": "#/$defs/Scenario"}
    props = schema["$defs"]["Scenario"]["properties"]
    assert {"format", "game", "id", "title", "clauses", "cards", "sets", "exact_sets", "card_file", "editions",
            "readings", "source", "status", "given", "steps", "settle", "expect", "illegal",
            "expect_by_edition"} == set(props)
    assert props["game"] == {"enum": ["mindbug"], "default": "mindbug"} or props["game"]["default"] == "mindbug"
    assert schema["$defs"]["Scenario"]["additionalProperties"] is False
    mu = schema["$defs"]["MindUpScenario"]
    assert {"format", "game", "id", "title", "clauses", "editions", "readings", "source", "status", "given",
            "turns", "next_rounds", "expect", "expect_after_turn", "illegal"} == set(mu["properties"])
    assert mu["additionalProperties"] is False and "game" in mu["required"]


def test_every_library_document_validates_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    validator = jsonschema.Draft202012Validator(scenario_schema())
    n = Counter()
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is None:
                continue
            doc = json.loads(json.dumps(doc))       # as JSON: mapping keys (a turn's seats) are strings
            errors = list(validator.iter_errors(doc))
            assert not errors, (path.name, doc.get("id"), errors[0].message)
            n[doc.get("game", "mindbug")] += 1
    assert n["mindbug"] >= 150 and n["mind-up"] >= 40


def test_the_schema_refuses_a_mind_up_document_the_loader_refuses():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(scenario_schema())
    good = {"format": FORMAT, "game": "mind-up", "id": "x", "title": "t", "clauses": ["mu.turn.take"],
            "source": {"kind": "rulebook", "ref": "r"},
            "given": {"order": [1, 2, 3, 4, 5], "hands": [[1, 2], [3, 4], [5, 6]], "line": [7, 8, 9]},
            "turns": [{"0": 1, "1": 3, "2": 5}], "expect": {"line": [1, 3, 5]}}
    assert not list(validator.iter_errors(good))
    for bad in ({"turns": [{"0": 61}]}, {"given": {**good["given"], "order": [1, 2, 3, 4]}},
                {"expect": {"colums": {}}}, {"given": {**good["given"], "hand": []}}, {"steps": []}):
        assert list(validator.iter_errors({**good, **bad})), bad


def test_an_engine_crash_fails_the_run_instead_of_stopping_the_library(monkeypatch):
    import oracle.games.mindbug.cards.abilities as abilities

    def broken(fx, g, me, card):
        raise KeyError("boom")

    monkeypatch.setitem(abilities.TRIGGERED, ("Killer Bee", "play"), broken)
    text = GOOD.replace("[Bee Bear]", "[Killer Bee, Bee Bear]").replace("  - attack: Spider Owl",
                                                                        "  - play: Killer Bee\n  - pass")
    r = run(load_one(text), "en-revised")
    assert r.status == "fail" and r.step == 2 and r.step_text == "pass"
    assert r.message.startswith("engine crash: KeyError: 'boom'")


# -- where a failure is, in names only ----------------------------------------------------

TWO_STEPS = GOOD.replace("  - attack: Spider Owl", "  - attack: Spider Owl\n  - block: Gorillion")


def test_a_refused_step_points_at_the_line_of_that_step():
    r = run(load_one(TWO_STEPS), "en-revised")
    assert r.status == "fail" and r.step == 2
    assert r.at_line == line_of(TWO_STEPS, "block: Gorillion")
    assert failure_text(r).startswith(f"t.yaml:{r.at_line}: FAIL test.sneaky-unblocked [en-revised] at step 2")
    assert r.to_json()["at_line"] == r.at_line


def test_an_expectation_that_fails_in_one_edition_points_at_its_override():
    text = GOOD + "expect_by_edition:\n  en-first:\n    expect:\n      players: [{}, {life: 3}]\n"
    sc = load_one(text)
    r = run(sc, "en-first")
    assert r.status == "fail" and r.at_line == line_of(text, "  en-first:")
    assert run(sc, "fr-first").passed


def test_engine_messages_name_cards_never_by_id():
    from oracle.games.mindbug.scenarios.cards import card_id
    from oracle.games.mindbug.scenarios.runner import _named

    owl, scorpion = card_id("Spider Owl"), card_id("Plated Scorpion#2")
    assert _named(f"card {owl} is not in player 0's hand") == "Spider Owl is not in player 0's hand"
    assert _named(f"cards placed twice: [{owl}, {scorpion}]") == "cards placed twice: [Spider Owl, Plated Scorpion#2]"
    assert _named(f"cards in two places: {{{owl}}}") == "cards in two places: {Spider Owl}"
    assert _named(f"life card {owl} is not in the unused pile") == "life card Spider Owl is not in the unused pile"
    # Numbers that are not cards stay as they are.
    assert _named("player 1 has 3 cards; card 99999") == "player 1 has 3 cards; card 99999"


def test_a_refused_step_in_the_report_shows_no_card_id():
    r = run(load_one(GOOD.replace("  - attack: Spider Owl", "  - attack: Gorillion")), "en-revised")
    assert r.status == "fail"
    text = failure_text(r)
    assert "Gorillion" in r.message
    assert not re.search(r"\bcards? \[?\d", text), text


def test_an_unknown_card_suggests_the_closest_name():
    errors = errors_of(GOOD.replace("[Brain Fly]", "[Brian Fly]"))
    assert errors and "unknown card 'Brian Fly' (did you mean Brain Fly" in errors[0]   # declared cards may follow


# -- pytest: summary reasons, duplicate ids, verbosity -----------------------------------


def test_pytest_short_summary_carries_the_reason_and_line(tmp_path):
    f = tmp_path / "s.yaml"
    text = GOOD.replace("life: 2", "life: 3") + "editions: [fr-first]\n"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "pytest", str(f), "-rA", "-p", "no:cacheprovider",
                        "--rootdir", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path,
                       env={**__import__("os").environ, "CI": "1"})
    assert p.returncode == 1
    summary = [x for x in p.stdout.splitlines() if x.startswith("FAILED ")]
    assert summary == [f"FAILED s.yaml::test.sneaky-unblocked[fr-first] - players[1].life: expected 3, got 2 "
                       f"(step 1 (attack: Spider Owl), line {line_of(text, 'expect:')}, keywords.sneaky)"], p.stdout


def test_pytest_refuses_a_scenario_id_used_in_two_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    p = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path), "-p", "no:cacheprovider",
                        "--rootdir", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2, p.stdout
    assert f"{tmp_path / 'b.yaml'}:1: id: duplicate scenario id 'test.sneaky-unblocked' (first at " \
           f"{tmp_path / 'a.yaml'}:1)" in p.stdout


def test_pytest_v_lists_every_item_despite_the_project_options(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(GOOD)
    p = subprocess.run([sys.executable, "-m", "pytest", str(f), "-v", "-p", "no:cacheprovider",
                        "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stdout
    # one line per item, in pytest's own form or xdist's ("[gw0] [ 25%] PASSED s.yaml::...")
    passed = [line for line in p.stdout.splitlines() if "PASSED" in line]
    assert any("s.yaml::test.sneaky-unblocked[en-first]" in line for line in passed), p.stdout
