"""Hostile surroundings of the input files: folders the search cannot read,
outputs that are inputs of the run, names that carry a newline."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"
SCENARIO = ROOT / "scenarios" / "setup.yaml"


def _invoke(*args):
    return CliRunner().invoke(main, [*map(str, args)], catch_exceptions=False)


# -- folders the search cannot read --------------------------------------------


@pytest.fixture
def locked(monkeypatch):
    """Folders whose names end in `locked` cannot be listed, as a folder without read
    permission (the tests run as root, whom permissions do not stop)."""
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def _deep(top: Path, depth: int = 20) -> str:
    """Folders nested under `top` until the path is longer than 4,096 bytes; the innermost one's path."""
    fd = os.open(top, os.O_RDONLY)
    path = str(top)
    try:
        for i in range(depth):
            name = f"d{i:02d}" + "x" * 250
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            path = os.path.join(path, name)
    finally:
        os.close(fd)
    assert len(path) > 4096
    return path


@pytest.mark.parametrize("how", ["folder", "glob", "double-star"])
def test_verify_names_a_subfolder_it_cannot_read(tmp_path, locked, how):
    (tmp_path / "a").mkdir()
    (tmp_path / "locked").mkdir()
    shutil.copy(LOG, tmp_path / "a" / "games.jsonl")
    arg = {"folder": tmp_path, "glob": tmp_path / "*", "double-star": tmp_path / "**" / "*.jsonl"}[how]
    r = _invoke("verify", arg, "-q")
    assert r.exit_code == 2, r.output
    assert f"MALFORMED {tmp_path / 'locked'}" in r.stdout
    assert "cannot read the folder: Permission denied" in r.stdout
    assert "0 violate, 1 malformed" in r.stdout          # the games of the readable folder are verified


def test_verify_in_parallel_names_a_subfolder_it_cannot_read(tmp_path, locked):
    (tmp_path / "locked").mkdir()
    shutil.copy(LOG, tmp_path / "games.jsonl")
    r = _invoke("verify", tmp_path, "-q", "-j", "2", "--format", "json")
    assert r.exit_code == 2
    assert f'"file":"{tmp_path / "locked"}"' in r.stdout and "UNREADABLE" in r.stdout


def test_verify_names_a_folder_past_the_longest_path(tmp_path):
    shutil.copy(LOG, tmp_path / "games.jsonl")
    deep = _deep(tmp_path)
    for arg in (tmp_path, tmp_path / "**" / "*.jsonl"):
        r = _invoke("verify", arg, "-q")
        assert r.exit_code == 2, r.output
        assert "cannot read the folder: its path is longer than the system takes" in r.stdout
        assert str(deep)[:200] in r.stdout


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_verify_given_a_path_past_the_longest_path_names_it_and_verifies_the_others(tmp_path, jobs):
    shutil.copy(LOG, tmp_path / "games.jsonl")
    deep = _deep(tmp_path)
    for arg in (os.path.join(deep, "games.jsonl"), deep):      # a file, a folder: neither can be looked at
        r = _invoke("verify", tmp_path / "games.jsonl", arg, "-q", "-j", jobs)
        # the other input's games verified, where the run stopped ("cannot go on: File name too long")
        assert r.exit_code == 2 and "0 violate, 1 malformed" in r.stdout, r.output
        assert f"MALFORMED {arg[:100]}" in r.stdout and "cannot read the file: File name too long" in r.stdout


def test_scenarios_name_a_subfolder_they_cannot_read(tmp_path, locked):
    (tmp_path / "locked").mkdir()
    shutil.copy(SCENARIO, tmp_path / "setup.yaml")
    r = _invoke("scenarios", tmp_path)
    assert r.exit_code == 2
    assert f"{tmp_path / 'locked'}: cannot read the folder: Permission denied" in r.stderr
    assert "36 passed" in r.stdout                       # the readable file still runs


def test_scenarios_name_a_folder_past_the_longest_path(tmp_path):
    shutil.copy(SCENARIO, tmp_path / "setup.yaml")
    _deep(tmp_path)
    r = _invoke("scenarios", tmp_path)
    assert r.exit_code == 2
    assert "cannot read the folder: its path is longer than the system takes" in r.stderr


def test_scenarios_given_a_path_past_the_longest_path_name_it_and_run_the_others(tmp_path):
    shutil.copy(SCENARIO, tmp_path / "setup.yaml")
    deep = _deep(tmp_path)
    r = _invoke("scenarios", tmp_path / "setup.yaml", os.path.join(deep, "x.yaml"))
    # where the run stopped at once ("cannot go on: File name too long"), nothing run
    assert r.exit_code == 2 and "36 passed" in r.stdout, r.output
    assert f"{deep}{os.sep}x.yaml: cannot read: File name too long" in r.stderr


# -- names a card file may not take ------------------------------------------------


