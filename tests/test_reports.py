"""Reports of `verify` and `scenarios` for CI: JUnit that agrees with the exit
status, several reports from one run, expectation files, terminal conventions."""

import io
import json
import os
import subprocess
import sys
import tracemalloc
from collections import Counter
from xml.etree import ElementTree as ET

import pytest
from conftest import ROOT, run_cli

from oracle.junit import JUnitWriter, classname, clean_line
from oracle.term import Progress, color_setting, plural

xmlschema = pytest.importorskip("xmlschema", reason="xmlschema is a test dependency (pip install -e .[test])")
JUNIT_XSD = xmlschema.XMLSchema(str(ROOT / "tests" / "data" / "junit.xsd"))

SNEAKY = ROOT / "replays" / "violations" / "sneaky-block.jsonl"
CONFORMING = ROOT / "replays" / "conforming" / "en-first.jsonl"
FIRST_CONFORMING_GAME = "selfplay-en-first-s11-00000"


def check_junit(xml: bytes | str) -> ET.Element:
    """Parse, validate against the schema CI servers read, and check that the
    counts of <testsuites> and each <testsuite> are those of their cases."""
    text = xml if isinstance(xml, str) else xml.decode("utf-8")
    JUNIT_XSD.validate(text)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        counts = {"tests": len(cases),
                  "failures": sum(c.find("failure") is not None for c in cases),
                  "errors": sum(c.find("error") is not None for c in cases),
                  "skipped": sum(c.find("skipped") is not None for c in cases)}
        assert {k: int(suite.get(k)) for k in counts} == counts
        for k in totals:
            totals[k] += counts[k]
        for c in cases:
            assert "." not in c.get("classname").rsplit(".", 1)[1], c.get("classname")
            skipped = c.find("skipped")
            assert skipped is None or skipped.get("message")
    assert {k: int(root.get(k)) for k in totals} == totals
    return root


def junit_counts(root: ET.Element) -> dict:
    return {k: int(root.get(k)) for k in ("tests", "failures", "errors", "skipped")}


# -- the JUnit writer ----------------------------------------------------------------


def test_junit_writer_escapes_control_characters_and_invalid_xml():
    nasty = "g\x1b[31m\x00\x07\ud800\ufffe-1\nline"
    out = io.StringIO()
    with JUnitWriter(out, "suite \x01") as w:
        w.case(classname("verify", "a.b.jsonl"), nasty, result="failure", message="bad \x0b thing\r\n",
               type="X", text="first\nsecond\x1b[0m\tend", file="a.b.jsonl", line=3, time=0.25)
        w.case(classname("verify", "a.b.jsonl"), "ok", file="a.b.jsonl", line=9)
    root = check_junit(out.getvalue())
    case = root.find(".//testcase")
    assert case.get("name") == r"g\x1b[31m\x00\x07\ud800\ufffe-1\x0aline"
    assert case.find("failure").get("message") == r"bad \x0b thing\x0d\x0a"
    assert case.find("failure").text == "first\nsecond\\x1b[0m\tend"
    assert case.get("classname") == "mb-oracle.verify.a_b_jsonl"
    assert (case.get("file"), case.get("line"), case.get("time")) == ("a.b.jsonl", "3", "0.250")
    assert clean_line("plain") == "plain"


def test_junit_writer_counts_every_kind_of_case():
    out = io.StringIO()
    with JUnitWriter(out, "s") as w:
        for result in ("passed", "failure", "failure", "error", "skipped"):
            w.case("c.x", result, result=result, message="why", file="f", line=1)
        with pytest.raises(ValueError):
            w.case("c.x", "bad", result="flaky")
    assert junit_counts(check_junit(out.getvalue())) == {"tests": 5, "failures": 2, "errors": 1, "skipped": 1}


def test_junit_writer_memory_does_not_grow_with_the_cases():
    def peak(n):
        out = open(os.devnull, "w")
        tracemalloc.start()
        with JUnitWriter(out, "s") as w:
            for i in range(n):
                w.case("mb-oracle.verify.games_jsonl", f"game-{i:08d}", result="failure", message="m" * 80,
                       type="ILLEGAL_DECISION", text="t" * 300, file="games.jsonl", line=i)
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out.close()
        return top

    small, large = peak(200), peak(5_000)
    # 5,000 cases of ~600 bytes would be 3 MB if they were kept.
    assert large < small + 500_000, (small, large)


