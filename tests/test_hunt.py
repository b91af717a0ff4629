"""The rules hunt rediscovers the known tensions of the rulebooks.

One hunt runs for the whole module with a small fixed budget and seed
(about half a minute on 2 cores), and every test reads its report: each
known case must be among the findings, with the clauses in tension and the
editions that settle it, and every finding must be a draft scenario that
loads and passes. Nothing in the hunt names these cases; it finds them by
reading the clause catalogue and the card list.

A longer hunt, for finding what is not known yet:

    mb-oracle hunt --all --budget 5000 --seed 7 -j 2 --out findings/
    mb-oracle scenarios findings/

or this module with a bigger search (the same assertions must hold):

    MB_HUNT_BUDGET=8000 MB_HUNT_SEED=3 pytest tests/test_hunt.py
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from click.testing import CliRunner

from oracle.games.mindbug.editions import EDITIONS
from oracle.games.mindbug.hunt.drafts import write
from oracle.games.mindbug.hunt.facts import Board
from oracle.games.mindbug.hunt.search import Hunt

BUDGET = int(os.environ.get("MB_HUNT_BUDGET", "2500"))
SEED = int(os.environ.get("MB_HUNT_SEED", "0"))
JOBS = int(os.environ.get("MB_HUNT_JOBS", "2"))
FIRST, REVISED = ("en-first", "fr-first"), ("fr-revised", "en-revised")


@pytest.fixture(scope="module")
def hunted(tmp_path_factory):
    rep = Hunt(budget=BUDGET, seed=SEED, jobs=JOBS).run()
    out = tmp_path_factory.mktemp("hunt")
    for f in rep.findings:
        write(f, out, BUDGET, SEED)
    return rep, out


def finding(rep, *clauses):
    got = [f for f in rep.findings if set(f.clauses) == set(clauses)]
    assert got, f"no finding on {clauses}; found: {[f.clauses for f in rep.findings]}"
    return got[0]


def verdicts(f):
    return {e: f.editions[e].get("verdict") for e in EDITIONS}


def settled_by(f, edition):
    return set(f.editions[edition].get("settled_by", ()))


def test_hunter_against_sneaky_is_open_only_in_the_english_first_edition(hunted):
    f = finding(hunted[0], "keywords.hunter", "keywords.sneaky")
    assert f.category == "contradiction" and f.reachable
    assert verdicts(f) == {"en-first": "contradiction", "fr-first": "settled", "fr-revised": "settled",
                           "en-revised": "settled"}
    for e in ("fr-first",) + REVISED:
        assert "keywords.hunter.override" in settled_by(f, e)
        assert f.editions[e]["admitted"] == ["yes"]
    assert "keywords.hunter.override" in f.editions["en-first"]["would_settle"]


@pytest.mark.parametrize("card", ["elephantopus", "bee-bear"])
def test_hunter_against_a_blocking_restriction(hunted, card):
    f = finding(hunted[0], "keywords.hunter", f"abilities.constant@{card}")
    assert f.category == "contradiction"
    assert verdicts(f)["en-first"] == "contradiction"
    for e in ("fr-first",) + REVISED:
        assert "keywords.hunter.override" in settled_by(f, e)
    if card == "elephantopus":
        assert f.reachable
    else:
        # Bee Bear's restriction only holds while it attacks, and no First
        # Contact card gives it HUNTER: the hunt says so.
        assert not f.reachable


def test_tough_against_poisonous_is_settled_only_by_the_revised_editions(hunted):
    f = finding(hunted[0], "keywords.poisonous", "keywords.tough")
    assert f.reachable
    for e in FIRST:
        assert verdicts(f)[e] == "contradiction"
        assert f.editions[e]["engine"] == "exhausted"
    for e in REVISED:
        assert "keywords.tough.poisonous" in settled_by(f, e)
        assert f.editions[e]["admitted"] == ["exhausted"]


def test_tough_against_card_effects_is_no_contradiction_in_any_edition(hunted):
    # keywords.tough.effects is implied by the English first edition's text
    # (TOUGH replaces any defeat; Defeated names card effects), so it settles
    # there as the other editions' words do.
    effects = [f for f in hunted[0].findings
               if "keywords.tough" in f.clauses and any(c.startswith("triggers.") for c in f.clauses)]
    assert all(f.category != "contradiction" for f in effects), [f.clauses for f in effects]


def test_an_implied_clause_settles_tough_against_a_card_effect_and_says_why():
    from oracle.games.mindbug.cards import lookup
    from oracle.games.mindbug.hunt.constraints import verdicts as edition_verdicts
    from oracle.games.mindbug.hunt.questions import FATES, Question
    board = Board({1: lookup("Kangasaurus Rex"), 2: lookup("Shield Bugs")}, ([1], [2]), (), 0)
    q = Question("fate", (2,), FATES, board,
                 facts={"causes": [("effect", "triggers.play@kangasaurus-rex", "play")]})
    v = edition_verdicts(q)
    assert {e: x.kind for e, x in v.items()} == {e: "settled" for e in EDITIONS}
    assert v["en-first"].answer() == "exhausted"
    why = v["en-first"].to_json()["implied"]
    assert list(why) == ["keywords.tough.effects"] and "card" in why["keywords.tough.effects"]
    assert "implied" not in v["fr-first"].to_json()


def test_hunter_and_an_attack_effect_are_ordered_by_a_team_reading(hunted):
    f = finding(hunted[0], "keywords.hunter", "triggers.attack")
    assert f.category == "ambiguity"
    assert set(verdicts(f).values()) == {"ambiguity"}
    for e in EDITIONS:
        assert f.editions[e]["would_settle"] == {"effects.hunter-order": ["effect-first"]}
        assert f.editions[e]["engine"] == "effect-first"
    assert "Shark Dog" in f.question


def test_the_refill_after_a_steal_differs_between_first_and_revised_editions(hunted):
    f = finding(hunted[0], "drawing.refill", "drawing.refill.stolen")
    assert f.category == "edition-difference"
    groups = {tuple(f.editions[e]["group"]) for e in EDITIONS}
    assert groups == {FIRST, REVISED}
    assert any(d.kind == "random" for d in f.path), "the difference comes from a steal"
    assert "hand" in f.fields and "deck" in f.fields


def test_the_frenzy_wording_is_reported_as_no_real_conflict(hunted):
    f = finding(hunted[0], "keywords.frenzy")
    assert f.category == "no-real-conflict"
    assert f.seen > 10


def test_the_turn_after_a_mindbug_differs_only_in_the_count_of_turns(hunted):
    f = finding(hunted[0], "mindbug.extra-action")
    assert f.category == "no-real-conflict" and f.fields == ("turn",)


def test_no_engine_bug_and_one_finding_per_set_of_clauses(hunted):
    rep = hunted[0]
    assert [f for f in rep.findings if f.category == "engine-bug"] == []
    keys = [frozenset(f.clauses) for f in rep.findings]
    assert len(keys) == len(set(keys))


def test_every_finding_is_a_draft_scenario_that_loads_and_passes(hunted):
    from oracle.scenarios.loader import load_paths
    from oracle.scenarios.runner import run_all

    rep, out = hunted
    files, errors = load_paths([out])
    assert errors == [] and all(not f.errors for f in files), errors
    scenarios = [s for f in files for s in f.scenarios]
    assert len(scenarios) == len(rep.findings)
    assert {s.doc.status for s in scenarios} == {"draft"}
    failed = [r for r in run_all(files) if r.status != "pass"]
    assert failed == [], [(r.scenario, r.edition, r.message) for r in failed]


def test_the_command_prints_the_table_and_json(hunted, monkeypatch, tmp_path):
    from oracle.games.mindbug.hunt import search
    from oracle.hunt.command import hunt

    rep = hunted[0]
    monkeypatch.setattr(search.Hunt, "run", lambda self: rep)
    runner = CliRunner()
    res = runner.invoke(hunt, ["--all", "--budget", "8", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "keywords.hunter + keywords.sneaky" in res.output and "CONTRADICTION" in res.output
    assert len(list(tmp_path.glob("*.yaml"))) == len(rep.findings)
    res = runner.invoke(hunt, ["--edition", "en-first", "--format", "json"])
    data = json.loads(res.output)
    assert {f["category"] for f in data["findings"]} >= {"contradiction", "ambiguity", "no-real-conflict"}
    assert runner.invoke(hunt, ["--edition", "en-first", "--all"]).exit_code == 2


def test_every_field_of_the_json_is_one_the_readme_names(hunted, monkeypatch):
    """README, "The hunt's JSON", names each field `hunt --format json`
    writes: the report's, a finding's and an edition's verdict's."""
    import re

    from oracle.games.mindbug.hunt import search
    from oracle.hunt.command import hunt

    monkeypatch.setattr(search.Hunt, "run", lambda self: hunted[0])
    data = json.loads(CliRunner().invoke(hunt, ["--format", "json"]).output)
    keys = {"report": set(data), "finding": {k for f in data["findings"] for k in f},
            "edition": {k for f in data["findings"] for e in f["editions"].values() for k in e},
            "position": {k for f in data["findings"] for k in f["position"]}}
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## The hunt's JSON"):readme.index("## Fuzzing")]
    named = {word for span in re.findall(r"`([^`]*)`", section) for word in re.findall(r"[a-z_]+", span)}
    named |= {"edition", "active", "turn", "life", "mindbugs", "players"}     # a scenario's `given`
    assert {k: v - named for k, v in keys.items() if v - named} == {}


def test_a_broken_engine_rule_is_reported_as_an_engine_bug(monkeypatch, tmp_path):
    from oracle.games.mindbug.engine import effects
    from oracle.scenarios.loader import load_paths
    from oracle.scenarios.runner import run_all

    monkeypatch.setattr(effects, "TOUGH", 0)   # TOUGH never applies
    rep = Hunt(["en-revised"], budget=320, seed=0, abstract=False, designs=("Plated Scorpion", "Rhino Turtle"),
               shrink_limit=20).run()
    bugs = [f for f in rep.findings if f.category == "engine-bug"]
    assert bugs and all(c.startswith("keywords.tough") for f in bugs for c in f.clauses)
    assert any(f.clauses == ("keywords.tough",) for f in bugs)
    for f in bugs:
        write(f, tmp_path)
    # The drafts say what the rules say: they fail on the broken engine...
    files, _ = load_paths([tmp_path])
    assert any(r.status == "fail" for r in run_all(files))
    monkeypatch.undo()
    # ...and pass on the real one.
    assert all(r.status == "pass" for r in run_all(files))


# -- the command: what it prints, what it writes --------------------------------------------


def test_the_summary_fits_in_100_columns_and_names_changed_cards(hunted):
    from oracle.games.mindbug.hunt.command import render

    rep, out = hunted
    text = render(rep, out)
    assert max(len(x) for x in text.splitlines()) <= 100
    f = finding(rep, "keywords.hunter", "abilities.constant@bee-bear")
    assert "a Bee Bear given HUNTER" in f.summary and "a Bee Bear given HUNTER" in text
    assert "(Bee Bear)" not in text


def test_a_changed_card_takes_the_article_its_name_asks_for():
    import msgspec

    from oracle.games.mindbug.cards import HUNTER
    from oracle.games.mindbug.hunt.search import changed_label
    from oracle.games.mindbug.hunt.strategies import DEFS

    def given_hunter(name):
        c = next(i for i, d in DEFS.items() if d.name == name)
        return changed_label(c, {**DEFS, c: msgspec.structs.replace(DEFS[c], keywords=DEFS[c].keywords | HUNTER)})

    assert given_hunter("Elephantopus") == "an Elephantopus given HUNTER"
    assert given_hunter("Axolotl Healer") == "an Axolotl Healer given HUNTER"
    assert given_hunter("Bee Bear") == "a Bee Bear given HUNTER"


def test_edition_shows_only_that_edition(hunted, monkeypatch):
    from oracle.games.mindbug.hunt import search
    from oracle.hunt.command import hunt

    rep = hunted[0]
    monkeypatch.setattr(search.Hunt, "run", lambda self: dataclasses.replace(rep, editions=("fr-first",)))
    res = CliRunner().invoke(hunt, ["--edition", "fr-first", "--format", "json"])
    data = json.loads(res.output)
    assert data["findings"] and all(list(f["editions"]) == ["fr-first"] for f in data["findings"])
    res = CliRunner().invoke(hunt, ["--edition", "fr-first"])
    cells = [x.strip() for x in res.output.splitlines() if x.strip().startswith("fr-first ")]
    assert len(cells) == len(rep.findings)
    assert not any(e in c for c in cells for e in ("en-first", "fr-revised", "en-revised") if "differs" not in c)


def test_a_draft_someone_edited_is_not_overwritten_without_force(hunted, monkeypatch, tmp_path):
    from oracle.games.mindbug.hunt import search
    from oracle.hunt.command import hunt
    from oracle.games.mindbug.hunt.drafts import DraftEdited, draft_path, edited, write

    rep = hunted[0]
    f = rep.findings[0]
    path = write(f, tmp_path)
    assert not edited(path)
    write(f, tmp_path)                       # its own untouched draft: rewritten
    path.write_text(path.read_text(encoding="utf-8").replace("status: draft", "status: reviewed"), encoding="utf-8")
    assert edited(path)
    with pytest.raises(DraftEdited):
        write(f, tmp_path)
    monkeypatch.setattr(search.Hunt, "run", lambda self: rep)
    res = CliRunner().invoke(hunt, ["--out", str(tmp_path)])
    assert res.exit_code == 2
    assert f"wrote no draft: 1 file in {tmp_path}" in res.output and path.name in res.output
    assert "status: reviewed" in path.read_text(encoding="utf-8")
    assert len(list(tmp_path.glob("*.yaml"))) == 1
    res = CliRunner().invoke(hunt, ["--out", str(tmp_path), "--force"])
    assert res.exit_code == 0, res.output
    assert "status: reviewed" not in path.read_text(encoding="utf-8") and not edited(path)
    assert all(draft_path(g, tmp_path).exists() for g in rep.findings)


def test_the_findings_do_not_depend_on_the_number_of_jobs():
    designs = ("Spider Owl", "Plated Scorpion", "Shark Dog")
    counted = {1: [], 2: []}
    reports = [Hunt(budget=60, seed=1, abstract=False, designs=designs, shrink_limit=10, jobs=j,
                    progress=counted[j].append).run() for j in (1, 2)]
    one, two = ([f.to_json() for f in r.findings] for r in reports)
    assert one and one == two
    assert reports[0].examined == reports[1].examined
    # The progress display is told of every situation, from worker processes too.
    assert sum(counted[1]) == sum(counted[2]) == reports[0].examined


# A hunt in a process of its own: the findings only abstract situations showed,
# in the order it looks for them with real cards (`key` fed to `found`).
_REALISE_ORDER = """
import types
from oracle.games.mindbug.hunt.search import Hunt
keys = [("rules", frozenset({"keywords.hunter", "keywords.sneaky"})), ("rules", frozenset({"keywords.poisonous",
        "keywords.tough"})), ("rules", frozenset({"abilities.constant@bee-bear", "keywords.hunter"})),
        ("editions", frozenset({"life.gain", "life.cards"})), ("engine", frozenset({"combat.attack", "keywords.frenzy"}))]
