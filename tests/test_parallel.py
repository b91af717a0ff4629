"""verify -j and --cluster: shares cut at game lines, reports in input order,
the same bytes as one job, and the faults of processes (a dying worker,
Ctrl-C, a closed output pipe)."""

import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import types

import msgspec
import pytest
from conftest import ROOT, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.replay import shares as sh
from oracle.replay.parallel import Options, iter_reports
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines


def selfplay(n, seed, edition="en-revised") -> bytes:
    return b"".join(x + b"\n" for x in selfplay_lines(n, seed, edition, "random", "turn"))


def game_ids(data: bytes) -> list[str]:
    return [json.loads(x)["id"] for x in data.splitlines() if b'"t":"game"' in x]


def as_games(raws):
    return [(r.file, r.kind, r.lines) for r in raws]


# -- cutting the input ----------------------------------------------------------

GAME = b'{"t":"game","format":"mb-replay/1","id":"g%d","edition":"en-revised"}'
LINE_KINDS = [
    GAME,
    b'{"id":"k%d","edition":"fr-first","format":"mb-replay/1","t":"game"}',   # keys in another order
    b'{"t":"play","player":0,"card":%d}',
    b'{"t":"claim","life":[3,%d]}\r',                                          # CRLF line ending
    b"",                                                                       # blank line
    b"   ",
    b'{"t":"game" broken %d',                                                  # not JSON: not a game line
    b'{"t":"note","text":"' + b"x" * (sh.CUT_LINE_MAX + 10) + b'%d"}',         # too long to cut at
]


@st.composite
def streams(draw):
    kinds = draw(st.lists(st.integers(0, len(LINE_KINDS) - 1), max_size=60))
    lines = [LINE_KINDS[k].replace(b"%d", str(i).encode()) for i, k in enumerate(kinds)]
    data = b"\n".join(lines)
    if draw(st.booleans()):
        data += b"\n"
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=streams(), size=st.integers(1, 400))
def test_ranges_and_stream_blocks_split_into_the_same_games_as_the_whole_input(tmp_path_factory, data, size):
    path = tmp_path_factory.mktemp("cut") / "x.jsonl"
    path.write_bytes(data)
    whole = as_games(split_games(io.BytesIO(data), str(path)))
    with open(path, "rb") as f:
        ranges = list(sh.plan_ranges(f, str(path), size))
    assert ranges[0].start == 0 and ranges[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(ranges, ranges[1:]))
    assert as_games(g for r in ranges for g in sh.share_games(r)) == whole
    blocks = list(sh.plan_stream(io.BytesIO(data), str(path), size))
    assert b"".join(b.data for b in blocks) == data
    assert as_games(g for b in blocks for g in sh.share_games(b)) == whole


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=streams(), size=st.integers(1, 400), hold=st.integers(1, 3000))
def test_a_stream_without_a_game_line_for_too_long_is_read_game_by_game_into_the_same_games(data, size, hold):
    saved = sh.STREAM_HOLD
    sh.STREAM_HOLD = hold
    try:
        shares = list(sh.plan_stream(io.BytesIO(data), "x.jsonl", size))
    finally:
        sh.STREAM_HOLD = saved
    assert as_games(g for s in shares for g in sh.share_games(s)) == as_games(split_games(io.BytesIO(data), "x.jsonl"))
    # Blocks while a game line comes in time; games read by the parent after that.
    kinds = [type(s).__name__ for s in shares]
    if "Games" in kinds:
        assert "Batch" not in kinds[kinds.index("Games"):]


