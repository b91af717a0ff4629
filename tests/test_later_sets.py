"""The later-set mechanics (FAST, Action, Harvest, event triggers, Octonite,
steal life, refresh, drawing from the unused pile) exist only in the English
revised rulebook and no shipped card uses them (declared cards do:
scenarios/later-sets.yaml, tests/test_declared_cards.py). These tests pin
down which editions have them, that the shipped card data has none of them,
and that in First Contact games the things they would do never happen."""

from __future__ import annotations

import random

import pytest

from oracle.games.mindbug.cards import CARDS, FAST, KEYWORD_NAMES, full_set
from oracle.games.mindbug.clauses import load_catalogue
from oracle.games.mindbug.editions import EDITIONS, PROFILES
from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.engine.state import STAGE_KINDS, State

FIRST_EDITIONS = ("en-first", "fr-first", "fr-revised")


def test_only_the_english_revised_profile_has_the_later_sets():
    assert PROFILES["en-revised"].later_sets is True
    for e in FIRST_EDITIONS:
        assert PROFILES[e].later_sets is False
    assert PROFILES["en-revised"].switch("later_sets").clause == "later.octonite"


@pytest.mark.parametrize("cid", [
    "keywords.fast", "keywords.fast.mindbugged", "triggers.when", "triggers.when.events", "triggers.action",
    "triggers.harvest", "later.octonite",
    "later.octonite.distribute", "later.octonite.spend", "later.steal-life", "later.refresh", "later.unused-draw",
])
def test_the_catalogue_marks_later_set_clauses_absent_in_the_first_editions(cid):
    clause = load_catalogue()[cid]
    # triggers.when.events (the rulebook names no event) and keywords.fast.mindbugged
    # (it does not place the attack in the turn) are readings there
    assert clause.status("en-revised").status == (
        "silent" if cid in ("triggers.when.events", "keywords.fast.mindbugged") else "states")
    for e in FIRST_EDITIONS:
        assert clause.status(e).status == "absent", (cid, e)
    assert any(book == "en-revised" for book, _ in clause.source)


SHIPPED = [c for c in CARDS.values() if c.card_set in ("first-contact", "new-servants")]


