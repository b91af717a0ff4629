"""The sets of the later series as data: Beyond Eternity, Beyond Evolution
and the promos (their facts, traps of the public sources, evolution lines),
the set-aside double-sided cards at set-up (setup.set-aside), and their
refusal outside the English revised edition (setup.sets.later)."""

import io
import json
import random
import subprocess
import sys

import pytest

from oracle.games.mindbug.cards import (CARDS, OTHER_NAMES, SETS, STAGE_AFTER, every_card, full_set, lookup, name_keys,
                          set_aside_cards, slugify, table_cards)
from oracle.games.mindbug.cards.declared import CardFileError, load
from oracle.games.mindbug.engine import Game, SetupError, position
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import random_deal
from oracle.replay.verify import verify_game

LATER = ("beyond-eternity", "beyond-evolution", "promo-2022", "promo-2023", "promo-later", "promo-unconfirmed")
EVO = ("beyond-evolution",)
FACES_EVO = ["Typhoon Princess", "Frog Prophet", "Veteran Penguin", "Bigroot"]


def verify(lines, edition=None):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r, edition=edition) if edition else verify_game(r)
            for r in split_games(io.BytesIO(data), "<t>")]


# -- counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("set_id, designs, cards, faces, aside", [
    ("beyond-eternity", 32, 48, 0, 0), ("beyond-evolution", 30, 44, 8, 4), ("promo-2022", 10, 10, 0, 0),
    ("promo-2023", 12, 12, 4, 2), ("promo-later", 8, 8, 1, 0), ("promo-unconfirmed", 1, 1, 0, 0)])
def test_each_set_has_its_designs_cards_and_set_aside_cards(set_id, designs, cards, faces, aside):
    info = SETS[set_id].to_json()
    assert (info["designs"], info["cards"], info.get("faces", 0)) == (designs, cards, faces)
    assert len(full_set([set_id])) == cards and len(set_aside_cards([set_id])) == aside
    assert len([c for c in CARDS.values() if c.card_set == set_id]) == designs + faces
    assert SETS[set_id].later


def test_the_copies_of_the_beyond_sets_split_as_the_scans_show():
    def split(set_id):
        copies = [c.copies for c in CARDS.values() if c.card_set == set_id and c.stage < 2]
        return copies.count(2), copies.count(1)
    assert split("beyond-eternity") == (16, 16) and split("beyond-evolution") == (14, 16)
    assert {c.copies for c in CARDS.values() if c.card_set.startswith("promo") and c.stage < 2} == {1}


def test_the_set_listing_counts_the_new_sets(cli):
    out = cli("cards", "--sets").stdout.decode()
    assert "beyond-eternity  Beyond Eternity / Éternité Suprême: 32 designs, 48 cards\n" in out
    assert ("beyond-evolution Beyond Evolution / Évolution Suprême: 30 designs, 44 cards, 4 set-aside cards "
            "(8 stage faces)") in out
    assert "promo-2023       Promo 2023 / Promo 2023: 12 designs, 12 cards, 2 set-aside cards (4 stage faces)" in out
    data = {s["id"]: s for s in json.loads(cli("cards", "--sets", "--json").stdout)}
    assert data["beyond-evolution"] == {"id": "beyond-evolution", "name": "Beyond Evolution",
                                        "french": "Évolution Suprême", "designs": 30, "cards": 44, "faces": 8,
                                        "set_aside": 4}
    assert "faces" not in data["first-contact"] and data["promo-2022"]["cards"] == 10


def test_the_set_listing_counts_one_design_in_the_singular_and_names_every_set_in_help():
    from click.testing import CliRunner

    from oracle.cli import cards

    out = CliRunner().invoke(cards, ["--sets"]).output
    assert "Unconfirmed promos / Unconfirmed promos: 1 design, 1 card\n" in out
    assert "promo-unconfirmed" in " ".join(CliRunner().invoke(cards, ["--help"]).output.split())


def test_the_set_listing_refuses_names_that_it_would_ignore(cli):
    """`--sets` is a flag: a word after it is a card name, and `--sets nope`
    listed every set with "nope" ignored, as if it were a filter."""
    for args, given in ((("--sets", "nope"), "given: nope"), (("--set", "promo-2022", "--sets"), "--set promo-2022")):
        r = cli("cards", *args)
        assert r.returncode == 2 and not r.stdout, r
        assert given in r.stderr.decode() and "`--set SET` lists the cards of one set" in r.stderr.decode()


