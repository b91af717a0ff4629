"""`python tests/bench_html_open.py` without the test extra says what is
missing in one line and exits 2, without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = ROOT / "tests" / "bench_html_open.py"


@pytest.mark.parametrize("package", ["playwright", "pytest"])
def test_a_missing_package_is_named_in_one_line(package, tmp_path):
    # A package of that name that cannot be imported, ahead of the installed one.
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text(
        f"raise ModuleNotFoundError(\"No module named '{package}'\", name={package!r})\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, str(SCRIPT), "10"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f"the Python package {package} is not installed" in lines[0]
    assert "pip install -e '.[test]'" in lines[0]


@pytest.mark.parametrize("given", ["ten", "0", "-5"])
def test_a_bad_count_of_games_is_a_usage_error(given):
    done = subprocess.run([sys.executable, str(SCRIPT), given], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("usage: python tests/bench_html_open.py [GAMES]")
