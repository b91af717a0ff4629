import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run `mb-oracle` as a user would, in a fresh process."""
    return subprocess.run([sys.executable, "-m", "oracle", *args], input=input, capture_output=True, cwd=ROOT)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def rng():
    return random.Random(20261125)
