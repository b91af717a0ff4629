import os
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
    from oracle.games.mindbug.cards.compiled import snapshot

    restore = snapshot()
    yield
    restore()


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def rng():
    return random.Random(20261125)


# -- the tests run the interpreted code ------------------------------------
# The .py files of the checkout are the reference, and what a test changes
# (monkeypatching, mutation checks) must be what runs. A compiled module
# (mypyc, oracle/native.py) loaded instead of its .py file would shadow
# them silently: the run stops at once instead. MB_ORACLE_TEST_COMPILED=1
# says that a run means to test a compiled build.
COMPILED_OK = "MB_ORACLE_TEST_COMPILED"


def not_interpreted(modules: dict) -> list[str]:
    """The oracle modules of `modules` (as sys.modules) not loaded from a .py file of this checkout."""
    bad = []
    for name, m in list(modules.items()):
        if name != "oracle" and not name.startswith("oracle."):
            continue
        f = getattr(m, "__file__", None)
        if f is None:
            continue
        path = Path(f).resolve()
        if path.suffix != ".py" or ROOT not in path.parents:
            bad.append(f"{name} ({f})")
    return sorted(bad)


def _refuse_compiled(where: str) -> None:
    if os.environ.get(COMPILED_OK, "") not in ("", "0"):
        return
    import oracle

    bad = not_interpreted(sys.modules) + [f"{n} (compiled, importable)" for n in oracle.compiled_modules()]
    if bad:
        raise pytest.UsageError(
            f"{where}: the tests must run the interpreted .py files of {ROOT}, but these oracle modules are "
            f"compiled or come from elsewhere: {', '.join(bad)}. Use an editable install (pip install -e "
            f"'.[test]'), remove the compiled files from the source tree, or set {COMPILED_OK}=1 to test a "
            "compiled build on purpose.")


def pytest_configure(config):
    _refuse_compiled("before the tests")


def pytest_sessionfinish(session, exitstatus):
    try:
        _refuse_compiled("after the tests")
    except pytest.UsageError as e:
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
        print(f"\nERROR: {e}", file=sys.stderr)
