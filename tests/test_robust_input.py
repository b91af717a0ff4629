"""Hostile input: each known way to crash or starve the tool gives a clear
finding or error, and the other games of the stream are still verified."""

import gzip
import io
import json
import subprocess
import sys
import time

import pytest
from conftest import ROOT, run_cli

from oracle import safeyaml
from oracle.replay import limits, reader
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game
from oracle.scenarios.loader import load_text


def selfplay(n, seed, edition="en-revised") -> list[bytes]:
    return list(selfplay_lines(n, seed, edition, "random", "turn"))


GOOD = selfplay(1, 3)
FIRST = selfplay(1, 4, "en-first")


def stream(*games: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for g in games for line in g)


def verdicts(data: bytes):
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<test>")]


def replace_line(game: list[bytes], index: int, new: bytes) -> list[bytes]:
    out = list(game)
    out[index] = new
    return out


def first_state(game: list[bytes]) -> int:
    return next(i for i, line in enumerate(game) if line.startswith(b'{"t":"state"'))


# -- replay logs --------------------------------------------------------------------

def test_invalid_utf8_in_the_game_id_is_malformed_and_the_next_game_conforms():
    bad = replace_line(GOOD, 0, GOOD[0].replace(b'"id":"', b'"id":"\xff', 1))
    reps = verdicts(stream(bad, GOOD))
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert (f.code, f.line) == ("BAD_JSON", 1) and "UTF-8" in f.message


def test_invalid_utf8_in_an_unknown_field_is_malformed_not_a_crash():
    i = first_state(GOOD)
    bad = replace_line(GOOD, i, GOOD[i][:-1] + b',"zz":"\xff"}')
    reps = verdicts(stream(GOOD, bad, GOOD))
    assert [r.verdict for r in reps] == ["conforms", "malformed", "conforms"]
    assert reps[1].findings[0].line == len(GOOD) + i + 1 and "UTF-8" in reps[1].findings[0].message


def test_annotate_reports_invalid_utf8_without_a_traceback(tmp_path):
    path = tmp_path / "bad.jsonl"
    i = first_state(GOOD)
    path.write_bytes(stream(replace_line(GOOD, i, GOOD[i][:-1] + b',"zz":"\xff"}')))
    r = run_cli("annotate", str(path))
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert b"BAD_JSON" in r.stdout and b"UTF-8" in r.stdout


@pytest.mark.parametrize("after", [b'{"t":"a\xbdtivate"}', b'{"t":"note","x":' + b"[" * 1000 + b"]" * 1000 + b"}"],
                         ids=["invalid-utf8", "nested-1000-deep"])
def test_a_line_beyond_the_limits_after_a_wrong_claim_is_read_within_them(after):
    # A wrong claim while the rules wait for a choice of several answers makes
    # the verifier look at the lines after it (does the log skip the choice?):
    # those are read within the limits like any other, not decoded raw.
    j = next(i for i, line in enumerate(GOOD) if line.startswith(b'{"t":"play"'))
    bad = GOOD[:j + 1] + [b'{"t":"state","life":[0,0]}', after] + GOOD[j + 1:]
    reps = verdicts(stream(bad, GOOD))
    assert [r.verdict for r in reps] == ["violates", "conforms"], [f.message for f in reps[0].findings]
    assert reps[0].findings[0].code == "STATE_MISMATCH"


def test_an_end_line_with_invalid_utf8_in_a_game_stopped_early_is_no_crash():
    # A game stopped at its first divergence still says whether its log ends
    # aborted: the end line is read within the limits.
    j = next(i for i, line in enumerate(GOOD) if line.startswith(b'{"t":"play"'))
    bad = GOOD[:j + 1] + [b'{"t":"state","life":[0,0]}'] + GOOD[j + 1:-1] + [b'{"t":"end","winner":0,"reason":"\xff"}']
    reps = verdicts(stream(bad, GOOD))
    assert [r.verdict for r in reps] == ["violates", "conforms"], [f.message for f in reps[0].findings]
    assert all(f.code != "INTERNAL_ERROR" for f in reps[0].findings)


