"""mb-oracle hunt --cards: findings on designed cards, written as draft
scenarios that load and pass."""

import json

from conftest import ROOT, run_cli

from oracle.games.mindbug.hunt.card_hunt import hunt_cards
from oracle.scenarios.loader import load_paths
from oracle.scenarios.runner import run_all

LATER = ROOT / "examples" / "later-sets.yaml"
DESIGNED = ROOT / "examples" / "designed-cards.yaml"


def test_the_hunt_reports_fast_timing_the_last_life_and_the_editions_without_later_mechanics(tmp_path):
    found = hunt_cards(LATER, tmp_path, budget=4, seed=0)
    by = {(f.card, f.category, f.clauses) for f in found}
    assert ("Kiwi Dart", "rules-gap", ("keywords.fast", "keywords.fast.mindbugged", "mindbug.extra-action")) in by
    assert ("Kiwi Dart", "ambiguity", ("later.steal-life", "winning.life")) in by
    refused = [f for f in found if f.category == "edition-difference"]
    assert {f.card for f in refused} == {"Kiwi Dart", "Lychee Monarch", "Mango Sage", "Plum Scout", "Durian Bell",
                                         "Starfruit Oracle", "Papaya Sprinter", "Kiwano Courier", "Guava Engineer",
                                         "Pomelo Warden", "Quince Mourner", "Lime Choir", "Cherry Grudge"}
    assert all(f.outcomes["en-first"].startswith("refused: BAD_SETUP [later.octonite]") for f in refused)
    gap = next(f for f in found if f.category == "rules-gap" and f.card == "Kiwi Dart")
    assert "life 2-4" in gap.outcomes["en-revised"]          # the Play effect stole a life for the new controller


def test_every_draft_of_the_card_hunt_loads_and_passes(tmp_path):
    from oracle.games.mindbug.hunt.card_hunt import write
    for path in (LATER, DESIGNED):
        for f in hunt_cards(path, tmp_path, budget=4, seed=1):
            write(f, tmp_path)
    files, errors = load_paths([tmp_path])
    assert not errors and files
    results = run_all(files)
    assert results and all(r.passed for r in results), [r.message for r in results if not r.passed][:2]
    assert all(sc.doc.status == "draft" for f in files for sc in f.scenarios)


def test_hunt_cards_command_json_and_a_bad_file(tmp_path):
    r = run_cli("hunt", "--cards", str(DESIGNED), "--format", "json")
    assert r.returncode == 0
    found = json.loads(r.stdout)["findings"]
    assert any(f["category"] == "no-real-conflict" and "keywords.tough.effects" in f["clauses"] for f in found)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: mb-cards/1\nset: {id: q-q, name: Q}\ncards: [{name: Q, power: 1, keywords: [FASTER]}]\n")
    r = run_cli("hunt", "--cards", str(bad))
    assert r.returncode == 2 and b"unknown keyword 'FASTER'" in r.stderr and b"Traceback" not in r.stderr


QUILL_DART = """\
  - name: Quill Dart
    power: 4
    keywords: [FAST]
    abilities:
      - {trigger: play, effect: steal-life, amount: 1, text: "Play: steal 1 life."}
"""


def test_plain_cards_are_hunted_in_every_edition_beside_a_later_set_card(tmp_path):
    """A file of plain designs and one card with a later-set mechanic: each
    plain card is hunted in the four editions (the later card put out of the
    game), as in a file without that card; only the later card is refused
    outside English revised."""
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(DESIGNED.read_text() + QUILL_DART)
    alone = json.loads(run_cli("hunt", "--cards", str(DESIGNED), "--format", "json", "--budget", "4").stdout)
    both = json.loads(run_cli("hunt", "--cards", str(mixed), "--format", "json", "--budget", "4").stdout)
    plain = [f for f in both["findings"] if f["card"] != "Quill Dart"]
    assert plain and not any(t.startswith("refused") for f in plain for t in f["outcomes"].values())
    assert [(f["id"], f["category"], f["outcomes"]) for f in plain] == \
        [(f["id"], f["category"], f["outcomes"]) for f in alone["findings"]]
    kiwi = [f for f in both["findings"] if f["card"] == "Quill Dart"]
    assert any(f["category"] == "edition-difference" and f["outcomes"]["en-first"].startswith("refused") for f in kiwi)
    out = tmp_path / "drafts"
    from oracle.games.mindbug.hunt.card_hunt import write
    for f in hunt_cards(mixed, out, budget=4, seed=0):
        write(f, out)
    files, errors = load_paths([out])
    assert not errors and files
    results = run_all(files)
    assert all(r.passed for r in results), [r.message for r in results if not r.passed][:2]
    plain_runs = {r.edition for r in results if "quill-dart" not in r.scenario}
    assert plain_runs == {"en-first", "fr-first", "fr-revised", "en-revised"}
