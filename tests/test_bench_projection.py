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
                                        (("--jobs", "2", "--games", "40"), 40),
                                        (("--jobs", "2", "--cluster", "local"), 10_000)])
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
    # The main process of -j N is counted with -j N on local files.
    assert parents == ([2] if "--jobs" in args else [])
    result = CliRunner().invoke(bench_command, [*args, "--no-instructions"])
    assert result.exit_code == 0 and counted == [(counting.COUNTED_GAMES, tuple(counting.MODES))]
    # --count chooses what the counted runs count, in the counting's own order.
    result = CliRunner().invoke(bench_command, [*args, "--count", "which-editions,plain"])
    assert result.exit_code == 0 and counted[-1] == (counting.COUNTED_GAMES, ("plain", "which-editions"))


def test_the_share_of_time_the_host_took_is_the_steal_ticks_over_all_ticks(tmp_path, monkeypatch):
    from oracle.replay import scaling as bench

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


def _fake_runs(monkeypatch, costs):
    """verify_command faked: `costs[label]` gives (wall fixed, wall a game, cpu fixed, cpu a game), seconds."""
    from oracle.replay import scaling

    seen = []

    def fake(cmd, env, cwd, report, games, label, pids=()):
        with open(cmd[-1], "rb") as f:
            assert f.read().count(b'{"t":"game"') == games
        seen.append((label, games, cmd[cmd.index("verify"):-1]))
        wall, per_wall, cpu, per_cpu = costs[label]
        return scaling.Timed(wall + games * per_wall, cpu + games * per_cpu)

    monkeypatch.setattr(scaling, "verify_command", fake)
    monkeypatch.setattr(scaling, "side_by_side", lambda cmds, env, cwd: len(cmds) * 0.3)
    return seen


def test_the_bench_runs_the_verify_command_and_judges_each_target_on_the_costs_a_game(monkeypatch, capsys):
    from oracle.games.mindbug.replay.selfplay import selfplay_lines
    from oracle.replay import scaling

    # -j 2: 1.05x the processor time of -j 1 a game (meets 1.08x), 100 us a game of wall-clock: a
    # million in 100 s plus the fixed 0.5 s (meets 2 min).
    seen = _fake_runs(monkeypatch, {"-j 1": (0.4, 190e-6, 0.3, 200e-6), "-j 2": (0.5, 100e-6, 0.5, 210e-6)})
    lines = list(selfplay_lines(40, 3, "en-revised", "random", "turn"))
    result = scaling.run_scaling(lines, 40, 2, None, 1)
    assert {(label, games) for label, games, _ in seen} == {("-j 1", 40), ("-j 1", 10), ("-j 2", 40), ("-j 2", 10)}
    assert all(cmd[:4] == ["verify", "--format", "json", "--no-progress"] for _, _, cmd in seen)
    assert result["cpu_per_game"] == pytest.approx(1.05)
    assert result["million_s"] == pytest.approx(0.5 + 100.0)
    out = capsys.readouterr().out
    assert "target -j 2 cpu at most 1.08x -j 1:" in out and "meets (1.05x per game;" in out
    assert "target a million in 2 min (-j 2):" in out and "meets (1.68 min" in out


def test_a_million_a_little_over_the_time_allowed_misses_though_its_minutes_round_to_it(monkeypatch, capsys):
    from oracle.games.mindbug.replay.selfplay import selfplay_lines
    from oracle.replay import scaling

    # 122 us a game with -j 2: a million in 122.5 s, 2.04 min, which one decimal would print as 2.0.
    _fake_runs(monkeypatch, {"-j 1": (0.4, 210e-6, 0.3, 200e-6), "-j 2": (0.5, 122e-6, 0.5, 210e-6)})
    lines = list(selfplay_lines(40, 3, "en-revised", "random", "turn"))
    scaling.run_scaling(lines, 40, 2, None, 1)
    out = capsys.readouterr().out
    assert "target a million in 2 min (-j 2):" in out and "misses (2.04 min, 1.02 of the time allowed)" in out


def test_a_cluster_is_judged_against_n_jobs_and_a_miss_is_said(monkeypatch, capsys):
    import types

    from oracle.games.mindbug.replay.selfplay import selfplay_lines
    from oracle.replay import scaling

    seen = _fake_runs(monkeypatch, {"-j 1": (0.4, 190e-6, 0.3, 200e-6), "-j 2": (0.5, 100e-6, 0.5, 240e-6),
                                    "--cluster tcp://h:1": (2.0, 120e-6, 0.5, 260e-6)})
    lines = list(selfplay_lines(40, 3, "en-revised", "random", "turn"))
    monkeypatch.setattr("oracle.replay.cluster.connect", lambda address: (types.SimpleNamespace(close=lambda: None), None))
    result = scaling.run_scaling(lines, 40, 2, "tcp://h:1", 1)
    assert ("--cluster tcp://h:1", 40, ["verify", "--format", "json", "--no-progress", "--cluster", "tcp://h:1",
                                        "--cluster-timeout", "10"]) in seen
    assert result["cluster_per_game"] == pytest.approx(1.2)
    out = capsys.readouterr().out
    assert "target -j 2 cpu at most 1.08x -j 1:" in out and "misses (1.20x per game;" in out
    assert "target --cluster tcp://h:1 at most 1.15x -j 2:" in out and "misses (1.20x per game;" in out


def test_the_machine_line_names_the_first_processor_and_its_family(tmp_path):
    from oracle.replay.scaling import processor

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
                    "model name\t: AMD EPYC\n\nprocessor\t: 1\ncpu family\t: 26\nmodel name\t: Other\n")
    assert processor(str(info)) == ", AMD EPYC (family 25, model 1)"
    info.write_text("processor\t: 0\nmodel name\t: Some \x1b[31mCPU\n")      # no family; a control byte escaped
    assert processor(str(info)) == ", Some \\x1b[31mCPU"
    info.write_text("processor\t: 0\nBogoMIPS\t: 50.00\n")                # no name: nothing said
    assert processor(str(info)) == ""
    assert processor(str(tmp_path / "missing")) == ""