def test_nesting_1000_deep_in_a_line_is_refused_at_the_depth_limit():
    i = first_state(GOOD)
    deep = GOOD[i][:-1] + b',"x":' + b"[" * 1000 + b"]" * 1000 + b"}"
    reps = verdicts(stream(replace_line(GOOD, i, deep), GOOD))
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert f.code == "TOO_LARGE" and f.line == i + 1 and str(limits.MAX_DEPTH) in f.message


def test_nesting_at_the_limit_is_accepted_and_brackets_in_strings_do_not_count():
    at_limit = b'{"t":"note","x":' + b"[" * (limits.MAX_DEPTH - 1) + b"]" * (limits.MAX_DEPTH - 1) + b"}"
    assert limits.nesting_depth(at_limit) == limits.MAX_DEPTH and limits.check_line(at_limit) is None
    over = b'{"t":"note","x":' + b"[" * limits.MAX_DEPTH + b"]" * limits.MAX_DEPTH + b"}"
    assert limits.check_line(over).code == "TOO_LARGE"
    in_string = b'{"t":"note","text":"' + b"[{" * 500 + b'\\"' + b'"}'
    assert limits.nesting_depth(in_string) == 1 and limits.check_line(in_string) is None


def test_life_cards_with_one_pile_is_a_setup_finding_naming_the_field():
    setup = json.loads(FIRST[1])
    setup["life_cards"] = [setup["unused"][:3]]
    bad = replace_line(FIRST, 1, json.dumps(setup).encode())
    reps = verdicts(stream(bad, FIRST))
    # A pair that is not a pair breaks the contract itself (the schema says so too).
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert f.code == "BAD_LINE" and f.line == 2 and "life_cards" in f.message
    setup["life_cards"] = [setup["unused"][:3], setup["unused"][3:5]]
    f = verdicts(stream(replace_line(FIRST, 1, json.dumps(setup).encode())))[0].findings[0]
    assert f.code == "BAD_SETUP" and "field life_cards[1]" in f.message


def test_closed_standard_input_is_a_usage_error():
    r = subprocess.run(["sh", "-c", 'exec "$0" -m oracle verify <&-', sys.executable],
                       capture_output=True, cwd=ROOT)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert b"standard input is closed" in r.stderr


def test_a_50_mb_line_is_skipped_in_chunks_and_reported_for_its_game_only():
    huge = b'{"t":"note","text":"' + b"a" * (50 << 20) + b'"}'
    data = stream(GOOD[:3] + [huge] + GOOD[3:], GOOD)
    games = list(split_games(io.BytesIO(data), "<test>"))
    kept = games[0].lines[3][1]
    assert isinstance(kept, limits.RefusedLine) and len(kept) <= 200
    reps = [verify_game(g) for g in games]
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert f.code == "TOO_LARGE" and f.line == 4 and "MAX_LINE_BYTES" in f.message


def test_a_game_line_over_the_limit_whose_id_is_not_utf8_is_malformed_not_a_crash():
    huge = GOOD[0].replace(b'"id":"', b'"id":"\xff', 1)[:-1] + b',"pad":"' + b"a" * limits.MAX_LINE_BYTES + b'"}'
    reps = verdicts(stream(GOOD, [huge] + GOOD[1:], GOOD))
    assert [r.verdict for r in reps] == ["conforms", "malformed", "conforms"]
    assert reps[1].findings[0].code == "TOO_LARGE" and reps[1].findings[0].line == len(GOOD) + 1


def test_a_line_just_over_the_limit_is_refused_and_one_at_the_limit_is_read():
    pad = limits.MAX_LINE_BYTES - len(b'{"t":"note","text":""}')
    at = b'{"t":"note","text":"' + b"a" * pad + b'"}'
    assert len(at) == limits.MAX_LINE_BYTES
    over = b'{"t":"note","text":"' + b"a" * (pad + 1) + b'"}'
    for line, refused in ((at, False), (over, True)):
        for nl in (b"\n", b"\r\n"):
            games = list(split_games(io.BytesIO(GOOD[0] + nl + line + nl), "<test>"))
            assert isinstance(games[0].lines[1][1], limits.RefusedLine) is refused


