"""What `verify --keep-going` costs against plain verify on games that
break the rules all along.

    python tests/bench_keep_going.py [GAMES] [ROUNDS]

Self-plays GAMES games (default 200, en-revised, a claim each turn) and
breaks each of them: its deal leaves a card out (BAD_SETUP, which plain
verify stops at and --keep-going plays past) and every third state claim
adds a life to player 0 (a divergence, then a resumption at the next claim).

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
import os
import sys
import tempfile

import msgspec

from oracle.replay.bench import fit, interleaved_best
from oracle.replay.counting import counted_env, instructions, valgrind
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

TARGET = 3.0


def broken_games(games: int, seed: int = 1, every: int = 3) -> bytes:
    """GAMES self-played games, each with a broken deal and a wrong life
    total on every `every`-th state claim."""
    out, claims = [], 0
    for raw in selfplay_lines(games, seed, "en-revised", "random", "turn"):
        line = msgspec.json.decode(raw)
        if line["t"] == "game":
            claims = 0
        elif line["t"] == "setup":
            line["unused"] = line["unused"][:-1]        # a card dealt nowhere
        elif line["t"] == "state":
            claims += 1
            if claims % every == 0:
                line["life"] = [line["life"][0] + 1, line["life"][1]]
        out.append(msgspec.json.encode(line))
    return b"\n".join(out) + b"\n"


def counted(games: int) -> tuple[float, float]:
    """(instructions a game of plain verify, of verify --keep-going): each
    the slope between runs on a quarter of the games and on all of them."""
    small = max(1, games // 4)
    env = counted_env()
    with tempfile.TemporaryDirectory(prefix="mb-bench-kg-") as folder:
        paths = {}
        for n in (small, games):
            paths[n] = os.path.join(folder, f"broken-{n}.jsonl")
            with open(paths[n], "wb") as f:
                f.write(broken_games(n))
        verify = [sys.executable, "-m", "oracle", "verify", "--format", "json", "--no-progress"]
        counts = {}
        for mode in ((), ("--keep-going",)):
            for n in (small, games):
                counts[mode, n] = instructions([*verify, *mode, paths[n]], env, folder, statuses=(1,))
    plain = fit(small, counts[(), small], games, counts[(), games]).per_game
    kept = fit(small, counts[("--keep-going",), small], games, counts[("--keep-going",), games]).per_game
    return plain, kept


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
