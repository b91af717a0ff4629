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
