"""Two classes of hostile surroundings rather than hostile bytes, each a
target of Mindbug's `mb-oracle fuzz`.

`outputs`: an output that is an input (the same path, a hard or symbolic
link, another spelling, standard input named as a path), a link out of a
draft folder, a draft someone edited, a folder or a missing folder where a
file goes, an input that breaks. Whatever the case, no input and no file
outside the output folder changes (but the file a link given as an output
leads to), an output is either the file that was there or a complete new
one, nothing temporary is left, and a refusal is exit status 2 with a
message, never a traceback.

`adapters`: engine adapters with stubborn children (stubborn.py):
`conform` must end within its time limits, give a report per game, and
leave no process of the adapter running.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import strategies as st

from ....fuzz import cli_checks
from ....fuzz.processes import left_running
from .stubborn import CHILDREN

# -- outputs ----------------------------------------------------------------------------

FILE_COMMANDS = ("verify-json", "verify-junit", "verify-html", "show", "scenarios-json", "scenarios-html")
FILE_RELATIONS = ("same", "hardlink", "symlink", "dotdot", "stdin", "existing", "new", "symlink-out", "dangling",
                  "folder", "missing-folder", "devnull")
DRAFT_RELATIONS = ("edited", "untouched", "symlink-out", "dangling-out", "symlink-in", "input", "folder",
                   "folder-is-link")
REFUSED = ("same", "hardlink", "symlink", "dotdot", "stdin")
OLD = b"a file that was there before\n"


@st.composite
def output_case(draw) -> dict:
    """A command, where its output lies against its inputs, whether its
    input breaks, and (drafts) whether it forces."""
    if draw(st.integers(0, 3)) == 0:
        return {"command": "hunt-cards", "relation": draw(st.sampled_from(DRAFT_RELATIONS)),
                "force": draw(st.booleans())}
    return {"command": draw(st.sampled_from(FILE_COMMANDS)), "relation": draw(st.sampled_from(FILE_RELATIONS)),
            "broken": draw(st.booleans())}


def _snapshot(root: Path) -> dict[str, bytes | str]:
    """Every name under `root`: a file's bytes, a link's target, `<dir>`."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath, name)
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[rel] = "<dir>"
            else:
                out[rel] = p.read_bytes()
    return out


