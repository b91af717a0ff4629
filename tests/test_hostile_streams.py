"""Hostile streams and faults of processes under verify -j: integers beyond
64 bits, gzip streams cut short, game lines over the line limit, globs
through symlinked folders, many small files, workers killed from outside,
a closed standard output and SIGTERM. Every game in gets its verdict out,
the same bytes whatever the number of jobs, and the exit status says what
happened."""

import gzip
import json
import os
import signal
import subprocess
import sys
import time

import msgspec
import pytest
from conftest import ROOT, run_cli

from oracle.replay import shares as sh
from oracle.replay.limits import MAX_LINE_BYTES
from oracle.replay.parallel import Options, _Pool, iter_reports
from oracle.replay.inputs import expand_paths
from oracle.games.mindbug.replay.selfplay import selfplay_lines

BIG = 2 ** 64


def selfplay(n, seed) -> bytes:
    return b"".join(x + b"\n" for x in selfplay_lines(n, seed, "en-revised", "random", "turn"))


def games_of(data: bytes) -> list[bytes]:
    return [b'{"t":"game"' + g for g in data.split(b'{"t":"game"')[1:]]


def reports(paths, jobs, **kw):
    return [msgspec.to_builtins(r) for r in iter_reports(tuple(map(str, paths)), Options(), jobs=jobs, **kw)]


def with_value(line: bytes, field: bytes, value: int) -> bytes:
    """`line` with the first number of `field` replaced by `value`."""
    at = line.index(b'"' + field + b'":') + len(field) + 3
    while line[at:at + 1] in (b"[", b" "):
        at += 1
    end = at
    while line[end:end + 1].isdigit():
        end += 1
    return line[:at] + str(value).encode() + line[end:]


# -- 2: integers beyond 64 bits ----------------------------------------------------------

@pytest.mark.parametrize("line_type,field,value", [
    (b"play", b"card", BIG), (b"state", b"life", BIG), (b"state", b"life", -BIG - 1), (b"play", b"p", 10 ** 40),
    (b"setup", b"decks", BIG), (b"end", b"winner", BIG)])
def test_an_integer_beyond_64_bits_gets_the_verdict_of_one_job_with_two(tmp_path, line_type, field, value):
    games = games_of(selfplay(6, 31))
    lines = games[2].splitlines(keepends=True)
    k = next(i for i, x in enumerate(lines) if x.startswith(b'{"t":"' + line_type + b'"') and b'"' + field + b'":' in x)
    lines[k] = with_value(lines[k], field, value)
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(games[:2]) + b"".join(lines) + b"".join(games[3:]))
    one = reports([path], 1)
    assert len(one) == 6 and one[2]["verdict"] in ("malformed", "violates")
    assert reports([path], 2, share_size=4_000) == one
    r1 = run_cli("verify", str(path), "--format", "json")
    r2 = run_cli("verify", str(path), "--format", "json", "-j", "2")
    assert (r2.returncode, r2.stdout, r2.stderr) == (r1.returncode, r1.stdout, r1.stderr)


def test_a_report_the_worker_cannot_send_is_that_games_error_verdict(tmp_path, monkeypatch):
    """Whatever fails in a worker is said as the verdict of the game it was
    on: the worker does not end without a word (which read as its death)."""
    from oracle.replay import worker

    data = selfplay(8, 32)
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    victim = json.loads(games_of(data)[5].split(b"\n", 1)[0])["id"]
    real = worker.verify_one

    def unsendable(raw, options):
        rep = real(raw, options)
        if rep.id == victim:
            rep.notes.append(lambda: None)       # neither MessagePack nor pickle carries it
        return rep

    monkeypatch.setattr(worker, "verify_one", unsendable)   # the workers fork with it
    two = reports([path], 2)
    assert [r["id"] for r in two] == [json.loads(g.split(b"\n", 1)[0])["id"] for g in games_of(data)]
    bad = [(r["id"], r["verdict"], r["findings"][0]["code"]) for r in two if r["verdict"] != "conforms"]
    assert bad == [(victim, "error", "INTERNAL_ERROR")]
    assert "could not send this game's report" in two[5]["findings"][0]["message"]


# -- 2: workers killed from outside ------------------------------------------------------

