"""What a new user meets first: defaults the documents promise, messages
that say what to do, reports that show the log as it was written."""

import io
import json

from conftest import ROOT, run_cli

from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game


def _reports(data: bytes):
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<test>")]


def _first_game(path) -> list[dict]:
    """The lines of the first game of a log, as dicts."""
    out = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        if d["t"] == "game" and out:
            break
        out.append(d)
    return out


def _jsonl(lines) -> bytes:
    return b"".join(json.dumps(d).encode() + b"\n" for d in lines)


# -- a game line without an edition is verified under the default ------------------

def test_a_game_line_without_edition_is_verified_under_en_revised_and_says_so():
    lines = _first_game(ROOT / "replays" / "conforming" / "en-revised.jsonl")
    del lines[0]["edition"]
    [rep] = _reports(_jsonl(lines))
    assert rep.verdict == "conforms", rep.findings
    assert rep.edition == "en-revised"
    assert any("names no edition" in n and "en-revised" in n for n in rep.notes), rep.notes


def test_verify_edition_gives_a_game_line_without_edition_its_edition(tmp_path):
    lines = _first_game(ROOT / "replays" / "conforming" / "en-revised.jsonl")
    del lines[0]["edition"]
    log = tmp_path / "g.jsonl"
    log.write_bytes(_jsonl(lines))
    r = run_cli("verify", str(log), "--edition", "fr-revised", "--format", "json")
    rep = json.loads(r.stdout.splitlines()[0])
    assert rep["edition"] == "fr-revised" and rep["verdict"] != "malformed", rep


# -- a mu-replay/1 game line names its game by its format --------------------------

def test_a_mu_replay_game_line_without_game_is_a_game_of_mind_up():
    from oracle.games.mindup.replay.selfplay import selfplay_lines

    lines = [json.loads(x) for x in selfplay_lines(1, 3, players=4)]
    assert lines[0].pop("game") == "mind-up"
    [rep] = _reports(_jsonl(lines))
    assert rep.game == "mind-up"
    assert rep.verdict == "conforms", rep.findings


def test_an_unknown_format_names_every_format_the_oracle_reads():
    line = {"t": "game", "format": "mu-replay/2", "id": "x", "players": 3}
    [rep] = _reports(_jsonl([line]))
    [f] = rep.findings
    assert f.code == "BAD_VERSION"
    assert "mb-replay/1 (Mindbug)" in f.message and "mu-replay/1 (Mind Up!)" in f.message


# -- a line that cannot be read is shown as the log wrote it -------------------------

def test_a_malformed_line_is_shown_as_written_with_control_characters_escaped(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b'{"t":"game","format":"mb-replay/1","id":"x","edition":"en-revised"}\n'
                    b'{"t":"setup", "cards": {"1": "Sh\x1bield"}, oops}\n')
    r = run_cli("verify", str(log))
    said = [x for x in r.stdout.decode().splitlines() if "log says:" in x]
    assert said == ['    log says:   {"t":"setup", "cards": {"1": "Sh\\x1bield"}, oops}'], r.stdout


# -- noise --------------------------------------------------------------------------

def test_the_note_on_a_deal_without_reveals_stays_out_of_the_human_report_of_a_failing_game():
    from oracle.replay.report import human_game

    lines = _first_game(ROOT / "replays" / "violations" / "sneaky-block.jsonl")
    del lines[1]["reveals"]
    lines[1]["first"] = 0
    [rep] = _reports(_jsonl(lines))
    assert rep.verdict == "violates"
    assert "starting player given without reveals: the reveal rule is not checked" in rep.notes   # the JSON keeps it
    assert "without reveals" not in human_game(rep)
    assert "without reveals" in human_game(rep, verbose=True)


# -- the command line ---------------------------------------------------------------

def test_a_mistyped_command_gets_the_nearest_one():
    r = run_cli("verfy", "replays/")
    assert r.returncode == 2
    assert b"No such command 'verfy' (did you mean 'verify'?)." in r.stderr, r.stderr
    r = run_cli("xyzzy")
    assert r.returncode == 2 and b"No such command 'xyzzy'." in r.stderr, r.stderr


