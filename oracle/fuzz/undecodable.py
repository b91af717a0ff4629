"""File names that are not UTF-8: the fuzz target `undecodable-names`.

A real game is written to a folder under a name holding bytes that are not
UTF-8 (a lone 0xff, a lead byte without its follower, a control character
beside them); an expectation file may be named so too. Every report must
write the name as the human report does (each such byte a visible escape,
`bad\\udcff.jsonl`: `oracle.term.visible` of the name as `os.fsdecode` gives
it; in JSON, the other characters as JSON escapes, `surrogates_visible`),
and every game must get its verdict: no report may end in a traceback.
"""

from __future__ import annotations

import json
import os
import tempfile

from hypothesis import strategies as st

from ..term import surrogates_visible, visible

# Bytes that are not UTF-8 by themselves, and a control character among them.
NOT_UTF8 = (b"\xff", b"\xfe", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82")
FORMATS = ("json", "human", "junit", "html")
_EXPECT = b"format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n"


@st.composite
def name_case(draw, games: tuple) -> tuple[bytes, bytes, bool]:
    """(a log's file name, the log, whether an expectation file is named so too)."""
    parts = draw(st.lists(st.sampled_from((*NOT_UTF8, b"bad", b"g\xc3\xa9", b"\x1b[31m", b" ")), min_size=1,
                          max_size=4))
    if not any(p in NOT_UTF8 for p in parts):
        parts.append(draw(st.sampled_from(NOT_UTF8)))
    game = draw(st.sampled_from(games))
    return b"".join(parts) + b".jsonl", b"".join(x + b"\n" for x in game), draw(st.booleans())


def _files(tmp: str, case) -> tuple[str, str, str | None]:
    """The folder holding the log, the log's path and the expectation file's, as str (os.fsdecode)."""
    name, data, expect = case
    folder = os.path.join(tmp, "logs")
    os.mkdir(folder)
    log = os.path.join(os.fsencode(folder), name)
    with open(log, "wb") as f:
        f.write(data)
    exp = None
    if expect:
        exp = os.path.join(os.fsencode(tmp), name.replace(b".jsonl", b".yaml"))
        with open(exp, "wb") as f:
            f.write(_EXPECT)
    return folder, os.fsdecode(log), None if exp is None else os.fsdecode(exp)


def check_names(tally, case) -> None:
    """In process: the JSON and human reports of each game, and the JSON
    summary, name the files escaped, and each game has a verdict."""
    from ..replay import report as render
    from ..replay.parallel import Options, iter_reports
    from ..replay.reader import read_all

    with tempfile.TemporaryDirectory() as tmp:
        folder, log, exp = _files(tmp, case)
        games = sum(1 for _ in read_all((folder,)))
        reps = list(iter_reports((folder,), Options(), jobs=1))
    tally.games_in += games
    tally.verdicts_out += len(reps)
    assert len(reps) == games, f"names: {len(reps)} verdicts for {games} games"
    shown = visible(log)
    for rep in reps:
        assert json.loads(render.json_game(rep))["file"] == surrogates_visible(log), \
            "names: the JSON report names the file otherwise"
        assert f"{shown}:{rep.line}" in render.human_game(rep), "names: the human report names the file otherwise"


def cli_names(tally, case, seconds: float) -> None:
    """Through the command line: verify in every format (and with --expect
    naming such a file, and -j 2), exit 0, 1 or 2 without a traceback, the
    name escaped in the report."""
    from .cli_checks import cli_problem, run_cli

    name, data, _ = case
    with tempfile.TemporaryDirectory() as tmp:
        folder, log, exp = _files(tmp, case)
        runs = [(fmt, ["verify", folder, "--format", fmt]) for fmt in FORMATS]
        runs.append(("json", ["verify", folder, "--format", "json", "-j", "2", *(["--expect", exp] if exp else [])]))
        for fmt, args in runs:
            tally.cli_runs += 1
            r = run_cli(args, seconds * 2)
            if cli_problem(tally, "cli-names", data, ".jsonl", r):
                return
            text = r.stdout.decode("utf-8", "replace")
            shown = visible(log)
            want = json.dumps(surrogates_visible(log), ensure_ascii=False)[1:-1] if fmt in ("json", "html") else shown
            if want not in text:
                tally.add("count", "cli-names", f"cli-names: --format {fmt} names the file otherwise",
                          f"{shown!r} not in the report", data, ".jsonl")