def test_cards_of_a_set_lists_its_stage_faces_with_stage_and_line(cli):
    data = json.loads(cli("cards", "--json", "--set", "beyond-evolution").stdout)
    assert len(data) == 38 and sum(c["copies"] for c in data if "stage" not in c or c["stage"] == 1) == 44
    by = {c["name"]: c for c in data}
    assert by["Typhoon Princess"]["stage"] == 2 and by["Typhoon Princess"]["line"] == "Cloud Lady"
    assert by["Thunder Queen"]["copies"] == 0 and by["Cloud Lady"]["stage"] == 1
    assert "stage" not in by["Sawn"]
    text = cli("cards", "--set", "promo-2023").stdout.decode()
    assert "(stage II of Kitten Crewmate's line, set aside)" in text
    assert "(stage III of Tuckbox Mimic's line, the back of stage II)" in text
    assert "(stage III, of no known line: never dealt)" in cli("cards", "Evilcat").stdout.decode()


# -- traps of the sources (the scans decide) ------------------------------------------


def test_infernostrich_has_one_copy():
    assert lookup("Infernostrich").copies == 1


def test_earwig_assassin_is_sneaky_not_tough():
    assert lookup("Earwig Assassin").keyword_names == ["SNEAKY"]


def test_the_experiment_is_poisonous():
    assert lookup("The Experiment").keyword_names == ["POISONOUS"]


def test_steelhorn_makes_the_opponent_discard_three():
    assert "3 cards" in lookup("Steelhorn").text and lookup("Steelhorn").trigger == "defeated"


def test_sluggernaut_prints_tough_only():
    d = lookup("Sluggernaut")
    assert d.keyword_names == ["TOUGH"] and d.power == 6 and "HUNTER" in d.text and "FRENZY" in d.text


def test_cheery_and_cheeky_chimpborg_are_two_cards():
    cheery, cheeky = lookup("Cheery Chimpborg"), lookup("Cheeky Chimpborg")
    assert cheery.trigger is None and "+5" in cheery.text and cheeky.trigger == "play"
    assert lookup("CHEEKY CHIMPBORG") is cheeky
    assert "Cheeky Chimpborg" not in OTHER_NAMES.get("Cheery Chimpborg", ())


def test_kitsunsei_grants_sneaky_constantly_not_as_an_action():
    assert lookup("Kitsunsei").trigger is None and "SNEAKY" in lookup("Kitsunsei").text


def test_dragon_inn_keeps_its_condition_and_frosty_fortress_its_draw_pile():
    assert "fewer creatures" in lookup("Dragon Inn").text
    assert "draw pile" in lookup("Frosty Fortress").text and "hand" in lookup("Frosty Fortress").text


def test_bullet_train_defeats_one_creature_of_power_three_or_less():
    assert "an enemy creature with power 3 or less" in lookup("Bullet Train").text


def test_suspicious_gift_has_no_attack_trigger():
    assert lookup("Suspicious Gift").triggers == ("play", "defeated")


def test_the_stage_one_cards_are_deck_cards_and_each_line_has_one_set_aside_card():
    deck = full_set(LATER)
    assert {"Cloud Lady", "Curious Tadpole", "Waddling Recruit", "Wildsprout", "Kitten Crewmate",
            "Tuckbox Mimic"} <= set(deck)
    aside = set_aside_cards(LATER)
    assert len(aside) == len(set(aside)) == 6      # one for the table per line, not one per player


def test_a_game_that_names_no_set_still_deals_first_contact_alone():
    from oracle.games.mindbug.cards import DEFAULT_SETS
    assert DEFAULT_SETS == ("first-contact",) and len(full_set()) == 48 and set_aside_cards() == []


@pytest.mark.parametrize("name, power, keywords, set_id", [
    ("Agile Rooster", 6, ["FRENZY"], "beyond-eternity"), ("Cave Lizard", 10, ["SNEAKY", "TOUGH"], "beyond-eternity"),
    ("Cursed Gorillion", 10, ["FRENZY", "TOUGH"], "beyond-eternity"), ("Captain Hippo", 7, ["FRENZY"], EVO[0]),
    ("Utility Bug", 4, ["HUNTER", "TOUGH"], EVO[0]), ("Slugapult", 5, ["FRENZY", "TOUGH"], "promo-2022"),
    ("Bug Catcher", 9, ["FRENZY", "TOUGH"], "promo-2023"), ("The Pack", 4, ["HUNTER", "TOUGH"], "promo-later"),
    ("Short-Neck Giraffodile", 7, [], "promo-later"), ("Big Box Mimic", 6, ["FRENZY"], "promo-2023")])
