"""The HTML report of games that cannot be read twice (standard input, a
pipe given as a path): the same page, boards included, as for the same
bytes read from a file, whatever the number of jobs; and drawing the
boards never takes bytes the run has yet to read."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import threading

import pytest

from html_pages import game_data, game_index
from conftest import ROOT, run_cli

# Every sample game twice: 1.4 MB, so that `-j 2` cuts standard input into
# more than one share (oracle.replay.shares.STREAM_SHARE is 1 MB).
_LOGS = sorted((ROOT / "replays/violations").glob("*.jsonl")) + sorted((ROOT / "replays/conforming").glob("*.jsonl"))
STREAM = b"".join(p.read_bytes() for p in _LOGS) * 2


def _named(html: str, name: str) -> str:
    """The page with the input's name (as text and inside the game data) and
    the command line it quotes taken out."""
    html = re.sub(r"mb-oracle verify [^<]*", "", html)
    for form in (name.replace("<", "&lt;").replace(">", "&gt;"), name.replace("<", "\\u003c")):
        html = html.replace(form, "INPUT")
    return html


@pytest.fixture(scope="module")
def file_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("file")
    log = tmp / "games.jsonl"
    log.write_bytes(STREAM)
    out = tmp / "file.html"
    r = run_cli("verify", str(log), "-q", "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    return out.read_text(encoding="utf-8"), str(log)


@pytest.mark.parametrize("workers", [("-j", "1"), ("-j", "2"), ("--cluster", "local:2")])
def test_the_page_of_games_from_standard_input_is_the_page_of_the_same_file(tmp_path, file_page, workers):
    if workers[0] == "--cluster":
        pytest.importorskip("distributed", reason="dask.distributed is missing: pip install 'mb-oracle[cluster]'")
    html, path = file_page
    out = tmp_path / "stdin.html"
    r = run_cli("verify", "-", "-q", *workers, "--output", f"html={out}", input=STREAM)
    assert r.returncode == 1, r.stderr.decode()
    page = out.read_text(encoding="utf-8")
    # standard input is named as in the text report, `<stdin>`, in the inputs and in each game
    assert "<code>&lt;stdin&gt;</code>" in page
    assert {row["file"] for row in game_index(page)} == {"<stdin>"}
    assert _named(page, "<stdin>") == _named(html, path)


def test_a_failing_game_from_standard_input_is_shown_on_its_board(tmp_path):
    log = (ROOT / "replays/violations/sneaky-block.jsonl").read_bytes()
    r = run_cli("verify", "-", "--format", "html", input=log)
    assert r.returncode == 1, r.stderr.decode()
    (d,) = game_data(r.stdout.decode("utf-8")).values()
    assert d["report"]["verdict"] == "violates" and d["report"]["file"] == "<stdin>"
    assert d["steps"] and "no_board" not in d
    (finding,) = d["report"]["findings"]
    assert d["steps"][d["at"][0]]["line"] <= finding["line"]
    assert [n for n, _ in d["log"]] == list(range(1, len(log.splitlines()) + 1))


def test_gzip_compressed_standard_input_gives_the_same_report_whatever_the_jobs():
    packed = gzip.compress(STREAM)
    reports = []
    for jobs in ("1", "2"):
        r = run_cli("verify", "-", "-j", jobs, "--format", "json", input=packed)
        assert r.returncode == 1, r.stderr.decode()
        reports.append(r.stdout)
    assert reports[0] == reports[1]
    assert json.loads(reports[0].splitlines()[-1])["games"] == STREAM.count(b'"t":"game"')


def test_standard_input_that_is_not_utf8_still_gives_the_page(tmp_path):
    log = (ROOT / "replays/violations/sneaky-block.jsonl").read_bytes()
    broken = log.replace(b'"t":"state"', b'"t":"st\xff\xfete"', 1) + b"\xff\xfe\x00 not a line\n"
    log_file = tmp_path / "broken.jsonl"
    log_file.write_bytes(broken)
    pages = []
    for source, name in (("-", "<stdin>"), (str(log_file), str(log_file))):
        out = tmp_path / "page.html"
        r = run_cli("verify", source, "--output", f"html={out}", input=broken if source == "-" else None)
        assert r.returncode == 2 and b"Traceback" not in r.stderr, r.stderr.decode()
        pages.append(_named(out.read_text(encoding="utf-8"), name))
    assert pages[0] == pages[1]
    malformed = [d for d in game_data(pages[0]).values() if d["report"]["verdict"] == "malformed"]
    assert malformed and malformed[0]["steps"], "a malformed game with a deal is still drawn up to where it breaks"


def test_closed_standard_input_is_one_line_and_no_page(tmp_path):
    out = tmp_path / "page.html"
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", "-", "--output", f"html={out}"], cwd=ROOT,
                       capture_output=True, preexec_fn=lambda: os.close(0))
    assert r.returncode == 2
    assert r.stderr.decode().strip() == "error: standard input is closed; give PATHS or pipe a log in"
    assert not out.exists()


def _fifo_with(tmp_path, data: bytes):
    fifo = tmp_path / "games.pipe"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return fifo, writer


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_pipe_given_as_a_path_is_read_once_and_its_games_get_their_boards(tmp_path, file_page, jobs):
    html, path = file_page
    fifo, writer = _fifo_with(tmp_path, STREAM)
    out = tmp_path / "pipe.html"
    r = run_cli("verify", str(fifo), "-q", "-j", jobs, "--output", f"html={out}")
    writer.join(timeout=30)
    assert r.returncode == 1, r.stderr.decode()
    # the boards take no bytes from the pipe: every game is verified, as from the file
    assert _named(out.read_text(encoding="utf-8"), str(fifo)) == _named(html, path)


def test_the_log_source_never_opens_a_pipe_again(tmp_path):
    from oracle.replay.verify import GameReport
    from oracle.report.source import LogSource

    fifo = tmp_path / "nobody-writes.pipe"
    os.mkfifo(fifo)
    source = LogSource()
    rep = GameReport(file=str(fifo), line=1, id="g", verdict="violates")
    # opening it would wait for a writer for ever; reading it would take bytes from the run
    assert source.raw(rep) is None
    assert "cannot be read twice" in source.why_not(str(fifo))


def test_on_hand_gives_the_games_of_the_share_being_reported_as_a_reader_of_the_whole_stream_finds_them():
    import io

    from oracle.replay import shares as sh
    from oracle.replay.onhand import OnHand
    from oracle.replay.reader import split_games

    whole = list(split_games(io.BytesIO(STREAM), "<stdin>"))
    shares = list(sh.plan_stream(io.BytesIO(STREAM), "<stdin>", 200_000))
    assert len(shares) > 3 and all(isinstance(s, sh.Batch) for s in shares)
    on_hand = OnHand()
    found = []
    for share in shares:
        on_hand.hold(share)
        firsts = [g.first_line for g in sh.share_games(share)]
        found += [on_hand.game("<stdin>", line) for line in firsts]
        # asked again, or out of order: the share is split again
        assert on_hand.game("<stdin>", firsts[0]).first_line == firsts[0]
        assert on_hand.game("<stdin>", firsts[-1]).first_line == firsts[-1]
        # another input's game, a line where no game starts, a game of another share
        assert on_hand.game("other.jsonl", firsts[0]) is None
        assert on_hand.game("<stdin>", firsts[0] + 1) is None
        assert on_hand.game("<stdin>", firsts[-1] + 10**6) is None
    assert [(g.first_line, g.lines, g.kind) for g in found] == [(g.first_line, g.lines, g.kind) for g in whole]
    # a share the workers read themselves lets the last one go
    on_hand.hold(sh.Range("games.jsonl", 0, 10, 0))
    assert on_hand.game("<stdin>", whole[-1].first_line) is None