class _Trickle(io.BytesIO):
    """A live stream in a test: each read returns a chunk of a drawn size,
    and between reads the writer has paused or not, as drawn."""

    def __init__(self, data: bytes, chunks: list[int], pauses: list[bool]):
        super().__init__(data)
        self.chunks, self.pauses = chunks, pauses
        self.reads = 0
        self.arrived = False        # data came while the reader waited

    def read1(self, n: int = -1) -> bytes:
        self.reads += 1
        self.arrived = False
        size = self.chunks[self.reads % len(self.chunks)]
        return super().read1(min(n, size) if n > 0 else size)

    def more_now(self) -> bool:
        return self.arrived or not self.pauses[self.reads % len(self.pauses)]

    def fileno(self) -> int:
        return -1           # what a Wait names; nothing waits on it here


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=streams(), size=st.integers(1, 400), chunks=st.lists(st.integers(1, 300), min_size=1, max_size=8),
       pauses=st.lists(st.booleans(), min_size=1, max_size=8), wait=st.booleans())
def test_a_live_stream_cut_wherever_its_writer_pauses_splits_into_the_same_games(data, size, chunks, pauses, wait):
    stream = _Trickle(data, chunks, pauses)
    saved = sh.is_live, sh._more_now
    sh.is_live = lambda f: f is stream
    sh._more_now = lambda f: stream.more_now()
    try:
        planned = []
        for share in sh.plan_stream(stream, "<stdin>", size, wait):
            if isinstance(share, sh.Wait):
                stream.arrived = True      # the reader waited: the writer goes on
                continue
            planned.append(share)
    finally:
        sh.is_live, sh._more_now = saved
    assert b"".join(s.data for s in planned if isinstance(s, sh.Batch)) == data or \
        any(isinstance(s, sh.Games) for s in planned)
    assert as_games(g for s in planned for g in sh.share_games(s)) == as_games(split_games(io.BytesIO(data), "<stdin>"))
    for s in planned[1:]:
        if isinstance(s, sh.Batch):
            assert s.data.startswith(b"{") and sh.is_game_line(s.data.split(b"\n", 1)[0].rstrip(b"\r"))


def test_a_pipe_hands_out_the_games_already_whole_as_soon_as_its_writer_pauses():
    """A slow writer (an engine logging as it plays) gets its games verified
    as they end, not once a block of STREAM_SHARE bytes has come."""
    import threading

    data = selfplay(8, 21)
    cut = [i for i in range(len(data)) if data.startswith(b'{"t":"game"', i)][3]
    first_part = data[:data.index(b"\n", cut) + 1]        # three games and the next game line
    r, w = os.pipe()
    got = []
    with os.fdopen(r, "rb") as stream, os.fdopen(w, "wb") as writer:
        shares = sh.plan_stream(stream, "<stdin>", sh.STREAM_SHARE)
        writer.write(first_part)
        writer.flush()
        t = threading.Thread(target=lambda: got.append(next(shares)), daemon=True)
        t.start()
        t.join(timeout=20)
        assert not t.is_alive(), "the three whole games waited for more input"
        assert got[0] == sh.Batch("<stdin>", data[:cut], 0, ends=False)
        writer.write(data[len(first_part):])
        writer.close()
        got.extend(shares)
    assert b"".join(b.data for b in got) == data
    assert as_games(g for b in got for g in sh.share_games(b)) == as_games(split_games(io.BytesIO(data), "<stdin>"))


def test_a_gigantic_line_in_a_stream_is_never_held_and_two_jobs_report_as_one(tmp_path, monkeypatch):
    # A gzip file: good games, then a game with a line far over the limits
    # (as a gzip bomb would be, scaled down), then good games again.
    good = selfplay(6, 12)
    huge = b'{"t":"note","text":"' + b"z" * (3 << 20) + b'"}\n'
    lines = good.splitlines(keepends=True)
    data = b"".join(lines[:40]) + huge + b"".join(lines[40:])
    gz = tmp_path / "bomb.jsonl.gz"
    gz.write_bytes(gzip.compress(data))
    monkeypatch.setattr(sh, "STREAM_HOLD", 1 << 20)
    planned = list(sh.plan((str(gz),), sh.STREAM_SHARE))
    assert any(isinstance(s, sh.Games) for s in planned)
    # The parent kept no line whole past the limits: the huge line stands as a refused line.
    held = [b for s in planned if isinstance(s, sh.Games) for g in s.games for _, b in g.lines]
    assert max(len(b) for b in held) < 1 << 20
    one = [msgspec.to_builtins(r) for r in iter_reports((str(gz),), Options(), jobs=1)]
    two = [msgspec.to_builtins(r) for r in iter_reports((str(gz),), Options(), jobs=2)]
    assert two == one and len(one) == 6
    assert any(f["code"] == "TOO_LARGE" for r in one for f in r["findings"])


