"""verify --keep-going is as trusted as plain verify: on the shipped samples
and on self-play of every edition and card set of Mindbug and of Mind Up!,
with no --reading and with each choice of each reading `mb-oracle editions
--json` lists, a game plain verify calls conforming gets no finding with
--keep-going either. Self-play under each reading other than the team's
conforms (the game line names the reading), and --keep-going agrees.

Few games per corpus: what is checked is every edition, set and reading."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from unittest.mock import patch

import pytest

from oracle.games.mindup.replay import selfplay as mind_up
from oracle.games.mindbug.replay import selfplay as mindbug
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay import verify as verify_module
from oracle.replay.verify import verify_game

from conftest import ROOT, run_cli

GAMES = 2       # games per corpus

# (edition, sets, seed) of the Mindbug self-play corpora: every edition, every set.
MINDBUG = [(e, ("first-contact",), 7) for e in ("en-revised", "en-first", "fr-revised", "fr-first")] + [
    ("en-revised", ("first-contact", "new-servants"), 8),
    ("en-revised", ("beyond-eternity",), 9),
    ("en-revised", ("beyond-evolution",), 9),
    ("en-revised", ("first-contact", "promo-2022", "promo-2023", "promo-later"), 10),
]
# (players, objectives, split) of the Mind Up! self-play corpora.
MIND_UP = [(3, 0, False), (4, 2, False), (5, 1, True), (6, 3, False)]


@cache
def listed(game: str) -> tuple[tuple[str, str, str], ...]:
    """(clause, choice, team choice) of every choice of every reading
    `editions --json` lists for `game`."""
    out = run_cli("editions", "--json", "--game", game)
    assert out.returncode == 0, out.stderr
    return tuple((r["clause"], c["choice"], r["team"]) for r in json.loads(out.stdout)["readings"]
                 for c in r["choices"])


def _games(data: bytes, name: str) -> list:
    return list(split_games(io.BytesIO(data), name))


@cache
def mindbug_games(edition: str, sets: tuple, seed: int, readings: tuple = ()) -> list:
    lines = mindbug.selfplay_lines(GAMES, seed, edition, "random", "turn", readings=dict(readings), sets=sets)
    return _games(b"\n".join(lines) + b"\n", f"{edition}-{'+'.join(sets)}")


@cache
def mind_up_games(players: int, objectives: int, split: bool, readings: tuple = ()) -> list:
    lines = mind_up.selfplay_lines(GAMES, 3, players, "random", objectives, "turn", dict(readings), split)
    return _games(b"\n".join(lines) + b"\n", f"mind-up-{players}")


def samples() -> list:
    return [g for f in sorted((ROOT / "replays").rglob("*.jsonl")) for g in _games(f.read_bytes(), str(f))]


def untrusted(raws: list, readings: dict | None) -> tuple[int, list[str]]:
    """(how many games plain verify calls conforming under `readings`, what
    --keep-going says of those it does not leave without a finding)."""
    checked, wrong = 0, []
    for raw in raws:
        if verify_game(raw, readings=readings, basis=False).verdict != "conforms":
            continue
        checked += 1
        # As a run gives it (a game the fast lane finds conforming keeps its
        # report), and read by the full verifier.
        kept = verify_game(raw, keep_going=True, readings=readings)
        with patch.object(verify_module, "fast_report", lambda *args: None):
            full = verify_game(raw, keep_going=True, readings=readings)
        for rep in (kept, full):
            if rep.verdict != "conforms" or rep.findings:
                wrong.append(f"{Path(raw.file).name}:{raw.first_line} {readings}: {rep.verdict}, "
                             + "; ".join(f"line {f.line} {f.code} {f.clauses}" for f in rep.findings))
    return checked, wrong


def _each_reading(raws: list, game: str, team_games: bool = True) -> None:
    """No reading and each listed choice: --keep-going agrees with plain
    verify on every game it calls conforming. Under no reading, and under
    a team choice, on games self-played under the team's readings, every
    game conforms."""
    wrong = []
    for clause, choice, team in ((None, None, None),) + listed(game):
        readings = None if clause is None else {clause: choice}
        checked, bad = untrusted(raws, readings)
        wrong += bad
        if team_games and choice == team:
            assert checked == len(raws), (readings, checked, len(raws))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("edition, sets, seed", MINDBUG, ids=lambda x: x if isinstance(x, str) else None)
def test_mindbug_self_play_under_every_reading(edition, sets, seed):
    _each_reading(mindbug_games(edition, sets, seed), "mindbug")


@pytest.mark.parametrize("players, objectives, split", MIND_UP)
def test_mind_up_self_play_under_every_reading(players, objectives, split):
    _each_reading(mind_up_games(players, objectives, split), "mind-up")


def test_the_shipped_samples_under_every_reading():
    raws = samples()
    mb = [r for r in raws if b'"mind-up"' not in r.lines[0][1]]
    mu = [r for r in raws if b'"mind-up"' in r.lines[0][1]]
    assert mb and mu
    _each_reading(mb, "mindbug", team_games=False)
    _each_reading(mu, "mind-up", team_games=False)
    assert sum(verify_game(r, basis=False).verdict == "conforms" for r in raws) >= 30


def _others(game: str):
    return [(clause, choice) for clause, choice, team in listed(game) if choice != team]


@pytest.mark.parametrize("clause, choice", _others("mindbug"))
def test_mindbug_self_play_under_a_reading_conforms_to_it_in_both_modes(clause, choice):
    for edition, sets, seed in MINDBUG[::3]:
        raws = mindbug_games(edition, sets, seed + 100, ((clause, choice),))
        for readings in (None, {clause: choice}):
            checked, wrong = untrusted(raws, readings)
            assert (checked, wrong) == (len(raws), []), (edition, sets, readings)


@pytest.mark.parametrize("clause, choice", _others("mind-up"))
def test_mind_up_self_play_under_a_reading_conforms_to_it_in_both_modes(clause, choice):
    players = 2 if choice == "two-to-six" else 4
    raws = mind_up_games(players, 2, False, ((clause, choice),))
    for readings in (None, {clause: choice}):
        checked, wrong = untrusted(raws, readings)
        assert (checked, wrong) == (len(raws), []), readings


def _repeats(readings: dict | None) -> int:
    """How often a round of 30 self-played games (seed 3) draws the Score
    order of the round before it."""
    orders, repeats = [], 0
    for raw in mind_up.selfplay_lines(30, 3, 4, readings=readings):
        x = json.loads(raw)
        if x["t"] == "game":
            orders = []
        elif x["t"] == "round":
            repeats += bool(orders) and x["order"] == orders[-1]
            orders.append(x["order"])
    return repeats


def test_mind_up_self_play_under_must_differ_draws_an_order_that_repeats_again():
    assert _repeats(None) > 0          # the team's draws repeat one now and then
    assert _repeats({"mu.round.order-repeat": "must-differ"}) == 0


def test_mind_up_self_play_under_must_differ_from_the_command_line(tmp_path):
    out = run_cli("selfplay", "--game", "mind-up", "--games", "30", "--seed", "3",
                  "--reading", "mu.round.order-repeat=must-differ")
    assert out.returncode == 0 and not out.stderr, out.stderr[-400:]
    path = tmp_path / "games.jsonl"
    path.write_bytes(out.stdout)
    for extra in ((), ("--keep-going",)):
        done = run_cli("verify", str(path), "--format", "json", *extra)
        assert done.returncode == 0, (extra, done.stdout[-400:])
        games = [json.loads(x) for x in done.stdout.splitlines()]
        assert {g["verdict"] for g in games if g["t"] == "game"} == {"conforms"}
