"""The reference engine: the decision protocol, the card database, the
clause ids in the code, and random games in every edition."""

import random
import re
from pathlib import Path

import pytest
import source_facts

from oracle.games.mindbug.cards import CARDS, full_set, keyword_list, lookup
from oracle.games.mindbug.clauses import load_catalogue
from oracle.games.mindbug.editions import EDITIONS
from oracle.games.mindbug.engine import Decision, Game, QuietGame, Refused, State, step
from oracle.games.mindbug.engine.invariants import violations

ROOT = Path(__file__).resolve().parents[1]


def random_game(edition, seed):
    rng = random.Random(seed)
    names = full_set()
    rng.shuffle(names)
    cards = dict(enumerate(names, 1))
    ids = list(cards)
    return Game.deal(edition, cards, [ids[:10], ids[10:20]], ids[20:], first=rng.randrange(2)), rng


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_games_end_with_a_winner_and_keep_the_invariants(edition):
    for seed in range(150):
        g, rng = random_game(edition, seed)
        n = 0
        while not g.is_over:
            opts = g.legal_decisions()
            assert opts, "a pending decision always has a legal option"
            g.apply(rng.choice(opts))
            n += 1
            assert violations(g) == [], (seed, n)
            assert n < 3000
        assert g.winner in (0, 1) and g.reason in ("life", "no-action")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_quiet_game_keeps_no_events_and_plays_exactly_like_a_game(edition):
    # The rules never read the events they record, so a QuietGame (verify's
    # fast lane) reaches the same state after every decision.
    for seed in range(40):
        g, rng = random_game(edition, seed)
        q = QuietGame(g.table, g.profile, g.state.copy())
        recorded = 0
        while not g.is_over:
            d = rng.choice(g.legal_decisions())
            recorded += len(g.apply(d))
            assert q.apply(d) == []
            assert q.state.to_builtins() == g.state.to_builtins(), (seed, d)
            assert type(q.copy()) is QuietGame
        assert q.is_over and q.winner == g.winner and recorded > 0


def test_an_illegal_decision_is_refused_and_the_state_is_unchanged():
    g, _ = random_game("en-revised", 1)
    before = g.state.to_builtins()
    p = g.pending.player
    bad = Decision("attack", p, g.state.hand[p][0])  # a card in hand cannot attack
    r = g.refusal(bad)
    assert r.code == "ILLEGAL_DECISION" and r.clause == "combat.attack" and r.options
    with pytest.raises(Refused) as e:
        g.apply(bad)
    assert e.value.refusal.clause == "combat.attack"
    assert g.state.to_builtins() == before
    wrong = Decision("play", 1 - p, g.state.hand[1 - p][0])
    assert g.refusal(wrong).clause == "turns.alternate"


def test_step_is_functional_and_events_name_their_clauses():
    g, _ = random_game("en-revised", 2)
    d = next(d for d in g.legal_decisions() if d.kind == "play")
    before = g.state.to_builtins()
    g2, events = step(g, d)
    assert g.state.to_builtins() == before
    assert g2.state.to_builtins() != before
    catalogue = load_catalogue()
    assert events and all(e.clauses and all(c in catalogue for c in e.clauses) for e in events)
    assert g2.pending.stage == "mindbug" and g2.pending.player == 1 - d.player


def test_state_survives_a_round_trip_through_its_serialised_form():
    import msgspec
    g, rng = random_game("fr-first", 3)
    for _ in range(40):
        if g.is_over:
            break
        data = msgspec.json.encode(g.state.to_builtins())
        back = Game(g.table, g.profile, State.from_builtins(msgspec.json.decode(data)))
        assert back.state.to_builtins() == g.state.to_builtins()
        d = rng.choice(g.legal_decisions())
        g.apply(d)
        back.apply(d)
        assert back.state.to_builtins() == g.state.to_builtins()


def test_a_pending_decision_is_a_value():
    """Pending is a plain class (the compiled build reads its fields
    directly), compared and hashed by its fields as the named tuple it
    replaced was: a pending decision read back from its serialised form is
    equal to the one written, and any field that differs makes another. It
    pickles and copies as the named tuple did (a compiled class is made
    again from its fields)."""
    import copy
    import pickle

    import msgspec
    from oracle.games.mindbug.engine import Pending
    g, rng = random_game("en-revised", 5)
    seen = 0
    for _ in range(30):
        if g.is_over:
            break
        p = g.pending
        back = Pending.from_builtins(msgspec.json.decode(msgspec.json.encode(p.to_builtins())))
        assert back == p and not back != p and hash(back) == hash(p)
        assert back is not p and {back: 1}[p] == 1
        assert repr(back) == repr(p) and repr(p).startswith(f"Pending(stage={p.stage!r}, player={p.player!r}")
        for field, other in (("stage", "other"), ("player", 7), ("options", []), ("resume", ("x",)),
                             ("clauses", ("y",)), ("source", -1), ("prompt", "z")):
            changed = Pending.from_builtins({**p.to_builtins(), field: other})
            assert changed != p and not changed == p, field
        assert p != p.to_builtins() and p != tuple(p.to_builtins().values())
        for again in (pickle.loads(pickle.dumps(p, pickle.HIGHEST_PROTOCOL)), pickle.loads(pickle.dumps(p, 0)),
                      copy.deepcopy(p), copy.copy(p)):
            assert again == p and type(again) is Pending
        seen += 1
        g.apply(rng.choice(g.legal_decisions()))
    assert seen >= 10