def test_a_big_file_is_cut_into_ranges_at_game_lines(tmp_path):
    data = selfplay(30, 4)
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    ranges = list(sh.plan([str(path)], 20_000))
    assert len(ranges) > 5 and all(isinstance(r, sh.Range) for r in ranges)
    for r in ranges:
        assert data[r.start:r.end].startswith(b'{"t":"game"')
        assert r.line0 == data[:r.start].count(b"\n")


def test_gzip_and_byte_order_mark_files_are_not_range_split(tmp_path):
    gz = tmp_path / "g.jsonl.gz"
    gz.write_bytes(gzip.compress(selfplay(3, 4)))
    bom = tmp_path / "b.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + selfplay(3, 4))
    assert all(isinstance(s, sh.Batch) for s in sh.plan([str(gz)], 1000))
    assert list(sh.plan([str(bom)], 1000)) == [sh.Whole(str(bom))]


def test_a_truncated_gzip_file_gives_the_games_before_the_cut_and_one_unreadable_verdict(tmp_path):
    data = selfplay(20, 4)
    gz = tmp_path / "g.jsonl.gz"
    gz.write_bytes(gzip.compress(data)[:-200])
    reps = list(iter_reports((str(gz),), Options(), jobs=2, share_size=20_000))
    assert reps[-1].findings[0].code == "UNREADABLE" and reps[-1].verdict == "malformed"
    assert [r.verdict for r in reps[:-2]] == ["conforms"] * (len(reps) - 2)


def test_two_jobs_give_the_reports_of_one_job_in_the_same_order(tmp_path):
    data = selfplay(40, 6, "fr-first")
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n\n" + b'{"t":"play","player":0,"card":1}\n' + data)   # an orphan line first
    opts = Options(which_editions=True)
    one = [msgspec.to_builtins(r) for r in iter_reports((str(path),), opts, jobs=1)]
    two = [msgspec.to_builtins(r) for r in iter_reports((str(path),), opts, jobs=2, share_size=8_000)]
    assert len(one) == 41 and one[0]["findings"][0]["code"] == "LINE_OUTSIDE_GAME"
    assert two == one


# -- the command, byte for byte ------------------------------------------------------

@pytest.mark.parametrize("flags", [(), ("--format", "json", "--which-editions"),
                                   ("--format", "junit", "--keep-going"), ("--edition", "en-first")])
def test_verify_replays_folder_gives_the_same_bytes_with_two_jobs(flags):
    one = run_cli("verify", "replays/", *flags)
    two = run_cli("verify", "replays/", "-j", "2", *flags)
    assert one.returncode == two.returncode and one.returncode in (1, 2)
    if "junit" in flags:
        # JUnit's time attributes are measured; everything else is the same bytes.
        one.stdout, two.stdout = (re.sub(rb' time="[0-9.]+"', b"", r.stdout) for r in (one, two))
    assert one.stdout == two.stdout and one.stdout


