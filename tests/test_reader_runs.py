"""The reader takes the lines between possible game lines in runs: the games
and line numbers it gives are those of reading the input line by line."""

import io
import random

import pytest

from oracle.replay import reader
from oracle.replay.limits import RefusedLine
from oracle.replay.reader import RawGame, is_game_line, is_json_object, split_games

GAME = b'{"t":"game","format":"mb-replay/1","id":"g%d","edition":"en-revised"}'
LINES = [
    GAME,
    GAME,
    b'{"id":"k%d","edition":"fr-first","format":"mb-replay/1","t":"game"}',  # keys in another order
    b'{"t":"play","p":0,"card":%d}',
    b'{"t":"play","p":1,"card":%d}',
    b'{"t":"state","life":[3,%d]}',
    b'{"t":"note","text":"the \\"game\\" %d"}',   # "game" in quotes, not a game line
    b'{"t":"note","text":"game %d"}',
    b'{"t":"game" broken %d',                     # not JSON, but its "t" reads "game": a (broken) game line
    b'{"t":"play" broken %d',                     # not JSON, not a game line
    b'{"t":"g\\u0061me","id":"e%d"}',             # a game line with a letter escaped
    b'{"t":"note","text":"\\u0067%d"}',           # a letter escaped, not a game line
    b'{"t":"play","p":0,"card":%d}\r',            # CRLF line ending
    b"",                                          # blank lines
    b"  \t",
    b' {"t":"play","p":0,"card":%d}',             # led by a space, not blank
]


def line_by_line(data: bytes, name: str, max_game_lines: int) -> list[RawGame]:
    """What the reader gives, worked out one line at a time (no over-long lines here)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    games: list[RawGame] = []
    current = None
    skipping = False
    text = True           # no line so far is a JSON object: maybe not JSON Lines at all
    rows = data.split(b"\n")
    if rows[-1] == b"":
        rows.pop()
    for n, raw in enumerate(rows, 1):
        raw = raw.rstrip(b"\r") if raw.endswith(b"\r") else raw
        if is_game_line(raw):
            if current is not None:
                games.append(current)
            current, skipping, text = RawGame(name, [(n, raw)]), False, False
            continue
        if skipping or not raw.strip():
            continue
        text = text and not is_json_object(raw)
        if current is None:
            current = RawGame(name, [(n, raw)], kind="orphan")
        elif len(current.lines) < max_game_lines:
            current.lines.append((n, raw))
        elif text:
            current.more += 1
        elif current.kind == "orphan":
            games.append(current)
            current = RawGame(name, [(n, raw)], kind="orphan")
        else:
            current.lines.append((n, b"<refused>"))
            skipping = True
    if current is not None:
        if text:
            current.kind = "text"
        games.append(current)
    return games or [RawGame(name, [], kind="empty")]


def shown(games) -> list:
    return [(g.kind, [(n, b"<refused>" if b.__class__ is RefusedLine else bytes(b)) for n, b in g.lines], g.more)
            for g in games]


def random_stream(rng: random.Random) -> bytes:
    n = rng.choice([0, 1, 5, 40, 400, 3000])
    weights = [3, 3, 1, 30, 30, 10, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1] if rng.random() < 0.5 else [1] * len(LINES)
    kinds = rng.choices(range(len(LINES)), weights, k=n)
    data = b"\n".join(LINES[k].replace(b"%d", str(i).encode()) for i, k in enumerate(kinds))
    if rng.random() < 0.5:
        data += b"\n"
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    return data


@pytest.mark.parametrize("block", [3, 64, 1000, 1 << 16])
def test_games_and_line_numbers_are_those_of_reading_line_by_line(monkeypatch, block):
    monkeypatch.setattr(reader, "_BLOCK", block)
    rng = random.Random(block)
    for _ in range(60):
        data = random_stream(rng)
        got = shown(split_games(io.BytesIO(data), "x"))
        assert got == shown(line_by_line(data, "x", reader.MAX_GAME_LINES))


@pytest.mark.parametrize("block", [64, 1 << 16])
def test_a_game_too_long_is_cut_at_the_same_line_whether_read_in_runs_or_not(monkeypatch, block):
    monkeypatch.setattr(reader, "_BLOCK", block)
    monkeypatch.setattr(reader, "MAX_GAME_LINES", 7)
    rng = random.Random(7)
    for _ in range(60):
        data = random_stream(rng)
        assert shown(split_games(io.BytesIO(data), "x")) == shown(line_by_line(data, "x", 7))


def test_an_over_long_line_is_refused_alike_in_any_block_size(monkeypatch):
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 100)
    rng = random.Random(3)
    for _ in range(40):
        lines = [LINES[rng.randrange(len(LINES))].replace(b"%d", b"x" * rng.choice([1, 1, 1, 150, 400]))
                 for _ in range(rng.randrange(60))]
        data = b"\n".join(lines)
        seen = []
        for block in (5, 128, 1 << 16):
            monkeypatch.setattr(reader, "_BLOCK", block)
            # (how much of a refused line's start is kept depends on the block size)
            seen.append([(g.kind, [(n, bytes(b[:60]), getattr(b, "reason", None)) for n, b in g.lines])
                         for g in split_games(io.BytesIO(data), "x")])
        assert seen[0] == seen[1] == seen[2]


def test_a_share_numbers_its_lines_after_the_lines_before_it():
    data = b"\n".join(LINES[k].replace(b"%d", b"1") for k in (0, 3, 13, 4, 2, 5)) + b"\n"
    games = list(split_games(io.BytesIO(data), "x", line0=120))
    assert [[n for n, _ in g.lines] for g in games] == [[121, 122, 124], [125, 126]]


@pytest.mark.parametrize("data", [b"", b"\n", b"\n\n\r\n", b'{"t":"game"}', b'{"a":1}\n{"b":2}\n', b"x" * 70000 + b"\n" * 3,
                                  b"\r\r\n\x00\n" * 1000])
def test_newlines_counts_as_bytes_count(data):
    # The parent of -j N numbers its shares' lines with it: a miscount would shift every line number after.
    from oracle.replay.reader import newlines

    assert newlines(data) == data.count(b"\n")
    assert newlines(bytearray(data)) == data.count(b"\n")