def test_a_worker_dead_before_the_parent_hands_it_a_share_loses_no_game(tmp_path):
    """The parent's send to a dead worker fails (a broken pipe): the share
    goes to its replacement, and that broken pipe is never taken for a
    closed standard output."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(selfplay(30, 33))
    one = reports([path], 1)
    pool = _Pool(2, Options())
    try:
        for w in pool.workers:
            os.kill(w.proc.pid, signal.SIGKILL)
            w.proc.join(timeout=5)
        two = [msgspec.to_builtins(r) for r, _ in pool.run(sh.plan([str(path)], 3_000, wait=False))]
    finally:
        pool.close()
    assert two == one


def test_workers_dead_before_they_take_a_share_are_held_against_no_game(tmp_path, monkeypatch):
    """Workers killed at once, one of them idle: the shares of the first
    death are handed to the other before its death is seen. A death is held
    against a game only where the worker had taken its share (STARTED):
    here the first workers and their first replacements die at birth, and
    no game gets WORKER_DIED for it."""
    from oracle.replay import worker as wk

    path = tmp_path / "g.jsonl"
    path.write_bytes(selfplay(30, 35))
    one = reports([path], 1)
    born = []
    made = wk.Worker.__init__

    def stillborn(self, *args, **kw):
        made(self, *args, **kw)
        born.append(self)
        if len(born) <= 6:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.join(timeout=5)

    monkeypatch.setattr(wk.Worker, "__init__", stillborn)
    pool = _Pool(2, Options())
    try:
        two = [msgspec.to_builtins(r) for r, _ in pool.run(sh.plan([str(path)], 3_000, wait=False))]
    finally:
        pool.close()
    assert len(born) > 6
    assert not any(f["code"] == "WORKER_DIED" for r in two for f in r["findings"])
    assert two == one


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def cpu_seconds(pid: int) -> float:
    """The processor time the process has used, in seconds (0 if it is
    gone): unlike its age, what it has had the time to do, however busy
    the machine."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")      # utime + stime
    except (OSError, ValueError, IndexError):
        return 0.0


def test_workers_killed_from_outside_again_and_again_lose_no_game(tmp_path):
    path = tmp_path / "g.jsonl"
    # Four copies of 1,500 games: long enough, even on a quiet machine, for
    # workers to be killed again and again before the run ends.
    path.write_bytes(selfplay(1500, 34) * 4)
    expected = run_cli("verify", str(path), "--format", "json")
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "wb") as o, open(err, "wb") as e:
        p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "--format", "json", "-j", "2"],
                             stdout=o, stderr=e, cwd=ROOT)
    kills = 0
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline:
        if out.stat().st_size:
            # The workers are at work: every quarter of a second, every one
            # of them that has had half a second of processor time is
            # killed. Its replacement starts and retries its game in much
            # less (a worker that dies each time on the game it retries is
            # another case: that game gets WORKER_DIED); counted in
            # processor time, a busy machine does not make it that case.
            for pid in children(p.pid):
                if cpu_seconds(pid) >= 0.5:
                    try:
                        os.kill(pid, signal.SIGKILL)
                        kills += 1
                    except ProcessLookupError:
                        pass
        time.sleep(0.25)
    p.kill()
    assert kills >= 4
    assert (p.wait(), err.read_bytes()) == (0, b"")
    assert out.read_bytes() == expected.stdout


# -- 2: gzip streams cut short -----------------------------------------------------------

