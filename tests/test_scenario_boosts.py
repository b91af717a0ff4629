"""Scenario positions with boost cards under creatures (later.boost):
given, checked in `expect`, and refused where the rules cannot have them."""

from __future__ import annotations

from oracle.scenarios.loader import load_text
from oracle.scenarios.runner import run

HEAD = """format: mb-scenario/1
id: t.boosts
title: boost cards in a position
clauses: [later.boost]
sets: [first-contact, beyond-eternity]
source: {kind: rulebook, ref: test}
"""


def load(body: str, editions: str = "[en-revised]"):
    return load_text(HEAD + f"editions: {editions}\n" + body, "boosts.yaml")


def test_a_given_boost_adds_power_and_expect_checks_the_cards_under_it():
    body = """given:
  players:
    - {play: [{card: Sea-Rex, boosts: [Spider Owl, Killer Bee]}]}
    - {play: [Luchataur], hand: [Axolotl Healer]}
expect:
  power: {Sea-Rex: 7}
  players:
    - {play: [{card: Sea-Rex, boosts: [Killer Bee, Spider Owl]}], discard: []}
    - {}
"""
    sf = load(body)
    assert not sf.errors, sf.errors
    sc = sf.scenarios[0]
    assert run(sc, "en-revised").passed
    wrong = load(body.replace("boosts: [Killer Bee, Spider Owl]", "boosts: [Killer Bee]")).scenarios[0]
    result = run(wrong, "en-revised")
    assert not result.passed and "boosts" in repr(result)


def test_boosts_off_the_play_area_twice_placed_or_in_an_edition_without_the_later_sets_are_errors():
    off_play = load("""given:
  players:
    - {hand: [{card: Sea-Rex, boosts: [Spider Owl]}]}
    - {}
""")
    assert off_play.errors
    twice = load("""given:
  players:
    - {play: [{card: Sea-Rex, boosts: [Spider Owl]}], hand: [Spider Owl]}
    - {}
""")
    assert any("already placed" in str(e) for e in twice.errors), twice.errors
    first = load("""given:
  players:
    - {play: [{card: Luchataur, boosts: [Spider Owl]}]}
    - {}
""", editions="[en-revised, fr-first]")
    assert any("boost cards are a rule of Beyond Eternity and the promos that boost" in str(e) for e in first.errors), first.errors
