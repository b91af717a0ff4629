"""Headless Chromium for the browser tests, driven by Playwright.

Chromium is the system's (Debian: `apt-get install chromium`; .ci/run
installs it), or the one named by MB_ORACLE_CHROMIUM; Playwright's own
browser download is not used. `launch()` skips the calling test, naming
what is missing, when either cannot be had; the fixture `browser` gives a
test file one browser for all its tests."""

from __future__ import annotations

import os
import shutil
import struct
import zlib

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_path() -> str | None:
    given = os.environ.get("MB_ORACLE_CHROMIUM")
    if given:
        return given if os.path.exists(given) else None
    for n in NAMES:
        p = shutil.which(n)
        if p:
            return p
    return None


def launch(playwright_api):
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (looked for " + ", ".join(NAMES) + " on PATH and MB_ORACLE_CHROMIUM); "
                    "install it with `apt-get install chromium` (.ci/run does)")
    return playwright_api.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the tests of a module (a test file imports this
    fixture by name)."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def png_colours(png: bytes, limit: int = 64) -> int:
    """How many distinct colours a PNG (8-bit RGB or RGBA, as Chromium
    writes them) holds, counting up to `limit`."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            seen.add(bytes(line[x:x + 3]))
            if len(seen) >= limit:
                return len(seen)
        prev = line
    return len(seen)
