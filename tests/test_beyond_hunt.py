"""`mb-oracle hunt --sets`: the probes where the later sets' mechanics meet
the old keywords, each played under every choice of the readings it names;
the findings name the clauses and readings."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from oracle.games.mindbug.hunt import later_hunt
from oracle.games.mindbug.hunt.later_hunt import PROBES, hunt_later, play_probe
from test_beyond_selfplay import missing_abilities


def probe(pid: str):
    p = next(p for p in PROBES if p.id == pid)
    missing = missing_abilities(p.sets)
    if missing:
        pytest.skip(f"abilities not written yet: {', '.join(missing[:8])}")
    return p


def test_tough_and_evolve_depend_on_the_reading_of_exhaustion_across_stages():
    p = probe("later-hunt.tough-evolve")
    keeps, _ = play_probe(p, {"later.evolve.tough": "keeps"})
    clears, _ = play_probe(p, {"later.evolve.tough": "clears"})
    # the team's reading: the exhausted stage I stays exhausted, so the TOUGH face falls to Gorillion
    assert "discard [Curious Tadpole]" in keeps and "Frog Prophet" not in keeps
    assert "play [Frog Prophet (stage 2) exhausted]" in clears
    f = next(f for f in hunt_later(["beyond-evolution"]) if f.probe == p.id)
    assert f.category == "reading-dependent" and "later.evolve.tough" in f.clauses and "keywords.tough" in f.clauses
    assert set(f.outcomes) == {"later.evolve.tough=keeps", "later.evolve.tough=both-tough",
                               "later.evolve.tough=clears"}


def test_boost_and_poisonous_send_the_boost_card_where_the_reading_says():
    p = probe("later-hunt.boost-poisonous")
    mine, _ = play_probe(p, {"later.boost.leave": "controller"})
    theirs, _ = play_probe(p, {"later.boost.leave": "owner"})
    # POISONOUS defeats the boosted Sea-Rex (6) all the same
    assert "player 0: life 3, play []" in mine and "player 0: life 3, play []" in theirs
    assert "discard [Luchataur, Rhino Turtle, Sea-Rex]" in mine
    assert "discard [Koibra, Rhino Turtle]" in theirs


def test_captain_hippo_takes_the_turn_action_only_under_the_teams_reading():
    p = probe("later-hunt.hippo-hunter")
    must, _ = play_probe(p, {"later.forced.hippo": "must-attack"})
    free, _ = play_probe(p, {"later.forced.hippo": "when-attacking"})
    assert "play Spider Owl never became legal" in must and "discard [Urchin Hurler]" in must
    assert "play [Urchin Hurler, Luchataur, Spider Owl]" in free


def test_a_forced_sneaky_attacker_is_blocked_only_by_sneaky():
    p = probe("later-hunt.forced-sneaky")
    out, broken = play_probe(p, {})
    assert "player 0: life 2" in out and "block Gorillion never became legal" in out and broken == []


def test_a_step_check_failing_in_a_probe_is_an_engine_bug(monkeypatch):
    p = probe("later-hunt.forced-sneaky")
    monkeypatch.setattr("oracle.games.mindbug.hunt.checks.step_violations",
                        lambda before, d, events, after: ["keywords.sneaky: planted"] if d.kind == "block" else [])
    found = [f for f in later_hunt.hunt_later(["beyond-evolution"]) if f.probe == p.id]
    assert found[0].category == "engine-bug" and "keywords.sneaky: planted" in found[0].summary


def test_the_command_hunts_the_named_sets_and_refuses_what_it_cannot():
    r = run_cli("hunt", "--sets", "beyond-evolution", "--edition", "fr-first")
    assert r.returncode == 2 and b"only en-revised deals the later sets" in r.stderr
    r = run_cli("hunt", "--sets", "first-contact")
    assert r.returncode == 2 and b"no probe deals first-contact" in r.stderr
    r = run_cli("hunt", "--sets", "beyond-evolutoin")
    assert r.returncode == 2 and b"unknown card set" in r.stderr
    probe("later-hunt.tough-evolve")
    r = run_cli("hunt", "--sets", "beyond-evolution", "--format", "json")
    assert r.returncode == 0, r.stderr.decode()
    found = json.loads(r.stdout)["findings"]
    assert {f["id"] for f in found} == {p.id for p in PROBES if p.sets == ("beyond-evolution",)}
    assert all(f["clauses"] and f["category"] in ("reading-dependent", "settled") for f in found)
