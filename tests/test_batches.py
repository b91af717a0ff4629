"""The compiled build's look at a batch of lines (oracle.replay.batches)
answers as the interpreted reader's own: `min` of the lines for a blank or
space-led line, `reader._maybe_games` for the lines that may be game lines.
(The tests run the interpreted functions; tests/test_compiled_identity.py
checks that the compiled reader gives the same reports.)"""

from __future__ import annotations

import io

from hypothesis import given, settings, strategies as st

from oracle.replay import batches
from oracle.replay.reader import _maybe_games, split_games

# Lines made of pieces that matter here: "game" in quotes or not, blanks and
# control bytes at a line's start, empty lines.
_PIECES = [b'{"t":"game"', b'"game"', b'"game', b'game"', b'{"t":"pass","p":1}', b" ", b"\t", b"\x00", b"\x1f",
           b"!", b"{", b"}", b'"', b"x", b"\xef\xbb\xbf", b"\xc3\xa9"]
_lines = st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map(b"".join), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_lines)
def test_a_low_line_is_found_as_min_finds_it(lines):
    assert batches.low_line(lines) == (not min(lines)[:1] > b" ")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_lines, st.binary(max_size=20).filter(lambda b: b"\n" not in b))
def test_the_lines_that_may_be_game_lines_are_those_the_reader_finds(lines, rest):
    # A block as the reader cuts it: its lines, each ending in a line break, then the start of the next.
    block = b"".join(line + b"\n" for line in lines) + rest
    end = block.rfind(b"\n")
    assert block[:end].split(b"\n") == lines
    assert batches.game_marks(block, end, lines) == _maybe_games(block, end, lines)


def test_game_lines_split_a_stream_into_games_in_either_build():
    # The reader on a stream of two games with blank and space-led lines between them.
    data = (b'{"t":"game","id":"a"}\n{"t":"pass","p":0}\n\n  \n'
            b'{"t":"game","id":"b"}\n {"t":"pass","p":1}\n{"t":"note","text":"\\"game\\""}\n')
    games = list(split_games(io.BytesIO(data), "<test>"))
    assert [g.lines[0] for g in games] == [(1, b'{"t":"game","id":"a"}'), (5, b'{"t":"game","id":"b"}')]
    assert [n for n, _ in games[1].lines] == [5, 6, 7]
