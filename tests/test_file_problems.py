"""A scenario file or a card file with several mistakes lists every one of
them in one run, each at its line and field, in the order of the lines."""

from __future__ import annotations

import textwrap

import pytest
from conftest import run_cli

from oracle.games.mindbug.cards.declared import CardFileError, load
from oracle.scenarios.loader import load_text

FIVE = textwrap.dedent("""\
    format: mb-scenario/1
    id: five.mistakes
    title: Five mistakes at once
    clauses: [keywords.snaeky, combat.block]
    given:
      players:
        - hnd: [Gorillion]
          play: [Spider Owl]
          life: three
        - play: [Luchatour]
    steps:
      - attack: Spider Owl
      - blok: Gorillion
    illegal: {step: 2, code: ILLEGAL_DECISION, clause: keywords.sneaky}
    """)


def _problems(text: str) -> list[tuple[int, str, str]]:
    f = load_text(text, "five.yaml")
    assert not f.scenarios
    return [(e.line, e.field, e.message.removeprefix("scenario five.mistakes: ")) for e in f.errors]


def test_every_problem_of_a_scenario_is_listed_in_one_run():
    got = _problems(FIVE)
    assert got == [
        (1, "(document)", "missing required key 'source'"),
        (4, "clauses[0]", "unknown clause id 'keywords.snaeky' (did you mean keywords.sneaky? see spec/clauses.yaml)"),
        (7, "given.players[0].hnd", "unknown key 'hnd' (did you mean 'hand'?)"),
        (9, "given.players[0].life", "Expected `int`, got `str`"),
        (10, "given.players[1].play[0]", "unknown card 'Luchatour' (did you mean Luchataur or Utility Bug?)"),
        (13, "steps[1].blok", "unknown key 'blok' (did you mean 'block'?)"),
    ]


def test_an_unknown_key_far_from_every_key_lists_the_keys_of_its_place():
    text = FIVE.replace("      play: [Spider Owl]\n", "      play: [Spider Owl]\n      xyzzy: 1\n")
    assert text != FIVE
    got = [m for _, field, m in _problems(text) if field == "given.players[0].xyzzy"]
    assert got == ["unknown key 'xyzzy' (keys here: life, mindbugs, hand, play, discard, deck)"]


def test_problems_after_a_list_item_taken_out_keep_their_own_index_and_line():
    text = FIVE.replace("  - attack: Spider Owl\n", "  - 7\n  - attack: Spider Owl\n  - attack: Gorillon\n")
    text = text.replace("clauses: [keywords.snaeky, combat.block]", "clauses: [keywords.sneaky]")
    text = text.replace("\n", "\nsource: {kind: rulebook, ref: x}\n", 1)
    got = _problems(text)
    fields = [(line, field) for line, field, _ in got]
    assert fields == [(8, "given.players[0].hnd"), (10, "given.players[0].life"),
                      (11, "given.players[1].play[0]"), (13, "steps[0]"), (15, "steps[2].attack"),
                      (16, "steps[3].blok")]
    assert "unknown card 'Gorillon' (did you mean Gorillion or Cursed Gorillion?)" in got[4][2]


def test_a_misspelt_format_key_of_a_scenario_is_named_at_its_line():
    f = load_text("# a ruling\nfromat: mb-scenario/1\nid: x\n", "typo.yaml")
    assert [(e.line, e.field, e.message) for e in f.errors] == [
        (2, "format", "missing 'format: mb-scenario/1' (this oracle reads mb-scenario/1); unknown key 'fromat' "
                      "(did you mean 'format'?)")]


def test_a_correct_scenario_still_loads():
    fixed = (FIVE.replace("keywords.snaeky, ", "").replace("hnd", "hand").replace("life: three", "life: 3")
             .replace("Luchatour", "Luchataur").replace("blok", "block")
             .replace("given:", "source: {kind: rulebook, ref: x}\ngiven:").replace("combat.block", "keywords.sneaky"))
    f = load_text(fixed, "five.yaml")
    assert not f.errors and f.scenarios


CARDS = textwrap.dedent("""\
    format: mb-cards/1
    set: {id: bad-lab, name: Bad Lab}
    cards:
      - name: Zap Eel
        power: 5
        keywords: [SNEEKY]
        abilities:
          - {trigger: play, effect: defeet, target: {side: enemy, power_max: 4}}
      - name: Moss Golem
        power: three
        names: {fr: Golem}
      - name: Tide Caller
        power: 6
        abilities:
          - {trigger: attack, effect: gain-life, target: {side: enemy}}
      - name: Zap Eel
        power: 2
        distribute: true
    """)


def test_every_problem_of_a_card_file_is_listed_in_one_run(tmp_path):
    with pytest.raises(CardFileError) as e:
        load("cards.yaml", CARDS)
    got = [(p.line, p.field, p.message) for p in e.value.problems]
    assert got == [
        (6, "cards[0].keywords[0]", "unknown keyword 'SNEEKY' (did you mean SNEAKY?)"),
        (8, "cards[0].abilities[0].effect", "unknown effect verb 'defeet' (did you mean defeat?)"),
        (10, "cards[1].power", "Expected `int`, got `str`"),
        (15, "cards[2].abilities[0].target", "effect 'gain-life' takes no target creature"),
        (16, "cards[3].name", "'Zap Eel' is declared twice"),
        (18, "cards[3].distribute", "handing out Octonite counters needs counters: give the card `octonite`"),
    ]
    path = tmp_path / "cards.yaml"
    path.write_text(CARDS)
    r = run_cli("hunt", "--cards", str(path))
    lines = r.stderr.decode().splitlines()
    assert r.returncode == 2 and len(lines) == 6 and all(x.startswith(f"error: {path}:") for x in lines)


def test_a_misspelt_key_of_a_card_file_is_named_at_its_line_with_the_key_meant():
    text = CARDS.replace("power: three", "powr: 3").replace("format: mb-cards/1", "fromat: mb-cards/1")
    with pytest.raises(CardFileError) as e:
        load("cards.yaml", text)
    got = [(p.line, p.field, p.message) for p in e.value.problems]
    assert (1, "fromat", "unknown key 'fromat' (did you mean 'format'?)") in got
    assert (10, "cards[1].powr", "unknown key 'powr' (did you mean 'power'?)") in got
