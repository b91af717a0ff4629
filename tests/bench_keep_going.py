"""What `verify --keep-going` costs against plain verify on games that
break the rules all along.

    python tests/bench_keep_going.py [GAMES] [ROUNDS]

Self-plays GAMES games (default 200, en-revised, a claim each turn) and
breaks each of them: its deal leaves a card out (BAD_SETUP, which plain
verify stops at and --keep-going plays past) and every third state claim
adds a life to player 0 (a divergence, then a resumption at the next claim).
Verifies them all in this process, plain and with --keep-going, the two
taking turns for ROUNDS rounds (default 5), and prints the best time of
each and their ratio, to the 3x target. Exit status 1 when it misses it.
"""

from __future__ import annotations

import io
import sys

import msgspec

from oracle.replay.bench import interleaved_best
from oracle.replay.reader import split_games
from oracle.replay.selfplay import selfplay_lines
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
    ratio = best_kept / best_plain
    print(f"{games} broken games: plain {best_plain:.2f} s ({findings['plain']} findings), "
          f"--keep-going {best_kept:.2f} s ({findings['kept']} findings), best of {rounds}")
    print(f"--keep-going / plain: {ratio:.2f}x (target: at most {TARGET:.0f}x)")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
