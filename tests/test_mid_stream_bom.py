"""A byte order mark at the start of a line is read as at the start of a
file: logs joined with `cat`, one of them written with a UTF-8 BOM, verify as
the logs apart do; UTF-16 text joined to a log is unreadable from its line,
and the games before and after it keep their verdicts."""

import io
import json

import pytest
from conftest import ROOT, run_cli

from oracle.replay.reader import BOM, split_games
from oracle.replay.verify import verify_game

LOG = (ROOT / "replays" / "conforming" / "en-first.jsonl").read_bytes()
GAMES = LOG.count(b'"t":"game"')


class Dribble(io.BytesIO):
    """A stream that gives at most `size` bytes a read: a byte order mark
    falls across the blocks the reader reads."""

    def __init__(self, data: bytes, size: int):
        super().__init__(data)
        self.size = size

    def read1(self, n=-1):
        return super().read1(self.size)


def reports(stream) -> list:
    return [verify_game(r) for r in split_games(stream, "<test>")]


def verdicts(data: bytes, size: int | None = None) -> list[tuple]:
    stream = io.BytesIO(data) if size is None else Dribble(data, size)
    return [(r.verdict, r.id, r.line) for r in reports(stream)]


def cli_reports(path, jobs: str) -> bytes:
    r = run_cli("verify", str(path), "--format", "json", "-j", jobs)
    return r.stdout


def test_a_utf8_byte_order_mark_before_a_joined_log_is_skipped():
    joined = LOG + BOM + LOG
    got = verdicts(joined)
    assert [v for v, _, _ in got] == ["conforms"] * 2 * GAMES
    # The same games at the same lines as without the mark.
    assert got == verdicts(LOG + LOG)


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_a_byte_order_mark_across_the_reads_is_skipped_as_well(size):
    start = LOG.index(b'{"t":"state"')
    data = LOG[:start] + BOM + LOG[start:]      # before a line inside a game
    assert verdicts(data, size) == verdicts(LOG)
    assert verdicts(LOG + BOM + LOG, size) == verdicts(LOG + LOG)


def test_one_job_and_two_give_the_same_report_of_joined_logs(tmp_path):
    path = tmp_path / "joined.jsonl"
    path.write_bytes(LOG + BOM + LOG + BOM + LOG)
    one = cli_reports(path, "1")
    assert one == cli_reports(path, "2")
    summary = json.loads(one.splitlines()[-1])
    assert summary["conforms"] == summary["games"] == 3 * GAMES


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be"])
def test_utf16_text_joined_to_a_log_is_unreadable_and_the_games_around_it_keep_their_verdicts(tmp_path, codec):
    text = LOG.decode("utf-8").encode(codec)
    if not text.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = b"\xfe\xff" + text           # utf-16-be writes no mark of its own
    data = LOG + text + LOG
    got = reports(io.BytesIO(data))
    at = LOG.count(b"\n") + 1
    assert [r.verdict for r in got] == ["conforms"] * GAMES + ["malformed"] + ["conforms"] * GAMES
    bad = got[GAMES]
    assert bad.line == at and bad.findings[0].code == "UNREADABLE"
    assert f"from line {at} the input is UTF-16 text" in bad.findings[0].message
    # The games after it are read at their own lines.
    assert [(r.id, r.line - (at - 1) - text.count(b"\n")) for r in got[GAMES + 1:]] == \
        [(r.id, r.line) for r in got[:GAMES]]
    path = tmp_path / "joined.jsonl"
    path.write_bytes(data)
    assert cli_reports(path, "1") == cli_reports(path, "2")


def test_utf16_text_at_a_files_start_is_still_said_as_before():
    [rep] = reports(io.BytesIO(LOG.decode("utf-8").encode("utf-16")))
    assert rep.findings[0].code == "UNREADABLE" and "the file is UTF-16 text" in rep.findings[0].message