def test_verify_standard_input_in_several_blocks_gives_the_same_bytes_with_two_jobs():
    data = selfplay(160, 8)   # more than one block of standard input
    assert len(data) > sh.STREAM_SHARE
    one = run_cli("verify", "-", "--format", "json", input=data)
    two = run_cli("verify", "-", "--format", "json", "-j", "2", input=data)
    assert one.returncode == 0 and one.stdout == two.stdout
    assert json.loads(one.stdout.splitlines()[-1])["games"] == 160


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc/self/mem (Linux)")
def test_a_regular_file_that_cannot_be_read_gives_the_bytes_of_one_job_with_two_jobs():
    # /proc/self/mem: a regular file whose first read fails (EIO)
    log = "replays/conforming/en-first.jsonl"
    one = run_cli("verify", log, "/proc/self/mem", log, "--format", "json")
    two = run_cli("verify", log, "/proc/self/mem", log, "--format", "json", "-j", "2")
    # where the two jobs' planner stopped the run ("cannot go on: Input/output error")
    assert two.returncode == one.returncode == 2 and two.stdout == one.stdout, two.stderr
    assert b'"file":"/proc/self/mem"' in two.stdout and b"UNREADABLE" in two.stdout


def test_verify_a_gzip_file_with_two_jobs_reports_as_its_plain_copy(tmp_path):
    data = selfplay(25, 9)
    (tmp_path / "g.jsonl").write_bytes(data)
    (tmp_path / "z.jsonl.gz").write_bytes(gzip.compress(data))
    plain = run_cli("verify", str(tmp_path / "g.jsonl"), "--format", "json")
    zipped = run_cli("verify", str(tmp_path / "z.jsonl.gz"), "--format", "json", "-j", "2")
    assert zipped.returncode == 0, zipped.stderr
    assert zipped.stdout.replace(b"z.jsonl.gz", b"g.jsonl") == plain.stdout


def test_fsspec_url_globs_are_verified_like_the_local_files(tmp_path):
    (tmp_path / "a.jsonl").write_bytes(selfplay(4, 15))
    (tmp_path / "b.jsonl.gz").write_bytes(gzip.compress(selfplay(3, 16)))
    url = f"file://{tmp_path}/*.jsonl*"
    for jobs in (1, 2):
        reps = list(iter_reports((url,), Options(), jobs=jobs))
        assert [r.file for r in reps] == [f"file://{tmp_path}/a.jsonl"] * 4 + [f"file://{tmp_path}/b.jsonl.gz"] * 3
        assert [r.verdict for r in reps] == ["conforms"] * 7


def test_many_small_files_more_than_the_window_of_shares_never_stall(tmp_path):
    for i in range(40):
        (tmp_path / f"f{i:02}.jsonl").write_bytes(selfplay(1, 100 + i))
    expected = run_cli("verify", str(tmp_path), "--format", "json")
    for _ in range(3):
        r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(tmp_path), "--format", "json", "-j", "2"],
                           capture_output=True, cwd=ROOT, timeout=60)
        assert r.stdout == expected.stdout and r.returncode == 0


def test_a_worker_that_finishes_a_share_is_handed_the_next_before_the_pool_pauses(tmp_path, monkeypatch):
    """The pool pauses between wake-ups so that reports gather, but never in
    a wake-up that saw a share done: the worker then has one share left, and
    would sit idle if the pause outlasted it. Every wake-up (a `select`) is
    logged with the shares it saw done and whether the pool paused after it."""
    import selectors

    from oracle.replay import parallel
    from oracle.replay import worker as wk

    path = tmp_path / "g.jsonl"
    path.write_bytes(selfplay(60, 37))
    one = [msgspec.to_builtins(r) for r in iter_reports((str(path),), Options())]
    rounds: list[list] = []     # per wake-up: [shares seen done, paused after it]

    class Logged(selectors.DefaultSelector):
        def select(self, timeout=None):
            got = super().select(timeout)
            rounds.append([0, False])
            return got

    receive = wk.Worker.receive

    def logged_receive(self):
        msgs = receive(self)
        if msgs and rounds:
            rounds[-1][0] += msgs.count(wk.DONE)
        return msgs

    def logged_sleep(seconds):
        rounds[-1][1] = True

    monkeypatch.setattr(selectors, "DefaultSelector", Logged)
    monkeypatch.setattr(wk.Worker, "receive", logged_receive)
    monkeypatch.setattr(parallel, "time", types.SimpleNamespace(sleep=logged_sleep))
    pool = parallel._Pool(2, Options())
    try:
        two = [msgspec.to_builtins(r) for r, _ in pool.run(sh.plan([str(path)], 25_000, wait=False))]
    finally:
        pool.close()
    assert two == one
    done = [r for r in rounds if r[0]]
    assert sum(r[0] for r in done) > 10            # many shares, each seen done once
    assert not [r for r in done if r[1]]            # no pause after any of them
    assert any(paused for n, paused in rounds if not n)    # the pool does pause otherwise


