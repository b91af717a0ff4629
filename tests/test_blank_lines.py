"""Blank and space-led lines take the reader's fast path: a stream of blank
lines costs no more per byte than game data, and the lines kept are those
the line-by-line reading keeps, with the same numbers."""

import gzip
import io

import pytest
from conftest import ROOT, run_cli

from oracle.replay import reader
from oracle.replay.reader import split_games

LOG = (ROOT / "replays" / "conforming" / "en-first.jsonl").read_bytes()


def counted(monkeypatch) -> list:
    """A list that grows by one for each line the reader looks at alone
    (its slow path: `may_be_game_line` of that line)."""
    seen = []
    plain = reader.may_be_game_line

    def looked_at(raw):
        seen.append(raw)
        return plain(raw)

    monkeypatch.setattr(reader, "may_be_game_line", looked_at)
    return seen


def kept(data: bytes) -> list:
    return [x for g in split_games(io.BytesIO(data), "<test>") for x in g.lines]


def by_hand(data: bytes) -> list:
    """The lines a game keeps, read one by one: every line but the blank ones, numbered from 1."""
    return [(i + 1, x.rstrip(b"\r")) for i, x in enumerate(data.split(b"\n")) if x.strip()]


@pytest.mark.parametrize("blank", [b"", b"   ", b" \t \x0b\x0c"])
def test_a_run_of_blank_lines_is_passed_without_looking_at_each(monkeypatch, blank):
    data = LOG + (blank + b"\n") * 300_000 + LOG
    seen = counted(monkeypatch)
    lines = kept(data)
    assert lines == by_hand(data)
    # Only the lines that may be game lines are looked at alone (the run
    # of blank lines, 300,000 of them, not one by one).
    assert len(seen) <= data.count(b"\"game\""), len(seen)   # each: is_game_line


def test_blank_and_space_led_lines_among_a_games_lines_keep_the_runs(monkeypatch):
    lines = LOG.split(b"\n")
    data = b"\n".join(x for line in lines for x in (line, b"", b"  ", b"  " + line if b'"game"' not in line else b"")) \
        + b"\n"
    seen = counted(monkeypatch)
    assert kept(data) == by_hand(data)
    assert len(seen) <= data.count(b"\"game\""), len(seen)   # each: is_game_line


def test_a_gzip_stream_of_blank_lines_between_two_games_gives_their_two_verdicts(tmp_path):
    path = tmp_path / "blank.jsonl.gz"
    path.write_bytes(gzip.compress(LOG + b"\n" * 2_000_000 + LOG))
    r = run_cli("verify", str(path))
    games = LOG.count(b'"t":"game"')
    assert r.returncode == 0 and f"{2 * games} games: {2 * games} conform" in r.stdout.decode(), r.stdout[-300:]