# -- verify: JUnit that agrees with the exit status ----------------------------------------


def sample_reports(folder: str = "") -> list:
    """The shipped samples verified in this process, with verify's defaults."""
    from oracle.replay.reader import read_all
    from oracle.replay.verify import verify_game

    return [verify_game(raw) for raw in read_all((str(ROOT / "replays" / folder),))]


def sample_verdicts() -> Counter:
    return Counter(rep.verdict for rep in sample_reports())


def test_verify_junit_on_the_samples_validates_and_points_at_each_game():
    r = run_cli("verify", "replays/", "--format", "junit")
    root = check_junit(r.stdout)
    assert r.returncode == 1
    cases = root.findall(".//testcase")
    verdicts = sample_verdicts()
    assert len(cases) == sum(verdicts.values()) and junit_counts(root)["failures"] == verdicts["violates"]
    for c in cases:
        assert c.get("file").startswith("replays/") and int(c.get("line")) >= 1
        assert c.get("classname") == classname("verify", c.get("file"))
        failure = c.find("failure")
        if failure is not None:
            assert failure.get("type") and " at line " in failure.get("message") and failure.text


def _ci_inputs(tmp_path):
    log = tmp_path / "ci.games.jsonl"
    log.write_bytes(SNEAKY.read_bytes() + CONFORMING.read_bytes())
    exp = tmp_path / "known.divergences.yaml"
    exp.write_text("format: mb-expect/1\n"
                   "expected:\n"
                   "  - code: ILLEGAL_DECISION        # happens: an expected failure\n"
                   "    clause: keywords.sneaky\n"
                   "  - code: WRONG_RESULT            # happens nowhere: stale\n"
                   "    note: fixed last week\n"
                   f"  - code: STATE_MISMATCH          # this game conforms: an unexpected pass\n"
                   f"    game: {FIRST_CONFORMING_GAME}\n")
    return log, exp


def test_ci_run_exit_status_summary_and_junit_agree(tmp_path):
    log, exp = _ci_inputs(tmp_path)
    xml, js, human = tmp_path / "oracle.xml", tmp_path / "oracle.json", tmp_path / "oracle.txt"
    r = run_cli("verify", str(log), "--expect", str(exp), "--output", f"junit={xml}", "--output", f"json={js}",
                "--output", f"human={human}")
    assert r.returncode == 1, r.stdout
    root = check_junit(xml.read_text())
    # 6 games (1 expected failure, 1 unexpected pass, 4 passes) and 1 stale entry.
    assert junit_counts(root) == {"tests": 7, "failures": 1, "errors": 0, "skipped": 2}
    xpass = root.find(f".//testcase[@name='{FIRST_CONFORMING_GAME}']/failure")
    assert xpass.get("type") == "XPASS" and f"{exp}:7" in xpass.get("message")
    stale = root.find(".//testcase[@classname='mb-oracle.expect." + str(exp).replace(".", "_") + "']")
    assert stale.get("file") == str(exp) and stale.get("line") == "5"
    assert "stale expectation WRONG_RESULT" in stale.find("skipped").get("message")
    summary = json.loads(js.read_text().splitlines()[-1])
    assert (summary["exit"], summary["xfail"], summary["xpass"], summary["passed"]) == (1, 1, 1, 4)
    assert [(s["line"], s["code"]) for s in summary["stale"]] == [(5, "WRONG_RESULT")]
    text = human.read_text()
    assert "\x1b[" not in text
    assert f"{exp}:5: warning: stale expectation WRONG_RESULT [*]: matched no finding in this run" in text
    assert text.rstrip().endswith("summary: 6 games: 5 conform, 1 violates, 0 malformed; 1 expected failure, "
                                  "1 unexpected pass, 1 stale expectation; 325 decisions")
    # The human report on standard output is the same, but for the warning,
    # which is said on standard error instead (a file has no standard error beside it).
    warning = f"{exp}:5: warning: stale expectation WRONG_RESULT [*]: matched no finding in this run"
    assert r.stdout.decode() == "".join(x for x in text.splitlines(True) if not x.startswith(warning))
    assert warning in r.stderr.decode()

    # Without the unexpected pass: green, the stale entry a warning only...
    exp.write_text(exp.read_text().rsplit("  - code: STATE_MISMATCH", 1)[0])
    r = run_cli("verify", str(log), "--expect", str(exp), "--format", "junit")
    root = check_junit(r.stdout)
    assert r.returncode == 0 and junit_counts(root) == {"tests": 7, "failures": 0, "errors": 0, "skipped": 2}
    # ...and under --strict-expect, the stale entry fails the run and its case.
    r = run_cli("verify", str(log), "--expect", str(exp), "--format", "junit", "--strict-expect")
    root = check_junit(r.stdout)
    assert r.returncode == 1 and junit_counts(root) == {"tests": 7, "failures": 1, "errors": 0, "skipped": 1}
    assert root.find(".//failure").get("type") == "STALE_EXPECTATION"
    r = run_cli("verify", str(log), "--expect", str(exp), "--format", "json", "--strict-expect")
    assert json.loads(r.stdout.splitlines()[-1])["exit"] == 1 == r.returncode
    assert b"stale expectation WRONG_RESULT" in r.stderr   # warned where a person looks