def test_printed_facts_follow_the_scans(name, power, keywords, set_id):
    d = lookup(name)
    assert (d.power, d.keyword_names, d.card_set) == (power, keywords, set_id)


def test_future_eric_is_the_unused_pile_printing():
    assert "unused pile" in lookup("Future Eric").text


@pytest.mark.parametrize("other, card", [
    ("War Machine", "Frosty Fortress"), ("Thunder Queeen", "Thunder Queen"), ("Ratomanger", "Ratomancer"),
    ("Dr Orange U Tan", "Dr. Orange U. Tan"), ("Wheatl-E", "Wheatle"), ("Wheatl_e", "Wheatle"),
    ("Jean-Claw_Pandamme", "Jean-Claw Pandamme"), ("Boar Zooka", "Boar-Zooka"), ("One-Eye Felix", '"One-Eye" Felix'),
    ("Éternité Suprême", None), ("Reine Tonnerre", "Thunder Queen"), ("bono-bot-eméché", "Cheery Chimpborg")])
def test_names_the_sources_write_find_the_card(other, card):
    if card is None:
        from oracle.games.mindbug.cards import set_id
        assert set_id(other) == "beyond-eternity"
        return
    assert lookup(other).name == card


def test_every_name_french_name_other_name_and_slug_finds_one_card_only():
    owner: dict[str, str] = {}
    for c in CARDS.values():
        for alias in (c.name, c.french, c.slug, *OTHER_NAMES.get(c.name, ())):
            for key in name_keys(alias) + (slugify(alias),):
                assert owner.setdefault(key, c.name) == c.name, (key, owner[key], c.name)
    assert set(OTHER_NAMES) <= set(CARDS)


# -- triggers ---------------------------------------------------------------------------


@pytest.mark.parametrize("name, triggers", [
    ("Goat Dragon", ("play", "attack")), ("Radioactive Rabbit", ("play", "defeated")),
    ("Boar-Zooka", ("defeated",)), ("Koibra", ("play", "attack")), ("Jazz Dog", ("end-of-turn",)),
    ('"One-Eye" Felix', ("end-of-turn",)), ("Peacasus", ("to-discard",)), ("Rockyphant", ("to-discard",)),
    ("Blessed Killer Bee", ("in-discard",)), ("Cursed Goblin Werewolf", ("in-discard",)),
    ("Mindbug Bug", ("mindbug-used",)), ("Kitten Crewmate", ("replacement",)), ("Cloud Lady", ("action",)),
    ("Cave Lizard", ()), ("Agile Rooster", ()), ("Robopup", ()), ("Oakenmaster", ())])
def test_each_card_names_its_triggered_abilities(name, triggers):
    d = lookup(name)
    assert d.triggers == triggers and d.trigger == (triggers[0] if triggers else None)


def test_every_later_card_has_its_text_but_the_vanilla_one():
    for c in CARDS.values():
        if c.card_set in LATER:
            assert bool(c.text) == (c.name != "Robopup"), c.name


# -- evolution lines ---------------------------------------------------------------------


def test_the_evolution_lines_and_their_faces():
    assert STAGE_AFTER["Cloud Lady"] == "Typhoon Princess" and STAGE_AFTER["Typhoon Princess"] == "Thunder Queen"
    assert STAGE_AFTER["Kitten Crewmate"] == '"One-Eye" Felix' and STAGE_AFTER['"One-Eye" Felix'] == "Silver Whiskers"
    assert STAGE_AFTER["Tuckbox Mimic"] == "Deckbox Mimic" and STAGE_AFTER["Deckbox Mimic"] == "Big Box Mimic"
    assert len(STAGE_AFTER) == 12
    frog = lookup("Frog Prophet")
    assert (frog.stage, frog.line, frog.copies, frog.keyword_names) == (2, "Curious Tadpole", 1, ["POISONOUS", "TOUGH"])
    assert (lookup("World Eater").stage, lookup("World Eater").copies) == (3, 0)
    assert (lookup("Wildsprout").stage, lookup("Wildsprout").line) == (1, "Wildsprout")
    evil = lookup("Evilcat")
    assert (evil.stage, evil.line, evil.copies) == (3, "", 1) and evil.name not in table_cards(LATER)


