"""Cards declared as data (mb-cards/1): the loader's errors, the compiled
abilities, and declared sets in selfplay, verify and scenarios."""

import json

import pytest
from conftest import ROOT, run_cli

from oracle.games.mindbug.cards import lookup
from oracle.games.mindbug.cards.compiled import load_file
from oracle.games.mindbug.cards.declared import CardFileError, load

EXAMPLE = ROOT / "examples" / "designed-cards.yaml"
HEAD = "format: mb-cards/1\nset: {id: lab-x, name: Lab}\ncards:\n"


def bad(body: str) -> CardFileError:
    with pytest.raises(CardFileError) as e:
        load("bad.yaml", HEAD + body)
    return e.value


@pytest.mark.parametrize("body, field, words", [
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: explode}]}\n",
     "cards[0].abilities[0].effect", "unknown effect verb 'explode'"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: defeet}]}\n",
     "cards[0].abilities[0].effect", "did you mean defeat"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: gain-life, target: {side: enemy}}]}\n",
     "cards[0].abilities[0].target", "takes no target creature"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: defeat, target: {side: nobody}}]}\n",
     "cards[0].abilities[0].target.side", "Invalid enum value 'nobody'"),
    ("  - {name: A, power: 3, abilities: [{trigger: constant, effect: defeat}]}\n",
     "cards[0].abilities[0].trigger", "does not go with trigger 'constant'"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: defeat, all: true, up_to: true}]}\n",
     "cards[0].abilities[0]", "exclude each other"),
    ("  - {name: A, power: 3, abilities: [{trigger: harvest, effect: lose-life}]}\n",
     "cards[0].abilities[0].trigger", "needs Octonite counters"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: defeat, target: {power_min: 7, power_max: 3}}]}\n",
     "cards[0].abilities[0].target", "no creature fits"),
    ("  - {name: A, power: 3, distribute: true}\n", "cards[0].distribute", "needs counters"),
    ("  - {name: A, power: 3, octonite: 1, abilities: [{trigger: play, effect: lose-life, cost: octonite}]}\n",
     "cards[0].abilities[0].cost", "only action and attack effects are paid for with Octonite"),
    ("  - {name: A, power: 3, keywords: [SPEEDY]}\n", "cards[0].keywords[0]", "unknown keyword 'SPEEDY'"),
    ("  - {name: Gorillion, power: 3}\n", "cards[0].name", "a card of the shipped set 'first-contact'"),
    ("  - {name: A, power: 3, code: Gorilion}\n", "cards[0].code", "did you mean Gorillion"),
    ("  - {name: A, power: 3, code: Gorillion}\n", "cards[0].code", "no ability to borrow"),
    ("  - {name: A, power: 3}\n  - {name: a, power: 4}\n", "cards[1].name", "declared twice"),
    ("  - {name: A, power: 3, abilities: [{trigger: play, effect: lose-life}, {trigger: attack, effect: lose-life}]}\n",
     "cards[0].abilities", "at most one triggered ability"),
])
def test_a_bad_card_file_names_file_line_and_field(body, field, words):
    e = bad(body)
    assert e.file == "bad.yaml" and e.field == field and words in e.message, str(e)
    assert e.line in (4, 5)


# Every form in which a declared name could find a shipped card: its name in
# another case, its slug, its French name, its French slug, as a card's name
# or as one of its names in other languages.
@pytest.mark.parametrize("body, field", [
    ("  - {name: spider-owl, power: 3}\n", "cards[0].name"),
    ("  - {name: SPIDER OWL, power: 3}\n", "cards[0].name"),
    ("  - {name: Spider_Owl, power: 3}\n", "cards[0].name"),
    ("  - {name: Arachnhibou, power: 3}\n", "cards[0].name"),
    ("  - {name: arachnhibou, power: 3}\n", "cards[0].name"),
    ("  - {name: Q, power: 3, names: {fr: Spider Owl}}\n", "cards[0].names.fr"),
    ("  - {name: Q, power: 3, names: {de: spider-owl}}\n", "cards[0].names.de"),
    ("  - {name: Q, power: 3, names: {fr: Arachnhibou}}\n", "cards[0].names.fr"),
    ("  - {name: Q, power: 3, names: {fr: tigrecureuil}}\n", "cards[0].names.fr"),   # Tigrécureuil as a slug
])
def test_a_declared_name_that_finds_a_shipped_card_is_refused_in_every_form(body, field):
    e = bad(body)
    assert e.field == field and e.line == 4 and "shipped set" in e.message, str(e)


