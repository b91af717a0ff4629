"""The clauses verify names when a log skips a choice the rules wait for, and
for rules that leave no event behind: each finding's first clauses name the
rule the log broke, whatever the cards involved. The logs are self-played
games cut where the rules reach the position in question."""

from __future__ import annotations

import io
import json
import random

from oracle.games.mindbug.cards import FRENZY, TOUGH
from oracle.games.mindbug.engine import Decision, Game
from oracle.harness.start import game_from_setup
from oracle.harness.views import full_claim
from oracle.replay.reader import split_games
from oracle.replay.selfplay import choose, random_deal
from oracle.replay.verify import verify_game


def verify(lines: list[dict]):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r) for r in split_games(io.BytesIO(data), "cut.jsonl")][0]


def find(predicate, edition: str = "en-revised", seeds: int = 400):
    """The first self-played position where `predicate(g)` holds: (setup, decisions so far, game)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        setup = random_deal(rng, edition)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        g = game_from_setup(edition, setup)
        taken: list[Decision] = []
        while g.pending is not None and len(taken) < 300:
            if predicate(g):
                return setup, taken, g
            d = choose(g, "random", rng)
            g.apply_unchecked(d.kind, d.arg)
            taken.append(d)
    raise AssertionError("no self-played game reaches the position")


def log(setup: dict, taken: list[Decision], *tail: dict, edition: str = "en-revised") -> list[dict]:
    return [{"t": "game", "format": "mb-replay/1", "id": "cut", "edition": edition},
            {"t": "setup", **{k: v for k, v in setup.items() if k != "t"}},
            *(d.to_json() for d in taken), *tail, {"t": "end", "winner": None, "reason": "aborted"}]


def skipped(g: Game, option) -> list[dict]:
    """The log's lines of an engine that took `option` without writing it:
    the state after it, then the next decision (a log that stops at the
    claim skips nothing)."""
    probe = g.copy()
    probe.apply_unchecked(*option)
    p = probe.pending
    kind, arg = p.options[0]
    return [full_claim(probe), Decision(kind, None if p.is_chance else p.player, arg).to_json()]


def test_a_skipped_defeated_effect_choice_is_cited_first():
    def toad_choice(g):
        p = g.pending
        return (p.stage == "choose" and "triggers.defeated" in p.clauses and len(p.options) > 1
                and g.name(p.source) == "Explosive Toad")

    setup, taken, g = find(toad_choice)
    rep = verify(log(setup, taken, *skipped(g, g.pending.options[0])))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and "which the log skips" in f.message
    assert f.clauses[:2] == ["triggers.defeated", "effects.chooser"] or \
        f.clauses[:3] == ["triggers.defeated", "triggers.controller", "effects.chooser"], f.clauses


def test_a_skipped_block_of_a_sneaky_attacker_cites_sneaky_first():
    def sneaky_block(g):
        p = g.pending
        return p.stage == "block" and len(p.options) > 1 and g.has(g.state.combat[0], 8)   # SNEAKY

    setup, taken, g = find(sneaky_block)
    rep = verify(log(setup, taken, *skipped(g, ("block", None))))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and "which the log skips" in f.message
    assert f.clauses[0] == "keywords.sneaky" and "combat.block" in f.clauses, f.clauses
    # A log that stops at the claim skipped nothing: the state difference alone is cited.
    cut = verify(log(setup, taken, skipped(g, ("block", None))[0])).findings[0]
    assert "skips" not in cut.message and cut.clauses[0] != "keywords.sneaky"


def test_a_tough_creatures_exhaustion_wiped_without_an_event_cites_tough():
    def tough_exhausted(g):
        s = g.state
        return g.pending.stage == "action" and any(c in s.exhausted and g.has(c, TOUGH) for c in s.play[0] + s.play[1])

    setup, taken, g = find(tough_exhausted)
    right = full_claim(g)
    wrong = json.loads(json.dumps(right))
    for side in wrong["play"]:
        for place in side:
            place["exhausted"] = False
    rep = verify(log(setup, taken, right, wrong))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and f.line == len(taken) + 4
    assert f.clauses[0] == "keywords.tough", f.clauses


def test_a_second_attack_by_another_copy_of_a_frenzy_creature_cites_frenzy():
    def two_copies(g):
        p = g.pending
        if p.stage != "action":
            return False
        mine = [c for c in g.state.play[p.player] if g.has(c, FRENZY)]
        return any(g.name(a) == g.name(b) and a != b for a in mine for b in mine)

    setup, taken, g = find(two_copies, seeds=3000)
    me = g.pending.player
    a, b = next((a, b) for a in g.state.play[me] for b in g.state.play[me]
                if a != b and g.has(a, FRENZY) and g.name(a) == g.name(b))
    steps = [Decision("attack", me, a)]
    g.apply_unchecked("attack", a)
    while g.pending is not None and not (g.pending.stage == "action" and g.pending.player != me):
        p = g.pending
        option = ("pass", None) if p.stage == "frenzy" else p.options[-1]
        steps.append(Decision(option[0], None if p.is_chance else p.player, option[1]))
        g.apply_unchecked(*option)
    assert g.pending is not None and b in g.state.play[me]
    rep = verify(log(setup, taken + steps, {"t": "attack", "p": me, "card": b}))
    f = rep.findings[0]
    assert f.code == "ILLEGAL_DECISION" and f.clauses[0] == "keywords.frenzy", (f.code, f.clauses)
