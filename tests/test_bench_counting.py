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
    assert counting.run_counts(7, "turn", 1, games=4) == []
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
    rows = counting.run_counts(7, "turn", 1, games=4, corpora=(("en-revised", "first-contact"),))
    assert len(rows) == 1
    row = rows[0]
    assert row.decisions > 4 * 10
    # Verifying a decision costs more than decoding its line, and both cost something.
    assert row.verify > row.decode > 1_000
    # The start-up (Python, the imports) is split off: it is far more than a decision costs.
    assert row.start_up > 100 * row.verify
    out = capsys.readouterr().out
    assert "en-revised  first-contact" in out and f"{row.decisions:,}" in out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_mind_up_is_counted_against_its_own_decode_floor(capsys):
    rows = counting.run_counts(7, "turn", 1, games=4, corpora=(("mind-up", "3 players, 1 objectives"),))
    [row] = rows
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


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (it counts the instructions)")
def test_a_counted_command_is_its_own_process_not_the_children_it_forks():
    # One process loops 100,000 times (tens of millions of instructions), the other waits for it.
    script = ("import os\npid = os.fork()\nif {busy}:\n    for i in range(100_000): pass\n    os._exit(0)\n"
              "if pid:\n    os.waitpid(pid, 0)\nos._exit(0)")
    parent = counting.instructions([sys.executable, "-c", script.format(busy="pid == 0")])   # the child loops
    looped = counting.instructions([sys.executable, "-c", script.format(busy="pid")])        # the parent loops
    assert parent + 5_000_000 < looped


def test_the_main_process_of_n_jobs_is_counted_against_one_job(monkeypatch, capsys):
    # Counted runs faked: 300 M to start, then per game 2 M with one job, 90 k in the main process of -j 2.
    seen = []

    def fake(cmd, env=None, cwd=None):
        with open(cmd[-1], "rb") as f:
            games = sum(line.startswith(b'{"t":"game"') for line in f)
        seen.append((cmd[cmd.index("-j") + 1], games))
        return 300_000_000 + games * (90_000 if cmd[cmd.index("-j") + 1] == "2" else 2_000_000)

    monkeypatch.setattr(counting, "instructions", fake)
    monkeypatch.setattr(counting, "valgrind", lambda: "valgrind")
    monkeypatch.setattr(counting.subprocess, "run", lambda *a, **k: None)     # the uncounted first run
    parent, one = counting.run_parent_count(2, 7, "turn", games=8)
    assert parent == pytest.approx(90_000) and one == pytest.approx(2_000_000)
    assert sorted(seen) == [("1", 2), ("1", 8), ("2", 2), ("2", 8)]
    out = capsys.readouterr().out
    assert "main process of -j 2:     90,000 instructions a game, 4.5% of one job's 2,000,000" in out


def test_without_valgrind_the_parent_is_not_counted(monkeypatch, capsys):
    monkeypatch.setattr(counting, "valgrind", lambda: None)
    assert counting.run_parent_count(2, 7, "turn") is None
    assert capsys.readouterr().out == ""