def test_a_game_longer_than_the_limit_is_cut_and_the_next_game_is_read(monkeypatch):
    cap = len(GOOD) + 5
    monkeypatch.setattr(reader, "MAX_GAME_LINES", cap)
    long_game = GOOD[:2] + [b'{"t":"note","text":"n"}'] * 100 + GOOD[2:]
    games = list(split_games(io.BytesIO(stream(long_game, GOOD)), "<test>"))
    assert len(games) == 2 and len(games[0].lines) == cap + 1
    reps = [verify_game(g) for g in games]
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert f.code == "TOO_LARGE" and f.line == cap + 1 and "MAX_GAME_LINES" in f.message


def test_lines_outside_any_game_are_reported_in_bounded_groups(monkeypatch):
    monkeypatch.setattr(reader, "MAX_GAME_LINES", 10)
    games = list(split_games(io.BytesIO(b'{"x": 1}\n' * 25 + stream(GOOD)), "<test>"))
    assert [g.kind for g in games] == ["orphan", "orphan", "orphan", "game"]
    assert sum(len(g.lines) for g in games[:3]) == 25
    # Lines none of which is JSON: one group, its first lines kept and the others counted.
    games = list(split_games(io.BytesIO(b"junk\n" * 25 + stream(GOOD)), "<test>"))
    assert (games[0].kind, len(games[0].lines), games[0].more) == ("orphan", 10, 15)
    assert games[1].kind == "game" and games[1].first_line == 26


# -- the input side of the command line -------------------------------------------------

@pytest.mark.parametrize("what", ["empty folder", "folder without logs", "misspelt path", "glob matching nothing"])
def test_an_input_with_no_game_is_a_usage_error_naming_what_was_searched(tmp_path, what):
    folder = tmp_path / "logs"
    folder.mkdir()
    if what == "folder without logs":
        (folder / "notes.txt").write_text("hello")
    arg = {"empty folder": str(folder), "folder without logs": str(folder),
           "misspelt path": str(tmp_path / "gmaes.jsonl"), "glob matching nothing": str(tmp_path / "*.jsnol")}[what]
    r = run_cli("verify", arg)
    assert r.returncode == 2 and r.stdout == b"" and b"Traceback" not in r.stderr
    assert arg.encode() in r.stderr


def test_folders_read_ndjson_and_gzip_logs_and_globs_are_expanded(tmp_path):
    data = stream(GOOD)
    (tmp_path / "a.jsonl").write_bytes(data.replace(b"selfplay", b"a-", 1))
    (tmp_path / "b.ndjson").write_bytes(data.replace(b"selfplay", b"b-", 1))
    (tmp_path / "c.jsonl.gz").write_bytes(gzip.compress(data.replace(b"selfplay", b"c-", 1)))
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "d.ndjson.gz").write_bytes(gzip.compress(data.replace(b"selfplay", b"d-", 1)))
    (tmp_path / "skip.txt").write_bytes(data)
    r = run_cli("verify", str(tmp_path), "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    ids = [json.loads(x)["id"] for x in r.stdout.splitlines()[:-1]]
    assert [i[:2] for i in ids] == ["a-", "b-", "c-", "d-"]
    r = run_cli("verify", str(tmp_path / "*.ndjson*"), "--format", "json")
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[-1])["games"] == 1