def test_a_mistyped_choice_gets_the_nearest_one():
    r = run_cli("verify", "--edition", "en-revized", "replays/")
    assert r.returncode == 2
    assert b"(did you mean 'en-revised'?)" in r.stderr, r.stderr
    r = run_cli("schema", "replya")
    assert r.returncode == 2 and b"(did you mean 'replay'?)" in r.stderr, r.stderr
    r = run_cli("--color", "nevr", "editions")
    assert r.returncode == 2 and b"(did you mean 'never'?)" in r.stderr, r.stderr


def test_game_given_to_a_command_that_reads_the_game_from_its_input_says_where_it_is_read():
    """selfplay, perft and conform take --game; a user who gives it to verify
    learns that the log says which game it is, on the one error line."""
    r = run_cli("verify", "--game", "mind-up", "replays/conforming/mind-up.jsonl")
    err = [x for x in r.stderr.splitlines() if x.startswith(b"Error:")]
    assert r.returncode == 2 and len(err) == 1 and b"No such option '--game'" in err[0]
    assert b"from its game line" in err[0], r.stderr
    r = run_cli("scenarios", "--game", "mind-up", "scenarios/mind-up")
    assert r.returncode == 2 and b"its `game` key" in r.stderr, r.stderr


def test_scenarios_edition_fr_runs_mind_up_scenarios_only():
    r = run_cli("scenarios", "--edition", "fr", "--format", "json", "scenarios/")
    assert r.returncode == 0, r.stderr
    runs = json.loads(r.stdout)["results"]
    assert runs and {x["edition"] for x in runs} == {"fr"}


def _serve(*requests) -> list[dict]:
    r = run_cli("serve", input=b"".join(json.dumps(q).encode() + b"\n" for q in requests))
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_serve_hello_lists_the_games():
    [hello] = _serve({"op": "hello"})
    assert hello["games"] == ["mindbug", "mind-up"]


def test_serve_takes_a_reveal_step_after_a_mind_up_turn_as_a_log_writes_it():
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1}
    order = {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}}
    reveal = {"op": "apply", "game": "g1", "decision": {"t": "reveal"}}
    _, started, early = _serve(new, order, reveal)
    assert early["applied"] is False and early["refusal"]["clause"] == "mu.turn.hidden"
    hands = started["pending"]["options"]
    chooses = [{"op": "apply", "game": "g1", "decision": {"t": "choose", "p": p, "card": hands[p][0]}}
               for p in range(3)]
    replies = _serve(new, order, *chooses, reveal, {"op": "state", "game": "g1"}, reveal)
    last_choice, written, state, again = replies[4:]
    assert any(e["kind"] == "reveal" for e in last_choice["events"])
    assert written["applied"] is True and written["events"] == []
    assert written["pending"] == last_choice["pending"]
    assert state["state"]["turn"] == 1
    assert again["applied"] is False        # a second reveal: no turn left to reveal


# -- Mind Up!'s cards are listed -----------------------------------------------------

