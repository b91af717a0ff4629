"""perft, serve and conform with the later sets: `--sets` (and a `new`
request's `sets`) deal them in en-revised, with their set-aside cards in the
deal; the other editions and unknown or too small sets are refused in
words."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli

from oracle.harness.serve import Service
from test_beyond_selfplay import missing_abilities

ADAPTER = f"{sys.executable} {ROOT / 'examples' / 'engine_adapter.py'}"


# -- perft ----------------------------------------------------------------------------

def test_perft_counts_from_a_deal_of_beyond_evolution_and_from_its_log(tmp_path):
    r = run_cli("perft", "--sets", "beyond-evolution", "--seed", "1", "--depth", "3", "--format", "json")
    assert r.returncode == 0, r.stderr.decode()
    out = json.loads(r.stdout)
    assert out["count"] > 0 and out["start"] == "seed 1 (beyond-evolution)"
    deal = run_cli("perft", "--sets", "beyond-evolution", "--seed", "1", "--show-deal")
    setup = json.loads(deal.stdout)
    assert len(setup["set_aside"]) == 4 and len(setup["cards"]) == 44 + 4
    # the same deal read from a log (its game line names the set) gives the same count
    head = {"t": "game", "format": "mb-replay/1", "id": "e", "edition": "en-revised", "sets": ["beyond-evolution"]}
    path = tmp_path / "beyond.jsonl"
    path.write_text(json.dumps(head) + "\n" + json.dumps(setup) + "\n")
    again = run_cli("perft", "--log", str(path), "--depth", "3", "--format", "json")
    assert json.loads(again.stdout)["count"] == out["count"]
    # and a deal of First Contact counts differently
    fc = json.loads(run_cli("perft", "--seed", "1", "--depth", "3", "--format", "json").stdout)
    assert fc["start"] == "seed 1"


@pytest.mark.parametrize("args, words", [
    (("--sets", "beyond-evolution", "--edition", "fr-revised"), "setup.sets.later"),
    (("--sets", "promo-2023"), "the deck of promo-2023 holds 12 cards"),
    (("--sets", "beyond-evolutoin"), "unknown card set"),
])
def test_perft_refuses_sets_it_cannot_deal_in_words(args, words):
    r = run_cli("perft", "--seed", "1", "--depth", "2", *args)
    assert r.returncode == 2 and words in r.stderr.decode() and b"Traceback" not in r.stderr


def test_perft_sets_go_with_a_seed_only(tmp_path):
    r = run_cli("perft", "--scenario", "scenarios/keywords-sneaky.yaml", "--id", "x", "--depth", "1",
                "--sets", "beyond-eternity")
    assert r.returncode == 2 and b"--sets goes with --seed" in r.stderr


# -- serve ----------------------------------------------------------------------------

def ask(svc, op, **fields) -> dict:
    return json.loads(svc.handle(json.dumps({"op": op, "id": 1, **fields}).encode()))


def test_serve_says_it_deals_the_later_sets_and_deals_them_with_their_set_aside_cards():
    svc = Service()
    assert {"beyond-eternity", "beyond-evolution", "promo-2022", "promo-2023", "promo-later"} <= \
        set(ask(svc, "hello")["sets"])
    r = ask(svc, "new", edition="en-revised", seed=5, sets=["Beyond Evolution"])
    assert r.get("ok", True) is not False, r
    assert len(r["setup"]["set_aside"]) == 4
    state = ask(svc, "state", game=r["game"])["state"]
    assert sorted(state["set_aside"]) == sorted(r["setup"]["set_aside"])
    # the deal of a setup line, named by its sets
    again = ask(svc, "new", edition="en-revised", setup=r["setup"], sets=["beyond-evolution"])
    assert again["setup"] == r["setup"]
    # without its sets, the same deal is not the deck of First Contact
    wrong = ask(svc, "new", edition="en-revised", setup=r["setup"])
    assert wrong["ok"] is False and wrong["error"]["code"] == "BAD_SETUP"


@pytest.mark.parametrize("fields, code, words", [
    ({"edition": "fr-first", "seed": 1, "sets": ["beyond-eternity"]}, "BAD_SETUP", "setup.sets.later"),
    ({"edition": "en-revised", "seed": 1, "sets": ["beyond-eternal"]}, "UNSUPPORTED_SET", "unknown card set"),
    ({"edition": "en-revised", "seed": 1, "sets": ["promo-2022"]}, "BAD_REQUEST", "holds 10 cards"),
])
def test_serve_refuses_a_later_set_it_cannot_deal(fields, code, words):
    r = ask(Service(), "new", **fields)
    assert r["ok"] is False and r["error"]["code"] == code, r
    assert words in r["error"]["message"] + str(r["error"].get("clause"))


# -- conform ------------------------------------------------------------------------------

def conform(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oracle", "conform", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_conform_refuses_later_sets_in_an_edition_that_does_not_deal_them():
    r = conform("--engine", ADAPTER, "--sets", "beyond-evolution", "--edition", "fr-revised", "--budget", "1")
    assert r.returncode == 2 and "setup.sets.later" in r.stderr and "Traceback" not in r.stderr
    r = conform("--engine", ADAPTER, "--sets", "beyond-evolutoin", "--budget", "1")
    assert r.returncode == 2 and "unknown card set" in r.stderr


def test_conform_refuses_sets_the_engine_does_not_deal(tmp_path):
    adapter = tmp_path / "adapter.py"
    adapter.write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'examples')!r})\nimport engine_adapter as ea\n"
        "class Old(ea.Adapter):\n"
        "    def handle(self, msg):\n"
        "        out = super().handle(msg)\n"
        "        if msg.get('op') == 'hello':\n"
        "            out['sets'] = ['first-contact']\n"
        "        return out\n"
        "ea.Adapter = Old\nea.main([])\n")
    r = conform("--engine", f"{sys.executable} {adapter}", "--sets", "beyond-eternity", "--budget", "1")
    assert r.returncode == 2 and "not beyond-eternity" in r.stderr, r.stderr


@pytest.mark.parametrize("sets", ["beyond-eternity", "beyond-evolution"])
def test_conform_plays_a_later_set_against_the_example_adapter(sets, tmp_path):
    missing = missing_abilities([sets])
    if missing:
        pytest.skip(f"abilities not written yet: {', '.join(missing[:8])}")
    r = conform("--engine", ADAPTER, "--sets", sets, "--budget", "4", "--format", "json", "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    games = [json.loads(x) for x in r.stdout.splitlines() if '"t":"game"' in x]
    assert len(games) == 4 and all(g["edition"] == "en-revised" and g["verdict"] == "conforms" for g in games)


# -- fuzz -----------------------------------------------------------------------------------

def test_the_fuzz_corpus_deals_the_later_sets_it_can_play():
    from oracle.games.mindbug.cards import SETS
    from oracle.games.mindbug.fuzz.corpus import later_deals, selfplay_games

    every = later_deals(playable_only=False)
    assert {("beyond-eternity",), ("beyond-evolution",), ("first-contact", "promo-2022"),
            ("first-contact", "promo-2023"), ("first-contact", "promo-later"), tuple(SETS)} <= set(every)
    playable = later_deals()
    assert all(not missing_abilities(d) for d in playable)
    assert [d for d in every if d not in playable] == [d for d in every if missing_abilities(d)]
    if not playable:
        pytest.skip("abilities not written yet for any later set: the corpus deals none of them")
    heads = [json.loads(g[0]) for g in selfplay_games()]
    dealt = {tuple(h["sets"]) for h in heads}
    assert set(playable) <= dealt and all(h["edition"] == "en-revised" for h in heads if tuple(h["sets"]) in playable)


def test_hello_lists_the_sets_the_service_deals_whatever_else_the_process_knows():
    from oracle.games.mindbug.cards.compiled import load_file

    other = load_file(ROOT / "examples" / "designed-cards.yaml").set.id     # a set this process happens to know
    plain = ask(Service(), "hello")["sets"]
    assert other not in plain and plain[:2] == ["first-contact", "new-servants"] and "beyond-evolution" in plain
    started = ask(Service(card_files=(str(ROOT / "examples" / "later-sets.yaml"),)), "hello")["sets"]
    assert started == plain + ["fruit-lab"]
