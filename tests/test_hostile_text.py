"""Text from the input never reaches a terminal as control codes.

Every kind of field a person sees quoted (game ids, unknown field names,
the keyword and card names of a state claim, expectation entries, scenario
titles and keys, card-file names, `show`'s game id, command-line values)
is given a string that would set a terminal's title, clear its screen,
reverse the text's direction or hide characters, and each command's
standard output and standard error are checked: that string is shown as
visible escapes, and no control, format or line-separator character of
the input reaches either stream.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata

import pytest
from conftest import run_cli

from oracle.games.mindbug.fuzz.corpus import MINIMAL_SCENARIO
from oracle.junit import clean_line
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.term import visible

# Sets the window title, clears the screen, a one-byte CSI, a carriage
# return, a right-to-left override, an isolate, zero-width characters, the
# line and paragraph separators, a tag character.
HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\r\u202e\u2066\u200b\u200d\ufeff\u2028\u2029\U000e0041end"
SHOWN = visible(HOSTILE)
# In YAML: a double-quoted string reads these escapes back as the characters.
YAML_HOSTILE = f'"{SHOWN}"'


def _hidden(text: str) -> list[str]:
    """The characters of `text` a terminal would act on or hide (newlines
    between lines of output excepted)."""
    return sorted({f"U+{ord(c):04X}" for c in text
                   if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")})


# The colours of the report itself (with --color always).
_SGR = re.compile("\x1b\\[[0-9;]*m")


def check(proc, where: str = "either") -> str:
    """Both streams clean (JSON too: its escapes keep every value whole);
    the hostile string shown escaped in one of them."""
    out = _SGR.sub("", proc.stdout.decode("utf-8", "surrogateescape"))
    err = proc.stderr.decode("utf-8", "surrogateescape")
    assert not _hidden(out), (_hidden(out), out[-3000:])
    assert not _hidden(err), (_hidden(err), err[-3000:])
    both = {"stdout": out, "stderr": err, "either": out + err}[where]
    assert "\\x1b]0;PWNED\\x07" in both, (out[-2000:], err[-2000:])
    return out + err


@pytest.fixture(scope="module")
def game() -> list[dict]:
    return [json.loads(line) for line in selfplay_lines(1, 1, "en-revised", "random", "turn")]


def _write(path, lines: list[dict]) -> str:
    path.write_text("".join(json.dumps(d) + "\n" for d in lines), encoding="utf-8")
    return str(path)


def _hostile_claim(game: list[dict]) -> list[dict]:
    """The game with its id, an unknown field name and the names in its first
    state claim with a creature in play made hostile."""
    out = [dict(d) for d in game]
    out[0]["id"] = "g" + HOSTILE
    out[0][HOSTILE] = 1
    for i, d in enumerate(out):
        if d["t"] == "state" and any(d["play"]):
            d = json.loads(json.dumps(d))
            side = 0 if d["play"][0] else 1
            d["play"][side][0]["keywords"] = [HOSTILE]
            d["hand"][0][0] = "c" + HOSTILE
            out[i] = d
            break
    return out


def test_visible_escapes_every_control_format_and_separator_character():
    every = [chr(c) for c in range(sys.maxunicode + 1)
             if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp", "Cs")]
    shown = visible("".join(every))
    assert not _hidden(shown)
    assert visible(shown) == shown                 # escaping twice changes nothing
    assert visible("Arachnhibou, Spider Owl é 🐝") == "Arachnhibou, Spider Owl é 🐝"
    assert visible("a\nb\tc", lines=True) == "a\nb\\x09c" and visible("a\nb") == "a\\x0ab"
    assert visible("\r\x9b\u202e\U000e0041") == "\\x0d\\x9b\\u202e\\U000e0041"
    assert not _hidden(clean_line(HOSTILE))        # JUnit's one-line fields use the same escaping


def test_verify_unknown_field_note_ids_and_claim_names(tmp_path, game):
    log = _write(tmp_path / "g.jsonl", _hostile_claim(game))
    for args in ((), ("--strict",), ("--keep-going",), ("--statistics", "-q")):
        text = check(run_cli("verify", log, "--color", "never", *args), "stdout")
        if not args:
            assert "ignored: " + SHOWN in text                   # the note on unknown fields
            assert "differs:    c" + SHOWN in text               # a card name quoted from the claim
            assert "keywords " + visible(HOSTILE.upper()) in text   # a keyword quoted from the claim
        if args == ("--strict",):
            assert "UNKNOWN_FIELD" in text
    check(run_cli("verify", log, "--color", "always"), "stdout")   # colour on: only the report's own codes
    check(run_cli("verify", log, "--format", "junit"), "stdout")


def test_json_reports_keep_every_value_whole_as_json_escapes(tmp_path, game):
    """A JSON report written to a terminal acts on nothing either: what a
    terminal would act on or hide is a JSON escape, the value read back whole."""
    log = _write(tmp_path / "g.jsonl", _hostile_claim(game))
    for args in ((), ("-j", "2"), ("--keep-going",)):
        p = run_cli("verify", log, "--format", "json", *args)
        out = p.stdout.decode("utf-8")
        assert not _hidden(out), _hidden(out)
        assert json.loads(out.splitlines()[0])["id"] == "g" + HOSTILE
    failing = tmp_path / "failing.yaml"
    failing.write_text(_scenario(YAML_HOSTILE), encoding="utf-8")
    p = run_cli("scenarios", str(failing), "--format", "json")
    out = p.stdout.decode("utf-8")
    assert p.returncode == 1 and not _hidden(out), _hidden(out)
    assert json.loads(out)["results"][0]["title"] == HOSTILE


def test_verify_expectations_stale_and_broken(tmp_path, game):
    log = _write(tmp_path / "g.jsonl", game)
    stale = tmp_path / "stale.yaml"
    stale.write_text(f"format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    game: {YAML_HOSTILE}\n",
                     encoding="utf-8")
    text = check(run_cli("verify", log, "--expect", str(stale), "--color", "never"), "stderr")   # a warning
    assert "stale expectation" in text
    check(run_cli("verify", log, "--expect", str(stale), "--format", "json"), "stderr")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    {YAML_HOSTILE}: 1\n",
                      encoding="utf-8")
    p = run_cli("verify", log, "--expect", str(broken))
    assert p.returncode == 2
    check(p, "stderr")


def test_show_game_ids_in_messages(tmp_path, game):
    log = _write(tmp_path / "g.jsonl", _hostile_claim(game))
    p = run_cli("show", log, "--game", "other" + HOSTILE)      # no such game: the ids it holds are listed
    assert p.returncode == 2
    assert "games in it" in check(p, "stderr")
    p = run_cli("show", log, "-o", str(tmp_path / "page.html"))
    assert p.returncode == 0
    assert "wrote " in check(p, "stderr")


def test_show_writes_a_page_to_a_terminal_without_its_control_characters(tmp_path, game):
    log = _write(tmp_path / ("g" + HOSTILE.replace("/", "") + ".jsonl"), _hostile_claim(game))
    p = run_cli("show", log)                       # the page on standard output: the title, the inputs, the data
    assert p.returncode == 0
    check(p, "stdout")


def _scenario(title: str) -> str:
    """The fuzz corpus's scenario with another title, expecting a life total the rules do not give."""
    text = MINIMAL_SCENARIO.replace("title: An unblocked attack costs a life", f"title: {title}")
    return text.replace("id: fuzz.seed", "id: hostile.title").replace("- {life: 2}", "- {life: 9}")