# -- faults of processes ------------------------------------------------------

@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    """600 games in one file (about 6 MB): a few seconds of work for two workers."""
    path = tmp_path_factory.mktemp("faults") / "games.jsonl"
    path.write_bytes(selfplay(600, 11))
    one = run_cli("verify", str(path), "--format", "json")
    assert one.returncode == 0
    return path, one.stdout


def cli_env(**extra):
    env = dict(os.environ)
    env.update(extra)
    return env


def test_a_game_that_kills_its_worker_twice_gets_an_error_verdict_and_the_others_are_verified(tmp_path):
    data = selfplay(60, 12)
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    victim = game_ids(data)[17]
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(path), "--format", "json", "-j", "2"],
                       capture_output=True, cwd=ROOT, timeout=60,
                       env=cli_env(MB_ORACLE_TEST_KILL_GAME=victim))
    assert r.returncode == 2, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert [g["id"] for g in games] == game_ids(data)
    bad = [g for g in games if g["verdict"] != "conforms"]
    assert [(g["id"], g["verdict"], g["findings"][0]["code"]) for g in bad] == [(victim, "error", "WORKER_DIED")]
    assert "died twice (killed by SIGKILL)" in bad[0]["findings"][0]["message"]
    assert summary["games"] == 60 and summary["error"] == 1 and summary["conforms"] == 59 and summary["exit"] == 2
    assert r.stderr == (f"mb-oracle: game {victim} ({path}:{bad[0]['line']}) was not verified: the worker process "
                        "verifying it died twice (killed by SIGKILL)\n").encode()


def test_a_game_that_kills_its_worker_once_is_verified_in_a_fresh_worker(tmp_path, games_file):
    path, expected = games_file
    victim = game_ids(path.read_bytes())[300]
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(path), "--format", "json", "-j", "2"],
                       capture_output=True, cwd=ROOT, timeout=60,
                       env=cli_env(MB_ORACLE_TEST_KILL_GAME=victim, MB_ORACLE_TEST_KILL_ONCE=str(tmp_path / "once")))
    assert (tmp_path / "once").exists()   # the worker did die
    assert r.returncode == 0 and r.stdout == expected


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(x) for x in f.read().split()]


def group_alive(pgid: int) -> list[int]:
    """Processes of the group that are not zombies."""
    alive = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                alive.append(int(d))
    return alive