def _card_file(tmp_path, *names: str, fr: str | None = None) -> Path:
    cards = ", ".join(f'{{name: "{n}", power: {i + 1}}}' for i, n in enumerate(names))
    if fr is not None:
        cards += f', {{name: "Zap Eel", power: 5, names: {{fr: "{fr}"}}}}'
    path = tmp_path / "lab.cards.yaml"
    path.write_text(f"format: mb-cards/1\nset: {{id: hostile-lab, name: Hostile Lab}}\ncards: [{cards}]\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["Gorillion#1", "Spider Owl #1", "Zap#Eel"])
def test_a_name_with_a_copy_mark_is_refused_at_load(tmp_path, name):
    from oracle.games.mindbug.cards.declared import CardFileError, load

    with pytest.raises(CardFileError) as e:
        load(_card_file(tmp_path, name))
    assert (e.value.line, e.value.field) == (3, "cards[0].name")
    assert "a scenario names a card's copies with '#'" in e.value.message


def test_a_french_name_with_a_copy_mark_is_refused_at_load(tmp_path):
    from oracle.games.mindbug.cards.declared import CardFileError, load

    with pytest.raises(CardFileError) as e:
        load(_card_file(tmp_path, "Toad Echo", fr="Anguille #2"))
    assert e.value.field == "cards[1].names.fr" and "'#'" in e.value.message


@pytest.mark.parametrize("name", ["Gorillion#1", "Spider Owl #1"])
@pytest.mark.parametrize("command", [["scenarios", SCENARIO], ["hunt"], ["serve"]])
def test_commands_refuse_a_name_with_a_copy_mark_without_a_traceback(tmp_path, name, command):
    path = _card_file(tmp_path, name)
    r = CliRunner().invoke(main, [*map(str, command), "--cards", str(path)], input="")
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert f"{path}:3: cards[0].name: '{name}': a scenario names a card's copies with '#'" in r.stderr


def test_a_card_file_leaves_the_games_of_other_sets_alone(tmp_path):
    """First Contact's scenarios (the unused pile counted) pass beside a declared set."""
    r = _invoke("scenarios", SCENARIO, "--cards", _card_file(tmp_path, "Gorillion One", "Spider Owlet"))
    assert r.exit_code == 0, r.output
    assert "36 passed, 0 failed" in r.stdout


@pytest.mark.parametrize("name, like, stranger", [
    ("Spider \u041ewl", "Spider Owl", "U+041E CYRILLIC CAPITAL LETTER O"),
    ("Sp\u0131der Owl", "Spider Owl", "U+0131 LATIN SMALL LETTER DOTLESS I"),
    ("Spider OwI", "Spider Owl", None),                   # a capital I for an l
    ("Arachnh\u0456bou", "Spider Owl", "U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("G\u043erillion", "Gorillion", "U+043E CYRILLIC SMALL LETTER O"),
    ("SP\u05dfDER OWL", "Spider Owl", "U+05DF HEBREW LETTER FINAL NUN"),      # in capitals, a look-alike of an l for the I
])
def test_a_name_that_looks_like_a_shipped_card_is_refused(tmp_path, name, like, stranger):
    from oracle.games.mindbug.cards.declared import CardFileError, load

    with pytest.raises(CardFileError) as e:
        load(_card_file(tmp_path, name))
    assert e.value.field == "cards[0].name"
    assert f"looks like a name of {like!r} (a card of the shipped set 'first-contact'" in e.value.message
    assert stranger is None or stranger in e.value.message


def test_two_cards_of_a_file_may_not_look_alike(tmp_path):
    from oracle.games.mindbug.cards.declared import CardFileError, load

    with pytest.raises(CardFileError) as e:
        load(_card_file(tmp_path, "Zap Eel", "Zap E\u0435l"))
    assert e.value.field == "cards[1].name"
    assert "looks like 'Zap Eel' of this file (U+0435 CYRILLIC SMALL LETTER IE looks like 'e')" in e.value.message


def test_names_that_only_resemble_a_card_are_taken(tmp_path):
    from oracle.games.mindbug.cards.declared import load

    decl = load(_card_file(tmp_path, "Spider Owlet", "Gorillon", "Sp\u00efder Cow"))
    assert [c.name for c in decl.cards] == ["Spider Owlet", "Gorillon", "Sp\u00efder Cow"]


def test_the_skeleton_writes_each_look_alike_as_its_prototype():
    from oracle.games.mindbug.cards.lookalike import keys, skeleton

    assert skeleton("\u0405\u0440\u0456d\u0435r") == "Spider"      # Cyrillic S, p, i and e
    assert skeleton("rn") == skeleton("m")                          # a sequence is a prototype
    assert keys("SPIDER OWL") & keys("Spider Owl") and keys("Spider OwI") & keys("Spider Owl")
    assert not keys("Spider Cow") & keys("Spider Owl")


# -- an output that is an input --------------------------------------------------


def _scenarios_with_a_card_file(tmp_path) -> tuple[Path, Path]:
    """A folder of scenarios one of which names a card file (`card_file`) beside the folder."""
    folder = tmp_path / "rulings"
    folder.mkdir()
    cards = tmp_path / "fruit.cards.yaml"
    shutil.copy(ROOT / "examples" / "later-sets.yaml", cards)
    text = (ROOT / "scenarios" / "later-sets.yaml").read_text(encoding="utf-8")
    (folder / "later-sets.yaml").write_text(text.replace("../examples/later-sets.yaml", "../fruit.cards.yaml"),
                                           encoding="utf-8")
    return folder, cards


@pytest.mark.parametrize("kind", ["json", "human", "html"])
def test_scenarios_refuse_to_write_over_a_card_file_a_scenario_names(tmp_path, kind):
    folder, cards = _scenarios_with_a_card_file(tmp_path)
    before = cards.read_bytes()
    r = _invoke("scenarios", folder, "--output", f"{kind}={cards}")
    assert r.exit_code == 2
    assert f"--output {kind}={cards} would overwrite {folder / '..' / 'fruit.cards.yaml'}, an input" in r.stderr
    assert cards.read_bytes() == before


def test_conform_refuses_to_write_over_a_card_file_a_scenario_names(tmp_path):
    folder, cards = _scenarios_with_a_card_file(tmp_path)
    before = cards.read_bytes()
    r = _invoke("conform", "--engine", "true", "--scenarios", folder, "--output", f"json={cards}")
    assert r.exit_code == 2
    assert "would overwrite" in r.stderr and "an input of this run" in r.stderr
    assert cards.read_bytes() == before


def test_the_files_a_scenario_run_reads(tmp_path):
    from oracle.scenarios.loader import files_read

    folder, cards = _scenarios_with_a_card_file(tmp_path)
    (folder / "broken.yaml").write_text("card_file: [unclosed\n", encoding="utf-8")
    read = files_read([folder])
    assert read[:3] == [str(folder), str(folder / "broken.yaml"), str(folder / "later-sets.yaml")]
    assert {os.path.realpath(p) for p in read[3:]} == {str(cards.resolve())}


# -- a newline in a file name -----------------------------------------------------

FORGED = "x\nsummary: 0 games: 0 conform, 0 violate, 0 malformed"
SHOWN = "x\\x0asummary: 0 games"


def _forged(tmp_path):
    """A folder holding inputs whose names carry a newline and a forged summary line."""
    shutil.copy(SCENARIO, tmp_path / "ok.yaml")
    (tmp_path / f"{FORGED}.yaml").write_text("format: mb-scenario/1\nid: [\n", encoding="utf-8")
    (tmp_path / f"{FORGED}.cards").write_text("format: mb-cards/1\nset: {id: z-lab, name: Z}\n"
                                              "cards: [{name: Zed, power: 100}]\n", encoding="utf-8")
    (tmp_path / f"{FORGED}.expect").write_text("format: mb-expect/1\nexpected: [{code: NOPE}]\n", encoding="utf-8")
    (tmp_path / f"{FORGED} locked").mkdir()
    (tmp_path / f"{FORGED}.d").mkdir()
    shutil.copy(LOG, tmp_path / f"{FORGED}.jsonl")
    return tmp_path


@pytest.mark.parametrize("args", [
    ["verify", f"{FORGED}.missing"],                                    # no such file
    ["verify", f"{FORGED}*.none"],                                      # a glob that matches nothing
    ["verify", "."],                                                    # a folder it cannot read
    ["verify", "ok.yaml", "--expect", f"{FORGED}.expect"],              # an expectation file's problem
    ["verify", f"{FORGED}.jsonl", "--output", f"json={FORGED}.jsonl"],  # an output over an input
    ["verify", f"{FORGED}.jsonl", "--output", f"json={FORGED}.d"],      # an output that is a folder
    ["verify", f"{FORGED}.jsonl", "--output", f"json={FORGED}.o", "--output", f"html={FORGED}.o"],
    ["scenarios", f"{FORGED}.yaml"],                                    # a scenario file's problem
    ["scenarios", "ok.yaml", "--cards", f"{FORGED}.cards"],             # a card file's problem
    ["scenarios", "ok.yaml", "--output", f"json={FORGED}.cards", "--cards", f"{FORGED}.cards"],
    ["cards", "--cards", f"{FORGED}.cards"],
    ["perft", "--log", f"{FORGED}.missing", "--depth", "1"],             # a start that cannot be read
])
def test_a_newline_in_a_file_name_is_escaped_in_every_message(tmp_path, monkeypatch, locked, args):
    monkeypatch.chdir(_forged(tmp_path))
    r = CliRunner().invoke(main, args, catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert SHOWN in r.stderr, r.stderr
    assert not any(line.removeprefix("error: ").startswith("summary:") for line in r.stderr.splitlines()), r.stderr