class OutputSetup:
    """A folder with the inputs, the output where the case puts it, and a
    file outside that nothing may touch."""

    def __init__(self, root: Path, case: dict, samples: dict[str, bytes]):
        self.root, self.case = root, case
        self.work, self.outside = root / "work", root / "outside"
        self.work.mkdir()
        self.outside.mkdir()
        self.victim = self.outside / "precious.txt"
        self.victim.write_bytes(OLD)
        self.stdin: str | None = None
        if case["command"] == "hunt-cards":
            self._drafts(samples)
        else:
            self._file(samples)

    def _file(self, samples) -> None:
        case = self.case
        scen = case["command"].startswith("scenarios")
        self.input = self.work / ("s.yaml" if scen else "games.jsonl")
        data = samples["scenario" if scen else "log"]
        self.input.write_bytes(data[: len(data) // 3] if case["broken"] else data)
        rel = case["relation"]
        out = self.work / ("report.out" if not case["command"].startswith("show") else "page.html")
        given = "-" if rel == "stdin" else str(self.input)
        if rel == "same":
            out = self.input
        elif rel == "hardlink":
            os.link(self.input, out)
        elif rel == "symlink":
            out.symlink_to(self.input)
        elif rel == "dotdot":
            (self.work / "sub").mkdir()
            out = self.work / "sub" / ".." / self.input.name
        elif rel == "stdin":
            self.stdin, out = str(self.input), Path("/dev/stdin")
        elif rel == "existing":
            out.write_bytes(OLD)
        elif rel == "symlink-out":
            out.symlink_to(self.victim)
        elif rel == "dangling":
            out.symlink_to(self.work / "not-yet.out")
        elif rel == "folder":
            out.mkdir()
        elif rel == "missing-folder":
            out = self.work / "no" / "such" / out.name
        elif rel == "devnull":
            out = Path(os.devnull)
        self.output = out
        kind = case["command"].split("-", 1)[-1]
        if case["command"] == "show":
            self.args = ["show", given, "-o", str(out)]
        elif scen:
            self.args = ["scenarios", given, "--output", f"{kind}={out}"]
        else:
            self.args = ["verify", given, "--format", "json", "--output", f"{kind}={out}"]

    def _drafts(self, samples) -> None:
        case = self.case
        cards = self.work / "designed-cards.yaml"
        cards.write_bytes(samples["cards"])
        self.input = cards
        out = self.work / "drafts"
        rel = case["relation"]
        if rel == "folder-is-link":
            (self.outside / "drafts").mkdir()
            out.symlink_to(self.outside / "drafts")
        else:
            out.mkdir()
        draft = out / samples["draft"]
        if rel == "edited":
            draft.write_bytes(samples["draft-text"] + b"# reviewed\n")
        elif rel == "untouched":
            draft.write_bytes(samples["draft-text"])
        elif rel == "symlink-out":
            draft.symlink_to(self.victim)
        elif rel == "dangling-out":
            draft.symlink_to(self.outside / "new.yaml")
        elif rel == "symlink-in":
            (out / "mine.yaml").write_bytes(OLD)
            draft.symlink_to(out / "mine.yaml")
        elif rel == "input":
            cards.rename(draft)
            self.input = cards = draft
        elif rel == "folder":
            draft.mkdir()
        self.output = draft
        self.args = ["hunt", "--cards", str(cards), "--budget", "1", "--out", str(out),
                     *(["--force"] if case["force"] else [])]


def _make_samples(log: bytes, scenario: bytes, cards: bytes) -> dict:
    """The inputs a case copies, and the draft `hunt --cards` writes for the cards."""
    from ..hunt.card_hunt import draft_path, hunt_cards, write

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "designed-cards.yaml"
        path.write_bytes(cards)
        found = hunt_cards(path, Path(tmp) / "drafts", budget=1, seed=0)
        write(found[0], Path(tmp) / "drafts")
        draft = draft_path(found[0], Path(tmp) / "drafts")
        return {"log": log, "scenario": scenario, "cards": cards, "draft": draft.name,
                "draft-text": draft.read_bytes()}


def judge_outputs(s: OutputSetup, before: dict, code: int, err: str) -> None:
    """What must hold after the command ran (AssertionError otherwise)."""
    case, rel = s.case, s.case["relation"]
    after = _snapshot(s.root)
    left = [k for k in after if k.endswith(".tmp")]
    assert not left, f"outputs temporary files left: {left}"
    assert code in (0, 1, 2), f"outputs exit status: {code}"
    inp = str(s.input.relative_to(s.root))
    assert after.get(inp) == before.get(inp), f"outputs input changed: {case['command']}, {rel}"
    victim = "outside/precious.txt"
    if after[victim] != before[victim]:
        assert case["command"] != "hunt-cards" and rel == "symlink-out", \
            f"outputs file outside changed: {case['command']}, {rel}"
        assert after[victim].rstrip().endswith(COMPLETE[case["command"]]), f"outputs incomplete: {rel}"
    if case["command"] == "hunt-cards":
        if rel in ("symlink-out", "dangling-out", "input") or (rel == "edited" and not case["force"]):
            assert code == 2 and err.strip(), f"outputs draft not refused: {rel}"
        assert "outside/new.yaml" not in after, "outputs draft through a link out of --out: hunt --cards"
        return
    if rel in REFUSED:
        assert code == 2 and "would overwrite" in err, f"outputs over an input not refused: {rel}"
    out = str(s.output.relative_to(s.root)) if s.output.is_relative_to(s.root) else None
    if out is None or rel == "folder":
        return
    if code == 2 and "Error:" in err and out in before:
        assert after.get(out) == before[out], f"outputs changed by a refused run: {rel}"
    written = after.get(out)
    if isinstance(written, bytes) and written != before.get(out):
        assert written.rstrip().endswith(COMPLETE[case["command"]]), f"outputs incomplete: {rel}"


# How each output ends when it is complete.
COMPLETE = {"verify-json": b"}", "verify-junit": b"</testsuites>", "verify-html": b"</html>", "show": b"</html>",
            "scenarios-json": b"}", "scenarios-html": b"</html>"}


def run_outputs_in_process(case: dict, samples: dict) -> None:
    from click.testing import CliRunner

    from ....hunt.command import hunt
    from ....replay.command import verify
    from ....report.command import show
    from ....scenarios.command import scenarios

    if case.get("relation") == "stdin":
        case = {**case, "relation": "same"}     # standard input as a path needs a process of its own
    with tempfile.TemporaryDirectory() as tmp:
        s = OutputSetup(Path(tmp), case, samples)
        before = _snapshot(s.root)
        command = {"verify": verify, "show": show, "scenarios": scenarios, "hunt": hunt}[s.args[0]]
        r = CliRunner().invoke(command, s.args[1:], catch_exceptions=True)
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise r.exception
        judge_outputs(s, before, r.exit_code, r.output)


def run_outputs_cli(case: dict, samples: dict, seconds: float) -> subprocess.CompletedProcess | None:
    """The same case through the command line; None when it did not end in time."""
    with tempfile.TemporaryDirectory() as tmp:
        s = OutputSetup(Path(tmp), case, samples)
        before = _snapshot(s.root)
        stdin = open(s.stdin, "rb") if s.stdin else subprocess.DEVNULL
        try:
            r = subprocess.run([sys.executable, "-m", "oracle", *s.args], stdin=stdin, capture_output=True,
                               timeout=seconds, cwd=tmp)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if s.stdin:
                stdin.close()
        judge_outputs(s, before, r.returncode, r.stderr.decode("utf-8", "replace"))
        return r


# -- adapters -------------------------------------------------------------------------------

REPLY_TIMEOUT = 1.0     # seconds an adapter has to answer, in these cases
CASE_LIMIT = 30.0       # seconds a case may take, all its waits included


@st.composite
def adapter_case(draw) -> dict:
    return {"children": draw(st.lists(st.sampled_from(CHILDREN), max_size=3)),
            "hello": draw(st.sampled_from(("answer", "answer", "answer", "silent", "junk", "exit"))),
            "replies": draw(st.sampled_from(("faithful", "faithful", "error", "silent", "exit"))),
            "quit": draw(st.sampled_from(("exit", "ignore", "deaf"))),
            "seed": draw(st.integers(0, 10**6))}


def adapter_command(case: dict, tag: str) -> str:
    return f"{shlex.quote(sys.executable)} -m oracle.games.mindbug.fuzz.stubborn {shlex.quote(json.dumps({**case, 'tag': tag}))}"


def run_adapter_in_process(tally, case: dict, tag: str) -> None:
    """conform's campaign against the adapter: one report for one game (or
    a clear fault at hello), within the limit, nothing left running."""
    from ....harness.conform import ENGINE_FAULT, Settings
    from ....harness.engine_client import Engine, EngineFault
    from ..harness.conform import Campaign

    start = time.monotonic()
    engine = Engine(adapter_command(case, tag), timeout=REPLY_TIMEOUT)
    try:
        try:
            engine.start()
        except EngineFault as e:
            assert str(e), "adapters hello fault without a message: hello"
        else:
            settings = Settings(budget=1, seed=case["seed"], editions=("en-revised",), shrink=False,
                                max_decisions=40, timeout=REPLY_TIMEOUT)
            reports = list(Campaign(engine, settings, ["en-revised"]).run())
            tally.games_in += 1
            tally.verdicts_out += len(reports)
            assert len(reports) == 1, f"adapters verdicts: {len(reports)} reports for 1 game"
            if reports[0].verdict == "malformed":
                assert reports[0].findings[0].code == ENGINE_FAULT, \
                    "adapters engine fault: a malformed game without ENGINE_FAULT"
    finally:
        try:
            engine.stop()
        finally:
            left = left_running(tag)     # also when the case was cut short (a hang): nothing stays behind
    took = time.monotonic() - start
    assert not left, f"adapters left running: {len(left)} processes of the adapter"
    assert took < CASE_LIMIT, f"adapters too slow: conform took {took:.0f} s"


def run_adapter_cli(case: dict, tag: str, seconds: float) -> subprocess.CompletedProcess | None:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = subprocess.run([sys.executable, "-m", "oracle", "conform", "--engine", adapter_command(case, tag),
                                "--budget", "1", "--seed", str(case["seed"]), "--edition", "en-revised",
                                "--timeout", str(REPLY_TIMEOUT), "--no-shrink", "--max-decisions", "40",
                                "--format", "json", "--out", tmp], capture_output=True, timeout=seconds,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            r = None
    left = left_running(tag)
    assert not left, f"adapters left running: {len(left)} processes of the adapter (command line)"
    return r


# -- the targets, for targets.py ------------------------------------------------------------

class Lazy:
    """A value made the first time it is asked for."""

    def __init__(self, make):
        self.make, self.value = make, None

    def __call__(self):
        if self.value is None:
            self.value = self.make()
        return self.value


def output_samples(games, texts) -> dict:
    """A log, a scenario file and a card file (with the draft the hunt
    writes for it) for the output cases to copy; the cards are forgotten."""
    from ..cards.compiled import snapshot
    from .corpus import MINIMAL_CARDS

    restore = snapshot()
    try:
        return _make_samples(b"\n".join(games[0]) + b"\n", texts[0].encode("utf-8"), MINIMAL_CARDS.encode("utf-8"))
    finally:
        restore()


def check_outputs(case: dict, samples: dict) -> None:
    from ..cards.compiled import snapshot

    restore = snapshot()
    try:
        run_outputs_in_process(case, samples)
    finally:
        restore()


def cli_outputs(tally, case: dict, samples: dict, seconds: float) -> None:

    tally.cli_runs += 1
    data = json.dumps(case).encode()
    try:
        r = run_outputs_cli(case, samples, seconds)
    except AssertionError as e:
        tally.add("count", "cli-outputs", str(e).split(":", 1)[0], str(e), data, ".json")
        return
    cli_checks.cli_problem(tally, "cli-outputs", data, ".json", r)


def cli_adapters(tally, case: dict, tag: str, seconds: float) -> None:

    tally.cli_runs += 1
    data = json.dumps(case).encode()
    try:
        r = run_adapter_cli(case, tag, max(seconds, CASE_LIMIT))
    except AssertionError as e:
        tally.add("count", "cli-adapters", str(e).split(":", 1)[0], str(e), data, ".json")
        return
    cli_checks.cli_problem(tally, "cli-adapters", data, ".json", r)
