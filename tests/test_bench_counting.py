"""The bench's instruction counts: per decision, the start-up split off by
two runs of different sizes; counted by valgrind when it is there, and a
line saying so when it is not."""

import shutil
import sys

import pytest

from oracle.replay import counting


def test_two_runs_split_into_a_start_up_and_a_cost_per_decision():
    # 400 M of start-up, 70,000 instructions a decision: 100 and 400 decisions.
    per, start = counting.per_decision((100, 400_000_000 + 100 * 70_000), (400, 400_000_000 + 400 * 70_000))
    assert per == pytest.approx(70_000)
    assert start == pytest.approx(400_000_000)


def test_without_valgrind_the_bench_says_so_and_counts_nothing(monkeypatch, capsys):
    monkeypatch.setattr(counting, "valgrind", lambda: None)
    assert counting.run_counts(7, "turn", 1, games=4) is None
    out = capsys.readouterr().out
    assert "valgrind is not on PATH" in out and "instructions per decision (" not in out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_valgrind_counts_a_command_from_its_start_to_its_exit():
    idle = counting.instructions([sys.executable, "-c", "pass"])
    busy = counting.instructions([sys.executable, "-c", "for i in range(200_000): pass"])
    assert 1_000_000 < idle < 500_000_000
    assert busy - idle > 200_000        # each turn of the loop is several instructions


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_a_failed_counted_run_ends_the_bench_with_its_reason():
    with pytest.raises(SystemExit, match="exit status 3"):
        counting.instructions([sys.executable, "-c", "raise SystemExit(3)"])


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_a_counted_corpus_gives_verify_and_its_decode_floor_per_decision(capsys):
    counts = counting.run_counts(7, "turn", 1, games=4, corpora=(("en-revised", "first-contact"),), modes=("plain",))
    rows = counts.rows
    assert len(rows) == 1 and counts.broken is None
    row = rows[0]
    assert row.decisions > 4 * 10
    # Verifying a decision costs more than decoding its line, and both cost something.
    assert row.verify > row.decode > 1_000
    # The start-up (Python, the imports) is split off: it is far more than a decision costs.
    assert row.start_up > 100 * row.verify
    # Python and msgspec, counted alone, are part of it: more than Python's
    # bare start (about 39 M) and the typing module msgspec imports (41 M).
    assert 80_000_000 < counts.start_floor < row.start_up
    out = capsys.readouterr().out
    assert "en-revised  first-contact" in out and f"{row.decisions:,}" in out
    assert f"Python and msgspec alone, loaded as verify loads them: {round(counts.start_floor / 1e6)} M)" in out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_mind_up_is_counted_against_its_own_decode_floor(capsys):
    counts = counting.run_counts(7, "turn", 1, games=4, corpora=(("mind-up", "3 players, 1 objectives"),),
                                 modes=("plain",))
    [row] = counts.rows
    assert row.edition == "mind-up" and row.decisions > 4 * 10
    assert row.verify > row.decode > 1_000 and row.start_up > 100 * row.verify
    out = capsys.readouterr().out
    assert "mind-up     3 players, 1 objectives" in out
    assert "all Mindbug" not in out         # the Mindbug mean leaves Mind Up! out


def test_the_bench_counts_mind_up_beside_every_edition():
    assert ("mind-up", "4 players, 2 objectives") in counting.every_corpus()
    assert {e for e, _ in counting.every_corpus()} >= {"en-first", "fr-first", "fr-revised", "en-revised", "mind-up"}


def test_counted_runs_import_this_package_whatever_folder_they_start_in(tmp_path, monkeypatch):
    """The counted runs start in a quiet folder of their own, so the package
    they import comes from PYTHONPATH: this process's, before any other."""
    import os
    import subprocess

    import oracle

    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "elsewhere"))
    env = counting.counted_env()
    paths = env["PYTHONPATH"].split(os.pathsep)
    assert paths == [counting.PACKAGE_ROOT, str(tmp_path / "elsewhere")]
    assert env["PYTHONHASHSEED"] == "0"
    found = subprocess.run([sys.executable, "-c", "import oracle; print(oracle.__file__)"], env=env,
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert found == oracle.__file__
    assert counting.counted_build(str(tmp_path)) == "pure Python"


def test_counted_runs_write_the_bytecode_they_miss_whatever_the_environment_says(tmp_path, monkeypatch):
    """With PYTHONDONTWRITEBYTECODE set, a module changed since its bytecode
    was written would be compiled again at every counted run: the counted
    runs write it (the first, uncounted run does so for the others)."""
    import subprocess

    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "probe_module.py").write_text("VALUE = 1\n")
    monkeypatch.setenv("PYTHONPATH", str(mods))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = counting.counted_env()
    assert "PYTHONDONTWRITEBYTECODE" not in env
    subprocess.run([sys.executable, "-c", "import probe_module"], env=env, cwd=tmp_path, check=True)
    assert list((mods / "__pycache__").glob("probe_module.*.pyc"))


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_a_counted_command_is_its_own_process_not_the_children_it_forks():
    # One process loops 100,000 times (tens of millions of instructions), the other waits for it.
    script = ("import os\npid = os.fork()\nif {busy}:\n    for i in range(100_000): pass\n    os._exit(0)\n"
              "if pid:\n    os.waitpid(pid, 0)\nos._exit(0)")
    parent = counting.instructions([sys.executable, "-c", script.format(busy="pid == 0")])   # the child loops
    looped = counting.instructions([sys.executable, "-c", script.format(busy="pid")])        # the parent loops
    assert parent + 5_000_000 < looped
    # With forks, each forked process too, its count starting from its parent's at the fork.
    own, child = counting.counted_processes([sys.executable, "-c", script.format(busy="pid == 0")], forks=True)
    assert child > own + 5_000_000