def test_the_deck_holds_no_face_and_the_set_aside_cards_are_the_stage_two_faces():
    deck = full_set(LATER)
    assert not {n for n in deck if lookup(n).stage >= 2}
    assert set_aside_cards(EVO) == FACES_EVO
    assert set_aside_cards(["promo-2023"]) == ['"One-Eye" Felix', "Deckbox Mimic"]
    assert table_cards(EVO) == full_set(EVO) + FACES_EVO


def test_a_line_whose_stage_one_card_is_not_dealt_has_no_set_aside_card():
    # Q1.1: the promos of 2022 and the later ones have no line of their own
    assert set_aside_cards(["first-contact", "promo-2022", "promo-later"]) == []


def test_the_shipped_card_ids_do_not_move_and_the_later_sets_follow():
    ids = every_card()
    assert ids[:48] == full_set(["first-contact"]) and ids[48:72] == full_set(["new-servants"])
    assert ids[72:120] == full_set(["beyond-eternity"])
    assert ids[120:168] == full_set(EVO) + FACES_EVO
    assert ids[168:201] == table_cards(["promo-2022", "promo-2023"]) + full_set(["promo-later"]) + ["Evilcat"]
    assert ids[201:202] == ["Ivybug"]
    assert {lookup(n).card_set for n in ids[202:]}.isdisjoint(("first-contact", "new-servants") + LATER)


# -- set-up ------------------------------------------------------------------------------


def deal(sets, seed=5, edition="en-revised", **kw):
    setup = random_deal(random.Random(seed), edition, sets)
    return setup, Game.deal(edition, setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"],
                            sets=sets, **kw)


def test_a_beyond_evolution_game_sets_its_double_sided_cards_aside():
    setup, g = deal(EVO, set_aside=None)
    aside = sorted(c for c, n in setup["cards"].items() if n in FACES_EVO)
    assert len(setup["cards"]) == 48 and setup["set_aside"] == aside
    s = g.state
    assert sorted(s.set_aside) == aside
    assert not set(aside) & set(s.deck[0] + s.deck[1] + s.hand[0] + s.hand[1] + s.unused + s.out)
    assert len(s.unused) + len(s.out) == 24
    assert s.to_builtins()["set_aside"] == s.set_aside


def test_a_mixed_deck_of_any_sets_deals_ten_each_and_keeps_the_rest_unused():
    sets = ("first-contact", "beyond-evolution", "promo-2022", "promo-2023")
    setup, g = deal(sets, set_aside=None)
    assert len(setup["cards"]) == 48 + 44 + 10 + 12 + 4 + 2
    assert [len(d) for d in setup["decks"]] == [10, 10] and len(setup["unused"]) == 48 + 44 + 10 + 12 - 20
    assert sorted(setup["cards"][c] for c in g.state.set_aside) == sorted(FACES_EVO + ['"One-Eye" Felix',
                                                                                         "Deckbox Mimic"])


def test_a_first_contact_deal_has_no_set_aside_field():
    setup, g = deal(("first-contact",))
    assert "set_aside" not in setup and g.state.set_aside == [] and "set_aside" not in g.state.to_builtins()


def test_the_set_aside_field_must_list_exactly_the_double_sided_cards():
    setup, _ = deal(EVO)
    with pytest.raises(SetupError) as e:
        Game.deal("en-revised", setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"], sets=EVO,
                  set_aside=setup["set_aside"][:3])
    assert e.value.code == "BAD_SETUP" and e.value.clause == "setup.set-aside" and "field set_aside" in e.value.message


def test_a_double_sided_card_dealt_into_a_pile_is_refused():
    setup, _ = deal(EVO)
    face = setup["set_aside"][0]
    with pytest.raises(SetupError) as e:
        Game.deal("en-revised", setup["cards"], setup["decks"], setup["unused"] + [face], None, setup["reveals"],
                  sets=EVO)
    assert e.value.clause == "setup.set-aside" and f"card {face}" in e.value.message


def test_a_deal_without_its_set_aside_cards_is_not_the_cards_of_its_sets():
    setup, _ = deal(EVO)
    cards = {c: n for c, n in setup["cards"].items() if c not in setup["set_aside"]}
    with pytest.raises(SetupError) as e:
        Game.deal("en-revised", cards, setup["decks"], setup["unused"], None, setup["reveals"], sets=EVO)
    assert e.value.clause == "setup.components" and "missing: Bigroot, Frog Prophet" in e.value.message


@pytest.mark.parametrize("edition", ["en-first", "fr-first", "fr-revised"])
@pytest.mark.parametrize("set_id", LATER)
def test_the_later_sets_are_refused_outside_english_revised(edition, set_id):
    with pytest.raises(SetupError) as e:
        deal(("first-contact", set_id), edition=edition)
    assert e.value.code == "BAD_SETUP" and e.value.clause == "setup.sets.later"
    assert "only en-revised" in e.value.message