def test_no_shipped_card_has_fast():
    # keywords.fast: known to the card data (declared cards may print it), printed by no shipped card.
    assert "keywords.fast" in load_catalogue()
    assert set(KEYWORD_NAMES.values()) == {"FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "FAST"}
    assert not any(c.keywords & FAST for c in SHIPPED)


def test_shipped_triggers_are_play_attack_defeated_and_hyenix_when():
    # triggers.action, triggers.harvest: no shipped card uses them; Hyenix's
    # "when" works from the discard pile (triggers.from-discard), not triggers.when.
    assert {c.trigger for c in SHIPPED if c.card_set == "first-contact"} == {"play", "attack", "defeated", None}
    assert {c.name for c in SHIPPED if c.trigger == "when"} == {"Hyenix"}
    for c in SHIPPED:
        assert not c.text.lower().startswith(("action", "harvest", "at the end of turn")), c.name


def test_the_turn_action_is_play_or_attack_in_first_contact_games():
    # triggers.action adds a third turn action (activate) for declared cards only.
    assert STAGE_KINDS["action"] == ("play", "attack", "activate")
    for g, _rng in random_games("en-revised", 5):
        assert {k for k, _a in g.pending.options} <= {"play", "attack"}


def test_a_new_state_has_no_octonite_counters():
    # later.octonite: counters come only with declared cards
    assert State().octonite == () and State().to_builtins()["octonite"] == []


def random_games(edition, n=60):
    for seed in range(n):
        rng = random.Random(seed)
        names = full_set()
        rng.shuffle(names)
        cards = dict(enumerate(names, 1))
        ids = list(cards)
        g = Game.deal(edition, cards, [ids[:10], ids[10:20]], ids[20:], first=rng.randrange(2))
        yield g, rng


@pytest.mark.parametrize("edition", EDITIONS)
def test_in_first_contact_games_nothing_refreshes_steals_life_draws_from_unused_or_harvests(edition):
    for g, rng in random_games(edition):
        unused = len(g.state.unused)
        mindbugs = list(g.state.mindbugs)
        while not g.is_over:
            events = g.apply(rng.choice(g.legal_decisions()))
            s = g.state
            # later.refresh: a used Mindbug never comes back.
            assert all(now <= before for now, before in zip(s.mindbugs, mindbugs))
            mindbugs = list(s.mindbugs)
            # later.unused-draw: no card leaves the unused pile for a hand; only EN first's
            # life cards take from it.
            taken = unused - len(s.unused)
            gained = sum(e.amount for e in events if e.kind == "gain-life")
            assert taken == (gained if g.profile.life_cards else 0)
            unused = len(s.unused)
            # later.steal-life: no single effect makes one player lose life and the other gain it.
            sources = {}
            for e in events:
                if e.kind in ("gain-life", "lose-life") and e.source is not None:
                    sources.setdefault(e.source, set()).add(e.kind)
            assert all(kinds != {"gain-life", "lose-life"} for kinds in sources.values())
            # triggers.harvest: nothing happens at the start of a turn; the turn action comes first.
            if any(e.kind == "turn" for e in events) and not g.is_over:
                assert events[-1].kind == "turn" and s.pending.stage == "action"


def fruit_lab_games(n):
    """Random en-revised games dealing First Contact with the designed cards
    of examples/later-sets.yaml, so that every deal holds the Octonite cards."""
    from pathlib import Path

    from oracle.games.mindbug.cards.compiled import load_file
    load_file(Path(__file__).resolve().parent.parent / "examples" / "later-sets.yaml")
    sets = ("first-contact", "fruit-lab")
    for seed in range(n):
        rng = random.Random(seed)
        names = full_set(sets)
        rng.shuffle(names)
        # the Octonite cards in both hands, the rest shuffled
        for k, name in enumerate(("Kiwano Courier", "Guava Engineer")):
            names.remove(name)
            names.insert(k * 10, name)
        cards = dict(enumerate(names, 1))
        ids = list(cards)
        yield Game.deal("en-revised", cards, [ids[:10], ids[10:20]], ids[20:], first=rng.randrange(2),
                        sets=sets), rng


def test_octonite_counters_are_handed_out_to_other_creatures_and_spent_one_at_a_time():
    moved = spent = 0
    for g, rng in fruit_lab_games(40):
        while not g.is_over:
            before = dict(g.state.octonite)
            events = g.apply(rng.choice(g.legal_decisions()))
            after = dict(g.state.octonite)
            in_play = set(g.state.play[0] + g.state.play[1])
            for e in events:
                if e.kind == "octonite-moved":
                    # later.octonite.distribute: from the newcomer to another creature in play
                    moved += 1
                    assert e.card != e.source and e.card in in_play and e.clauses == ("later.octonite.distribute",)
                    assert g.name(e.source) == "Kiwano Courier"
                if e.kind == "octonite-spent":
                    # later.octonite.spend: one counter of the paying creature itself
                    spent += 1
                    assert g.name(e.card) in ("Kiwano Courier", "Guava Engineer")
                    assert e.amount == before.get(e.card, 0) - 1 == after.get(e.card, 0) or g.is_over
            p = g.state.pending
            if p is not None and p.resume[0] == "octonite-give":
                newcomer = p.resume[1]
                assert ("choose", ()) in p.options             # keeping the rest is always allowed
                assert {a[0] for k, a in p.options if a} == set(g.state.play[0] + g.state.play[1]) - {newcomer}
            if p is not None and p.stage == "action":
                # an Action paid with Octonite is offered only while its creature has a counter
                for k, a in p.options:
                    if k == "activate" and g.name(a) == "Guava Engineer":
                        assert after.get(a, 0) >= 1
    assert moved and spent                                     # the games did exercise both


def test_when_abilities_answer_their_event_and_never_an_event_of_another_when_effect():
    from oracle.games.mindbug.engine.presence import EVENT_TRIGGERS
    wanted = {"when-ally-defeated": "defeat", "when-enemy-defeated": "defeat",
              "when-you-gain-life": "gain-life", "when-you-lose-life": "lose-life"}
    answered = 0
    for g, rng in fruit_lab_games(40):
        for _ in range(2000):                                  # every game ends: no endless answers
            if g.is_over:
                break
            events = g.apply(rng.choice(g.legal_decisions()))
            for i, e in enumerate(events):
                if e.kind != "trigger" or "triggers.when.events" not in e.clauses:
                    continue
                answered += 1
                trig = g.table.defs[e.card].trigger
                assert trig in EVENT_TRIGGERS
                # triggers.when.events: an earlier event of this decision set it off, and that
                # event did not come from a "when ..." effect
                causes = [c for c in events[:i] if c.kind == wanted[trig]
                          and (c.source is None or g.table.defs[c.source].trigger not in EVENT_TRIGGERS)]
                assert causes, (g.name(e.card), [(c.kind, c.source) for c in events[:i]])
        assert g.is_over
    assert answered