def test_cards_game_mind_up_lists_every_card_with_colour_and_bubble_and_the_objectives():
    from oracle.games.mindup import cards as mu

    r = run_cli("cards", "--game", "mind-up", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [c["number"] for c in doc["cards"]] == list(range(1, 61))
    assert {c["number"]: (c["colour"], c["bubble"]) for c in doc["cards"]} == mu.CARDS
    assert doc["score_cards"] == [1, 2, 3, 4, 5]
    assert [(o["id"], o["letter"], o["value"]) for o in doc["objectives"]] == \
        [(i, letter, value) for i, (letter, value, _) in mu.OBJECTIVES.items()]
    text = run_cli("cards", "--game", "mind-up").stdout.decode().splitlines()
    assert text[1].split() == ["1", "orange", "-1"] and text[60].split() == ["60", "orange", "-1"]
    assert any(x.split()[:3] == ["14", "G", "+2"] for x in text)
    one = json.loads(run_cli("cards", "--game", "mind-up", "--json", "17").stdout)
    assert one["cards"] == [{"number": 17, "colour": mu.colour(17), "bubble": mu.bubble(17)}]


def test_cards_game_mind_up_refuses_a_card_that_is_not_a_number_of_its_deck():
    r = run_cli("cards", "--game", "mind-up", "61")
    assert r.returncode == 2 and b"numbered 1 to 60" in r.stderr, r.stderr
    r = run_cli("cards", "--game", "mind-up", "--sets")
    assert r.returncode == 2 and b"Mindbug's" in r.stderr, r.stderr


# -- the build check answers for the installed package wherever it runs ---------------

def _readme_build_checks() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return [line.split("   #")[0].strip() for line in text.splitlines()
            if "compiled_modules()" in line or line.startswith("mb-oracle --version")]


def test_the_readme_build_check_reads_the_installed_package_not_a_folder_named_oracle(tmp_path):
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    shadow = tmp_path / "oracle"          # what a checkout's source tree is to `python -c` run in it
    shadow.mkdir()
    (shadow / "__init__.py").write_text("def compiled_modules():\n    return ['SHADOW']\n")
    checks = _readme_build_checks()
    assert len(checks) == 2, checks
    bin_dir = Path(sys.executable).parent
    for command in checks:
        argv = shlex.split(command)
        argv[0] = str(bin_dir / argv[0]) if (bin_dir / argv[0]).exists() else argv[0]
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True)
        assert r.returncode == 0, (command, r.stderr)
        assert "SHADOW" not in r.stdout, command
        assert "[]" in r.stdout or "(pure Python)" in r.stdout, (command, r.stdout)


# The first scenario of the library, expecting the life an unblocked attack takes: it fails in every edition.
FAILING_IN_EVERY_EDITION = (ROOT / "scenarios" / "combat.yaml").read_text().split("\n---\n")[0] \
    .replace("id: combat.unblocked-attack-costs-one-life", "id: probe.wrong-life").replace("life: 2", "life: 3") + "\n"


def test_a_scenario_failing_the_same_way_in_every_edition_is_shown_once_naming_them(tmp_path):
    path = tmp_path / "probe.yaml"
    path.write_text(FAILING_IN_EVERY_EDITION)
    r = run_cli("scenarios", str(path))
    assert r.returncode == 1
    out = r.stdout.decode()
    assert out.count("FAIL probe.wrong-life") == 1, out
    assert "FAIL probe.wrong-life [en-first, fr-first, fr-revised, en-revised]" in out, out
    assert "1 scenario, 4 runs: 0 passed, 4 failed" in out


def test_conform_scenarios_shows_failures_once_naming_the_editions_and_passing_runs_only_with_v(tmp_path):
    engine = "python examples/engine_adapter.py --plant sneaky"
    r = run_cli("conform", "--engine", engine, "--budget", "0", "--scenarios", "scenarios/keywords-sneaky.yaml",
                "--no-shrink", "--out", str(tmp_path))
    out = r.stdout.decode()
    assert r.returncode == 1, r.stderr
    heads = [x for x in out.splitlines() if x.startswith(("ok", "VIOLATES"))]
    assert heads and all(x.startswith("VIOLATES") for x in heads), out
    assert "scenario sneaky.only-sneaky-blocks  [en-first, fr-first, fr-revised, en-revised, 1 decision]" in out
    assert len(heads) == len({x.split()[2] for x in heads})       # each scenario once
    assert "summary: 20 games: 8 conform, 12 violate" in out
    verbose = run_cli("conform", "--engine", engine, "--budget", "0", "--scenarios",
                      "scenarios/keywords-sneaky.yaml", "--no-shrink", "--out", str(tmp_path), "-v").stdout.decode()
    assert sum(x.startswith("ok ") for x in verbose.splitlines()) == 8
    as_json = run_cli("conform", "--engine", engine, "--budget", "0", "--scenarios",
                      "scenarios/keywords-sneaky.yaml", "--no-shrink", "--out", str(tmp_path), "--format", "json").stdout
    assert sum(b'"t":"game"' in x for x in as_json.splitlines()) == 20      # every run in the JSON report


# -- words ----------------------------------------------------------------------------