def test_chance_events_list_their_outcomes():
    from oracle.games.mindbug.engine import position
    defs = {i: lookup(n) for i, n in enumerate(full_set(), 1)}
    ids = {n: [i for i, d in defs.items() if d.name == n] for n in CARDS}
    barrel, gorillion = ids["Strange Barrel"][0], ids["Gorillion"][0]
    hand = [ids["Killer Bee"][0], ids["Luchataur"][0], ids["Spider Owl"][0]]
    g = position("en-revised", {("play", 0): [gorillion], ("play", 1): [barrel], ("hand", 0): hand}, defs)
    g.apply(Decision("attack", 0, gorillion))
    g.apply(Decision("block", 1, barrel))
    assert g.pending.is_chance and g.pending.player is None
    assert len(g.legal_decisions()) == 3  # two cards of three
    g.apply(g.legal_decisions()[0])
    assert len(g.state.hand[1]) == 2 and len(g.state.hand[0]) == 1


def test_cards_match_the_printed_facts():
    """The card database against the printed facts of First Contact, kept
    in tests/data/first-contact-facts.tsv (from the fact sheet)."""
    seen = source_facts.shipped_facts()
    assert len(seen) == 32
    for name, (fr, power, kws, n) in seen.items():
        c = lookup(name)
        assert (c.name, c.power, tuple(sorted(keyword_list(c.keywords))), c.copies) == (name, power, kws, n)
        assert lookup(fr) is c
    # Cards of other sets (New Servants, sets a scenario declares) share the database.
    assert sum(c.copies for c in CARDS.values() if c.card_set == "first-contact") == 48


def test_the_printed_facts_are_the_fact_sheets():
    if not source_facts.SHEET.exists():
        pytest.skip(f"needs the fact sheet of the project's sources ({source_facts.SHEET}) to check that "
                    f"tests/data/first-contact-facts.tsv is current")
    assert source_facts.shipped_facts() == source_facts.sheet_facts(), "run python tests/source_facts.py"


def test_cards_cli_json_lists_the_designs_of_each_set_and_resolves_french_names(cli):
    import json
    r = cli("cards", "--json", "--set", "first-contact")
    data = json.loads(r.stdout)
    assert len(data) == 32 and sum(c["copies"] for c in data) == 48
    data = json.loads(cli("cards", "--json", "--set", "new-servants").stdout)
    assert len(data) == 12 and {c["copies"] for c in data} == {2} and {c["set"] for c in data} == {"new-servants"}
    assert len(json.loads(cli("cards", "--json").stdout)) == 150   # every set, stage faces included
    r = cli("cards", "--json", "Pachypoulpe")
    assert json.loads(r.stdout)[0]["name"] == "Elephantopus"
    r = cli("cards", "Nope")
    assert r.returncode == 2 and b"unknown card" in r.stderr


CLAUSE_RE = re.compile(r"[\"'(\s]((?:setup|life|winning|cards|drawing|turns|play|mindbug|combat|keywords|triggers|"
                       r"abilities|effects|terms|later)\.[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*)[\"',)\s:]")


def test_every_clause_id_in_the_code_exists_and_every_clause_is_in_the_code():
    catalogue = load_catalogue()
    code = "\n".join(p.read_text() for p in (ROOT / "oracle").rglob("*.py"))
    cited = {c for c in CLAUSE_RE.findall(code) if not c.endswith(".py")}   # a module's file name is no clause
    attrs = {"cards.abilities", "cards.items", "triggers.append", "triggers.clear", "triggers.pop"}
    assert sorted(cited - set(catalogue) - attrs) == []
    assert sorted(c for c in catalogue if c not in code) == []


def test_clauses_cli_lists_at_least_60(cli):
    import json
    data = json.loads(cli("clauses", "--json").stdout)
    assert len(data) >= 60
    assert all({"id", "title", "text", "source", "editions"} <= set(c) for c in data)


@pytest.mark.parametrize("edition", ["en-revised", "fr-first"])
def test_every_step_and_answer_runs_through_the_registry(edition, monkeypatch):
    """A task or an answer replaced in the registry (as an engine adapter
    plants a rule switched off, examples/engine_adapter.py) is the one the
    game runs, also where a step runs the next one at once."""
    from oracle.games.mindbug.engine.registry import RESUMES, TASKS

    ran: set = set()

    def replaced(table, kind, name):
        real = table[name]

        def wrapper(*args):
            ran.add((kind, name))
            return real(*args)
        monkeypatch.setitem(table, name, wrapper)

    tasks = ("turn", "action", "hunt", "block", "fight", "after-attack", "end-turn")
    answers = ("action", "block", "mindbug")
    for name in tasks:
        replaced(TASKS, "task", name)
    for name in answers:
        replaced(RESUMES, "answer", name)
    for seed in range(10):
        g, rng = random_game(edition, seed)
        while not g.is_over:
            waiting = g.pending.resume[0]
            ran.discard(("answer", waiting))
            g.apply(rng.choice(g.legal_decisions()))
            if waiting in answers:
                assert ("answer", waiting) in ran, waiting
    assert {("task", n) for n in tasks} <= ran