def test_a_position_with_a_later_card_is_refused_outside_english_revised():
    defs = {1: lookup("Gorillion"), 2: lookup("Sea-Rex")}
    with pytest.raises(SetupError) as e:
        position("fr-revised", {("play", 0): [1], ("play", 1): [2]}, defs)
    assert e.value.clause == "setup.sets.later" and "Sea-Rex is a card of Beyond Eternity" in e.value.message
    position("en-revised", {("play", 0): [1], ("play", 1): [2]}, defs)


def test_a_position_sets_its_double_sided_cards_aside_and_puts_a_face_of_no_line_out():
    defs = {1: lookup("Gorillion"), 2: lookup("Cloud Lady"), 3: lookup("Typhoon Princess"), 4: lookup("Evilcat"),
            5: lookup("Sawn")}
    g = position("en-revised", {("play", 0): [1], ("play", 1): [2]}, defs)
    assert g.state.set_aside == [3] and g.state.out == [4] and g.state.unused == [5]


# -- logs ----------------------------------------------------------------------------------


def log(sets=EVO, edition="en-revised", **changes):
    setup = random_deal(random.Random(11), edition, sets)
    setup.update(changes)
    head = {"t": "game", "format": "mb-replay/1", "id": "g", "edition": edition, "sets": list(sets)}
    return [head, setup]


def test_verify_accepts_a_set_aside_claim_in_any_order_and_flags_a_wrong_one():
    lines = log()
    aside = lines[1]["set_aside"]
    ok = lines + [{"t": "state", "set_aside": aside[::-1]}, {"t": "end", "winner": None, "reason": "aborted"}]
    (rep,) = verify(ok)
    assert not [f for f in rep.findings if f.code != "ABORTED"], rep.findings
    bad = lines + [{"t": "state", "set_aside": aside[:2]}, {"t": "end", "winner": None, "reason": "aborted"}]
    (rep,) = verify(bad)
    assert rep.findings[0].code == "STATE_MISMATCH" and rep.findings[0].clauses == ["setup.set-aside"]


def test_verify_refuses_a_wrong_set_aside_field_naming_it():
    lines = log()
    lines[1]["set_aside"] = lines[1]["set_aside"][1:]
    (rep,) = verify(lines + [{"t": "end", "winner": None, "reason": "aborted"}])
    f = rep.findings[0]
    assert f.code == "BAD_SETUP" and f.clauses == ["setup.set-aside"] and "field set_aside" in f.message


def test_verify_refuses_a_later_set_in_another_edition():
    (rep,) = verify(log(("first-contact", "promo-2022"), edition="en-revised"), edition="fr-first")
    f = rep.findings[0]
    assert f.code == "BAD_SETUP" and f.clauses == ["setup.sets.later"]


def test_selfplay_refuses_a_later_set_in_another_edition_as_a_usage_error(cli):
    r = cli("selfplay", "--sets", "beyond-eternity", "--edition", "fr-revised", "--games", "1")
    assert r.returncode == 2 and r.stdout == b""
    err = r.stderr.decode().strip().splitlines()[-1]
    assert err.startswith("Error: Invalid value for --sets:") and "only en-revised" in err


def test_the_replay_schema_knows_the_set_aside_fields():
    from oracle.games.mindbug.replay.format import replay_schema
    defs = replay_schema()["$defs"]
    assert "set_aside" in defs["SetupLine"]["properties"] and "set_aside" in defs["StateLine"]["properties"]


# -- the card format's stages ----------------------------------------------------------------


LINE = """format: mb-cards/1
set: {id: lab-lines, name: Lab Lines}
cards:
  - {name: Seed Pod, power: 1, stage: 1}
  - {name: Sapling, power: 4, stage: 2, line: Seed Pod}
  - {name: Great Oak, power: 8, stage: 3, line: Seed Pod}
"""


def test_a_card_file_states_an_evolution_line(tmp_path):
    from oracle.games.mindbug.cards.compiled import register
    decl = load("lines.yaml", LINE)
    register(decl)
    assert STAGE_AFTER["Seed Pod"] == "Sapling" and STAGE_AFTER["Sapling"] == "Great Oak"
    assert full_set(["lab-lines"]) == ["Seed Pod"] and set_aside_cards(["lab-lines"]) == ["Sapling"]
    assert (lookup("Great Oak").stage, lookup("Great Oak").copies, lookup("Great Oak").line) == (3, 0, "Seed Pod")