def test_the_score_examples_of_the_specs_are_the_orientations_the_code_reads_and_writes():
    """given.scores lists per round; a state claim's scores and expect.rounds per player."""
    import yaml

    from oracle.games.mindup.harness.play import game_from_position, state_claim

    given = next(yaml.safe_load_all((ROOT / "scenarios" / "mind-up" / "end.yaml").read_text()))["given"]
    given["scores"] = [[30, 25, 20], [20, 30, 26]]
    assert state_claim(game_from_position(given))["scores"] == [[30, 20], [25, 30], [20, 26]]
    scenario_doc = (ROOT / "spec" / "scenario-format.md").read_text()
    replay_doc = (ROOT / "spec" / "mind-up" / "replay-format.md").read_text()
    assert "`[[30, 25, 20], [20, 30, 26]]` is round 1's 30, 25 and 20" in scenario_doc
    assert "`{0: [30, 20], 1: [25, 30], 2: [20, 26]}`" in scenario_doc
    assert "`[[30, 20], [25, 30], [20, 26]]` is player 0's 30 and 20" in replay_doc


def test_the_spec_says_activate_is_for_the_shipped_later_set_cards_too():
    from oracle.games.mindbug.replay.selfplay import selfplay_lines

    lines = [json.loads(x) for x in selfplay_lines(20, 9, "en-revised", "random", "none", sets=("beyond-evolution",))]
    assert any(x["t"] == "activate" for x in lines)        # shipped cards of Beyond Evolution are activated
    doc = (ROOT / "spec" / "replay-format.md").read_text()
    row = next(x for x in doc.splitlines() if x.startswith("| `activate` |"))
    assert "shipped cards" in row and "Beyond Evolution" in row


def test_each_later_hunt_summary_ends_its_note_with_a_stop():
    from oracle.games.mindbug.hunt.later_hunt import hunt_later

    found = hunt_later(["beyond-eternity"])
    assert found
    for f in found:
        note = f.summary.split(": ", 1)[1]
        assert ". The readings" in note or ". Every reading" in note or ". One outcome" in note \
            or "? " in note, f.summary
        assert ") The" not in f.summary


# -- scenario files under pytest --------------------------------------------------------

def _pytest(tmp_path, *args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "--rootdir",
                           str(tmp_path), *args], capture_output=True, text=True, cwd=tmp_path)


def test_pytest_runs_the_good_documents_of_a_file_and_fails_the_bad_one_as_its_own_item(tmp_path):
    documents = (ROOT / "scenarios" / "combat.yaml").read_text().split("\n---\n")[:3]
    documents[1] = documents[1].replace("Gorillion", "Gorilion")
    (tmp_path / "mixed.yaml").write_text("\n---\n".join(documents) + "\n")
    r = _pytest(tmp_path, "-q", "-rf", "mixed.yaml", "--junitxml", str(tmp_path / "j.xml"))
    assert r.returncode == 1, r.stdout
    assert "1 failed, 8 passed" in r.stdout, r.stdout
    bad_line = documents[0].count("\n") + 2 + documents[1].split("Gorilion")[0].count("\n") + 1   # after `---`
    assert f"FAILED mixed.yaml::load:{bad_line} - given.players[0].play[0]: " in r.stdout, r.stdout
    assert f"mixed.yaml:{bad_line}: given.players[0].play[0]: scenario " in r.stdout
    assert "ERROR collecting" not in r.stdout
    junit = (tmp_path / "j.xml").read_text()
    assert f'name="load:{bad_line}"' in junit and "unknown card 'Gorilion'" in junit


def test_pytest_shows_the_reason_of_a_failing_run_first_and_puts_the_details_in_the_junit_body(tmp_path):
    (tmp_path / "probe.yaml").write_text(FAILING_IN_EVERY_EDITION + "editions: [fr-first]\n")
    r = _pytest(tmp_path, "-q", "probe.yaml", "--junitxml", str(tmp_path / "j.xml"))
    assert r.returncode == 1
    out = r.stdout.splitlines()
    header = next(i for i, x in enumerate(out) if "scenario probe.wrong-life [fr-first]" in x)
    assert out[header + 1].startswith("players[1].life: expected 3, got 2 (step 3 (pass), line "), out
    from xml.etree import ElementTree as ET

    failure = ET.parse(tmp_path / "j.xml").find(".//failure")
    assert failure.get("message") == out[header + 1]
    assert "FAIL probe.wrong-life [fr-first]" in failure.text and "what happened at step 3" in failure.text
