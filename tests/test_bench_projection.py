"""The bench's million-game projection: a fixed cost paid once a run plus a
cost per game, fit through runs of two sizes."""

import pytest

from oracle.replay.bench import MILLION, fit


def test_two_runs_split_into_a_fixed_cost_and_a_cost_per_game():
    # 500 games in 0.80 s and 2,000 games in 2.30 s: 1 ms a game, 0.30 s once.
    f = fit(500, 0.80, 2000, 2.30)
    assert f.per_game == pytest.approx(0.001)
    assert f.fixed == pytest.approx(0.30)
    assert not f.clamped


def test_a_million_games_pay_the_fixed_cost_once():
    f = fit(500, 0.80, 2000, 2.30)
    assert f.projected() == pytest.approx(0.30 + MILLION * 0.001)
    # Scaling the whole 2,000-game run would count the 0.30 s 500 times.
    assert f.projected() < 2.30 / 2000 * MILLION - 100
    assert f.projected(10) == pytest.approx(0.31)


def test_runs_too_noisy_to_fit_fall_back_to_the_big_runs_average():
    # The small run was fast for its size: a negative fixed cost is noise.
    f = fit(500, 0.30, 2000, 2.00)
    assert f.clamped and f.fixed == 0.0
    assert f.per_game == pytest.approx(2.00 / 2000)
    # More games in no more time: no slope to read.
    g = fit(500, 2.10, 2000, 2.00)
    assert g.clamped and g.per_game == pytest.approx(0.001) and g.fixed == 0.0


def test_a_fit_needs_two_different_sizes():
    with pytest.raises(ValueError):
        fit(2000, 1.0, 2000, 1.0)


def test_the_timed_runs_take_turns_and_each_keeps_its_best_round():
    from oracle.replay.bench import interleaved_best

    calls = []
    # Each run takes 1 tick except run "b" in the first round, which takes 5.
    now = [0.0]

    def clock():
        return now[0]

    def run(name, slow_first=False):
        def go():
            calls.append(name)
            now[0] += 5 if slow_first and calls.count(name) == 1 else 1
        return go

    best = interleaved_best([run("a"), run("b", slow_first=True), run("c")], 3, clock=clock)
    # Forwards, backwards, forwards: no run has all its rounds side by side.
    assert calls == ["a", "b", "c", "c", "b", "a", "a", "b", "c"]
    assert best == [1, 1, 1]
    assert interleaved_best([run("d", slow_first=True)], 1, clock=clock) == [5]


@pytest.mark.parametrize("args,games", [((), 300), (("--jobs", "2"), 10_000), (("--cluster", "local:2"), 10_000),
                                        (("--jobs", "2", "--games", "40"), 40)])
def test_a_bench_that_times_pipelines_defaults_to_runs_of_seconds(monkeypatch, args, games):
    from click.testing import CliRunner

    from oracle.replay import bench
    from oracle.replay.command import bench as bench_command

    from oracle.replay import counting

    seen, counted, parents = [], [], []
    monkeypatch.setattr(bench, "run_bench", lambda g, *rest: seen.append(g))
    monkeypatch.setattr(counting, "run_counts", lambda seed, claims, repeat, g, modes: counted.append((g, modes)))
    monkeypatch.setattr(counting, "run_parent_count", lambda jobs, seed, claims: parents.append(jobs))
    result = CliRunner().invoke(bench_command, list(args))
    assert result.exit_code == 0, result.output
    assert seen == [games]
    assert counted == [(counting.COUNTED_GAMES, tuple(counting.MODES))]
    # The main process of -j N is counted with -j N on local files (a cluster's is another machine's).
    assert parents == ([2] if "--jobs" in args else [])
    result = CliRunner().invoke(bench_command, [*args, "--no-instructions"])
    assert result.exit_code == 0 and counted == [(counting.COUNTED_GAMES, tuple(counting.MODES))]
    # --count chooses what the counted runs count, in the counting's own order.
    result = CliRunner().invoke(bench_command, [*args, "--count", "which-editions,plain"])
    assert result.exit_code == 0 and counted[-1] == (counting.COUNTED_GAMES, ("plain", "which-editions"))


def test_the_share_of_time_the_host_took_is_the_steal_ticks_over_all_ticks(tmp_path, monkeypatch):
    from oracle.replay import bench

    # user nice system idle iowait irq softirq steal guest guest_nice
    assert bench._stolen_share((10, 1000), (40, 1300)) == pytest.approx(0.1)
    assert bench._stolen_share((10, 1000), (10, 1000)) is None      # no time passed
    assert bench._stolen_share(None, (10, 1000)) is None
    stat = tmp_path / "stat"
    stat.write_bytes(b"cpu  100 0 20 300 5 0 1 7 3 0\ncpu0 50 0 10 150 2 0 0 3 1 0\n")
    real_open = open
    monkeypatch.setattr("builtins.open", lambda path, *a, **k: real_open(stat if path == "/proc/stat" else path, *a, **k))
    assert bench._cpu_times() == (7, 100 + 20 + 300 + 5 + 1 + 7)   # guest time is already in user
    stat.write_bytes(b"intr 1 2 3\n")
    assert bench._cpu_times() is None


def test_the_bench_cuts_both_of_its_files_into_shares_of_the_whole_ones_size(monkeypatch, capsys):
    """The fit of fixed and per-game costs compares like with like: the file
    of a quarter of the games is cut into shares of the size the whole file
    gets, not into the smaller ones it would get alone."""
    import os
    import types

    from oracle.replay import bench, parallel
    from oracle.replay import shares as sh
    from oracle.games.mindbug.replay.selfplay import selfplay_lines

    seen = []

    def fake_reports(paths, options, jobs=1, cluster=None, share_size=None, on_hand=None):
        seen.append((jobs, share_size, os.path.getsize(paths[0])))
        with open(paths[0], "rb") as f:
            games = f.read().count(b'{"t":"game"')
        for _ in range(games):
            yield types.SimpleNamespace(verdict="conforms")

    monkeypatch.setattr(parallel, "iter_reports", fake_reports)
    monkeypatch.setattr(sh, "MIN_SHARE", 1)     # sizes follow the files' sizes
    lines = list(selfplay_lines(40, 3, "en-revised", "random", "turn"))
    bench.run_scaling(lines, 40, 2, None, 1)
    whole = sum(len(b) + 1 for b in lines)
    two_jobs = [(size, nbytes) for jobs, size, nbytes in seen if jobs == 2]
    assert {nbytes for _, nbytes in two_jobs} == {whole, min(n for _, n in two_jobs)} and len(two_jobs) == 2
    assert {size for size, _ in two_jobs} == {whole // (2 * 64) + 1}
    assert "a million such games:" in capsys.readouterr().out
