"""Rules that hold after every step of every game, in every edition.

A Hypothesis state machine starts from a legal position (any distribution
of the 48 cards, life, Mindbugs, exhaustion, whose turn) or from a shuffled
deal, and takes legal decisions one at a time. After every step
`oracle.games.mindbug.hunt.checks.step_violations` must find nothing: each card in
exactly one place; life moved only by events citing a life clause; no power
below 1 where the edition states the floor; no TOUGH creature defeated
while not exhausted; no SNEAKY attacker blocked by the defender's choice
with a creature without SNEAKY; a Mindbug decision only after a card played
from hand; the same decision on a copy gives the same events and state;
the state survives JSON. At the end of each run the game is played out (it
must end within a generous cap) and replayed from its start (it must come
to the same state). Separate properties check whole games and that a
self-played log verifies as conforming.

Budgets. CI runs the profile `mb-hunt-ci`: a small, derandomised budget
(the whole file takes about ten seconds). For a long hunt, the profile
`mb-hunt-long` draws fresh examples every run:

    MB_HUNT_PROFILE=mb-hunt-long pytest tests/test_invariants_stateful.py

(`MB_HUNT_EXAMPLES=N` sets the number of runs per edition in either profile.)

Does it catch a broken rule? `test_a_broken_tough_rule_is_caught` makes
TOUGH never apply, by patching the name the engine's defeat verb reads
(`oracle.games.mindbug.engine.effects.TOUGH`) for the duration of the test, and checks
both that the step checker names keywords.tough on a fixed fight and that
the state machine, left to search, fails. The same is done for SNEAKY
(`oracle.games.mindbug.engine.combat.SNEAKY`) and for the Mindbug decision. No engine file
is edited: pytest's monkeypatch restores the names after each test.
"""

from __future__ import annotations

import io
import os
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from oracle.games.mindbug.editions import EDITIONS
from oracle.games.mindbug.engine import Decision
from oracle.games.mindbug.hunt.checks import state_violations, step_violations
from oracle.games.mindbug.hunt.strategies import DEFS, Spot, deals, lines, positions, whole_games

