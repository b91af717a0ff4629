"""How fast a 10,000-game HTML report opens in headless Chromium.

    python tests/bench_html_open.py [GAMES]

Writes a page of GAMES games (default 10,000: the sample games over and
over under new ids, with as many boards as a verify run draws), opens it
five times, and prints the best time to the load event, the time to open
a game, and the ratio of the load time to the 2-second target.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Playwright and pytest (which browser.py uses) come with the test extra.
try:
    from playwright.sync_api import sync_playwright

    from browser import chromium_path
    from html_pages import large_page, sample_games
except ImportError as e:
    MISSING = (e.name or "").partition(".")[0] or "a module"
else:
    MISSING = None

TARGET = 2.0


def main() -> int:
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and not (sys.argv[1].isdigit() and int(sys.argv[1]) > 0)):
        print("usage: python tests/bench_html_open.py [GAMES] (GAMES: a whole number above 0)", file=sys.stderr)
        return 2
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    if MISSING:
        print(f"bench_html_open: the Python package {MISSING} is not installed; install the test extra: "
              "pip install -e '.[test]'", file=sys.stderr)
        return 2
    path = chromium_path()
    if path is None:
        print("no Chromium found; install it with `apt-get install chromium`", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "big.html"
        t = time.perf_counter()
        large_page(sample_games(root), n, out)
        written = time.perf_counter() - t
        size = out.stat().st_size
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
            loads, opens = [], []
            for _ in range(5):
                pg = b.new_page(viewport={"width": 1280, "height": 900})
                t = time.perf_counter()
                pg.goto(out.as_uri(), wait_until="load")
                loads.append(time.perf_counter() - t)
                t = time.perf_counter()
                pg.evaluate("window.mbReport.openGame(1)")
                pg.wait_for_selector("#board")
                opens.append(time.perf_counter() - t)
                pg.close()
            b.close()
    best = min(loads)
    print(f"{n} games, page {size / 1e6:.1f} MB written in {written:.1f} s")
    print(f"open: best {best:.2f} s of 5 (worst {max(loads):.2f} s); open a game: {min(opens) * 1000:.0f} ms")
    print(f"ratio to the {TARGET:.0f} s target: {best / TARGET:.2f}")
    return 0 if best < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
