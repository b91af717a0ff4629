"""What `verify` loads before its first game: a worker process (and the
command itself) never imports the heavy packages other commands use."""

import json
import subprocess
import sys

from conftest import ROOT

HEAVY = ("yaml", "deepdiff", "jinja2", "dask", "distributed", "hypothesis", "fsspec", "xml", "http", "email")


def loaded_after(*modules: str) -> set[str]:
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "import json; print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=True).stdout
    return {m.split(".")[0] for m in json.loads(out)}


def test_a_worker_imports_no_heavy_package():
    # What a worker needs: the pool (the module a spawned worker imports) and one game's verification.
    assert not loaded_after("oracle.replay.parallel", "oracle.replay.jobs").intersection(HEAVY)


def test_the_verify_command_imports_no_heavy_package_before_its_reports_need_one():
    assert not loaded_after("oracle.cli", "oracle.replay.command", "oracle.replay.outputs",
                            "oracle.replay.progress", "oracle.replay.parallel").intersection(HEAVY)