def test_names_within_a_file_and_with_hidden_characters():
    e = bad("  - {name: Lab Owl, power: 3}\n  - {name: Q, power: 3, names: {fr: lab-owl}}\n")
    assert e.field == "cards[1].names.fr" and "'Lab Owl' of this file too" in e.message
    e = bad('  - {name: "Owl\\u202eLab", power: 3}\n')
    assert e.field == "cards[0].name" and "\\u202e" in e.message and "\u202e" not in str(e)
    with pytest.raises(CardFileError, match="set 'first-contact'"):
        load("x.yaml", "format: mb-cards/1\nset: {id: q-q, name: Premier Contact}\ncards: [{name: Q, power: 1}]\n")


def test_a_card_file_changes_only_the_games_that_deal_its_set(tmp_path):
    """A refused alias leaves every First Contact game as it was; a card
    file with new names changes no verdict of games that do not deal it."""
    logs = str(ROOT / "replays" / "conforming" / "en-revised.jsonl")
    plain = run_cli("verify", logs, "--format", "json")
    taken = tmp_path / "taken.yaml"
    taken.write_text(HEAD + "  - {name: Q, power: 9, names: {fr: Spider Owl}}\n", encoding="utf-8")
    r = run_cli("verify", "--cards", str(taken), logs)
    assert r.returncode == 2 and b"taken.yaml:4: cards[0].names.fr" in r.stderr and not r.stdout
    with_example = run_cli("verify", "--cards", str(EXAMPLE), logs, "--format", "json")
    assert with_example.stdout == plain.stdout and plain.returncode == 0


def test_a_shipped_set_id_and_a_bad_format_are_refused():
    with pytest.raises(CardFileError, match="shipped set"):
        load("x.yaml", "format: mb-cards/1\nset: {id: first-contact, name: X}\ncards: [{name: Q, power: 1}]\n")
    with pytest.raises(CardFileError, match="format"):
        load("x.yaml", "format: mb-cards/9\nset: {id: q-q, name: X}\ncards: [{name: Q, power: 1}]\n")
    with pytest.raises(CardFileError, match="not a card file"):
        load("x.yaml", "format: [unclosed\n")


def test_declared_cards_join_the_database_with_their_set_and_names():
    decl = load_file(EXAMPLE)
    assert load_file(EXAMPLE) is decl                        # loaded once
    eel = lookup("anguille zap")
    assert eel.name == "Zap Eel" and eel.card_set == "design-lab" and eel.copies == 2 and eel.trigger == "play"
    assert lookup("Toad Echo").trigger == "defeated"         # borrowed from Explosive Toad


