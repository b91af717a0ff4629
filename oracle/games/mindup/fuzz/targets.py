"""The Mind Up! targets of `mb-oracle fuzz --game mind-up`, each as the
shared run takes them (oracle.fuzz.run): a strategy of a case, the file
suffix of a reproducer, the in-process check and the command-line check.
The checks are the shared ones (oracle.fuzz.checks): a verdict per game and
the good game after a broken one still conforming, the scenario loader and
runner, the service's responses (none INTERNAL, each fitting its schema),
all within the time limit and without a traceback.

    mu-replay-lines  the start of a real game, then structured random mu-replay/1 lines
    mu-games         self-played games and ./replays' Mind Up! logs, mutated line by line,
                     between two good games

Through the command line, verify's report must also be the same, byte for
byte, with -j 2 as with one job.
    mu-scenarios     the Mind Up! scenarios of ./scenarios, mutated as data and as text
    mu-rpc           sessions of `serve` requests on Mind Up! games, played deep by legal steps
"""

from __future__ import annotations

import json
from functools import cache

from hypothesis import strategies as st

from ....fuzz import checks, cli_checks, corpus
from ....fuzz import strategies as fs, yaml_strategies as ys
from ..replay.format import names_mind_up
from ..replay.selfplay import selfplay_lines
from . import strategies as mu

SHARES = {"mu-replay-lines": 0.2, "mu-games": 0.4, "mu-scenarios": 0.2, "mu-rpc": 0.2}


@cache
def selfplay_games() -> tuple[tuple[bytes, ...], ...]:
    """Self-played games of 3 to 6 players, with and without objectives,
    claims after every turn or at the end, turns whole or one choice per player."""
    games: list[tuple[bytes, ...]] = []
    for i, (players, objectives, claims, split) in enumerate(
            [(3, 0, "turn", False), (4, 2, "turn", True), (5, 3, "end", False), (6, 5, "turn", True),
             (3, 1, "every", True)]):
        stream = b"".join(x + b"\n" for x in selfplay_lines(1, 31 + i, players, "random", objectives, claims,
                                                               None, split))
        games += corpus.stream_games(stream, "<selfplay>")
    return tuple(games)


def file_games(folder) -> tuple[tuple[bytes, ...], ...]:
    return tuple(g for g in corpus.file_games(folder) if g and names_mind_up(g[0]))


def scenario_texts(folder) -> tuple[str, ...]:
    return tuple(t for t in corpus.scenario_documents(folder) if "game: mind-up" in t) or (MINIMAL_SCENARIO,)


MINIMAL_SCENARIO = """\
format: mb-scenario/1
game: mind-up
id: fuzz.mind-up.seed
title: The lowest card takes the lowest card of the line
clauses: [mu.turn.take]
source: {kind: rulebook, ref: "Tour de jeu"}
given:
  round: 1
  order: [1, 2, 3, 4, 5]
  line: [18, 24, 37]
  hands:
    - [2, 31]
    - [3, 20]
    - [4, 43]
  columns:
    - [[8, 30], [12, 14, 47]]
    - [[35, 41, 26], [6, 55]]
    - [[13, 48], [53, 1, 60]]
turns:
  - {0: 2, 1: 3, 2: 4}
expect:
  line: [2, 3, 4]
"""


def targets(tally, seconds: float, replays, scenarios, examples=None, seed: int = 0, cleanup=None) -> dict:
    """The targets, as every game's targets module gives them to the run
    (`examples`, `seed` and `cleanup` are Mindbug's needs, not used here)."""
    slow = seconds * 4
    own = selfplay_games()
    games = own + file_games(replays)
    good = tuple(sorted(own, key=len)[:3])
    texts = scenario_texts(scenarios)
    return {
        "mu-replay-lines": (
            fs.replay_lines_stream(games, mu.VOCABULARY), ".jsonl",
            lambda data: (data, lambda: checks.check_stream(tally, data)),
            lambda data: cli_checks.cli_stream(tally, data, data, slow, keep_going=False, jobs=True)),
        "mu-games": (
            st.tuples(fs.game_stream(games, good, mu.VOCABULARY), st.booleans()), ".jsonl",
            lambda case: (case[0].plain, lambda: checks.check_stream(tally, case[0].plain, case[0].last_id)),
            lambda case: cli_checks.cli_stream(tally, case[0].data, case[0].plain, slow, case[1], jobs=True)),
        "mu-scenarios": (
            ys.scenario_file(texts), ".yaml",
            lambda data: (data, lambda: checks.check_scenarios(tally, data)),
            lambda data: cli_checks.cli_scenarios(tally, data, slow)),
        "mu-rpc": (
            mu.rpc_session(), ".json",
            lambda session: (json.dumps(session, default=repr).encode(), lambda: checks.check_rpc(tally, session)),
            lambda session: cli_checks.cli_rpc(tally, session, slow)),
    }

