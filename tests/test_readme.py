"""The README's Python example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(capsys):
    text = README.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "ILLEGAL_DECISION" in out


def test_readme_opens_with_the_two_commands():
    lines = [line for line in README.read_text().splitlines() if line.startswith("python3 -m venv")]
    assert "mb-oracle verify replays/" in lines[0]
    assert lines[1].endswith("python -m pytest")
    ci = (README.parent / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == lines[1]


def test_readme_counts_the_tests_that_skip_without_chromium(tmp_path):
    """The number of browser tests the README says skip without Chromium
    is the number that do, file by file (run with no Chromium to be found)."""
    import os
    import subprocess
    import sys

    import pytest

    pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed "
                                                      "(pip install -e '.[test]')")
    import xml.etree.ElementTree as ET

    text = " ".join(README.read_text().split())
    total = int(re.search(r"without Chromium, (\d+):", text).group(1))
    per_file = {f: int(n) for n, f in re.findall(r"\((\d+) in `(tests/test_\w+\.py)`\)", text)}
    files = ["tests/test_html_browser.py", "tests/test_beyond_claims.py", "tests/test_board_browser.py"]
    env = dict(os.environ, MB_ORACLE_CHROMIUM=str(tmp_path / "no-chromium"))
    junit = tmp_path / "run.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
                           f"--junitxml={junit}", *files],
                          capture_output=True, text=True, env=env, cwd=README.parent, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    skipped: dict[str, int] = {}
    for case in ET.parse(junit).iter("testcase"):
        skip = case.find("skipped")
        if skip is not None and "no Chromium found" in skip.get("message", ""):
            where = "tests/" + case.get("classname").split(".")[-1] + ".py"
            skipped[where] = skipped.get(where, 0) + 1
    assert sum(skipped.values()) == total, (total, skipped)
    for f in files:
        assert per_file.get(f) == skipped.get(f), (f, per_file.get(f), skipped)