def test_a_set_declared_again_in_one_run_is_the_same_set_or_a_clear_error(tmp_path):
    """One run (scenarios of several folders, pytest over scenarios/) may meet
    one card file under several paths: a copy declares the same set; a file
    that declares the set with other cards, or a card another file declared,
    is refused naming the file that came first."""
    text = EXAMPLE.read_text(encoding="utf-8")
    first, copy, other, stray = (tmp_path / n for n in ("first.yaml", "copy.yaml", "other.yaml", "stray.yaml"))
    first.write_text(text, encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    other.write_text(text.replace("power: 3", "power: 8", 1), encoding="utf-8")
    stray.write_text("format: mb-cards/1\nset: {id: lab-z, name: Z}\ncards:\n  - {name: Zap Eel, power: 2}\n",
                     encoding="utf-8")
    decl = load_file(first)
    assert load_file(copy) is decl
    with pytest.raises(CardFileError) as e:
        load_file(other)
    assert e.value.field == "set.id" and e.value.line == 3          # the line of `set:`
    assert f"declared already in this run, by {first}, with other cards" in str(e.value)
    with pytest.raises(CardFileError) as e:
        load_file(stray)
    assert e.value.field == "cards[0].name" and f"declared already in this run, by {first}" in str(e.value)


def test_selfplay_and_verify_with_a_card_file(tmp_path):
    log = run_cli("selfplay", "--cards", str(EXAMPLE), "--games", "20", "--check-invariants")
    assert log.returncode == 0 and b'"sets":["first-contact","design-lab"]' in log.stdout
    path = tmp_path / "lab.jsonl"
    path.write_bytes(log.stdout)
    ok = run_cli("verify", "--cards", str(EXAMPLE), str(path))
    assert ok.returncode == 0, ok.stdout[-400:]
    unknown = run_cli("verify", str(path), "--format", "json")
    first = json.loads(unknown.stdout.splitlines()[0])
    assert unknown.returncode == 2 and first["findings"][0]["code"] == "UNKNOWN_SET"
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEAD + "  - {name: A, power: 3, abilities: [{trigger: play, effect: explode}]}\n")
    r = run_cli("verify", "--cards", str(broken), str(path))
    assert r.returncode == 2 and b"broken.yaml:4: cards[0].abilities[0].effect: unknown effect verb" in r.stderr
    assert b"Traceback" not in r.stderr


def test_every_command_that_reads_a_log_takes_the_card_file(tmp_path):
    """annotate, show and perft --log read logs of declared cards with
    --cards, as verify does; without it, the set is unknown."""
    log = tmp_path / "lab.jsonl"
    log.write_bytes(run_cli("selfplay", "--cards", str(EXAMPLE), "--games", "2", "--seed", "3").stdout)
    cards = ("--cards", str(EXAMPLE))
    annotated = run_cli("annotate", str(log), *cards)
    assert annotated.returncode == 0 and b'"t":"note"' not in annotated.stdout, annotated.stdout[-300:]
    assert b"UNKNOWN_SET" in run_cli("annotate", str(log)).stdout
    count = run_cli("perft", "--log", str(log), "--depth", "2", "--format", "json", *cards)
    assert count.returncode == 0 and json.loads(count.stdout)["count"] > 0, count.stderr
    unknown = run_cli("perft", "--log", str(log), "--depth", "2")
    assert unknown.returncode == 2 and b"--cards FILE" in unknown.stderr
    page = tmp_path / "lab.html"
    shown = run_cli("show", str(log), "-o", str(page), *cards)
    assert shown.returncode == 0 and "UNKNOWN_SET" not in page.read_text()
    run_cli("show", str(log), "-o", str(page))
    assert "UNKNOWN_SET" in page.read_text()


SCENARIO = """format: mb-scenario/1
id: lab.zap-eel-defeats-a-small-enemy
title: Zap Eel's Play effect defeats an enemy creature with power 4 or less, and only such a creature
clauses: [triggers.play]
cards: [Spider Owl]
sets: [first-contact, design-lab]
source: {kind: team ruling, ref: "a declared card"}
given:
  players:
    - {hand: [Zap Eel, Bee Bear]}
    - {play: [Spider Owl, Gorillion], hand: [Brain Fly]}
steps:
  - play: Zap Eel
  - pass
expect:
  players:
    - {play: [Zap Eel]}
    - {play: [Gorillion], discard: [Spider Owl]}
"""


def test_scenarios_play_declared_cards(tmp_path):
    path = tmp_path / "lab.yaml"
    path.write_text(SCENARIO)
    r = run_cli("scenarios", "--cards", str(EXAMPLE), str(path))
    assert r.returncode == 0, r.stdout
    assert b"4 runs: 4 passed" in r.stdout
    missing = run_cli("scenarios", str(path))
    assert missing.returncode == 2 and b"unknown card set 'design-lab'" in missing.stderr