def test_the_main_process_of_n_jobs_is_counted_against_one_job(monkeypatch, capsys):
    # Counted runs faked: 300 M to start, then per game 2 M with one job, 90 k in the main process of -j 2,
    # and in each of its two workers (which start from the main process's count at the fork) 1.01 M.
    seen = []

    def fake(cmd, env=None, cwd=None, statuses=(0,), forks=False):
        with open(cmd[-1], "rb") as f:
            games = sum(line.startswith(b'{"t":"game"') for line in f)
        jobs = cmd[cmd.index("-j") + 1]
        seen.append((jobs, games, forks))
        if jobs == "1":
            return [300_000_000 + games * 2_000_000]
        return [300_000_000 + games * 90_000, *(200_000_000 + games * 1_010_000 for _ in range(2))]

    monkeypatch.setattr(counting, "counted_processes", fake)
    monkeypatch.setattr(counting, "valgrind", lambda: "valgrind")
    monkeypatch.setattr(counting.subprocess, "run", lambda *a, **k: None)     # the uncounted first run
    parent, every, one = counting.run_parent_count(2, 7, "turn", games=8)
    assert parent == pytest.approx(90_000) and one == pytest.approx(2_000_000)
    assert every == pytest.approx(90_000 + 2 * 1_010_000)
    assert sorted(seen) == [("1", 2, True), ("1", 8, True), ("2", 2, True), ("2", 8, True)]
    out = capsys.readouterr().out
    assert "main process of -j 2:     90,000 instructions a game, 4.5% of one job's 2,000,000" in out
    assert "all processes of -j 2: 2,110,000 instructions a game, 1.055 x one job's" in out


def test_without_valgrind_the_parent_is_not_counted(monkeypatch, capsys):
    monkeypatch.setattr(counting, "valgrind", lambda: None)
    assert counting.run_parent_count(2, 7, "turn") is None
    assert capsys.readouterr().out == ""


# -- verify's other modes, the broken games and the targets --

def _fake_counts(monkeypatch, cost):
    """Counted runs faked: 300 M to start, then `cost[options]` instructions
    a line of the file; the wall-clock faked too, 1,000 s for everything,
    which no ratio may read."""
    seen = []

    def fake(cmd, env=None, cwd=None, statuses=(0,)):
        if cmd == counting.START_FLOOR:
            seen.append(("start floor", statuses))
            return 120_000_000
        with open(cmd[-1], "rb") as f:
            lines = sum(1 for _ in f)
        flags = tuple(a for a in cmd if a in ("--keep-going", "--which-editions"))
        what = "decode" if "-c" in cmd else flags
        seen.append((what, statuses))
        return 300_000_000 + lines * cost[what]

    monkeypatch.setattr(counting, "instructions", fake)
    monkeypatch.setattr(counting, "valgrind", lambda: "valgrind")
    monkeypatch.setattr(counting, "counted_build", lambda cwd=None: "pure Python")
    monkeypatch.setattr(counting.subprocess, "run", lambda *a, **k: None)     # the uncounted first runs
    monkeypatch.setattr(counting, "interleaved_best", lambda runs, repeat: [1000.0] * len(runs))
    return seen


def test_keep_going_and_which_editions_are_counted_beside_plain_from_the_counts(monkeypatch, capsys):
    cost = {(): 40_000, ("--keep-going",): 100_000, ("--which-editions",): 160_000, "decode": 8_000}
    seen = _fake_counts(monkeypatch, cost)
    counts = counting.run_counts(7, "turn", 1, games=4, corpora=(("en-revised", "first-contact"),))
    [row] = counts.rows
    assert row.keep_going / row.verify == pytest.approx(2.5)
    assert row.which_editions / row.verify == pytest.approx(4.0)
    # The broken games: plain and --keep-going, counted on 1 and 4 games, each run exiting 1 as it should.
    broken = counts.broken
    assert broken.games == 4 and broken.ratio == pytest.approx(2.5)
    assert broken.ratio == broken.keep_going / broken.plain
    assert sorted(w for w, statuses in seen if statuses == (1,)) == [(), (), ("--keep-going",), ("--keep-going",)]
    out = capsys.readouterr().out
    assert "keep-going x plain which-editions x plain" in out
    assert "2.50x" in out and "4.00x" in out
    assert "target en-revised first-contact at most 20,000 instructions a decision (compiled): misses" in out
    assert "counted: pure Python" in out
    assert "target start-up under 150 M instructions: misses" in out
    assert counts.start_floor == 120_000_000
    assert "(at most 300 M, en-revised first-contact; Python and msgspec alone, loaded as verify loads them: 120 M)" \
        in out
    assert "target --keep-going at most 3x plain (broken games): meets (2.50x)" in out


