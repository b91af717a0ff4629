"""A key given twice in one object of a log line (the decoder keeps the
last value): a note on the game, under --strict a DUPLICATE_KEY finding
(malformed), the same from the fast lane and the full verifier; ordinary
lines are settled without being read again (oracle.replay.twice)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from oracle.games.mindbug.replay import format as fmt
from oracle.replay import twice
from oracle.replay.reader import RawGame
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game


def _game(seed: int = 3) -> list[bytes]:
    lines = list(selfplay_lines(1, seed, "en-revised", "random", "turn"))
    return lines


def _with(lines, k, new) -> list[bytes]:
    return [new if i == k else line for i, line in enumerate(lines)]


def _first(lines, kind: bytes) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(b'{"t":"' + kind + b'"'))


@pytest.mark.parametrize("line", [
    b'{"t":"pass","p":1,"p":0}', b'{"t":"pass","p" :1,"p":0}', b'{"t":"pass","p"\t:1, "p":0}',
    b'{"t":"pass","\\u0070":1,"p":0}', b'{"t":"state","life":[3,3],"life":[1,1]}',
    b'{"t":"state","play":[[{"card":1,"exhausted":false,"card":2}],[]]}',
    b'{"t":"game","format":"mb-replay/1","id":"x\\":","id":"y"}',
])
def test_a_key_given_twice_is_found_however_the_line_is_written(line):
    assert twice.given_twice(line, fmt.decoder.decode(line)) != []


@pytest.mark.parametrize("line", [
    b'{"t":"pass","p":1}', b'{"t": "pass", "p": 1}', b'{"t":"game","format":"mb-replay/1","id":"x\\":y"}',
    b'{"t":"state","play":[[{"card":1,"exhausted":false},{"card":2,"exhausted":false}],[]]}',
])
def test_a_line_with_each_key_once_has_none_twice(line):
    assert twice.given_twice(line, fmt.decoder.decode(line)) == []


def _play_twice(lines):
    k = _first(lines, b"play")
    p = json.loads(lines[k])["p"]
    return _with(lines, k, lines[k][:-1] + f',"p":{p}}}'.encode()), k + 1


@pytest.mark.parametrize("strict", [False, True])
def test_a_decision_line_with_a_key_twice_is_a_note_or_under_strict_a_finding(strict):
    lines, lineno = _play_twice(_game())
    raw = RawGame("<test>", [(i + 1, line) for i, line in enumerate(lines)])
    rep = verify_game(raw, strict=strict)
    said = f"line {lineno}: keys given twice in one object, the last value taken: p"
    if strict:
        assert rep.verdict == "malformed" and rep.findings[0].code == "DUPLICATE_KEY"
        assert rep.findings[0].line == lineno
    else:
        assert rep.verdict == "conforms" and said in rep.notes


@pytest.mark.parametrize("kind,key,given", [
    (b"game", "id", b'"id":"other","id":'), (b"game", "sets", b'"sets":[],"sets":'),
    (b"setup", "unused", b'"unused":[],"unused":'), (b"setup", "unused", b'"unused" :[],"unused":'),
    (b"setup", "cards", b'"cards":{"1":"Axolotl Healer"},"cards":'),
])
def test_a_game_or_setup_line_with_a_key_twice_is_a_note_too(kind, key, given):
    lines = _game()
    k = _first(lines, kind)
    lines = _with(lines, k, lines[k].replace(f'"{key}":'.encode(), given, 1))
    raw = RawGame("<test>", [(i + 1, line) for i, line in enumerate(lines)])
    said = f"line {k + 1}: keys given twice in one object, the last value taken: {key}"
    assert said in verify_game(raw).notes
    assert verify_game(raw, strict=True).findings[0].code == "DUPLICATE_KEY"


def test_the_command_line_says_it_with_and_without_strict(tmp_path):
    lines, lineno = _play_twice(_game())
    log = tmp_path / "twice.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in lines))
    plain = run_cli("verify", str(log))
    assert plain.returncode == 0 and b"keys given twice in one object" in plain.stdout, plain.stdout
    strict = run_cli("verify", str(log), "--strict", "--format", "json")
    rep = json.loads(strict.stdout.splitlines()[0])
    assert strict.returncode == 2 and rep["findings"][0]["code"] == "DUPLICATE_KEY"


def test_ordinary_lines_are_never_read_again(monkeypatch):
    read_again = []
    monkeypatch.setattr(twice, "_read_twice", lambda raw: read_again.append(raw) or [])
    lines = list(selfplay_lines(30, 9, "en-revised", "random", "every"))
    spaced = [json.dumps(json.loads(line)).encode() for line in lines]       # another writer's layout
    for form in (lines, spaced):
        for line in form:
            assert twice.given_twice(line, fmt.decoder.decode(line)) == []
    assert read_again == []


@pytest.mark.parametrize("kind,key,given", [
    (b"game", "id", b'"id":"other","id":'), (b"turn", "cards", b'"cards":[1,2,3],"cards":'),
    (b"state", "pile", b'"pile":3,"pile":'),
])
def test_a_mind_up_line_with_a_key_twice_is_a_note_or_under_strict_a_finding(kind, key, given):
    """mu-replay/1 logs are held to the same rule (spec/mind-up/replay-format.md:
    the codes of spec/replay-format.md hold unchanged)."""
    from oracle.games.mindup.replay.selfplay import selfplay_lines as mind_up_lines

    lines = list(mind_up_lines(1, 3, 3, "random", 0, "every"))
    k = _first(lines, kind)
    lines = _with(lines, k, lines[k].replace(f'"{key}":'.encode(), given, 1))
    raw = RawGame("<test>", [(i + 1, line) for i, line in enumerate(lines)])
    said = f"line {k + 1}: keys given twice in one object, the last value taken: {key}"
    plain = verify_game(raw)
    assert plain.verdict == "conforms" and said in plain.notes
    strict = verify_game(raw, strict=True)
    assert strict.verdict == "malformed" and [(f.code, f.line) for f in strict.findings] == [("DUPLICATE_KEY", k + 1)]