CAP = 3000   # decisions: far more than any game of 48 cards needs

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# Two profiles: a small fixed sequence of examples for CI, and a long search
# with fresh examples every run (MB_HUNT_PROFILE=mb-hunt-long).
settings.register_profile("mb-hunt-ci", max_examples=100, stateful_step_count=60, derandomize=True,
                          database=None, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("mb-hunt-long", max_examples=1000, stateful_step_count=150, derandomize=False,
                          database=None, deadline=None, suppress_health_check=_QUIET)
CI = settings.get_profile(os.environ.get("MB_HUNT_PROFILE", "mb-hunt-ci"))
if os.environ.get("MB_HUNT_EXAMPLES"):
    CI = settings(CI, max_examples=int(os.environ["MB_HUNT_EXAMPLES"]))
EXAMPLES = CI.max_examples


class GameMachine(RuleBasedStateMachine):
    """One game from a legal position or a deal, a legal decision per step."""

    edition = "en-revised"

    def __init__(self):
        super().__init__()
        self.g = None
        self.start = None
        self.taken: list[Decision] = []
        self.last = None

    @initialize(data=st.data())
    def begin(self, data):
        start = data.draw(st.one_of(positions(editions=(self.edition,), playable=True), deals(editions=(self.edition,))),
                          label="start")
        self.start = start
        self.g = start.game()
        assert state_violations(self.g) == []

    @precondition(lambda self: self.g is not None and not self.g.is_over)
    @rule(data=st.data())
    def decide(self, data):
        options = self.g.legal_decisions()
        i = data.draw(st.integers(0, len(options) - 1), label="option") if len(options) > 1 else 0
        d = options[i]
        before = self.g.copy()
        events = self.g.apply(d)
        self.taken.append(d)
        self.last = (before, d, events)

    @precondition(lambda self: self.g is not None and self.g.is_over)
    @rule()
    def look_again(self):
        """Once the game is over: the state still holds."""
        assert state_violations(self.g) == []

    @invariant()
    def every_step_keeps_the_rules(self):
        if self.last is None:
            return
        before, d, events = self.last
        found = step_violations(before, d, events, self.g)
        assert found == [], f"after {d} in {self.edition}: {found}"

    def teardown(self):
        if self.g is None:
            return
        # Every game ends: play on at random (seeded by the run) within the cap.
        g = self.g.copy()
        rng = random.Random(len(self.taken))
        n = 0
        while not g.is_over and n < CAP:
            g.apply(rng.choice(g.legal_decisions()))
            n += 1
        assert g.is_over, f"no end after {CAP} more decisions ({self.edition})"
        # The same decisions from the same start give the same game.
        again = self.start.game()
        for d in self.taken:
            again.apply(d)
        assert again.state.to_builtins() == self.g.state.to_builtins()


def _machine_for(edition: str):
    name = "Game_" + edition.replace("-", "_")
    machine = type(name, (GameMachine,), {"edition": edition})
    case = machine.TestCase
    case.settings = CI
    return machine, case


MACHINES = {}
for _e in EDITIONS:
    MACHINES[_e], _case = _machine_for(_e)
    globals()["TestRulesHoldAfterEveryStep_" + _e.replace("-", "_")] = _case
del _case


@settings(CI, max_examples=max(EXAMPLES // 2, 4))
@given(whole_games(cap=CAP))
def test_every_game_ends_within_the_cap_and_replays_the_same(line):
    g = line.game()
    assert g.is_over, f"{len(line.decisions)} decisions without an end"
    assert g.winner in (0, 1) and g.reason in ("life", "no-action")
    assert line.game().state.to_builtins() == g.state.to_builtins()


@settings(CI, max_examples=max(EXAMPLES // 2, 4))
@given(lines(max_steps=40))
def test_a_decision_sequence_from_any_legal_position_keeps_the_state_sound(line):
    g = line.game()
    assert state_violations(g) == []
    assert line.game().state.to_builtins() == g.state.to_builtins()


@settings(CI, max_examples=max(EXAMPLES // 2, 4))
@given(st.sampled_from(EDITIONS), st.integers(0, 2**32 - 1), st.sampled_from(("random", "greedy")))
def test_a_self_played_log_verifies_as_conforming(edition, seed, bot):
    import json

    from oracle.replay.reader import split_games
    from oracle.games.mindbug.replay.selfplay import play_game
    from oracle.replay.verify import verify_game

    data = b"".join(json.dumps(x).encode() + b"\n" for x in play_game(edition, seed, bot, claims="every"))
    (raw,) = list(split_games(io.BytesIO(data), "<selfplay>"))
    report = verify_game(raw)
    assert report.verdict == "conforms", [f.message for f in report.findings]


# -- a broken rule is caught -------------------------------------------------------

def _fight(edition, attacker, blocker, exhausted=()):
    """`attacker` (player 0) attacks, `blocker` (player 1) blocks: (before, decision, events, after)."""
    ids = {DEFS[c].name: c for c in sorted(DEFS, reverse=True)}
    a, b = ids[attacker], ids[blocker]
    spot = Spot(edition, (("play", 0, (a,)), ("play", 1, (b,))), exhausted=tuple(ids[x] for x in exhausted))
    g = spot.game()
    g.apply(Decision("attack", 0, a))
    while g.pending.stage == "hunt":
        g.apply(Decision("hunt", 0, None))
    before = g.copy()
    d = Decision("block", 1, b)
    events = g.apply(d)
    return before, d, events, g


def _searches_and_fails(edition, examples=300):
    machine = MACHINES[edition]
    quick = settings(CI, max_examples=examples, phases=[Phase.generate], stateful_step_count=30)
    with pytest.raises(AssertionError) as e:
        run_state_machine_as_test(machine, settings=quick)
    return str(e.value)


def test_the_checker_accepts_the_real_rules():
    before, d, events, after = _fight("en-revised", "Kangasaurus Rex", "Elephantopus")
    assert step_violations(before, d, events, after) == []


def test_a_broken_tough_rule_is_caught(monkeypatch):
    from oracle.games.mindbug.engine import effects

    monkeypatch.setattr(effects, "TOUGH", 0)   # TOUGH never applies
    before, d, events, after = _fight("en-revised", "Kangasaurus Rex", "Elephantopus")
    found = step_violations(before, d, events, after)
    assert any(f.startswith("keywords.tough") for f in found), found
    assert "keywords.tough" in _searches_and_fails("en-revised")


def test_a_broken_sneaky_rule_is_caught(monkeypatch):
    from oracle.games.mindbug.engine import combat

    monkeypatch.setattr(combat, "SNEAKY", 0)   # anyone may block a SNEAKY attacker
    ids = {DEFS[c].name: c for c in DEFS}
    spot = Spot("fr-first", (("play", 0, (ids["Spider Owl"],)), ("play", 1, (ids["Gorillion"],))))
    g = spot.game()
    before = g.copy()
    d = Decision("attack", 0, ids["Spider Owl"])
    events = g.apply(d)
    assert any(f.startswith("keywords.sneaky") for f in step_violations(before, d, events, g))


def test_a_mindbug_decision_out_of_turn_is_caught():
    ids = {DEFS[c].name: c for c in DEFS}
    spot = Spot("en-first", (("play", 0, (ids["Gorillion"],)), ("play", 1, (ids["Bee Bear"],))))
    g = spot.game()
    before = g.copy()
    d = Decision("attack", 0, ids["Gorillion"])
    events = g.apply(d)
    # Forge the broken step: the defender is asked for a Mindbug after an attack.
    forged = g.copy()
    forged.ask("mindbug", 1, [("pass", None), ("mindbug", None)], ("mindbug", ids["Gorillion"]), ("mindbug.use",))
    found = step_violations(before, d, events, forged)
    assert any(f.startswith("mindbug.only-from-hand") for f in found), found