def test_control_characters_in_a_game_id_reach_no_report_raw(tmp_path):
    log = tmp_path / "ids.jsonl"
    text = CONFORMING.read_text().split("\n")
    text[0] = text[0].replace(FIRST_CONFORMING_GAME, "evil\\u001b]0;title\\u0007\\u0000")
    log.write_text("\n".join(text))
    r = run_cli("verify", str(log), "--format", "junit", "--output", f"human={tmp_path / 'h.txt'}")
    root = check_junit(r.stdout)
    assert root.find(".//testcase").get("name") == r"evil\x1b]0;title\x07\x00"
    human = (tmp_path / "h.txt").read_text()
    assert r"ok        evil\x1b]0;title\x07\x00" in human and "\x1b" not in human


def test_a_value_of_a_hostile_size_is_cut_in_the_human_report_and_whole_in_json(tmp_path):
    log = tmp_path / "huge.jsonl"
    lines = CONFORMING.read_text().split("\n")[:2]
    name = "Z" * 300_000
    lines.append(json.dumps({"t": "state", "hand": [[name], []]}))
    lines.append(json.dumps({"t": "end", "winner": None, "reason": "aborted", "detail": "d" * 300_000}))
    log.write_text("\n".join(lines) + "\n")
    human = run_cli("verify", str(log), "--color", "never").stdout.decode()
    assert max(len(line) for line in human.splitlines()) < 2200
    assert "more characters: --format json has them all" in human
    assert "STATE_MISMATCH" in human
    report = json.loads(run_cli("verify", str(log), "--format", "json").stdout.splitlines()[0])
    assert report["findings"][0]["log"]["hand"][0] == [name]