def test_a_worker_killed_from_outside_loses_no_game(games_file):
    path, expected = games_file
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "--format", "json", "-j", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = p.stdout.readline()   # the workers are at work
    workers = children(p.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    rest = p.stdout.read()   # not communicate(): it would skip what readline() buffered
    err = p.stderr.read()
    assert p.wait(timeout=60) == 0, err
    assert first + rest == expected


def test_workers_end_when_the_parent_is_killed(games_file):
    path, _ = games_file
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "-j", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    p.stdout.readline()
    assert len(group_alive(p.pid)) == 3
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=10)
    deadline = time.monotonic() + 5.0
    while group_alive(p.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_alive(p.pid) == []


def test_ctrl_c_stops_every_worker_and_the_parent_within_a_second_with_one_line(games_file):
    path, _ = games_file
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "-j", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    p.stdout.readline()
    assert len(group_alive(p.pid)) == 3
    os.killpg(p.pid, signal.SIGINT)
    t0 = time.monotonic()
    _, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 1.0
    assert p.returncode == 130
    assert err == b"mb-oracle: interrupted\n"
    deadline = time.monotonic() + 1.0
    while group_alive(p.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_alive(p.pid) == []


def cpu_ticks(pgid: int) -> int:
    """CPU time used so far by the live processes of a group, in clock ticks."""
    total = 0
    for pid in group_alive(pgid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def wait_idle(pgid: int, quiet: float = 0.5, limit: float = 30.0) -> None:
    """Until the group has used no CPU for `quiet` seconds."""
    deadline = time.monotonic() + limit
    last, since = cpu_ticks(pgid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = cpu_ticks(pgid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError("verify never went idle")


@pytest.mark.parametrize("jobs,fmt", [("1", "human"), ("2", "human"), ("2", "json"), ("local:2", "human")])
def test_games_from_a_pipe_get_their_verdicts_written_out_as_they_end(jobs, fmt):
    """An engine that logs as it plays, piped into verify (whose output is a
    pipe too, so buffered): the verdicts of the games already whole come out
    while the engine is still playing, with one job, two, or a local cluster."""
    import selectors

    data = selfplay(4, 29)
    cut = data.rindex(b'{"t":"game"')
    head = data[:data.index(b"\n", cut) + 1]          # three games and the next game line
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if jobs.startswith("local:"):
        pytest.importorskip("distributed", reason="dask.distributed is missing: pip install 'mb-oracle[cluster]'")
    how = ["--cluster", jobs] if jobs.startswith("local:") else ["-j", jobs]
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", "-", *how, "--format", fmt, "--color",
                          "never"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                         env=env)
    try:
        p.stdin.write(head)
        p.stdin.flush()
        got = b""
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + 30
        while got.count(b"\n") < 3 and time.monotonic() < deadline:
            if sel.select(timeout=0.5):
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    break
                got += chunk
        assert got.count(b"\n") == 3, got
        assert p.poll() is None              # still waiting for the rest of the input
        p.stdin.write(data[len(head):])
        p.stdin.close()
        rest = p.stdout.read()
        assert p.wait(timeout=30) == 0
    finally:
        p.kill()
    whole = run_cli("verify", "-", "--format", fmt, "--color", "never", input=data).stdout
    assert got + rest == whole


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_with_the_human_report_piped_writes_out_every_game_verified(jobs):
    """Ctrl-C ends the run at once, and the report lines still held in the
    output buffer reach a reader that reads on. Twenty games come on standard
    input, then the first line of another, and the input stays open: verify
    reports the twenty (too few lines to fill a buffer) and waits for more."""
    data = selfplay(21, 23)
    cut = data.rindex(b'{"t":"game"')
    head = data[:data.index(b"\n", cut) + 1]          # 20 games and the next game line
    whole = run_cli("verify", "-", "--color", "never", input=data[:cut]).stdout
    assert whole.count(b"\n") > 20
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # buffered, as by default
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", "-", "-j", jobs, "--color", "never"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                         start_new_session=True, env=env)
    try:
        p.stdin.write(head)
        p.stdin.flush()
        wait_idle(p.pid, quiet=1.5)      # a loaded machine may leave a busy worker unscheduled for a while
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.stdout.read(), p.stderr.read()
        assert p.wait(timeout=10) == 130 and err == b"mb-oracle: interrupted\n"
    finally:
        p.kill()
        p.stdin.close()
    assert out == b"".join(whole.splitlines(keepends=True)[:20])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_output_pipe_ends_verify_quietly(games_file, jobs):
    path, _ = games_file
    t0 = time.monotonic()
    r = subprocess.run(f"{sys.executable} -m oracle verify {path} -j {jobs} | head -1", shell=True,
                       capture_output=True, cwd=ROOT, timeout=60)
    assert r.stdout.startswith(b"ok ") and r.stdout.count(b"\n") == 1
    assert r.stderr == b""
    assert time.monotonic() - t0 < 10


# -- Dask ---------------------------------------------------------------------

def test_cluster_without_dask_is_a_one_line_error():
    code = ("import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None; "
            "from oracle.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", code, "verify", "replays/", "--cluster", "local:2"],
                       capture_output=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2
    assert r.stderr == b"error: --cluster needs Dask; install it with: pip install 'mb-oracle[cluster]'\n"
    assert r.stdout == b""


def test_local_dask_cluster_of_two_workers_gives_the_bytes_of_one_job_though_a_worker_dies(tmp_path):
    pytest.importorskip("distributed", reason="dask.distributed is missing: pip install 'mb-oracle[cluster]'")
    data = selfplay(40, 13)
    (tmp_path / "a.jsonl").write_bytes(data)
    (tmp_path / "b.jsonl").write_bytes(selfplay(10, 14))
    one = run_cli("verify", str(tmp_path), "replays/conforming", "--format", "json", "--which-editions")
    assert one.returncode == 0
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(tmp_path), "replays/conforming", "--format",
                        "json", "--which-editions", "--cluster", "local:2"], capture_output=True, cwd=ROOT,
                       timeout=120, env=cli_env(MB_ORACLE_TEST_KILL_GAME=game_ids(data)[5],
                                                MB_ORACLE_TEST_KILL_ONCE=str(tmp_path / "once")))
    assert (tmp_path / "once").exists()   # a worker did die
    assert r.returncode == 0, r.stderr
    assert r.stdout == one.stdout


def test_bench_with_jobs_reports_the_scaling_and_a_million_game_projection():
    r = run_cli("bench", "--games", "30", "--repeat", "1", "--jobs", "2", "--no-instructions")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    ratio = float(out.split("scaling -j 2:", 1)[1].split("x", 1)[0])
    minutes = float(out.split("a million such games:", 1)[1].split("min", 1)[0])
    assert ratio > 0 and minutes > 0
    assert "verify -j 1 (file):" in out and "verify -j 2 (file):" in out
    assert "-j 2: fixed, per game (wall):" in out and "-j 2: fixed, per game (cpu):" in out
    # The targets are judged on the figures printed above them.
    cpu = float(out.split("processor time -j 2:", 1)[1].split("x that of -j 1 (whole runs),", 1)[1].split("x", 1)[0])
    judged = out.split("target -j 2 cpu at most 1.08x -j 1:", 1)[1].split()
    assert judged[0] == ("meets" if round(cpu, 2) <= 1.08 else "misses")
    million = out.split("target a million in 2 min (-j 2):", 1)[1].split()
    assert million[0] == ("meets" if minutes <= 2 else "misses")
    # The machine's own ceiling: two one-job runs at once, against one alone.
    ceiling = float(out.split("2 runs of -j 1 side by side:", 1)[1].split("x", 1)[0])
    share = float(out.split("-j 2 gets", 1)[1].split("of it", 1)[0])
    assert ceiling > 0 and share == pytest.approx(ratio / ceiling, abs=0.011)
    # Below 0.9 of two, the bench says the machine is not quiet, on the figure it printed.
    assert ("(not a quiet machine: 2 runs of -j 1 side by side got" in out) == (ceiling < 1.80)
    if os.path.exists("/proc/stat"):
        stolen = out.split("gave to others:", 1)[1].split("%", 1)[0]
        assert 0 <= float(stolen) <= 100


def test_ctrl_c_on_a_local_dask_cluster_exits_130_with_one_line(games_file):
    pytest.importorskip("distributed", reason="dask.distributed is missing: pip install 'mb-oracle[cluster]'")
    path, _ = games_file
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "--cluster", "local:2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    p.stdout.readline()
    os.killpg(p.pid, signal.SIGINT)
    t0 = time.monotonic()
    _, err = p.communicate(timeout=20)
    assert time.monotonic() - t0 < 1.0
    assert (p.returncode, err) == (130, b"mb-oracle: interrupted\n")
    deadline = time.monotonic() + 1.0
    while group_alive(p.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_alive(p.pid) == []
