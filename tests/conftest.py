import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run `mb-oracle` as a user would, in a fresh process."""
    return subprocess.run([sys.executable, "-m", "oracle", *args], input=input, capture_output=True, cwd=ROOT)


@pytest.fixture(autouse=True)
def _card_database():
    """Cards a test declares (card files, generated designs) are forgotten
    after it, so that no test sees another's cards."""
    from oracle.cards.compiled import snapshot

    restore = snapshot()
    yield
    restore()


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def rng():
    return random.Random(20261125)
