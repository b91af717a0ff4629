"""What the fuzz inputs must satisfy through the command line, each in a
subprocess: exit 0, 1 or 2, no traceback, no hang, and the verdicts and
responses the same as in process (checks.py). Only a sample of the inputs
goes this way: a process costs its start."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .checks import Tally, rpc_lines


def run_cli(args: list[str], seconds: float, cwd: str | None = None) -> subprocess.CompletedProcess | None:
    """`mb-oracle ARGS` in a subprocess; None when it did not end within `seconds`."""
    try:
        return subprocess.run([sys.executable, "-m", "oracle", *args], capture_output=True, timeout=seconds,
                              cwd=cwd, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def cli_problem(tally, target, data, suffix, r, allowed=(0, 1, 2)) -> bool:
    """Record a hang, a traceback or an exit status not in `allowed` of the
    command run on `data` (`r`, from run_cli); whether there was one."""
    if r is None:
        tally.add("hang", target, f"{target} (command line)", "the command did not finish in time", data, suffix)
        return True
    if b"Traceback" in r.stderr or r.returncode not in allowed:
        err = r.stderr.decode("utf-8", "replace")
        last = err.strip().splitlines()[-1] if err.strip() else f"exit {r.returncode}"
        tally.add("cli", target, f"{target}: {last[:160]}", f"exit {r.returncode}\n{err}", data, suffix)
        return True
    return False


def cli_stream(tally: Tally, data: bytes, plain: bytes, seconds: float, keep_going: bool,
               jobs: bool = False) -> None:
    """`mb-oracle verify --format json FILE`: exit 0/1/2, no traceback, a report
    line per game read; with `jobs`, the same output, byte for byte, with -j 2."""
    from ..replay.reader import split_games

    tally.cli_runs += 1
    games_read = sum(1 for _ in split_games(io.BytesIO(plain), "<fuzz>"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        path.write_bytes(data)
        args = ["verify", "--format", "json", *(["--keep-going"] if keep_going else []), str(path)]
        r = run_cli(args, seconds)
        parallel = run_cli([*args, "-j", "2"], seconds * 2) if jobs and r is not None else None
    if cli_problem(tally, "cli-verify", data, ".jsonl", r):
        return
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    out = sum(1 for x in lines if x.get("t") == "game")
    if out != games_read:
        tally.add("count", "cli-verify", "cli-verify: verdicts", f"{out} verdicts for {games_read} games", data,
                  ".jsonl")
    if jobs and not cli_problem(tally, "cli-verify-j2", data, ".jsonl", parallel) \
            and (parallel.stdout != r.stdout or parallel.returncode != r.returncode):
        tally.add("count", "cli-verify-j2", "cli-verify: -j 2 differs from one job",
                  f"exit {r.returncode} and {parallel.returncode}; the reports differ", data, ".jsonl")


def cli_scenarios(tally: Tally, data: bytes, seconds: float) -> None:
    tally.cli_runs += 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"
        path.write_bytes(data)
        r = run_cli(["scenarios", "--format", "json", str(path)], seconds)
    cli_problem(tally, "cli-scenarios", data, ".yaml", r)


def cli_rpc(tally: Tally, session: list, seconds: float, folders=(), paths=None) -> None:
    """`mb-oracle serve` as a process: the same responses, byte for byte, as
    the service gives in this process."""
    sent, got = rpc_lines(session, folders, paths)
    data = b"\n".join(sent) + b"\n"
    tally.cli_runs += 1
    try:
        r = subprocess.run([sys.executable, "-m", "oracle", "serve", *(f"--scenarios={f}" for f in folders)],
                           input=data, capture_output=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        r = None
    if cli_problem(tally, "cli-rpc", data, ".jsonl", r, allowed=(0,)):
        return
    if r.stdout.splitlines() != got:
        tally.add("count", "cli-rpc", "cli-rpc: responses", "the command's responses differ from the service's",
                  data, ".jsonl")