@pytest.mark.parametrize("cut", ["last 4 bytes", "half", "a third"])
def test_a_cut_gzip_stream_gives_the_games_of_one_job_with_two(tmp_path, cut):
    data = selfplay(150, 35)
    assert len(data) > sh.STREAM_SHARE          # read in more than one block
    z = gzip.compress(data)
    z = {"last 4 bytes": z[:-4], "half": z[:len(z) // 2], "a third": z[:len(z) // 3]}[cut]
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(z)
    one = reports([path], 1)
    assert one[-1]["findings"][0]["code"] == "UNREADABLE"
    assert one[-1]["findings"][0]["line"] == one[-1]["line"] > 0     # the game's line and its finding's agree
    assert sum(r["verdict"] == "conforms" for r in one) >= {"last 4 bytes": 150, "half": 70, "a third": 45}[cut]
    assert reports([path], 2) == one
    r1 = run_cli("verify", "-", "--format", "json", input=z)
    r2 = run_cli("verify", "-", "--format", "json", "-j", "2", input=z)
    assert r1.returncode == 2 and r2.stdout == r1.stdout


# -- 7: lines over the limit, globs through symlinked folders ---------------------------------

def too_long_game_line(gid: str, first: bool = True) -> bytes:
    """A game line longer than the limit: its type and id before the long
    field, or after it."""
    pad = b'"x":"' + b"a" * (MAX_LINE_BYTES + 10) + b'"'
    head = b'"t":"game","format":"mb-replay/1","id":"' + gid.encode() + b'"'
    return b"{" + (head + b"," + pad if first else pad + b"," + head) + b"}\n"


def test_a_game_line_over_the_line_limit_gets_the_finding_in_its_own_game(tmp_path):
    games = games_of(selfplay(3, 36))
    rest = games[1].split(b"\n", 1)[1]
    path = tmp_path / "long.jsonl"
    path.write_bytes(games[0] + too_long_game_line("long-one") + rest + games[2])
    one = reports([path], 1)
    assert [(r["id"], r["verdict"]) for r in one] == [
        (json.loads(games[0].split(b"\n", 1)[0])["id"], "conforms"), ("long-one", "malformed"),
        (json.loads(games[2].split(b"\n", 1)[0])["id"], "conforms")]
    assert one[1]["findings"][0]["code"] == "TOO_LARGE" and one[1]["line"] == games[0].count(b"\n") + 1
    assert reports([path], 2, share_size=2_000) == one


def test_twenty_games_with_game_lines_over_the_limit_are_twenty_verdicts(tmp_path):
    note = b'{"t":"note","text":"after"}\n'
    data = b"".join(too_long_game_line(f"g{i}", first=i % 2 == 0) + note for i in range(20))
    path = tmp_path / "twenty.jsonl"
    path.write_bytes(data)
    one = reports([path], 1)
    assert [(r["id"], r["verdict"], r["findings"][0]["code"]) for r in one] == \
        [(f"g{i}", "malformed", "TOO_LARGE") for i in range(20)]
    assert reports([path], 2) == one


def test_a_recursive_glob_does_not_follow_symlinked_folders_in_a_loop(tmp_path):
    (tmp_path / "loop" / "a" / "b").mkdir(parents=True)
    (tmp_path / "loop" / "a" / "b" / "x.jsonl").write_bytes(selfplay(1, 37))
    (tmp_path / "loop" / "top.jsonl").write_bytes(selfplay(1, 38))
    os.symlink("..", tmp_path / "loop" / "a" / "b" / "up")
    os.symlink("../..", tmp_path / "loop" / "a" / "b" / "root")
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", "loop/**/*.jsonl", "--format", "json"],
                       capture_output=True, cwd=tmp_path, timeout=30,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["file"] for x in r.stdout.splitlines()[:-1]] == ["loop/a/b/x.jsonl", "loop/top.jsonl"]
    assert expand_paths((str(tmp_path / "loop" / "**"),)) == expand_paths((str(tmp_path / "loop"),))


# -- 9: many small files -----------------------------------------------------------------

def test_many_small_files_are_handed_out_several_per_share(tmp_path):
    for i, game in enumerate(games_of(selfplay(300, 39))):
        (tmp_path / f"f{i:03}.jsonl").write_bytes(game)
    files = expand_paths((str(tmp_path),))
    planned = list(sh.plan(files, sh.share_size(files, 2)))
    assert len(files) == 300 and len(planned) <= 300 // 20
    assert [g.lines for s in planned for g in sh.share_games(s)] == \
        [g.lines for f in files for g in sh.share_games(sh.Range(f, 0, os.path.getsize(f), 0))]
    handed = []
    pool = _Pool(2, Options())
    for w in pool.workers:
        w.hand = lambda task, hand=w.hand: (handed.append(task), hand(task))[1]
    try:
        two = [msgspec.to_builtins(r) for r, _ in pool.run(sh.plan(files, sh.share_size(files, 2), wait=False))]
    finally:
        pool.close()
    assert 2 <= len(handed) <= 300 // 20
    assert two == reports([tmp_path], 1)


# -- 10: exit statuses -------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_standard_output_is_the_status_of_a_broken_pipe_not_violates(tmp_path, jobs):
    path = tmp_path / "g.jsonl"
    path.write_bytes(selfplay(400, 40))
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(path), "-j", jobs],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert p.stdout.readline().startswith(b"ok ")
    p.stdout.close()
    err = p.stderr.read()
    assert (p.wait(timeout=60), err) == (141, b"")


def test_a_broken_pipe_that_is_not_standard_output_is_said_and_exits_2():
    code = ("import oracle.replay.parallel as p\n"
            "def broken(*a, **k):\n"
            "    raise BrokenPipeError(32, 'Broken pipe')\n"
            "    yield\n"
            "p.iter_rendered = broken\n"
            "from oracle.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", code, "verify", "replays/conforming"], capture_output=True, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 2
    assert r.stderr == b"mb-oracle verify: cannot go on: Broken pipe\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_ends_as_ctrl_c_does_with_one_line_and_the_report_so_far(jobs):
    data = selfplay(21, 41)
    cut = data.rindex(b'{"t":"game"')
    head = data[:data.index(b"\n", cut) + 1]          # 20 games and the next game line
    whole = run_cli("verify", "-", "--format", "json", input=data[:cut]).stdout
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", "-", "-j", jobs, "--format", "json"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env,
                         start_new_session=True)
    try:
        p.stdin.write(head)
        p.stdin.flush()
        got = b""
        deadline = time.monotonic() + 60
        while got.count(b"\n") < 20 and time.monotonic() < deadline:
            got += os.read(p.stdout.fileno(), 1 << 16)
        p.send_signal(signal.SIGTERM)
        got += p.stdout.read()
        err = p.stderr.read()
        assert (p.wait(timeout=10), err) == (143, b"mb-oracle: terminated\n")
    finally:
        p.kill()
        p.stdin.close()
    assert got == b"".join(whole.splitlines(keepends=True)[:20])
    time.sleep(0.2)
    assert children(p.pid) == []