def test_count_chooses_what_is_counted(monkeypatch, capsys):
    cost = {(): 40_000, ("--keep-going",): 130_000, ("--which-editions",): 160_000, "decode": 8_000}
    seen = _fake_counts(monkeypatch, cost)
    counts = counting.run_counts(7, "turn", 1, games=4, corpora=(("en-revised", "first-contact"),),
                                 modes=("keep-going",))
    [row] = counts.rows
    assert row.verify is None and row.which_editions is None and row.keep_going > 0
    assert {w for w, _ in seen} == {(), ("--keep-going",)}      # plain only on the broken games, no start-up floor
    assert counts.start_floor is None
    assert counts.broken.ratio == pytest.approx(3.25)
    out = capsys.readouterr().out
    assert "decode" not in out and "which-editions" not in out and "target start-up" not in out
    assert "target --keep-going at most 3x plain (broken games): misses (3.25x)" in out


def test_each_target_is_printed_beside_its_figure(capsys):
    rows = [counting.Counted("en-revised", "first-contact", 100, 19_500, 5_000, 140e6, 1.0, 0.1),
            counting.Counted("en-revised", "first-contact,new-servants", 100, 24_001, 5_000, 149e6, 1.0, 0.1),
            counting.Counted("mind-up", "4 players, 2 objectives", 100, 49_412, 5_000, 90e6, 1.0, 0.1),
            counting.Counted("fr-first", "first-contact", 100, 90_000, 5_000, 100e6, 1.0, 0.1)]
    counting.show_targets(rows, counting.Broken(24, 1_000_000, 2_410_000), "compiled (35 of 35 modules, mypyc)")
    assert capsys.readouterr().out.splitlines() == [
        "target en-revised first-contact at most 20,000 instructions a decision (compiled): meets (19,500, "
        "0.97 of target)",
        "target en-revised first-contact,new-servants at most 24,000 instructions a decision (compiled): misses "
        "(24,001, 1.00 of target)",
        "target mind-up 4 players, 2 objectives at most 60,000 instructions a decision (compiled): meets (49,412, "
        "0.82 of target)",
        "target start-up under 150 M instructions: meets (at most 149 M, en-revised first-contact,new-servants)",
        "target --keep-going at most 3x plain (broken games): meets (2.41x)"]


def test_the_start_up_target_says_what_python_and_msgspec_take_of_it(capsys):
    rows = [counting.Counted("en-revised", "first-contact", 100, 23_000, 5_000, 198.4e6, 1.0, 0.1)]
    counting.show_targets(rows, None, "compiled (37 of 37 modules, mypyc)", start_floor=129.04e6)
    assert capsys.readouterr().out.splitlines()[-1] == (
        "target start-up under 150 M instructions: misses (at most 198 M, en-revised first-contact; "
        "Python and msgspec alone, loaded as verify loads them: 129 M)")


def test_the_count_option_names_modes_of_the_counting():
    import click

    from oracle.replay.command import _count_modes

    assert _count_modes(None, None, None) == ("plain", "keep-going", "which-editions")
    assert _count_modes(None, None, "which-editions, plain") == ("plain", "which-editions")
    with pytest.raises(click.BadParameter, match="fast"):
        _count_modes(None, None, "plain,fast")


def test_the_broken_games_break_each_deal_and_every_third_claim():
    import msgspec

    from oracle.games.mindbug.replay.bench import broken, lines

    played = [msgspec.json.decode(line) for line in lines("en-revised", None, 2, 1, "turn")]
    broke = [msgspec.json.decode(line) for line in broken(2, 1)]
    assert len(broke) == len(played) and sum(line["t"] == "game" for line in broke) == 2
    changed = [(a, b) for a, b in zip(played, broke) if a != b]
    assert [a["t"] for a, _ in changed if a["t"] == "setup"] == ["setup", "setup"]
    assert all(b["unused"] == a["unused"][:-1] for a, b in changed if a["t"] == "setup")
    claims = [(a, b) for a, b in changed if a["t"] == "state"]
    assert claims and all(b["life"][0] == a["life"][0] + 1 for a, b in claims)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_every_mode_is_counted_by_valgrind_on_a_small_corpus(capsys):
    counts = counting.run_counts(7, "turn", 1, games=2, corpora=(("en-revised", "first-contact"),))
    [row] = counts.rows
    assert row.verify > row.decode > 1_000
    # Every divergence costs the rules' replay: --which-editions replays every edition.
    assert row.keep_going > 1_000 and row.which_editions > row.verify
    assert counts.broken.plain > 0 and counts.broken.keep_going > counts.broken.plain
    out = capsys.readouterr().out
    assert f"{counts.broken.ratio:.2f}x plain" in out
    assert "target --keep-going at most 3x plain (broken games): " in out