def test_gzip_on_standard_input_and_a_corrupt_gzip_file(tmp_path):
    r = run_cli("verify", "-", "--format", "json", input=gzip.compress(stream(GOOD, GOOD)))
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[-1])["conforms"] == 2
    cut = gzip.compress(stream(GOOD, GOOD) * 3)
    (tmp_path / "cut.jsonl.gz").write_bytes(cut[: len(cut) // 2])
    r = run_cli("verify", str(tmp_path / "cut.jsonl.gz"), "--format", "json")
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    last_games = [json.loads(x) for x in r.stdout.splitlines()[:-1]]
    assert last_games[-1]["findings"][0]["code"] == "UNREADABLE"


def test_a_utf8_byte_order_mark_is_accepted():
    reps = verdicts(b"\xef\xbb\xbf" + stream(GOOD))
    assert [r.verdict for r in reps] == ["conforms"]


def test_a_utf16_file_is_named_as_the_problem():
    reps = verdicts(b"\xff\xfe" + stream(GOOD).decode().encode("utf-16-le"))
    assert len(reps) == 1 and reps[0].findings[0].code == "UNREADABLE" and "UTF-16" in reps[0].findings[0].message


# -- expectation files and scenarios -------------------------------------------------

def test_expectation_file_nested_1000_deep_is_an_error_with_the_limit(tmp_path):
    path = tmp_path / "expect.yaml"
    path.write_text("format: mb-expect/1\nexpected: " + "[" * 1000 + "]" * 1000 + "\n")
    r = run_cli("verify", "replays/conforming/en-revised.jsonl", "--expect", str(path))
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert b"expect.yaml:2:" in r.stderr and b"nested deeper than 64" in r.stderr


BOMB = ("format: mb-scenario/1\nid: bomb\na: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)))


@pytest.mark.parametrize("text,line,words", [
    ("format: mb-scenario/1\nid: x\x00\n", 2, "NUL"),
    (BOMB, 7, "MAX_NODES"),
    ("format: mb-scenario/1\nid: deep\nx: " + "[" * 1000 + "]" * 1000 + "\n", 3, "nested deeper than 64"),
    ("format: mb-scenario/1\nid: loop\nx: &a [*a]\n", 3, "recursive alias"),
    ("format: mb-scenario/1\nid: many\n" + "".join(f"k{i}: &a{i} 1\n" for i in range(1))
     + "l: [" + ", ".join(["*a0"] * (safeyaml.MAX_ALIASES + 1)) + "]\n", 4, "MAX_ALIASES"),
])
def test_hostile_scenario_files_give_one_located_error_quickly(text, line, words):
    start = time.monotonic()
    sf = load_text(text, "hostile.yaml")
    assert time.monotonic() - start < 10     # an alias bomb or deep nesting once took hours
    assert not sf.scenarios and len(sf.errors) == 1
    assert sf.errors[0].line == line and words in sf.errors[0].message


def test_a_scenario_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"format: mb-scenario/1\n# " + b"x" * safeyaml.MAX_BYTES + b"\n")
    r = run_cli("scenarios", str(path))
    assert r.returncode == 2 and b"MAX_BYTES" in r.stderr and b"Traceback" not in r.stderr


def test_pytest_collection_of_hostile_scenarios_gives_clean_error_items(tmp_path):
    (tmp_path / "nul.yaml").write_bytes(b"format: mb-scenario/1\nid: x\x00\n")
    (tmp_path / "bomb.yaml").write_text(BOMB)
    (tmp_path / "deep.yaml").write_text("format: mb-scenario/1\nid: deep\nx: " + "[" * 1000 + "]" * 1000 + "\n")
    (tmp_path / "latin1.yaml").write_bytes("format: mb-scenario/1\nid: caf\xe9\n".encode("latin-1"))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
                       capture_output=True, cwd=tmp_path, timeout=120)
    out = r.stdout.decode()
    assert r.returncode == 2 and "Traceback" not in out and "RecursionError" not in out
    assert out.count("ERROR collecting") == 4
    for words in ("NUL character", "MAX_NODES", "nested deeper than 64", "not UTF-8"):
        assert words in out


@pytest.mark.parametrize("field,value", [("deck", [5]), ("mindbugs", [2]), ("life", [3]), ("hand", [[1]]),
                                         ("play", [[]]), ("discard", [[], [], []])])
def test_keep_going_never_resumes_from_a_claim_whose_pairs_are_not_pairs(field, value):
    lines = [json.loads(x) for x in selfplay_lines(1, 5, "en-revised", "random", "every")]
    attack = next(i for i, d in enumerate(lines) if d["t"] == "attack")
    lines[attack]["p"] = 1 - lines[attack]["p"]          # a violation
    for d in lines[attack + 1:]:
        if d["t"] == "state":
            d[field] = value                              # every later full claim is misshapen
    data = b"".join(json.dumps(d).encode() + b"\n" for d in lines)
    rep = [verify_game(r, None, True) for r in split_games(io.BytesIO(data), "<test>")][0]
    assert [f.code for f in rep.findings] == ["ILLEGAL_DECISION", "BAD_LINE"]
    assert rep.verdict == "malformed" and f"field {field}:" in rep.findings[1].message
    assert not any("resumed" in n for n in rep.notes)


@pytest.mark.parametrize("field,value", [("play", [[], [], []]), ("hand", [[1]]), ("life", [3, 3, 3])])
def test_a_claim_whose_pair_is_not_a_pair_is_a_bad_line_not_a_crash(field, value):
    i = first_state(GOOD)
    claim = json.loads(GOOD[i])
    claim[field] = value
    reps = verdicts(stream(replace_line(GOOD, i, json.dumps(claim).encode()), GOOD))
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert (f.code, f.line) == ("BAD_LINE", i + 1) and f"field {field}:" in f.message


def test_a_loader_bug_is_still_one_clean_collection_error(tmp_path):
    (tmp_path / "ok.yaml").write_text("format: mb-scenario/1\nid: x\n")
    conftest = tmp_path / "conftest.py"
    conftest.write_text("import oracle.scenarios.loader as l\n"
                        "def boom(path):\n    raise KeyError('planted')\n"
                        "l.load_file = boom\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
                       capture_output=True, cwd=tmp_path, timeout=120)
    out = r.stdout.decode()
    assert r.returncode == 2 and "ERROR collecting" in out and "KeyError: 'planted'" in out
    assert "Traceback" not in out


def test_a_lone_surrogate_escape_is_named_not_called_truncated():
    i = first_state(GOOD)
    bad = replace_line(GOOD, i, GOOD[i][:-1] + b',"zz":"\\ud800"}')
    reps = verdicts(stream(bad, GOOD))
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert f.code == "BAD_JSON" and "surrogate" in f.message and "truncated" not in f.message


# -- files that never end ---------------------------------------------------------
# A device or a pipe given where a file is read may never end: every reader
# takes at most its limit of it (safeyaml.MAX_BYTES, MAX_LINE_BYTES).

NEVER_ENDS = [
    (("verify", "--expect", "/dev/zero", "replays/conforming"), "larger than 1048576 bytes"),
    (("verify", "--cards", "/dev/zero", "replays/conforming"), "larger than 1048576 bytes"),
    (("selfplay", "--cards", "/dev/urandom", "--games", "1"), "larger than 1048576 bytes"),
    (("perft", "--depth", "1", "--log", "/dev/zero"), "/dev/zero:1: the line is longer than 1048576 bytes"),
]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /dev/zero and /dev/urandom (Linux)")
@pytest.mark.parametrize("args,said", NEVER_ENDS)
def test_a_file_that_never_ends_is_refused_at_its_limit(args, said):
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "oracle", *args], capture_output=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and time.monotonic() - start < 30
    err = r.stderr.decode()
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_replay_log_line_too_long_is_refused_where_a_deal_is_read_without_a_length_it_did_not_count(tmp_path):
    log = tmp_path / "long.jsonl"
    # a line of blanks past the limit, then a game line on the same line: one line, too long
    log.write_bytes(b" " * 3_000_000 + b'{"t":"game","format":"mb-replay/1","id":"x"}\n')
    r = run_cli("perft", "--depth", "1", "--log", str(log))
    err = r.stderr.decode()
    assert r.returncode == 2 and err == f"error: {log}:1: the line is longer than 1048576 bytes, the limit " \
        "(MAX_LINE_BYTES)\n", err


