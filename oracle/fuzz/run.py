"""A fuzz run: a budget of inputs shared among the formats, with a seed."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st

from . import checks, corpus
from . import strategies as fs

# Shares of the budget, by target.
SHARES = {"replay-lines": 0.2, "games": 0.4, "scenarios": 0.28, "expect": 0.12}


def _settings(n: int):
    return settings(max_examples=max(1, n), database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), derandomize=False)


def run_fuzz(budget: int, seed: int, *, out: str | Path | None = None, seconds: float = 5.0,
             cli_every: int = 50, replays: str | Path | None = "replays",
             scenarios: str | Path | None = "scenarios", targets=tuple(SHARES)) -> checks.Tally:
    """Try about `budget` inputs; every `cli_every`-th input of each target
    also goes through the command line (0: never)."""
    tally = checks.Tally(out=Path(out) if out else None)
    good = corpus.short_games()
    games = corpus.selfplay_games() + corpus.file_games(replays)
    texts = corpus.scenario_texts(scenarios)
    expects = (corpus.MINIMAL_EXPECT,)
    share = {t: SHARES[t] for t in targets}
    total = sum(share.values())
    n = {t: int(budget * s / total) for t, s in share.items()}
    for t in sorted(share, key=lambda t: -share[t])[:budget - sum(n.values())]:
        n[t] += 1     # the rest of the budget, to the largest shares
    n = {t: k for t, k in n.items() if k}
    counter = {t: 0 for t in targets}

    def sample(target: str) -> bool:
        counter[target] += 1
        return cli_every > 0 and counter[target] % cli_every == 0

    if "replay-lines" in n:
        @hseed(seed)
        @_settings(n["replay-lines"])
        @given(fs.replay_lines_stream(games))
        def replay_lines(data):
            checks.guarded(tally, "replay-lines", data, ".jsonl", seconds, lambda: checks.check_stream(tally, data))
            if sample("replay-lines"):
                checks.cli_stream(tally, data, data, seconds * 4, keep_going=False)
        replay_lines()

    if "games" in n:
        @hseed(seed + 1)
        @_settings(n["games"])
        @given(fs.game_stream(games, good), st.booleans())
        def game_streams(s, keep_going):
            checks.guarded(tally, "games", s.plain, ".jsonl", seconds,
                           lambda: checks.check_stream(tally, s.plain, s.last_id))
            if sample("games"):
                checks.cli_stream(tally, s.data, s.plain, seconds * 4, keep_going)
        game_streams()

    if "scenarios" in n:
        @hseed(seed + 2)
        @_settings(n["scenarios"])
        @given(fs.scenario_file(texts))
        def scenario_files(data):
            checks.guarded(tally, "scenarios", data, ".yaml", seconds, lambda: checks.check_scenarios(tally, data))
            if sample("scenarios"):
                checks.cli_scenarios(tally, data, seconds * 4)
        scenario_files()

    if "expect" in n:
        @hseed(seed + 3)
        @_settings(n["expect"])
        @given(fs.expect_file(expects))
        def expect_files(data):
            checks.guarded(tally, "expect", data, ".yaml", seconds, lambda: checks.check_expect(tally, data))
            if sample("expect"):
                checks.cli_expect(tally, data, seconds * 4)
        expect_files()
    return tally