def test_a_later_set_card_out_of_the_game_is_not_dealt():
    """later.octonite refuses a position that deals a card with later-set
    mechanics outside English revised; a card the position puts out of the
    game is not dealt, so the rest of its set plays in every edition."""
    from oracle.games.mindbug.engine import Game, SetupError

    load_file(ROOT / "examples" / "later-sets.yaml")
    names = ["Gorillion", "Bee Bear", "Spider Owl", "Brain Fly", "Luchataur", "Kiwi Dart"]
    defs = {i: lookup(n) for i, n in enumerate(names, 1)}
    zones = {("hand", 0): [1, 2], ("hand", 1): [3]}
    g = Game.position("en-first", zones, defs, unused=[4, 5], out=[6], life=(1, 1))
    assert g.pending.stage == "action" and g.state.out == [6]
    with pytest.raises(SetupError) as e:
        Game.position("en-first", zones, defs, unused=[4, 5, 6], life=(1, 1))
    assert (e.value.code, e.value.clause) == ("BAD_SETUP", "later.octonite")


def test_the_cards_command_lists_a_declared_set(tmp_path):
    """`cards --cards FILE`: a team sees its declared cards as the engine reads
    them, alone (`--set` its id), among the sets (`--sets`) or by name; a bad
    file is refused with its line and field."""
    listed = run_cli("cards", "--cards", str(EXAMPLE), "--set", "design-lab", "--json")
    assert listed.returncode == 0, listed.stderr
    cards = json.loads(listed.stdout)
    assert [c["name"] for c in cards] == ["Zap Eel", "Moss Golem", "Tide Caller", "Toad Echo", "Spark Wisp"]
    assert {c["set"] for c in cards} == {"design-lab"} and cards[0]["power"] == 5 and cards[0]["copies"] == 2
    sets = run_cli("cards", "--cards", str(EXAMPLE), "--sets", "--json")
    assert {"id": "design-lab", "designs": 5, "cards": 7}.items() <= {
        k: v for s in json.loads(sets.stdout) if s["id"] == "design-lab" for k, v in s.items()}.items()
    by_name = run_cli("cards", "--cards", str(EXAMPLE), "anguille-zap")
    assert by_name.returncode == 0 and by_name.stdout.decode().startswith("Zap Eel")
    assert run_cli("cards", "Zap Eel").returncode == 2          # without the file, no such card
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEAD + "  - name: 3\n", encoding="utf-8")
    refused = run_cli("cards", "--cards", str(broken))
    assert refused.returncode == 2 and b"broken.yaml:4: cards[0].name" in refused.stderr
    assert b"Traceback" not in refused.stderr


def test_a_card_is_found_by_its_english_name_before_the_index_of_names_is_made():
    """`lookup` finds a card written by its English name in the database
    itself, and makes the index of every other name only when it needs it;
    both must name the same card, for the shipped cards and declared ones."""
    from oracle.games.mindbug import cards

    load_file(ROOT / "examples" / "designed-cards.yaml")
    index = cards._aliases()
    assert len(index) > 2 * len(cards.CARDS)
    for name, card in cards.CARDS.items():
        assert index[name.casefold()] == name
        assert lookup(name) is card
        assert lookup(name.upper()) is card and lookup(card.slug) is card
    cards._ALIASES.clear()                       # as a snapshot made before the first lookup puts it back
    owl = cards.CARDS["Spider Owl"]
    assert owl.french != owl.name and lookup(owl.french) is owl and cards._ALIASES


def test_every_field_of_cards_json_is_one_the_card_format_spec_names():
    """spec/card-format.md names each field `cards --json` and `cards --sets
    --json` write, shipped and declared cards alike."""
    import re

    cards = json.loads(run_cli("cards", "--json", "--cards", "examples/later-sets.yaml").stdout)
    sets = json.loads(run_cli("cards", "--sets", "--json").stdout)
    keys = {"cards": {k for c in cards for k in c}, "sets": {k for s in sets for k in s}}
    assert {"triggers", "stage", "line"} <= keys["cards"] and {"faces", "set_aside"} <= keys["sets"]
    spec = (ROOT / "spec" / "card-format.md").read_text()
    part = spec[spec.index("`mb-oracle cards --cards FILE --set ID`"):spec.index("## Hunting a card file")]
    named = {word for span in re.findall(r"`([^`]*)`", part) for word in re.findall(r"[a-z_]+", span)}
    assert {k: v - named for k, v in keys.items() if v - named} == {}
