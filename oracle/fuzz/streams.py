"""Hostile streams for `verify -j`: the fuzz target `streams`, and two
classes of hostile lines: `blank-lines`, `boms` (below; Mindbug's
`big-claims` are in oracle.games.mindbug.fuzz.claims).

Each case is a stream of real games made hostile in the ways that once cost
games under several jobs: integers of 64 bits and beyond in numeric fields
(card ids, life totals, players, piles), lines over the line limit between
games (game lines among them), gzip compression cut short, and workers
killed from outside while they verify. The stream is verified with one job
and with two (small shares, so that it is cut in many places); every game
must get its verdict, and the two reports must be the same, byte for byte.
"""

from __future__ import annotations

import gzip
import os
import re
import signal
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from ..replay.limits import MAX_LINE_BYTES

# Integers at and around the 64-bit edges, and far beyond them.
HUGE = (2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 64 + 1, -(2 ** 63) - 1, -(2 ** 64), -(2 ** 64) - 1, 10 ** 30,
        -(10 ** 30), 2 ** 200, 10 ** 400)
# A number in a JSON line: after a key or inside an array, before the next item.
_NUMBER = re.compile(rb"(?<=[:\[,])-?[0-9]+(?=[,\]}])")
# When the workers of the two-job run are killed, counted in verdicts the run
# has passed on: 0 is as soon as the workers exist. A kill follows the run's
# progress, never the clock, so a loaded machine sees the same kills as a
# quiet one. (0, 1) kills twice, as a watchdog might.
KILLS = ((), (0,), (1,), (2,), (0, 1))


@dataclass(frozen=True)
class HostileStream:
    data: bytes          # as written to the file (compressed or not)
    suffix: str          # the file's name ends so
    kills: tuple         # when the workers are killed (verdicts passed on before each kill)
    share_size: int      # bytes of a plain file per share of the two-job run


def _long_line(kind: str, n: int) -> bytes:
    """A line longer than MAX_LINE_BYTES (without its line break)."""
    pad = b"a" * (MAX_LINE_BYTES + n)
    head = b'"t":"game","format":"mb-replay/1","id":"long-%d"' % n
    return {
        "game line, type first": b"{" + head + b',"x":"' + pad + b'"}',
        "game line, type last": b'{"x":"' + pad + b'",' + head + b"}",
        "note": b'{"t":"note","text":"' + pad + b'"}',
        "junk": pad,
        "nested": b'{"t":"note","x":{"t":"game","y":"' + pad + b'"}}',
    }[kind]


@st.composite
def huge_numbers(draw, lines: list[bytes]) -> list[bytes]:
    """`lines` with one to three numbers replaced by huge integers."""
    lines = list(lines)
    numbered = [k for k, line in enumerate(lines) if _NUMBER.search(line)]
    for _ in range(draw(st.integers(1, 3)) if numbered else 0):
        k = draw(st.sampled_from(numbered))
        spots = list(_NUMBER.finditer(lines[k]))
        m = spots[draw(st.integers(0, len(spots) - 1))]
        value = str(draw(st.sampled_from(HUGE))).encode()
        lines[k] = lines[k][:m.start()] + value + lines[k][m.end():]
    return lines


@st.composite
def hostile_stream(draw, games: tuple) -> HostileStream:
    """Real games, made hostile in one or more of the ways above."""
    ways = draw(st.sets(st.sampled_from(["huge", "long", "gzip"]), min_size=1))
    picked = draw(st.lists(st.sampled_from(games), min_size=1, max_size=4))
    long_at = draw(st.integers(0, len(picked) - 1)) if "long" in ways else -1
    parts: list[bytes] = []
    for i, game in enumerate(picked):
        lines = list(game)
        if "huge" in ways and (i == 0 or draw(st.booleans())):
            lines = draw(huge_numbers(lines))
        if i == long_at or ("long" in ways and draw(st.integers(0, 3)) == 0):   # a line over the limit
            kind = draw(st.sampled_from(["game line, type first", "game line, type last", "note", "junk",
                                         "nested"]))
            parts.append(_long_line(kind, draw(st.integers(1, 100))) + b"\n")
        parts.append(b"".join(x + b"\n" for x in lines))
    data = b"".join(parts)
    if "long" in ways and draw(st.integers(0, 5)) == 0:    # the stream ends inside a line over the limit
        data += _long_line("junk", 7)
    how = draw(st.sampled_from(["gzip", "gzip cut at the end", "gzip cut"])) if "gzip" in ways else "plain"
    if how != "plain":
        data = gzip.compress(data, mtime=0)
        if how == "gzip cut at the end":
            data = data[:-draw(st.integers(1, 12))]
        elif how == "gzip cut":
            data = data[:draw(st.integers(1, max(1, len(data) - 1)))]
    return HostileStream(data, ".jsonl" if how == "plain" else ".jsonl.gz", draw(st.sampled_from(KILLS)),
                         draw(st.integers(500, 50_000)))