def test_a_replay_log_nested_too_deep_is_refused_where_a_deal_is_read(tmp_path):
    log = tmp_path / "deep.jsonl"
    log.write_text('{"t":"game","format":"mb-replay/1","id":"x","x":' + "[" * 3000 + "]" * 3000 + "}\n")
    r = run_cli("perft", "--depth", "1", "--log", str(log))
    assert r.returncode == 2 and b"nest 3001 levels deep" in r.stderr and b"Traceback" not in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /dev/zero (Linux)")
def test_scenarios_name_a_device_as_not_a_file_and_read_nothing_from_it():
    r = run_cli("scenarios", "/dev/zero")
    assert r.returncode == 2 and b"not a file or a folder" in r.stderr, r.stderr


# -- game lines that do not decode --------------------------------------------------

@pytest.mark.parametrize("old,new", [
    (b'"edition":', b'"x":NaN,"edition":'),                  # not JSON: a bare NaN
    (b'"id":"', b'"id":"\\udc00'),                             # a lone surrogate escape
    (b'"impl":', b'"impl":{"name":"\xff"},"more":'),          # not UTF-8
])
def test_a_game_line_that_does_not_decode_starts_a_malformed_game_of_its_own(old, new):
    bad = replace_line(GOOD, 0, GOOD[0].replace(old, new, 1))
    reps = verdicts(stream(GOOD, bad, GOOD))
    assert [r.verdict for r in reps] == ["conforms", "malformed", "conforms"]
    assert reps[1].line == len(GOOD) + 1 and reps[1].findings[0].code == "BAD_JSON"
    assert reps[1].findings[0].line == len(GOOD) + 1