asked = []
class Found(dict):
    def __getitem__(self, key):
        asked.append(sorted(key[1]))
        return types.SimpleNamespace(real=True)
h = Hunt(budget=10, seed=0)
h.unreachable = set(keys)
h._realise(Found(), 0)
print(asked)
"""


def test_the_findings_are_looked_for_with_real_cards_in_the_same_order_in_every_run():
    """The budget left for realising abstract findings goes to them in the
    order of their kind and clauses, not in a frozenset's order, which changes with
    the process's hash seed (and with it, which findings got real cards)."""
    orders = {subprocess.run([sys.executable, "-c", _REALISE_ORDER], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert len(orders) == 1, orders
    assert orders.pop() == ("[['life.cards', 'life.gain'], ['combat.attack', 'keywords.frenzy'], "
                            "['abilities.constant@bee-bear', 'keywords.hunter'], ['keywords.hunter', 'keywords.sneaky'], "
                            "['keywords.poisonous', 'keywords.tough']]\n")


@pytest.mark.parametrize("budget", [5, 20, 200])
def test_the_budget_bounds_the_situations_examined(budget):
    """--budget is a number of situations, shrinking included: the hunt
    examines no more, and a bigger budget examines more."""
    seen = []
    rep = Hunt(budget=budget, seed=0, progress=seen.append).run()
    assert budget // 2 < rep.examined <= budget and sum(seen) == rep.examined


def test_the_hunt_command_says_its_budget_in_situations_and_keeps_jobs_within_its_shares():
    from oracle.hunt.command import hunt

    runner = CliRunner()
    helptext = " ".join(runner.invoke(hunt, ["--help"]).output.split())
    assert "--budget SITUATIONS The most situations the hunt examines" in helptext
    assert "1 to 2" in helptext
    res = runner.invoke(hunt, ["-j", "3", "--budget", "5"])
    assert res.exit_code == 2 and "3 is not in the range 1<=x<=2" in res.output
    res = runner.invoke(hunt, ["--budget", "20", "--no-progress"])
    assert res.exit_code == 0 and "situations examined of a budget of 20," in res.output


@pytest.mark.parametrize("game, module, argv, options", [
    ("mindbug", "oracle.games.mindbug.hunt.command", ["--edition", "en-first", "--cards", "mine.yaml", "-j", "2"],
     {"edition": "en-first", "no_abstract": False, "jobs": 2, "progress": True, "cards_file": "mine.yaml",
      "sets_spec": None}),
    ("mind-up", "oracle.games.mindup.hunt.command", ["--game", "mind-up", "-j", "2"],
     {"edition": None, "no_abstract": False, "jobs": 2, "progress": True, "cards_file": None, "sets_spec": None}),
])
def test_the_hunt_command_hands_each_game_to_the_hunt_its_registry_entry_names(monkeypatch, game, module, argv,
                                                                                 options):
    import importlib

    from oracle import games
    from oracle.hunt.command import hunt

    assert games.attribute(game, "HUNT").__module__ == module
    calls = []
    monkeypatch.setattr(importlib.import_module(module), "hunt_game",
                        lambda *args, **kw: calls.append((args, kw)) or 7)
    res = CliRunner().invoke(hunt, [*argv, "--budget", "3", "--seed", "4", "--format", "json"])
    assert res.exit_code == 7, res.output
    assert calls == [((3, 4, None, False, "json"), options)]


# -- the constraints on their own ------------------------------------------------


def _board(mine, theirs, exhausted=()):
    from oracle.games.mindbug.hunt.facts import Board
    from oracle.games.mindbug.hunt.strategies import DEFS

    ids = {}
    for c in sorted(DEFS, reverse=True):
        ids[DEFS[c].name] = c
    play = ([ids[n] for n in mine], [ids[n] for n in theirs])
    return Board(DEFS, play, [ids[n] for n in exhausted], active=0), ids


def test_a_clause_an_edition_is_silent_on_does_not_constrain_it():
    from oracle.games.mindbug.hunt.constraints import verdicts
    from oracle.games.mindbug.hunt.questions import Question

    board, ids = _board(["Spider Owl", "Snail Thrower"], ["Gorillion"])
    q = Question("hunt", (ids["Spider Owl"], ids["Gorillion"]), ("yes", "no"), board)
    v = verdicts(q)
    assert v["en-first"].kind == "contradiction"
    assert v["en-first"].tension == {"keywords.hunter", "keywords.sneaky"}
    assert [s.ref for s in v["en-first"].silent] == ["keywords.hunter.override"]
    for e in ("fr-first",) + REVISED:
        assert v[e].kind == "settled" and v[e].admitted == {"yes"}
    # Without HUNTER, SNEAKY alone decides the defender's block, in every edition.
    q = Question("block", (ids["Spider Owl"], ids["Gorillion"]), ("yes", "no"), board)
    assert {x.answer() for x in verdicts(q).values()} == {"no"}


def test_tough_replaces_a_lost_fight_in_every_edition():
    from oracle.games.mindbug.hunt.constraints import verdicts
    from oracle.games.mindbug.hunt.questions import FATES, Question

    board, ids = _board(["Kangasaurus Rex"], ["Elephantopus"])
    q = Question("fate", (ids["Elephantopus"],), FATES, board, default="stays",
                 facts={"causes": (("equal",),), "fought": ids["Kangasaurus Rex"]})
    assert {x.answer() for x in verdicts(q).values()} == {"exhausted"}
    board, ids = _board(["Kangasaurus Rex"], ["Elephantopus"], exhausted=["Elephantopus"])
    q = Question("fate", (ids["Elephantopus"],), FATES, board, default="stays",
                 facts={"causes": (("equal",),), "fought": ids["Kangasaurus Rex"]})
    assert {x.answer() for x in verdicts(q).values()} == {"defeated"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_second_reading_of_the_cards_agrees_with_the_engine_on_power_and_keywords(edition):
    from hypothesis import HealthCheck, given, settings

    from oracle.games.mindbug.hunt.facts import Board
    from oracle.games.mindbug.hunt.probe import floor_of
    from oracle.games.mindbug.hunt.strategies import positions

    @settings(max_examples=150, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(positions(editions=(edition,)))
    def agree(spot):
        g = spot.game()
        b = Board.of(g, floor_of(edition))
        for c in b.creatures():
            assert (b.power(c), b.keywords(c)) == (g.power(c), g.keywords(c)), spot.describe()

    agree()