def test_scenario_titles_ids_and_unknown_keys(tmp_path):
    failing = tmp_path / "failing.yaml"
    failing.write_text(_scenario(YAML_HOSTILE), encoding="utf-8")
    p = run_cli("scenarios", str(failing), "--color", "never")
    assert p.returncode == 1
    check(p, "stdout")
    odd = tmp_path / "odd.yaml"
    odd.write_text(_scenario("t") + f"{YAML_HOSTILE}: 1\n", encoding="utf-8")
    p = run_cli("scenarios", str(odd))
    assert p.returncode == 2
    assert "unknown key" in check(p, "stderr")      # a problem in the file: standard error
    p = run_cli("perft", "--depth", "1", "--scenario", str(failing), "--id", "x" + HOSTILE)
    assert p.returncode == 2
    check(p, "stderr")


def test_card_file_names_in_every_reader(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("format: mb-cards/1\nset: {id: lab, name: Lab}\ncards:\n"
                     f"  - name: {YAML_HOSTILE}\n    power: 3\n    keywords: [{YAML_HOSTILE}]\n", encoding="utf-8")
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in selfplay_lines(1, 1, "en-revised", "random", "turn")))
    for args in (("verify", "--cards", str(cards), str(log)), ("selfplay", "--cards", str(cards)),
                 ("scenarios", "--cards", str(cards), str(tmp_path)), ("hunt", "--cards", str(cards)),
                 ("serve", "--cards", str(cards))):
        p = run_cli(*args, input=b"")
        assert p.returncode == 2, args
        check(p, "stderr")


def test_command_line_values_in_usage_errors(tmp_path):
    for args in (("cards", "x" + HOSTILE), ("verify", str(tmp_path / HOSTILE)), ("clauses", "x" + HOSTILE),
                 ("verify", "--reading", HOSTILE, str(tmp_path))):
        p = run_cli(*args)
        assert p.returncode == 2, args
        check(p, "stderr")


def test_the_check_itself_sees_raw_text():
    """The checker of this module fails on what the unescaped paths printed."""
    assert _hidden("note: ignored: " + HOSTILE)
    assert re.search(r"U\+001B", " ".join(_hidden(HOSTILE)))


def test_card_file_ability_texts_in_the_card_list(tmp_path):
    """Names with such characters are refused when a card file loads; an
    ability's text is not, and `cards` shows it escaped (JSON: as escapes)."""
    cards = tmp_path / "cards.yaml"
    cards.write_text("format: mb-cards/1\nset: {id: lab, name: Lab}\ncards:\n  - name: Zap Eel\n    power: 5\n"
                     "    abilities:\n      - {trigger: play, effect: defeat, target: {side: enemy, power_max: 4}, "
                     f"text: {YAML_HOSTILE}}}\n", encoding="utf-8")
    p = run_cli("cards", "--cards", str(cards), "--set", "lab")
    assert p.returncode == 0, p.stderr
    check(p, "stdout")
    p = run_cli("cards", "--cards", str(cards), "--set", "lab", "--json")
    assert p.returncode == 0 and not _hidden(p.stdout.decode("utf-8", "surrogateescape")), p.stdout
    assert json.loads(p.stdout)[0]["ability"] == HOSTILE