def _children() -> list[int]:
    pid = os.getpid()
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        import multiprocessing

        return [p.pid for p in multiprocessing.active_children() if p.pid]


class _Progress:
    """The verdicts a run has passed on, for a killer thread to wait on."""

    def __init__(self):
        self.count = 0
        self.changed = threading.Condition()

    def bump(self) -> None:
        with self.changed:
            self.count += 1
            self.changed.notify_all()


def _killer(counts: tuple, progress: _Progress, stop: threading.Event) -> threading.Thread:
    """A thread that kills this process's children (the workers) once the run
    has passed on `counts[k]` verdicts and its workers exist; the kills of one
    run hit different workers (those started since the last kill)."""
    def run():
        killed: set[int] = set()
        for n in counts:
            while True:
                with progress.changed:
                    progress.changed.wait_for(lambda: stop.is_set() or progress.count >= n, timeout=0.05)
                if stop.is_set():
                    return
                alive = [pid for pid in _children() if pid not in killed]
                if progress.count >= n and alive:
                    break
            for pid in alive:
                killed.add(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _died_twice_instead(one: bytes, two: bytes) -> bool:
    """Whether the JSON report `two` is the WORKER_DIED verdict of the game
    that `one` reports (the same id, file and line)."""
    import json

    x, y = json.loads(one), json.loads(two)
    return (any(f.get("code") == "WORKER_DIED" for f in y.get("findings") or ())
            and (x.get("id"), x.get("file"), x.get("line")) == (y.get("id"), y.get("file"), y.get("line")))


def check_hostile_stream(tally, case: HostileStream) -> list[bytes]:
    """One job and two on the stream: every game read gets a verdict, and the
    reports are the same bytes, though workers are killed on the way. With
    two kills, a game the second kill caught again in its retry may have the
    `WORKER_DIED` verdict the rules of `-j` give it, and no other."""
    from ..replay import report as render
    from ..replay.parallel import Options, iter_reports
    from ..replay.reader import read_all

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / f"games{case.suffix}")
        Path(path).write_bytes(case.data)
        games = sum(1 for _ in read_all((path,)))
        one = [render.json_game(r) for r in iter_reports((path,), Options(), jobs=1)]
        stop = threading.Event()
        progress = _Progress()
        killer = _killer(case.kills, progress, stop) if case.kills else None
        two = []
        try:
            for r in iter_reports((path,), Options(), jobs=2, share_size=case.share_size):
                two.append(render.json_game(r))
                progress.bump()
        finally:
            stop.set()
            if killer is not None:
                killer.join()
    tally.games_in += games
    tally.verdicts_out += len(two)
    assert len(one) == games, f"streams: {len(one)} verdicts for {games} games with one job"
    assert len(two) == games, f"streams: {len(two)} verdicts for {games} games with two jobs"
    died = 0
    for a, b in zip(one, two):
        if len(case.kills) > 1 and a != b and _died_twice_instead(a, b):
            died += 1
            continue
        assert a == b, f"streams: two jobs report otherwise than one:\n{a[:600]!r}\n{b[:600]!r}"
    # A kill reaches at most two workers, each on one game: only the kills
    # after the first can catch a game a second time.
    assert died <= 2 * max(0, len(case.kills) - 1), f"streams: {died} games died twice in {len(case.kills)} kills"
    return one


def cli_hostile_stream(tally, case: HostileStream, seconds: float) -> None:
    """`mb-oracle verify --format json FILE` with -j 1 and -j 2: the same
    exit status and the same bytes, no traceback."""
    from .cli_checks import cli_problem, run_cli

    tally.cli_runs += 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"games{case.suffix}"
        path.write_bytes(case.data)
        one = run_cli(["verify", "--format", "json", str(path)], seconds)
        two = run_cli(["verify", "--format", "json", "-j", "2", str(path)], seconds)
    if cli_problem(tally, "cli-streams", case.data, case.suffix, one) or \
            cli_problem(tally, "cli-streams", case.data, case.suffix, two):
        return
    if (one.returncode, one.stdout) != (two.returncode, two.stdout):
        tally.add("count", "cli-streams", "cli-streams: -j 2 differs from -j 1",
                  f"exit {one.returncode} and {two.returncode}; the reports "
                  f"{'are the same' if one.stdout == two.stdout else 'differ'}", case.data, case.suffix)



