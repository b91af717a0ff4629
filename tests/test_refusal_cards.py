"""Every refusal a card's ability causes names that card (Refusal.card):
over the refusals the scenario library provokes, each one citing a clause
of an ability (abilities, triggers, the later sets) or whose message puts
it on a card's ability or effect names the card."""

from __future__ import annotations

from conftest import ROOT

from oracle.games.mindbug.clauses import load_catalogue
from oracle.games.mindbug.engine.game import Game
from oracle.scenarios.loader import load_paths
from oracle.scenarios.runner import run_all

# The sections of the catalogue whose clauses are the rules of cards' abilities.
ABILITY_SECTIONS = {"abilities", "triggers", "beyond"}
ON_A_CARD = ("'s ability", "'s Attack effect", "'s Action", "while ")   # while a card is in play


def refusals(monkeypatch) -> list:
    seen = []
    plain = Game.refusal

    def spy(self, d):
        r = plain(self, d)
        if r is not None:
            seen.append(r)
        return r

    monkeypatch.setattr(Game, "refusal", spy)
    files, errors = load_paths([ROOT / "scenarios"])
    assert not errors
    run_all(files)
    return seen


def test_every_refusal_by_a_cards_ability_names_the_card(monkeypatch):
    sections = {k: c.section for k, c in load_catalogue().items()}
    seen = refusals(monkeypatch)
    by_ability = [r for r in seen if sections.get(r.clause) in ABILITY_SECTIONS
                  or any(w in r.message for w in ON_A_CARD)]
    clauses = {r.clause for r in by_ability}
    # The library provokes the refusals this test is about.
    assert {"later.forced.hippo", "abilities.cannot-attack", "effects.hunter-order"} <= clauses, clauses
    unnamed = [(r.clause, r.message) for r in by_ability if not r.card]
    assert not unnamed


def test_captain_hippo_is_named_by_both_of_its_refusals(monkeypatch):
    hippo = [r for r in refusals(monkeypatch) if r.clause == "later.forced.hippo"]
    hunt = [r for r in hippo if "HUNTER must name" in r.message]
    turn = [r for r in hippo if "turn action must be" in r.message]
    assert hunt and turn
    assert {r.card for r in hunt + turn} == {"Captain Hippo"}