def test_malformed_games_are_junit_errors_and_exit_2(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_bytes(CONFORMING.read_bytes() + b'{"t":"game","format":"mb-replay/9","id":"v9"}\n')
    r = run_cli("verify", str(log), "--format", "junit")
    root = check_junit(r.stdout)
    assert r.returncode == 2 and junit_counts(root)["errors"] == 1
    assert root.find(".//testcase[@name='v9']/error").get("type") == "BAD_VERSION"


def test_one_run_writes_the_same_reports_as_separate_runs(tmp_path):
    js = tmp_path / "r.json"
    r = run_cli("verify", "replays/", "--output", f"json={js}", "-j", "2")
    alone = run_cli("verify", "replays/", "--format", "json")
    assert r.returncode == alone.returncode == 1
    assert js.read_bytes() == alone.stdout
    v = sample_verdicts()
    assert r.stdout.decode().splitlines()[-1].startswith(
        f"summary: {sum(v.values())} games: {v['conforms']} conform, {v['violates']} violate")


def test_junit_differs_between_worker_counts_only_in_measured_times():
    import re
    one = run_cli("verify", "replays/", "--format", "junit")
    two = run_cli("verify", "replays/", "--format", "junit", "-j", "2")
    untimed = [re.sub(rb' time="[0-9.]+"', b"", r.stdout) for r in (one, two)]
    assert untimed[0] == untimed[1] and b"<testcase" in untimed[0]


@pytest.mark.parametrize("value,message", [
    ("junit", "write FORMAT=FILE"),
    ("xml=out.xml", "unknown format 'xml'"),
    ("jsno=out.json", "did you mean json?"),
    ("junit=", "write FORMAT=FILE"),
    ("junit=-", "--format chooses the report on standard output"),
])
def test_bad_output_option_is_a_usage_error(value, message):
    r = run_cli("verify", "replays/", "--output", value)
    assert r.returncode == 2 and message in r.stderr.decode() and b"Traceback" not in r.stderr


def test_unwritable_output_file_is_a_usage_error(tmp_path):
    r = run_cli("verify", "replays/", "--output", f"junit={tmp_path}/no/such/dir/x.xml")
    assert r.returncode == 2 and b"cannot write" in r.stderr and b"Traceback" not in r.stderr
    r = run_cli("verify", "replays/", "--output", "json=a.json", "--output", "junit=a.json")
    assert r.returncode == 2 and b"given twice" in r.stderr
    log = tmp_path / "games.jsonl"
    log.write_bytes(SNEAKY.read_bytes())
    r = run_cli("verify", str(tmp_path), "--output", f"json={log}")
    assert r.returncode == 2 and b"would overwrite" in r.stderr
    assert log.read_bytes() == SNEAKY.read_bytes()


def test_statistics_count_findings_by_code_and_clause():
    r = run_cli("verify", "replays/violations/", "--statistics", "-q")
    out = r.stdout.decode()
    block = out[out.index("findings by code"):out.index("summary:")]
    findings = sum(len(rep.findings) for rep in sample_reports("violations"))
    assert f"findings by code ({findings} findings, 0 expected):" in block
    assert " ILLEGAL_DECISION" in block and "keywords.sneaky" in block
    js = json.loads(run_cli("verify", "replays/violations/", "--format", "json").stdout.splitlines()[-1])
    stats = js["statistics"]
    assert stats["findings"] == sum(stats["by_code"].values()) == findings
    assert list(stats["by_code"].values()) == sorted(stats["by_code"].values(), reverse=True)
    for code, n in stats["by_code"].items():
        assert f"{n}  {code}\n" in block


def test_json_report_lines_validate_against_the_report_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    log, exp = _ci_inputs(tmp_path)
    v = jsonschema.Draft202012Validator(json.loads(run_cli("schema", "report").stdout))
    r = run_cli("verify", str(log), "--expect", str(exp), "--format", "json")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[-1]["t"] == "summary" and lines[-1]["stale"] and lines[-1]["statistics"]["by_code"]
    assert {g["outcome"] for g in lines[:-1]} == {"pass", "xfail", "xpass"}
    for line in lines:
        errors = list(v.iter_errors(line))
        assert not errors, (line["t"], errors[0].message)


# -- expectation files ----------------------------------------------------------------


@pytest.mark.parametrize("body,expected", [
    ("expected: []\n", ":1: format: missing; the file must say `format: mb-expect/1`"),
    ("format: mb-expect/2\nexpected: []\n", ":1: format: 'mb-expect/2' is not mb-expect/1"),
    ("format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISON\n",
     ":3: expected[0].code: unknown code 'ILLEGAL_DECISON' (did you mean ILLEGAL_DECISION?)"),
    ("format: mb-expect/1\nexpected:\n  - code: STATE_MISMATCH\n    clause: keywords.sneeky\n",
     ":4: expected[0].clause: unknown clause 'keywords.sneeky' (did you mean keywords.sneaky?)"),
    ("format: mb-expect/1\nexpected:\n  - code: STATE_MISMATCH\n    edition: en-revized\n",
     ":4: expected[0].edition: unknown edition 'en-revized' (did you mean en-revised?)"),
    ("format: mb-expect/1\nexpected:\n  - code: STATE_MISMATCH\n    gmae: g1\n",
     ":4: expected[0]: unknown key 'gmae' (did you mean game?)"),
    ("format: mb-expect/1\nexpected:\n  - code: STATE_MISMATCH\n    game: 17\n",
     ':4: expected[0].game: must be text, not int (write it quoted: "17")'),
    ("format: mb-expect/1\nexpected:\n  - code: BAD_JSON\n", ":3: expected[0].code: BAD_JSON makes a game malformed"),
    ("format: mb-expect/1\nexpected:\n  - code: WRONG_RESULT\n  - code: WRONG_RESULT\n",
     ":4: expected[1]: the same entry as line 3"),
    ("format: mb-expect/1\nexpected:\n  - clause: keywords.sneaky\n", ":3: expected[0]: code: missing"),
    ("format: mb-expect/1\nexpected:\n  - code: WRONG_RESULT\n    code: GAME_OVER\n",
     ":4: not valid YAML or JSON: duplicate key 'code'"),
    ("format: mb-expect/1\nexpected:\n  - code: [WRONG_RESULT]\n",
     ":3: expected[0].code: must be text, not a list or a mapping"),
    ("format: mb-expect/1\nexpected: [\n", ":3: not valid YAML or JSON"),
])
def test_expectation_file_errors_name_file_line_and_field(tmp_path, body, expected):
    exp = tmp_path / "e.yaml"
    exp.write_text(body)
    r = run_cli("verify", str(SNEAKY), "--expect", str(exp))
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert f"error: {exp}{expected}" in r.stderr.decode(), r.stderr
    assert r.stdout == b""


def test_every_finding_code_is_known_to_expectations():
    import re

    from oracle.replay.expect import VIOLATION_CODES
    from oracle.replay.verify import MALFORMED
    text = ((ROOT / "oracle" / "replay" / "verify.py").read_text()
            + (ROOT / "oracle" / "games" / "mindbug" / "engine" / "errors.py").read_text())
    used = set(re.findall(r'"([A-Z]+(?:_[A-Z]+)+)"', text))
    assert used and used <= set(VIOLATION_CODES) | MALFORMED, used - set(VIOLATION_CODES) - MALFORMED
    assert not set(VIOLATION_CODES) & MALFORMED


def test_entries_for_an_edition_or_a_missing_game_are_stale_with_the_reason(tmp_path):
    exp = tmp_path / "e.yaml"
    exp.write_text("format: mb-expect/1\nexpected:\n"
                   "  - code: ILLEGAL_DECISION\n    edition: fr-first\n"
                   "  - code: ILLEGAL_DECISION\n    game: no-such-game\n"
                   "  - code: ILLEGAL_DECISION\n    game: violation-sneaky-block\n    edition: en-first\n")
    r = run_cli("verify", str(SNEAKY), "--expect", str(exp), "--format", "json")
    summary = json.loads(r.stdout.splitlines()[-1])
    assert r.returncode == 1 and summary["failed"] == 1      # en-revised game: no entry applies
    assert [s["reason"] for s in summary["stale"]] == [
        "matched no finding in this run", "game 'no-such-game' is not in the input",
        "game 'violation-sneaky-block' was verified under en-revised, not en-first"]


def test_an_entry_whose_divergence_an_earlier_entry_accepted_is_stale_not_an_unexpected_pass(tmp_path):
    # The game shows the second entry's divergence (ILLEGAL_DECISION citing
    # keywords.sneaky), but the first entry, in file order, accepts it: the
    # game is an expected failure, and the second entry accepted nothing.
    exp = tmp_path / "e.yaml"
    exp.write_text("format: mb-expect/1\nexpected:\n"
                   "  - code: ILLEGAL_DECISION\n    game: violation-sneaky-block\n"
                   "  - code: ILLEGAL_DECISION\n    clause: keywords.sneaky\n    game: violation-sneaky-block\n")
    r = run_cli("verify", str(SNEAKY), "--expect", str(exp), "--format", "json")
    game, summary = (json.loads(x) for x in r.stdout.splitlines())
    assert r.returncode == 0 and game["outcome"] == "xfail", r.stdout
    assert (summary["xfail"], summary["xpass"]) == (1, 0)
    assert [(s["line"], s["reason"]) for s in summary["stale"]] == [
        (5, "game 'violation-sneaky-block' shows it, but an earlier entry accepted each of its findings there")]
    assert run_cli("verify", str(SNEAKY), "--expect", str(exp), "--strict-expect").returncode == 1


def test_expect_schema_is_2020_12_and_rejects_what_verify_rejects():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    r = run_cli("schema", "expect")
    schema = json.loads(r.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    v = jsonschema.Draft202012Validator(schema)
    good = {"format": "mb-expect/1", "expected": [
        {"code": "ILLEGAL_DECISION", "clause": "keywords.sneaky", "game": "g1", "edition": "fr-first", "note": "n"}]}
    assert not list(v.iter_errors(good))
    for bad in ({"expected": []}, {"format": "mb-expect/2", "expected": []},
                {"format": "mb-expect/1", "expected": [{"code": "ILLEGAL_DECISON"}]},
                {"format": "mb-expect/1", "expected": [{"code": "BAD_JSON"}]},
                {"format": "mb-expect/1", "expected": [{"code": "WRONG_RESULT", "clause": "no.such"}]},
                {"format": "mb-expect/1", "expected": [{"code": "WRONG_RESULT", "edition": "de-first"}]},
                {"format": "mb-expect/1", "expected": [{"code": "WRONG_RESULT", "gmae": "x"}]}):
        assert list(v.iter_errors(bad)), bad


# -- scenarios use the same writer ---------------------------------------------------------


def test_scenarios_junit_validates_with_failures_and_load_errors(tmp_path):
    good = (ROOT / "scenarios" / "combat.yaml").read_text().split("\n---", 1)[0]
    (tmp_path / "rules.v2.yaml").write_text(good)
    (tmp_path / "broken.yaml").write_text("id: [\n")
    r = subprocess.run([sys.executable, "-m", "oracle", "scenarios", str(tmp_path), "--format", "junit"],
                       capture_output=True, cwd=ROOT)
    root = check_junit(r.stdout)
    counts = junit_counts(root)
    assert r.returncode == 2 and counts["errors"] == 1 and counts["tests"] > 1
    assert root.find(".//error").get("type") == "SCENARIO_ERROR"
    assert all("rules_v2_yaml" in c.get("classname") for c in root.iter("testcase") if c.find("error") is None)


# -- terminal conventions --------------------------------------------------------------


def test_plurals():
    assert [plural(n, "game") for n in (0, 1, 2, 1500)] == ["0 games", "1 game", "2 games", "1,500 games"]
    assert plural(1, "unexpected pass", "unexpected passes") == "1 unexpected pass"
    assert plural(3, "unexpected pass", "unexpected passes") == "3 unexpected passes"


def test_color_setting_follows_the_option_then_no_color_then_force_color():
    assert color_setting("auto", {}) is None
    assert color_setting("auto", {"NO_COLOR": "1"}) is False
    assert color_setting("auto", {"NO_COLOR": ""}) is None          # an empty NO_COLOR is not set
    assert color_setting("auto", {"FORCE_COLOR": "1"}) is True
    assert color_setting("auto", {"FORCE_COLOR": "0"}) is None
    assert color_setting("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}) is False
    assert color_setting("always", {"NO_COLOR": "1"}) is True
    assert color_setting("never", {"FORCE_COLOR": "1"}) is False


def _env(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(changes)
    return env


def run_on_terminal(*args, env=None) -> bytes:
    """Standard output of `mb-oracle ARGS` when it is a terminal."""
    pty = pytest.importorskip("pty", reason="a pseudo-terminal (POSIX) is needed to test terminal output")
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "oracle", *args], stdout=slave, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, cwd=ROOT, env=env or _env())
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    p.wait(timeout=60)
    return b"".join(chunks)


def test_colour_on_a_terminal_unless_no_color_or_never():
    args = ("verify", str(SNEAKY), "--no-progress")
    assert b"\x1b[" in run_on_terminal(*args)
    assert b"\x1b[" not in run_on_terminal(*args, env=_env(NO_COLOR="1"))
    assert b"\x1b[" not in run_on_terminal("--color", "never", *args)
    assert b"\x1b[" not in run_on_terminal(*args, "--color", "never")
    piped = run_cli("verify", str(SNEAKY))
    assert b"\x1b[" not in piped.stdout
    forced = subprocess.run([sys.executable, "-m", "oracle", "verify", str(SNEAKY)], capture_output=True,
                            cwd=ROOT, env=_env(FORCE_COLOR="1"))
    assert b"\x1b[" in forced.stdout
    assert b"\x1b[" in run_cli("--color", "always", "verify", str(SNEAKY)).stdout
    assert b"\x1b[" in run_cli("verify", str(SNEAKY), "--color", "always").stdout


def test_verify_says_it_reads_standard_input_on_a_terminal():
    pty = pytest.importorskip("pty", reason="a pseudo-terminal (POSIX) is needed to test terminal input")
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify"], stdin=slave, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, env=_env())
    os.close(slave)
    os.write(master, b"\x04")           # end of input, as Ctrl-D
    out, err = p.communicate(timeout=60)
    os.close(master)
    assert b"reading mb-replay/1 lines from standard input" in err
    piped = run_cli("verify", input=CONFORMING.read_bytes())
    assert b"standard input" not in piped.stderr and piped.returncode == 0


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_total_rate_and_time_left_only_on_a_terminal():
    term = _Terminal()
    with Progress("selfplay", total=200, unit="game", stream=term, interval=0) as bar:
        bar.start -= 10.0                       # as if 10 seconds had passed
        bar.update(50)
        line = bar.line()
    assert "selfplay: 50/200 games" in line and "25%" in line and "5.0 games/s" in line and "0:30 left" in line
    shown = term.getvalue()
    assert "50/200 games" in shown and shown.endswith("\r\x1b[K")   # erased when done
    plain = io.StringIO()
    with Progress("verify", unit="game", stream=plain, interval=0) as bar:
        bar.update(3)
        assert bar.line().startswith("verify: 3 games, ")
    assert plain.getvalue() == ""
    one = Progress("verify", unit="game", stream=plain)
    one.update(1)
    assert one.line().startswith("verify: 1 game, ")


def test_verify_progress_counts_the_lines_of_files_and_shows_the_games(tmp_path):
    from types import SimpleNamespace

    from oracle.replay.progress import GameProgress
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(b"x\n" * 100)
    b.write_bytes(b"y\n" * 299 + b"y")          # no newline at the end
    term = _Terminal()
    progress = GameProgress((str(tmp_path),), True, stream=term)
    assert progress.bar.total == 400 and progress.bar.unit == "line"
    progress.update(SimpleNamespace(file=str(a), line=1))
    progress.update(SimpleNamespace(file=str(a), line=51))
    progress.update(SimpleNamespace(file=str(b), line=101))
    assert progress.bar.done == 200           # the lines before the third game
    assert progress.bar.line().startswith("verify: 200/400 lines, 50%, ")
    assert progress.bar.line().endswith(", 3 games")
    piped = GameProgress(("-",), True, stream=term)
    assert piped.bar.total is None and piped.bar.unit == "game"
    assert GameProgress((str(tmp_path),), True, stream=io.StringIO()).files == []   # not a terminal: no pass


def test_every_field_of_the_json_report_is_one_the_spec_names():
    """Each field `mb-oracle schema report` gives a game line, a finding,
    an event, a difference and the summary is named in spec/replay-format.md
    (What the verifier reports, Reports): what a CI reads is described."""
    import re

    schema = json.loads(run_cli("schema", "report").stdout)
    spec = (ROOT / "spec" / "replay-format.md").read_text()
    named = {word for span in re.findall(r"`([^`]*)`", spec) for word in re.findall(r"[a-z_]+", span)}
    unnamed = {name: sorted(set(part["properties"]) - named) for name, part in schema["$defs"].items()}
    assert {name: fields for name, fields in unnamed.items() if fields} == {}