@pytest.mark.parametrize("old, new, line, words", [
    ("power: 1, stage: 1}", "power: 1, stage: 4}", 4, "cards[0].stage"),
    ("power: 1, stage: 1}", "power: 1, stage: 1, line: Seed Pod}", 4, "only a stage face"),
    ("stage: 2, line: Seed Pod}", "stage: 2}", 5, "names the stage I card of its line"),
    ("stage: 3, line: Seed Pod}", "stage: 3, line: Seed Bod}", 6, "did you mean Seed Pod"),
    ("stage: 3, line: Seed Pod}", "stage: 2, line: Seed Pod}", 6, "has a stage 2 face already"),
    ("stage: 2, line: Seed Pod}", "stage: 2, line: Seed Pod, copies: 2}", 5, "has no copies"),
    ("{name: Sapling, power: 4, stage: 2, line: Seed Pod}", "{name: Sapling, power: 4}", 4, "stage 2 face"),
])
def test_a_bad_stage_or_line_is_refused_at_its_line(old, new, line, words):
    with pytest.raises(CardFileError) as e:
        load("lines.yaml", LINE.replace(old, new))
    problems = e.value.problems
    assert any(p.line == line and words in str(p) for p in problems), [str(p) for p in problems]


# -- scenarios ---------------------------------------------------------------------------


POSITION = """
format: mb-scenario/1
id: beyond.vanilla-robopup
title: A vanilla Beyond Evolution card plays in a mixed deck, the double-sided cards aside
clauses: [setup.set-aside]
editions: [en-revised]
sets: [first-contact, beyond-evolution]
source: {kind: team ruling, ref: "setup.set-aside"}
given:
  players:
    - hand: [Robopup]
    - hand: [Gorillion]
steps:
  - play: Robopup
  - pass
expect:
  players:
    - play: [Robopup]
  unused: 90
"""

DEALT = """
format: mb-scenario/1
id: beyond.deal
title: A deal of Beyond Evolution leaves its double-sided cards out of every pile
clauses: [setup.set-aside]
editions: [en-revised]
sets: [beyond-evolution]
source: {kind: team ruling, ref: "setup.set-aside"}
given:
  deal:
    decks: [[Robopup, Robopup#2, Sawn, Sawn#2, Blastfish, Kitsunsei, Coach Panda, Coach Panda#2, Cloud Lady,
             Steelhorn],
            [Sweet Fighter, Sweet Fighter#2, Bullet Train, Bullet Train#2, Mole Machine, Mole Machine#2, Puffermech,
             Puffermech#2, Wildsprout, Infernostrich]]
    first: 0
steps: []
expect:
  unused: 24
"""


def test_a_scenario_of_beyond_evolution_sets_its_double_sided_cards_aside():
    from oracle.scenarios.loader import load_text
    from oracle.games.mindbug.scenarios.runner import build
    from oracle.scenarios.runner import run
    for text in (POSITION, DEALT):
        sf = load_text(text, "s.yaml")
        assert not sf.errors, sf.errors
        (sc,) = sf.scenarios
        assert run(sc, "en-revised").passed
        g = build(sc, "en-revised")
        assert sorted(g.table.defs[c].name for c in g.state.set_aside) == sorted(FACES_EVO)


def test_selfplay_of_sets_too_small_to_deal_is_a_usage_error_naming_them():
    r = subprocess.run([sys.executable, "-m", "oracle", "selfplay", "--games", "1", "--edition", "en-revised",
                        "--sets", "promo-2022,promo-later"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "the deck of promo-2022, promo-later holds 18 cards; a deal in en-revised needs at least 22" in r.stderr
    r = subprocess.run([sys.executable, "-m", "oracle", "selfplay", "--games", "1", "--sets", "promo-unconfirmed"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "the deck of promo-unconfirmed holds 1 card; a deal" in r.stderr, r.stderr


def test_a_deal_whose_reveals_all_tie_names_the_first_player():
    import random

    from oracle.games.mindbug.replay import selfplay

    rng = random.Random(3)
    orig = selfplay.lookup
    try:
        selfplay.lookup = lambda name: orig("Spider Owl")      # every card reveals power 3: every pair ties
        setup = selfplay.random_deal(rng, "en-revised", ("first-contact",))
    finally:
        selfplay.lookup = orig
    assert "reveals" not in setup and setup["first"] in (0, 1)
