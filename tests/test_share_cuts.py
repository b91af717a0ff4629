"""Where `plan_ranges` cuts a file: every share but the first starts at a
game line, the first game line at or after the share size, whatever lies
around it (a game line spelled with an escape, carriage returns, lines
longer than a read, lines that only mention "game"), and numbers its lines
as a single reader would."""

import random

import pytest

from oracle.replay.reader import is_game_line
from oracle.replay.shares import CUT_LINE_MAX, plan_ranges

KINDS = [b'{"t":"game","id":"g%d"}', b'{"t":"g\\u0061me","id":"e%d"}', b'{"t":"move","x":%d}', b'',
         b'{"id":"x","t":"game","n":%d}\r', b'{"t":"state","note":"game %d"}', b'{"t":"state","s":"\\"game\\" %d"}',
         b'not json "game" %d', b'{"t": "game", "id": "s%d"}',
         b'{"t":"move","pad":"' + b"a" * (CUT_LINE_MAX + 10) + b'%d"}',
         b'{"t":"game","pad":"' + b"b" * (CUT_LINE_MAX - 100) + b'%d"}']


def _expected_cuts(data: bytes, size: int) -> list[tuple[int, int]]:
    """(start, lines before it) of each share, found a line at a time."""
    starts, cuts = [], [(0, 0)]
    pos = 0
    for line in data.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    for number, start in enumerate(starts):
        line = data[start:data.find(b"\n", start) if data.find(b"\n", start) >= 0 else len(data)]
        whole = data.find(b"\n", start) >= 0
        if start >= cuts[-1][0] + size and start and whole and len(line) < CUT_LINE_MAX \
                and is_game_line(line.rstrip(b"\r")) and data[:start].strip():
            cuts.append((start, number))
    return cuts


@pytest.mark.parametrize("trial", range(12))
def test_each_share_starts_at_the_first_game_line_past_its_size(tmp_path, trial):
    rng = random.Random(trial)
    kinds = KINDS if trial % 3 == 0 else KINDS[:9]
    lines = [k % i if b"%d" in k else k for i, k in enumerate(rng.choice(kinds) for _ in range(rng.randint(20, 300)))]
    data = b"\n".join(lines) + (b"\n" if trial % 2 else b"")
    path = tmp_path / "games.jsonl"
    path.write_bytes(data)
    for size in (1, 50, 1000, 70_000):
        with open(path, "rb") as f:
            ranges = list(plan_ranges(f, str(path), size))
        assert [(r.start, r.line0) for r in ranges] == _expected_cuts(data, size)
        assert [r.end for r in ranges] == [r.start for r in ranges[1:]] + [len(data)]
