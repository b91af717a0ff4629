"""The clause catalogue (spec/clauses.yaml) and its generated document."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import source_facts
import yaml

from oracle.clauses import STATUSES, Clause, EditionStatus, clause_to_json
from oracle.games.mindbug.clauses import (
    EDITIONS,
    SECTIONS,
    catalogue_path,
    load_catalogue,
    load_edition_books,
    main,
    render_markdown,
)

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"

# The ids the engine, scenarios and findings cite; renaming one breaks them.
REQUIRED_IDS = """
setup.components setup.mindbugs setup.deal setup.hand setup.life setup.life-cards
setup.first-player setup.reveal-out life.lose life.gain life.cards winning.life
cards.anatomy cards.power-minimum drawing.refill drawing.before-effects
drawing.empty-pile drawing.no-hand-limit turns.alternate turns.action turns.no-action
turns.end play.from-hand play.resolve mindbug.use mindbug.play-effect
mindbug.extra-action mindbug.none-left mindbug.only-from-hand mindbug.not-in-play
mindbug.no-return mindbug.defeated-controller combat.attack combat.block
combat.unblocked combat.lower-defeated combat.equal-defeated combat.to-discard
combat.discards-public combat.attacker-gone keywords.frenzy
keywords.frenzy.same-creature keywords.hunter keywords.hunter.optional
keywords.hunter.override keywords.poisonous keywords.poisonous.mutual
keywords.sneaky keywords.sneaky.can-block keywords.tough keywords.tough.effects
keywords.tough.poisonous keywords.tough.exhausted keywords.fast keywords.fast.mindbugged
triggers.controller
triggers.play triggers.attack triggers.defeated triggers.defeated.not triggers.when
triggers.when.events triggers.action triggers.harvest abilities.constant effects.as-much-as-possible
effects.chooser effects.simultaneous effects.finish-one effects.hunter-order
effects.play-card terms.allied-enemy terms.discard terms.steal terms.take-control
terms.leave-play terms.opponent terms.unused-pile later.octonite
later.octonite.distribute later.octonite.spend later.steal-life later.refresh
later.unused-draw
""".split()

# Rulings no edition makes; the team decided them. They need no rulebook source.
TEAM_READINGS = {"combat.attacker-gone", "effects.hunter-order", "terms.leave-play"}

# Mechanics of later card sets: only EN revised has them.
LATER_SET_IDS = {
    "keywords.fast",
    "triggers.when",
    "triggers.action",
    "triggers.harvest",
    "later.octonite",
    "later.octonite.distribute",
    "later.octonite.spend",
    "later.steal-life",
    "later.refresh",
    "later.unused-draw",
}
# Later-set mechanics whose details EN revised leaves open: a team reading there.
LATER_SET_READINGS = {"triggers.when.events", "keywords.fast.mindbugged"}


@pytest.fixture(scope="module")
def catalogue() -> dict[str, Clause]:
    return load_catalogue()


@pytest.fixture(scope="module")
def raw_clauses() -> list[dict]:
    return yaml.safe_load(catalogue_path().read_text(encoding="utf-8"))["clauses"]


def status_of(catalogue: dict[str, Clause], cid: str) -> dict[str, str]:
    return {e: s.status for e, s in catalogue[cid].editions.items()}


# ---------------------------------------------------------------- shape


def test_catalogue_is_read_from_the_source_checkout():
    assert catalogue_path() == SPEC / "clauses.yaml"


def test_catalogue_has_at_least_sixty_clauses(catalogue):
    assert len(catalogue) >= 60


def test_every_required_id_is_present(catalogue):
    missing = [cid for cid in REQUIRED_IDS if cid not in catalogue]
    assert not missing


def test_ids_are_unique_dotted_and_lowercase(raw_clauses):
    ids = [c["id"] for c in raw_clauses]
    assert len(ids) == len(set(ids))
    for cid in ids:
        assert re.fullmatch(r"[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+", cid), cid


def test_every_clause_has_title_text_and_source(catalogue):
    for c in catalogue.values():
        assert c.title.strip() and c.text.strip(), c.id
        if c.id not in TEAM_READINGS:
            assert c.source, f"{c.id} names no rulebook section"


def test_every_clause_lists_the_four_editions(catalogue):
    for c in catalogue.values():
        assert tuple(c.editions) == EDITIONS, c.id
        assert all(s.status in STATUSES for s in c.editions.values()), c.id


def test_silent_has_a_reading_and_varies_has_a_variant(catalogue):
    for c in catalogue.values():
        for edition, s in c.editions.items():
            if s.status in ("silent", "implied"):
                assert s.reading, f"{c.id} / {edition}"
            elif s.status == "varies":
                assert s.variant, f"{c.id} / {edition}"
            else:
                assert s.text is None, f"{c.id} / {edition}"


def test_every_section_is_covered(catalogue):
    used = {c.section for c in catalogue.values()}
    assert used == set(SECTIONS)


def test_file_is_grouped_by_section_in_rulebook_order(raw_clauses):
    order = list(SECTIONS)
    positions = [order.index(c["section"]) for c in raw_clauses]
    assert positions == sorted(positions)


def test_sources_agree_with_statuses(catalogue):
    for c in catalogue.values():
        cited = {book for book, _ in c.source}
        for edition, s in c.editions.items():
            if s.status in ("states", "varies", "implied"):
                assert edition in cited, f"{c.id}: {edition} {s.status} it but no section is cited"
            if s.status == "absent":
                assert edition not in cited, f"{c.id}: {edition} is absent yet cited"


def test_edition_books_are_the_rulebook_files():
    assert load_edition_books() == {
        "en-first": "mindbug-rules-en-first-edition.txt",
        "fr-first": "mindbug-rules-fr-first-edition.txt",
        "fr-revised": "mindbug-rules-fr-revised.txt",
        "en-revised": "mindbug-rules-en-revised.txt",
    }


# ---------------------------------------------------------------- content


def test_team_readings_are_silent_everywhere(catalogue):
    for cid in TEAM_READINGS:
        assert set(status_of(catalogue, cid).values()) == {"silent"}, cid
        assert catalogue[cid].section == "readings", cid


def test_later_set_mechanics_exist_only_in_en_revised(catalogue):
    # Stated by the English revised edition, or left silent there (a reading).
    for ids, revised in ((LATER_SET_IDS, "states"), (LATER_SET_READINGS, "silent")):
        for cid in ids:
            assert status_of(catalogue, cid) == {
                "en-first": "absent",
                "fr-first": "absent",
                "fr-revised": "absent",
                "en-revised": revised,
            }, cid
    # The Beyond sets and promos exist only in English revised too: it lets any
    # sets be combined, and their own rules say the rest (implied, or silent
    # for a reading).
    for c in catalogue.values():
        if c.section == "beyond":
            st = status_of(catalogue, c.id)
            assert {k: v for k, v in st.items() if k != "en-revised"} == dict.fromkeys(
                ("en-first", "fr-first", "fr-revised"), "absent"), c.id
            assert st["en-revised"] in ("implied", "silent"), c.id
    # and nothing else is absent anywhere
    for c in catalogue.values():
        if c.id not in LATER_SET_IDS | LATER_SET_READINGS and c.section != "beyond":
            assert "absent" not in status_of(catalogue, c.id).values(), c.id


@pytest.mark.parametrize(
    ("cid", "expected"),
    [
        # the differences listed in shared/rulebooks/README.md
        ("mindbug.extra-action", ("states", "states", "states", "varies")),
        ("drawing.refill", ("varies", "varies", "states", "states")),
        ("drawing.refill.stolen", ("silent", "silent", "states", "states")),
        ("keywords.frenzy", ("varies", "states", "states", "states")),
        ("keywords.hunter.override", ("silent", "states", "states", "states")),
        ("keywords.tough.effects", ("implied", "states", "states", "states")),
        ("keywords.tough.poisonous", ("silent", "silent", "states", "states")),
        ("cards.power-minimum", ("silent", "silent", "states", "states")),
        ("turns.no-action", ("silent", "states", "states", "states")),
        ("mindbug.defeated-controller", ("silent", "silent", "states", "states")),
        ("triggers.defeated.not", ("implied", "implied", "states", "states")),
        ("effects.chooser", ("silent", "silent", "states", "states")),
        ("life.cards", ("silent", "varies", "varies", "varies")),
        ("life.gain", ("silent", "states", "states", "states")),
        ("combat.to-discard", ("silent", "silent", "states", "states")),
        ("effects.play-card", ("states", "states", "states", "states")),
        ("setup.reveal-out", ("silent", "silent", "silent", "states")),
        # found while writing the catalogue
        ("combat.discards-public", ("silent", "silent", "states", "states")),
        ("drawing.no-hand-limit", ("silent", "states", "states", "states")),
        ("triggers.controller", ("silent", "silent", "states", "states")),
        ("effects.finish-one", ("silent", "silent", "states", "states")),
    ],
)
def test_edition_differences(catalogue, cid, expected):
    assert tuple(status_of(catalogue, cid).values()) == expected


def test_frenzy_notes_the_fr_first_quick_reference(catalogue):
    notes = catalogue["keywords.frenzy"].notes or ""
    assert "quick reference" in notes and "survives" in notes


def _our_texts(catalogue) -> list[str]:
    ours = []
    for c in catalogue.values():
        ours += [c.title, c.text, c.notes or ""]
        ours += [s.text or "" for s in c.editions.values()]
    return ours


def test_no_rulebook_sentence_is_copied(catalogue):
    """No eight consecutive words of a rulebook, nor a whole sentence of five
    or more, in the catalogue: checked against the rulebooks' fingerprints
    (tests/data/rulebook-fingerprints.txt), so that a fresh clone runs it."""
    found = source_facts.copied(_our_texts(catalogue))
    assert not found, found


def test_the_copy_check_finds_a_copied_run_and_a_short_sentence(tmp_path):
    book = ("Each player starts the game with three life points and two Mindbugs in front of them. "
            "Then the youngest player begins.\nShort lines stay here.")
    (tmp_path / "mindbug-rules-xx.txt").write_text(book, encoding="utf-8")
    prints = tmp_path / "prints.txt"
    prints.write_text(source_facts.fingerprints_text(tmp_path), encoding="utf-8")
    ours = ["In our words: every player starts the game with three life points and two tokens.",
            "Quite different: then the youngest player begins, we say."]
    assert [w for _, w in source_facts.copied(ours, prints)] == [
        "player starts the game with three life points", "starts the game with three life points and",
        "the game with three life points and two", "then the youngest player begins"]
    assert source_facts.copied(["Each player has three lives; the youngest goes first."], prints) == []


def test_the_rulebook_fingerprints_are_current():
    if not source_facts.RULEBOOKS.is_dir():
        pytest.skip(f"needs the rulebooks of the project's sources ({source_facts.RULEBOOKS}) to check that "
                    f"tests/data/rulebook-fingerprints.txt is current")
    assert source_facts.FINGERPRINTS.read_text(encoding="utf-8") == source_facts.fingerprints_text(), \
        "the rulebooks changed: run python tests/source_facts.py"


# ---------------------------------------------------------------- output


def test_markdown_is_up_to_date():
    generated = render_markdown()
    on_disk = (SPEC / "clauses.md").read_text(encoding="utf-8")
    assert on_disk == generated, (
        "spec/clauses.md is stale: run `python -m oracle.games.mindbug.clauses --markdown > spec/clauses.md`"
    )


def test_markdown_shows_every_clause_with_its_editions(catalogue):
    md = render_markdown()
    for c in catalogue.values():
        assert f"### `{c.id}`" in md, c.id
    assert "| en-revised | varies |" in md


def test_clause_to_json_is_plain_data(catalogue):
    data = clause_to_json(catalogue["keywords.tough.poisonous"])
    assert json.loads(json.dumps(data)) == data
    assert data["editions"]["en-first"]["status"] == "silent"
    assert data["editions"]["en-first"]["reading"]
    assert data["editions"]["en-revised"] == {"status": "states"}
    assert data["source"][0].keys() == {"book", "section"}


def test_command_line_prints_markdown_and_json(capsysbinary, catalogue):
    assert main([]) == 0
    assert capsysbinary.readouterr().out.decode("utf-8") == render_markdown()
    assert main(["--json"]) == 0
    listed = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    assert [c["id"] for c in listed] == list(catalogue)


def test_edition_status_exposes_variant_or_reading():
    assert EditionStatus("implied", "z").reading == "z"
    assert EditionStatus("varies", "x").variant == "x"
    assert EditionStatus("varies", "x").reading is None
    assert EditionStatus("silent", "y").reading == "y"
    assert EditionStatus("states").text is None


# ---------------------------------------------------------------- validation


GOOD = {
    "id": "combat.example",
    "title": "Example",
    "section": "combat",
    "text": "A rule.",
    "source": [{"book": "en-first", "section": "Attack with a creature"}],
    "editions": {e: {"status": "states"} for e in EDITIONS},
}


def write_catalogue(tmp_path: Path, *clauses: dict) -> Path:
    books = {e: f"{e}.txt" for e in EDITIONS}
    path = tmp_path / "clauses.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "editions": books, "clauses": list(clauses)}))
    return path


def with_edition(edition: str, value: dict) -> dict:
    return {**GOOD, "editions": {**GOOD["editions"], edition: value}}


def test_a_well_formed_file_loads(tmp_path):
    loaded = load_catalogue(write_catalogue(tmp_path, GOOD))
    assert list(loaded) == ["combat.example"]


@pytest.mark.parametrize(
    ("clauses", "message"),
    [
        ((GOOD, GOOD), "duplicate id"),
        (({k: v for k, v in GOOD.items() if k != "text"},), "missing field"),
        (({**GOOD, "section": "nowhere"},), "section"),
        (({**GOOD, "editions": {e: {"status": "states"} for e in EDITIONS[:3]}},), "four editions"),
        ((with_edition("fr-first", {"status": "maybe"}),), "status"),
        ((with_edition("fr-first", {"status": "silent"}),), "reading"),
        ((with_edition("fr-first", {"status": "varies"}),), "variant"),
        ((with_edition("fr-first", {"status": "states", "reading": "x"}),), "does not go"),
        (({**GOOD, "source": [{"book": "de-first", "section": "x"}]},), "edition id"),
        (({**GOOD, "sources": []},), "unknown field"),
    ],
)
def test_malformed_clauses_are_reported_by_id(tmp_path, clauses, message):
    with pytest.raises(ValueError, match=message) as err:
        load_catalogue(write_catalogue(tmp_path, *clauses))
    assert "combat.example" in str(err.value)


def test_a_bad_id_is_reported_by_position(tmp_path):
    with pytest.raises(ValueError, match=r"clause #1: id 'Combat Example'"):
        load_catalogue(write_catalogue(tmp_path, {**GOOD, "id": "Combat Example"}))
