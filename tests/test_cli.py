"""The command line as a user meets it: a missing package is one line of
advice, card names and clause ids suggest the closest, `clauses ID` shows a
clause in full with where it is cited, `annotate` reads several logs and
keeps the log's end detail."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli


def _first_game(path) -> list[bytes]:
    """The lines of the first game of a shipped log."""
    lines = path.read_bytes().splitlines()
    starts = [i for i, x in enumerate(lines) if b'"t":"game"' in x]
    return lines[starts[0]:starts[1]]


# -- a plain install -------------------------------------------------------------------


def test_hypothesis_is_a_dependency_not_a_test_extra():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(d.startswith("hypothesis") for d in project["dependencies"])
    assert not any(d.startswith("hypothesis") for d in project["optional-dependencies"]["test"])


def test_a_missing_package_is_one_line_of_advice_not_a_traceback():
    # The interpreter is told hypothesis cannot be imported, as in an install without it.
    code = ("import sys; sys.modules['hypothesis'] = None; sys.argv = ['mb-oracle', 'hunt', '--budget', '1']; "
            "from oracle.cli import main; main()")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [
        "mb-oracle hunt: needs the Python package 'hypothesis', which is not installed here "
        "(pip install hypothesis)"]


# -- did you mean ------------------------------------------------------------------------


def test_cards_suggests_the_closest_name_in_english_french_or_slug():
    p = run_cli("cards", "Kangasaurus Reks")
    assert p.returncode == 2
    assert b"unknown card 'Kangasaurus Reks' (did you mean Kangasaurus Rex?)" in p.stderr
    from oracle.games.mindbug.cards import UnknownCard, lookup, suggest

    assert suggest("tiger-squirel") == ("Tiger Squirrel", "Blessed Tiger Squirrel")   # the closest first
    assert suggest("kanga") == ("Kangasaurus Rex",)
    assert suggest("zzzzzz") == ()
    try:
        lookup("Axolotl")
    except UnknownCard as e:
        assert str(e) == "unknown card 'Axolotl' (did you mean Axolotl Healer?)"
    else:
        raise AssertionError("Axolotl is not a card name")


def test_a_log_naming_an_unknown_card_gets_a_suggestion():
    game = _first_game(ROOT / "replays" / "conforming" / "en-first.jsonl")
    game[1] = game[1].replace(b'"Tusked Extorter"', b'"Tusked Extortr"', 1)
    p = run_cli("verify", "-", "--format", "json", input=b"\n".join(game) + b"\n")
    assert p.returncode == 2
    assert "did you mean Tusked Extorter?" in p.stdout.decode()


# -- clauses -------------------------------------------------------------------------------


def test_clauses_id_shows_the_clause_in_full_with_where_it_is_cited():
    p = run_cli("clauses", "keywords.tough.poisonous")
    out = p.stdout.decode()
    assert p.returncode == 0, p.stderr
    assert out.startswith("keywords.tough.poisonous: TOUGH against POISONOUS")
    assert "is only exhausted, not" in out                      # the text
    assert "en-first    silent" in out and "reading: The edition does not discuss the pair." in out
    assert "en-revised  states" in out
    assert "code (" in out and "oracle/games/mindbug/engine/effects.py:" in out
    assert "tough.poisonous-blocker-only-exhausts" in out        # a scenario citing it
    assert "tests/test_hunt.py" in out
    assert max(len(x) for x in out.splitlines()) <= 100


def test_clauses_with_an_unknown_id_suggests_the_closest():
    p = run_cli("clauses", "keywords.tuff")
    assert p.returncode == 2
    assert b"'keywords.tuff' (did you mean keywords.tough" in p.stderr


def test_clauses_markdown_keeps_to_the_chosen_clauses():
    out = run_cli("clauses", "--markdown", "keywords.tough").stdout.decode()
    headings = [x for x in out.splitlines() if x.startswith("### ")]
    assert headings and all(h.startswith("### `keywords.tough") for h in headings)
    full = run_cli("clauses", "--markdown").stdout.decode()
    assert full == (ROOT / "spec" / "clauses.md").read_text(encoding="utf-8")


def test_clauses_coverage_says_which_scenario_folder_it_read():
    p = run_cli("clauses", "--coverage", "keywords.tough")
    assert p.stdout.decode().splitlines()[0].startswith(f"scenarios read from {ROOT / 'scenarios'} (")
    doc = json.loads(run_cli("clauses", "--coverage", "--json", "keywords.tough").stdout)
    assert doc["scenario_folder"] == str(ROOT / "scenarios") and doc["scenario_files"] >= 10


# -- annotate --------------------------------------------------------------------------------


def test_annotate_reads_several_paths_and_stdin_and_keeps_the_end_detail(tmp_path):
    game = _first_game(ROOT / "replays" / "conforming" / "en-first.jsonl")
    assert game[-1].startswith(b'{"t":"end"')
    game[-1] = game[-1][:-1] + b',"detail":"table 7, final of the cup"}'
    (tmp_path / "a.jsonl").write_bytes(b"\n".join(game) + b"\n")
    other = _first_game(ROOT / "replays" / "conforming" / "fr-revised.jsonl")
    p = run_cli("annotate", str(tmp_path / "a.jsonl"), "-", input=b"\n".join(other) + b"\n")
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["edition"] for x in lines if x["t"] == "game"] == ["en-first", "fr-revised"]
    ends = [x for x in lines if x["t"] == "end"]
    assert len(ends) == 2
    assert ends[0]["detail"] == "table 7, final of the cup"
    assert "detail" not in ends[1]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize("args,to_stdout", [
    (("verify", "replays/conforming"), True),
    (("verify", "-j", "2", "replays/"), True),
    (("verify", "--output", "junit=/dev/full", "replays/conforming"), False),
    (("selfplay", "--games", "40"), True),
])
def test_a_full_disk_is_one_line_and_exit_2_not_a_traceback(args, to_stdout):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "oracle", *args], cwd=ROOT, stderr=subprocess.PIPE,
                           stdout=full if to_stdout else subprocess.DEVNULL, timeout=120)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert "Traceback" not in err and err.strip().splitlines() == [err.strip()]
    assert "No space left on device" in err


@pytest.mark.skipif(sys.platform == "win32", reason="closes a standard stream of the child with preexec_fn (POSIX)")
@pytest.mark.parametrize("fd", [1, 2])
@pytest.mark.parametrize("args,status", [
    (("verify", "replays/conforming"), 0),
    (("verify", "--format", "json", "-j", "2", "replays/violations"), 1),
    (("annotate", "replays/conforming"), 0),
    (("selfplay", "--games", "2"), 0),
])
def test_a_standard_stream_closed_from_the_start_loses_the_text_not_the_exit_status(fd, args, status):
    other = subprocess.PIPE
    r = subprocess.run([sys.executable, "-m", "oracle", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                       stdout=other if fd == 2 else None, stderr=other if fd == 1 else None,
                       preexec_fn=lambda: os.close(fd), timeout=120)
    assert r.returncode == status
    assert b"Traceback" not in (r.stdout or r.stderr or b"")


def test_serve_with_standard_input_closed_is_one_line():
    r = subprocess.run([sys.executable, "-m", "oracle", "serve"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, preexec_fn=lambda: os.close(0), timeout=60)
    assert r.returncode == 2 and r.stderr.decode().strip().splitlines() == [
        "error: standard input is closed: the service reads requests on standard input and answers on standard output"]


def test_editions_lists_each_game_through_its_registry_entry():
    """`editions` has no branch of its own per game: what it prints, plain and
    as JSON, is what the game's entry (EDITIONS_LISTING) gives."""
    from oracle.games import attribute, names

    for game in names():
        doc, lines = attribute(game, "EDITIONS_LISTING")()
        assert lines and any("team" in line for line in lines), game
        assert run_cli("editions", "--game", game).stdout.decode() == "\n".join(lines) + "\n"
        assert json.loads(run_cli("editions", "--game", game, "--json").stdout) == doc
    assert run_cli("editions").stdout == run_cli("editions", "--game", "mindbug").stdout