# -- hostile lines -------------------------------------------------------------------------
#
# `blank-lines`: runs of blank and space-led lines (up to 70,000 in a row)
# before, inside and between real games; `boms`: games joined as `cat` joins
# files, some written with a UTF-8 byte order mark (before the game or before
# any of its lines) and some in UTF-16. Every game must keep its verdict (a
# UTF-16 part is one UNREADABLE input), with one job and two alike.
# `big-claims`: a state claim of a hostile size (an id repeated a thousand
# times, a thousand ids, creatures with a thousand boost cards, a draw pile
# in order): it must be judged within the time limit, and its finding must
# list at most MAX_DIFF_ENTRIES cards and make a report of a size bounded by
# the claim's.

BLANKS = (b"", b" ", b"   ", b"\t", b" \t\x0b\x0c")


@dataclass(frozen=True)
class LinesCase:
    data: bytes
    conforming: int      # the games that must conform
    unreadable: int      # the UTF-16 parts (runs of them), each one UNREADABLE input
    share_size: int      # bytes per share of the two-job run


@st.composite
def blank_lines(draw, games: tuple) -> LinesCase:
    """Real games with runs of blank and space-led lines among their lines."""
    picked = draw(st.lists(st.sampled_from(games), min_size=1, max_size=3))
    parts = []
    for game in picked:
        lines = list(game)
        for _ in range(draw(st.integers(0, 2))):       # a line written after spaces
            k = draw(st.integers(0, len(lines) - 1))
            lines[k] = draw(st.sampled_from((b" ", b"   ", b"\t"))) + lines[k]   # JSON's own spaces
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(lines)))
            lines[at:at] = [draw(st.sampled_from(BLANKS))] * draw(st.sampled_from((1, 2, 300, 70_000)))
        parts.append(b"".join(x + b"\n" for x in lines))
    return LinesCase(b"".join(parts), len(picked), 0, draw(st.integers(500, 50_000)))


@st.composite
def byte_order_marks(draw, games: tuple) -> LinesCase:
    """Real games joined, some after a UTF-8 byte order mark, some in UTF-16."""
    from ..replay.reader import BOM

    picked = draw(st.lists(st.sampled_from(games), min_size=1, max_size=4))
    parts, conforming, unreadable, last = [], 0, 0, None
    for i, game in enumerate(picked):
        how = draw(st.sampled_from(("utf-8 mark", "utf-8 mark inside", "utf-16", "plain")))
        if how == "utf-16" and i == 0:
            how = "plain"        # UTF-16 from a file's start: the whole file is unreadable
        lines = list(game)
        if how == "utf-8 mark inside":
            k = draw(st.integers(1, len(lines) - 1))
            lines[k] = BOM + lines[k]
        text = b"".join(x + b"\n" for x in lines)
        if how == "utf-8 mark":
            text = BOM + text
        if how == "utf-16":
            codec = draw(st.sampled_from(("utf-16-le", "utf-16-be")))
            text = (b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff") + text.decode("utf-8").encode(codec)
            unreadable += last != "utf-16"     # UTF-16 parts in a row are one input
        else:
            conforming += 1
        parts.append(text)
        last = how
    return LinesCase(b"".join(parts), conforming, unreadable, draw(st.integers(500, 50_000)))


def check_lines(tally, target: str, case: LinesCase) -> None:
    """One job and two give the same report (as `streams`), and every game
    keeps its verdict: the games conform, each UTF-16 part is unreadable."""
    import json

    one = check_hostile_stream(tally, HostileStream(case.data, ".jsonl", (), case.share_size))
    verdicts = [json.loads(x) for x in one]
    conforming = sum(v["verdict"] == "conforms" for v in verdicts)
    unreadable = sum(any(f["code"] == "UNREADABLE" for f in v["findings"]) for v in verdicts)
    assert (conforming, unreadable) == (case.conforming, case.unreadable), \
        f"{target}: {conforming} games conform and {unreadable} are unreadable; expected {case.conforming} and " \
        f"{case.unreadable}"


def cli_lines(tally, target: str, case: LinesCase, seconds: float) -> None:
    cli_hostile_stream(tally, HostileStream(case.data, ".jsonl", (), case.share_size), seconds)