def test_a_game_line_whose_id_reads_is_named_by_it_though_the_line_does_not_decode(tmp_path):
    bad = replace_line(GOOD, 0, GOOD[0].replace(b'"id":"', b'"x":NaN,"id":"broken-', 1))
    log = tmp_path / "g.jsonl"
    log.write_bytes(stream(GOOD, bad, GOOD))
    outs = [run_cli("verify", str(log), "--format", "json", *jobs) for jobs in ((), ("-j", "2"))]
    assert outs[0].stdout == outs[1].stdout
    games = [json.loads(line) for line in outs[0].stdout.splitlines()][:-1]
    assert [(g["verdict"], g["id"].startswith("broken-")) for g in games] == \
        [("conforms", False), ("malformed", True), ("conforms", False)]


def test_a_cut_short_game_line_of_mind_up_is_a_malformed_game_of_mind_up(tmp_path):
    """A Mind Up! game line cut short starts a malformed game that its own
    verifier words (not Mindbug's, which would refuse the game it names)."""
    log = tmp_path / "cut.jsonl"
    log.write_bytes(stream(GOOD, [b'{"t":"game","game":"mind-up","format":"mu-replay/1","id":"cut-sh'], GOOD))
    out = run_cli("verify", str(log), "--format", "json")
    games = [json.loads(line) for line in out.stdout.splitlines()][:-1]
    assert [g["verdict"] for g in games] == ["conforms", "malformed", "conforms"]
    cut = games[1]
    assert cut.get("game") == "mind-up" and cut["findings"][0]["code"] == "BAD_JSON"
    assert "enum" not in cut["findings"][0]["message"]


def test_a_game_line_with_a_letter_of_game_escaped_starts_a_game():
    second = selfplay(1, 5)
    escaped = replace_line(second, 0, second[0].replace(b'"t":"game"', b'"t":"g\\u0061m\\u0065"', 1))
    reps = verdicts(stream(GOOD, escaped, GOOD))
    assert [r.verdict for r in reps] == ["conforms", "conforms", "conforms"]
    assert reps[1].line == len(GOOD) + 1


def test_a_card_id_key_that_is_not_a_number_names_the_field_cards():
    setup = next(i for i, line in enumerate(GOOD) if line.startswith(b'{"t":"setup"'))
    bad = replace_line(GOOD, setup, GOOD[setup].replace(b'{"1":', b'{"01":', 1))
    reps = verdicts(stream(bad, GOOD))
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    f = reps[0].findings[0]
    assert (f.code, f.line) == ("BAD_LINE", setup + 1) and f.message.startswith("field cards (a key): ")
