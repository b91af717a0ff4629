"""What `verify` loads before its first game: a worker process (and the
command itself) never imports the heavy packages other commands use."""

import json
import subprocess
import sys

import pytest

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


# What a command run loads, from its start to its exit: the modules in
# sys.modules when the command ends (a structural check of its start-up).
RUN = """import json, sys
from oracle.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
"""

# Every command's own module: `--help` lists the commands without them.
COMMAND_MODULES = ("oracle.replay.command", "oracle.scenarios.command", "oracle.hunt.command", "oracle.fuzz.command",
                   "oracle.harness.command", "oracle.report.command")
# What verifying a plain log with one job and the human report never needs:
# the shares and workers of -j, the JUnit writer, OpenSSL (hashlib), and the
# packages of other commands.
NOT_FOR_ONE_LOG = ("oracle.replay.shares", "oracle.replay.worker", "oracle.replay.cluster", "oracle.junit",
                   "oracle.report", "_hashlib", "hashlib", "secrets", "tempfile", "pickle", "multiprocessing")


def loaded_by_run(tmp_path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    subprocess.run([sys.executable, "-c", RUN, str(out), *args], cwd=ROOT, capture_output=True, check=True)
    return set(json.loads(out.read_text()))


# The same run through the program's entry point (oracle.launch), which
# hands `verify PATH...` with no option to its click-free fast path.
# The modules are listed by an exit handler: the fast path of verify ends
# the process itself once the exit handlers have run (oracle.launch._end_now).
LAUNCH = """import atexit, json, sys
def listed():
    with open(OUT, "w") as f:
        json.dump(sorted(sys.modules), f)
atexit.register(listed)
sys.argv = ["mb-oracle", *sys.argv[1:]]
from oracle.launch import main
main()
"""

# What the fast path of `verify PATH...` never loads: click and what only
# click brings (its translations, locale, shutil), the group and the click
# commands. (uuid and platform stay: msgspec imports them.)
NOT_FOR_A_PLAIN_VERIFY = ("click", "gettext", "shutil", "locale", "oracle.cli", "oracle.replay.command")
# Nor what a conforming log given by name never uses: dataclasses (the
# records on the path are msgspec Structs: a dataclass compiles its methods
# at import, and dataclasses brings inspect), pathlib (for folders and
# globs), gzip (for compressed input), difflib (for "did you mean"), the
# diff of a claim that differs, and signal's enums and heapq (for workers).
NOT_FOR_A_CONFORMING_FILE = ("dataclasses", "pathlib", "gzip", "glob", "difflib", "oracle.games.mindbug.replay.diff",
                             "signal", "heapq")


def launched(tmp_path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    code = f"OUT = {str(out)!r}\n" + LAUNCH
    subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True)
    return set(json.loads(out.read_text()))


def test_a_plain_verify_loads_no_click(tmp_path):
    log = ROOT / "replays" / "conforming" / "en-revised.jsonl"
    loaded = launched(tmp_path, "verify", str(log))
    assert "oracle.replay.verify" in loaded        # the run did verify
    assert not loaded.intersection(NOT_FOR_A_PLAIN_VERIFY)
    assert not loaded.intersection(NOT_FOR_ONE_LOG)
    assert not loaded.intersection(NOT_FOR_A_CONFORMING_FILE)
    assert not {m.split(".")[0] for m in loaded}.intersection(HEAVY)


def test_msgspec_is_loaded_without_typing_extensions(tmp_path):
    """msgspec imports typing_extensions when it is installed (here it is,
    with mypy and jsonschema), and with it inspect, ast and dis: a sixth of
    a one-log verify. Commands load msgspec without it, through the fast
    path and through click; it stays importable afterwards."""
    import importlib.util

    if importlib.util.find_spec("typing_extensions") is None:
        pytest.skip("typing_extensions is not installed: nothing to keep out")
    log = str(ROOT / "replays" / "conforming" / "en-revised.jsonl")
    for args in (("verify", log), ("verify", log, "-q")):
        loaded = launched(tmp_path, *args)
        assert "oracle.replay.verify" in loaded and "msgspec" in loaded
        assert "typing_extensions" not in loaded, args
    code = ("import sys\nfrom oracle.loading import msgspec_first\nmsgspec_first()\n"
            "assert 'msgspec' in sys.modules and 'typing_extensions' not in sys.modules\n"
            "import typing_extensions\nprint(typing_extensions.__name__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (0, "typing_extensions\n"), out.stderr


def test_a_verify_with_the_reports_options_loads_no_click(tmp_path):
    """`--format json|junit|human`, -j and the flags go through the fast path
    too: no click, nor any package other commands use. (The JUnit report
    spools its cases to a temporary file: tempfile brings shutil.)"""
    log = str(ROOT / "replays" / "conforming" / "en-revised.jsonl")
    loaded = launched(tmp_path, "verify", "--format", "json", log)
    assert "oracle.replay.verify" in loaded
    assert not loaded.intersection(NOT_FOR_A_PLAIN_VERIFY)
    assert not loaded.intersection(NOT_FOR_ONE_LOG)
    for args in (("--format", "json", log), (log, "--format=junit", "-q", "--statistics"), ("-j", "1", log)):
        loaded = launched(tmp_path, "verify", *args)
        assert "oracle.replay.verify" in loaded, args
        assert not loaded.intersection(("click", "gettext", "oracle.cli", "oracle.replay.command")), args
        assert not {m.split(".")[0] for m in loaded}.intersection(HEAVY), args
        assert "typing_extensions" not in loaded, args


def test_verify_with_another_option_goes_to_click(tmp_path):
    log = ROOT / "replays" / "conforming" / "en-revised.jsonl"
    assert "click" in launched(tmp_path, "verify", str(log), "--edition", "en-revised")
    assert "click" in launched(tmp_path, "verify", str(log), "--format", "xml")
    assert "click" in launched(tmp_path, "verify", "-")


# Command lines of verify: the fast path reads those it can as click does,
# and leaves the others (another option, a value click refuses) to click.
COMMAND_LINES = (
    ["a.jsonl"], ["a.jsonl", "b.jsonl"], ["--format", "json", "a.jsonl"], ["a.jsonl", "--format=junit"],
    ["--format", "human", "-q", "a.jsonl"], ["--format", "json", "a.jsonl", "--format", "junit"],
    ["-j", "2", "a.jsonl"], ["-j64", "a.jsonl"], ["--jobs=3", "a.jsonl"], ["--jobs", "07", "a.jsonl"],
    ["--quiet", "--statistics", "--keep-going", "--strict", "--which-editions", "--check-invariants",
     "--strict-expect", "--no-progress", "a.jsonl"], ["--no-progress", "--progress", "a.jsonl"],
    ["--format", "json", "-j", "4", "a.jsonl", "-q"],
    # left to click
    [], ["-"], ["a.jsonl", "-"], ["--", "a.jsonl"], ["", "a.jsonl"], ["--format", "html", "a.jsonl"],
    ["--format", "JSON", "a.jsonl"], ["--format", "xml", "a.jsonl"], ["--format=", "a.jsonl"],
    ["a.jsonl", "--format"], ["-j", "0", "a.jsonl"], ["-j", "65", "a.jsonl"], ["-j=2", "a.jsonl"],
    ["-j", "x", "a.jsonl"], ["-j", "+2", "a.jsonl"], ["a.jsonl", "-j"], ["--jobs", "a.jsonl"],
    ["--quiet=1", "a.jsonl"], ["-qj2", "a.jsonl"], ["-h", "a.jsonl"],
    ["--output", "json=x.json", "a.jsonl"], ["--edition", "en-revised", "a.jsonl"], ["--color", "never", "a.jsonl"],
    ["--formt", "json", "a.jsonl"],
)


@pytest.mark.parametrize("args", COMMAND_LINES)
def test_the_fast_path_reads_options_as_click_does(args):
    """Each command line the fast path takes gives verify_run what click's
    `verify` gives it."""
    from oracle.launch import _verify_options
    from oracle.replay.command import verify

    fast = _verify_options(["verify", *args])
    if fast is None:
        return
    paths, options = fast
    ctx = verify.make_context("verify", list(args))
    assert ctx.params == {**ctx.params, **options, "paths": paths}


def test_the_fast_path_leaves_to_click_what_it_does_not_read():
    from oracle.launch import _verify_options

    taken = [args for args in COMMAND_LINES if _verify_options(["verify", *args]) is not None]
    assert taken == list(COMMAND_LINES[:COMMAND_LINES.index([])])


def test_the_fast_path_gives_verify_its_options_defaults():
    """oracle.replay.run.verify_run's defaults are what click gives `verify PATH`:
    an option added to the command must be added to the fast path too."""
    import inspect

    from oracle.replay.command import verify
    from oracle.replay.run import verify_run

    ctx = verify.make_context("verify", ["a.jsonl"])
    defaults = {k: p.default for k, p in inspect.signature(verify_run).parameters.items()}
    assert list(defaults) == list(ctx.params)
    assert {**defaults, "paths": ("a.jsonl",), "outputs": []} == ctx.params


def test_the_fast_path_ends_as_click_does(tmp_path):
    """Output, messages and exit status of `verify PATH...` are the same
    through the fast path and through the click group."""
    missing = tmp_path / "none.jsonl"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": "game", "id": "x"\n\x1b[31m\n')
    runs = [[str(ROOT / "replays" / "conforming" / "en-first.jsonl")],
            [str(ROOT / "replays" / "violations" / "hand-not-refilled.jsonl"), str(bad)],
            [str(missing)], [str(tmp_path)],
            ["--format", "json", str(ROOT / "replays" / "violations" / "hand-not-refilled.jsonl"), str(bad)],
            ["-q", "--statistics", "--keep-going", str(ROOT / "replays" / "violations" / "hand-not-refilled.jsonl")],
            ["--format=json", "-j", "2", str(ROOT / "replays" / "conforming" / "en-first.jsonl"), str(missing)]]
    for paths in runs:
        fast = subprocess.run([sys.executable, "-m", "oracle", "verify", *paths], cwd=ROOT, capture_output=True)
        slow = subprocess.run([sys.executable, "-c", "import sys; from oracle.cli import main; main()", "verify",
                               *paths], cwd=ROOT, capture_output=True)
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr), paths


def test_help_lists_the_commands_without_importing_them(tmp_path):
    loaded = loaded_by_run(tmp_path, "--help")
    tops = {m.split(".")[0] for m in loaded}
    assert not loaded.intersection(COMMAND_MODULES)
    assert not tops.intersection(HEAVY + ("msgspec",))


def test_verify_of_a_plain_log_loads_what_one_game_needs(tmp_path):
    log = ROOT / "replays" / "conforming" / "en-revised.jsonl"
    loaded = loaded_by_run(tmp_path, "verify", str(log))
    tops = {m.split(".")[0] for m in loaded}
    assert "oracle.replay.verify" in loaded        # the run did verify
    assert not tops.intersection(HEAVY)
    assert not loaded.intersection(NOT_FOR_ONE_LOG)


def test_the_help_lists_each_command_with_its_own_summary():
    """`--help` shows SUMMARIES; each must give what the command's own help
    gives, at every width the list may be cut to (click's help is at most 80
    columns wide: a summary is cut to 63 characters or fewer)."""
    import importlib

    import click

    from oracle.cli import COMMANDS, SUMMARIES

    assert SUMMARIES.keys() == COMMANDS.keys()
    for name, target in COMMANDS.items():
        module, attr = target.split(":")
        real = getattr(importlib.import_module(module), attr)
        stand_in = click.Command(name, help=SUMMARIES[name])
        assert not real.hidden and not real.deprecated and real.short_help is None, name
        for limit in range(1, 80):
            assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), (name, limit)


def test_the_help_is_the_one_the_commands_themselves_give(monkeypatch):
    from click.testing import CliRunner

    from oracle import cli

    widths = (40, 60, 80, 100)     # the help is never wider than 80 columns
    listed = [CliRunner().invoke(cli.main, ["--help"], terminal_width=w).output for w in widths]
    monkeypatch.setattr(cli.LazyGroup, "format_commands", cli.click.Group.format_commands)
    assert [CliRunner().invoke(cli.main, ["--help"], terminal_width=w).output for w in widths] == listed
