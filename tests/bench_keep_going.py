"""What `verify --keep-going` costs against plain verify on games that
break the rules all along.

    python tests/bench_keep_going.py [GAMES] [ROUNDS]

Self-plays GAMES games (default 200, en-revised, a claim each turn) and
breaks each of them: its deal leaves a card out (BAD_SETUP, which plain
verify stops at and --keep-going plays past) and every third state claim
adds a life to player 0 (a divergence, then a resumption at the next claim).
`mb-oracle bench` counts the same games (oracle.games.mindbug.replay.bench,
oracle.replay.counting), 24 of them by default.

With valgrind on the PATH, the measure is instructions: `mb-oracle verify
--format json`, plain and with --keep-going, each run under cachegrind on a
quarter of the games and on all of them; the slope between the two runs is
the cost of a game (Python's start and the imports drop out). Beside it,
the wall-clock of the same verification in this process (the two taking
turns for ROUNDS rounds, default 5, best of each). Prints each ratio beside
the 3x target; exit status 1 when the instructions' ratio (without
valgrind, the wall-clock's) misses it.
"""

from __future__ import annotations

import io
import sys
import tempfile

from oracle.games.mindbug.replay.bench import broken
from oracle.replay.bench import interleaved_best
from oracle.replay.counting import KEEP_GOING_TARGET as TARGET, count_broken, valgrind
from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game


def broken_games(games: int, seed: int = 1) -> bytes:
    """The broken games (oracle.games.mindbug.replay.bench.broken) as a file's bytes."""
    return b"".join(line + b"\n" for line in broken(games, seed))


def counted(games: int) -> tuple[float, float]:
    """(instructions a game of plain verify, of verify --keep-going): each
    the slope between runs on a quarter of the games and on all of them, as
    `mb-oracle bench` counts them."""
    with tempfile.TemporaryDirectory(prefix="mb-bench-kg-") as folder:
        counts = count_broken(games, 1, folder)
    return counts.plain, counts.keep_going


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    raws = list(split_games(io.BytesIO(broken_games(games)), "<bench>"))
    findings = {}

    def plain():
        findings["plain"] = sum(len(verify_game(r).findings) for r in raws)

    def kept():
        findings["kept"] = sum(len(verify_game(r, keep_going=True).findings) for r in raws)

    best_plain, best_kept = interleaved_best([plain, kept], rounds)
    wall = best_kept / best_plain
    print(f"{games} broken games: plain {best_plain:.2f} s ({findings['plain']} findings), "
          f"--keep-going {best_kept:.2f} s ({findings['kept']} findings), best of {rounds}")
    print(f"wall-clock:   --keep-going / plain {wall:.2f}x (target: at most {TARGET:.0f}x)")
    if valgrind() is None:
        print("instructions: valgrind is not on PATH, so none are counted; the wall-clock ratio decides")
        return 0 if wall <= TARGET else 1
    per_plain, per_kept = counted(games)
    ratio = per_kept / per_plain
    print(f"instructions: plain {per_plain:,.0f} a game, --keep-going {per_kept:,.0f} a game "
          f"(cachegrind, the slope between {max(1, games // 4)} and {games} games): "
          f"--keep-going / plain {ratio:.2f}x (target: at most {TARGET:.0f}x)")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
