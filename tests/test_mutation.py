"""Mutation test of the verifier: corrupt conforming logs at one point, the
way a faulty engine or exporter would; every corruption that breaks the
rules must be reported, and every harmless one accepted."""

import io
import json
import random

import pytest

from oracle.games.mindbug.engine import Decision, Game
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import claim, selfplay_lines
from oracle.replay.verify import verify_game

DECISIONS = {"play", "attack", "mindbug", "pass", "hunt", "block", "choose", "random"}


def canonical_games(n, seed, edition):
    """Self-played logs with every decision and a claim after each."""
    lines = [json.loads(x) for x in selfplay_lines(n, seed, edition, "random", "every")]
    games, cur = [], None
    for x in lines:
        if x["t"] == "game":
            cur = []
            games.append(cur)
        cur.append(x)
    return games


def replay_points(game_lines, edition):
    """For each decision line index: the game before it."""
    s = game_lines[1]
    g = Game.deal(edition, {int(k): v for k, v in s["cards"].items()}, s["decks"], s["unused"], None, s["reveals"])
    points = {}
    for i, x in enumerate(game_lines):
        if x["t"] in DECISIONS:
            points[i] = g.copy()
            g.apply(Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards"))))
    return points


def strictly_valid(lines, edition) -> bool:
    """An independent check of a log that writes every decision and a claim
    after each: every decision legal, every claim exactly the state."""
    from oracle.games.mindbug.engine import Refused
    s = lines[1]
    g = Game.deal(edition, {int(k): v for k, v in s["cards"].items()}, s["decks"], s["unused"], None, s["reveals"])
    for x in lines[2:]:
        if x["t"] in DECISIONS:
            if g.is_over:
                return False
            try:
                g.apply(Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards"))))
            except Refused:
                return False
        elif x["t"] == "state" and claim(g) != x:
            return False
        elif x["t"] == "end" and (not g.is_over or (g.winner, g.reason) != (x["winner"], x["reason"])):
            return False
    return True


def verdict(lines):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return verify_game(next(split_games(io.BytesIO(data), "<mutant>")))


def mutate(rng, lines, points):
    """One corruption: (kind, mutant lines, whether it breaks the rules)."""
    kind = rng.choice(["decision", "card", "claim", "remove"])
    idx = rng.choice(sorted(points))
    g = points[idx]
    x = dict(lines[idx])
    out = [dict(y) for y in lines]
    options = g.legal_decisions()
    if kind == "decision":
        others = [d for d in options if d.to_json() != {k: v for k, v in x.items()}]
        if not others:
            return None
        out[idx] = rng.choice(others).to_json()
        return kind, out, not strictly_valid(out, g.profile.edition)
    if kind == "card":
        if "card" not in x or x["card"] is None:
            return None
        legal = {d.arg for d in options if d.kind == x["t"]}
        every = [int(k) for k in lines[1]["cards"]]
        bad = [c for c in every if c not in legal]
        x["card"] = rng.choice(bad)
        out[idx] = x
        return kind, out, True
    if kind == "claim":
        j = idx + 1
        c = dict(out[j])
        field = rng.choice(["life", "mindbugs", "hand", "deck", "exhausted"])
        if field in ("life", "mindbugs", "deck"):
            c[field] = list(c[field])
            c[field][rng.randrange(2)] += rng.choice([-1, 1])
        elif field == "hand":
            p = rng.randrange(2)
            if not c["hand"][p]:
                return None
            c["hand"] = [list(h) for h in c["hand"]]
            c["discard"] = [list(h) for h in c["discard"]]
            c["discard"][p].append(c["hand"][p].pop())
        else:
            sides = [(p, i) for p in (0, 1) for i in range(len(c["play"][p]))]
            if not sides:
                return None
            p, i = rng.choice(sides)
            c["play"] = [[dict(e) for e in side] for side in c["play"]]
            c["play"][p][i]["exhausted"] = not c["play"][p][i]["exhausted"]
        out[j] = c
        return kind, out, True
    # remove a decision line (and its claim): harmless only when it was forced
    forced = len(options) == 1
    del out[idx:idx + 2]
    return kind, out, not forced


@pytest.mark.parametrize("edition", ["en-first", "en-revised"])
def test_every_rule_breaking_corruption_is_reported(edition):
    rng = random.Random(4242)
    counts = {}
    for lines in canonical_games(12, 77, edition):
        assert verdict(lines).verdict == "conforms"
        points = replay_points(lines, edition)
        for _ in range(15):
            m = mutate(rng, lines, points)
            if m is None:
                continue
            kind, mutant, breaks = m
            rep = verdict(mutant)
            counts[(kind, breaks)] = counts.get((kind, breaks), 0) + 1
            if breaks:
                assert rep.verdict != "conforms", (kind, "a rule-breaking corruption passed")
                assert rep.findings[0].clauses or rep.findings[0].code in ("BAD_REFERENCE",)
            else:
                assert rep.verdict == "conforms", (kind, rep.findings[:1])
    assert sum(n for (k, b), n in counts.items() if b) > 100
    assert {k for k, b in counts if b} == {"decision", "card", "claim", "remove"}
