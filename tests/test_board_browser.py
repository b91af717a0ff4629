"""The board (`mb-oracle board`) in a real browser (headless Chromium): for
each game a position set up by clicking cards into zones, three steps
played by clicking the options, expectations ticked and the ruling saved,
then `mb-oracle scenarios` passes the saved file; a problem of the
position is marked on the zone or card it names; a scenario opens as its
position and steps, plays again in another edition and is overwritten
only when confirmed; text from a file is shown as text; the later sets'
Octonite, stage and boost cards are set up on a creature.

`MB_ORACLE_BOARD_SCREENSHOT=spec/images/board.png python -m pytest
tests/test_board_browser.py -n 0` also writes the README's screenshot of a
game of Mindbug in play."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from browser import browser, png_colours  # noqa: F401  (browser: a fixture)
from conftest import ROOT, run_cli

sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed "
                                                             "(pip install -e '.[test]')")
expect = sync_api.expect
pytest.importorskip("starlette", reason="Starlette, the board's web stack, is not installed "
                                        "(pip install -e '.[board]')")
pytest.importorskip("uvicorn", reason="uvicorn, which serves the board, is not installed (pip install -e '.[board]')")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`mb-oracle board --scenarios DIR --port 0` and the URL it prints."""
    folder = tmp_path_factory.mktemp("rulings")
    proc = subprocess.Popen([sys.executable, "-m", "oracle", "board", "--scenarios", str(folder), "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = None
    for line in proc.stdout:
        if "http://" in line:
            url = line[line.index("http://"):].split()[0]
            break
    if url is None:
        proc.kill()
        pytest.fail("mb-oracle board printed no URL: " + proc.stderr.read())
    yield url, folder
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.set_default_timeout(15000)
    pg.errors = []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.goto(server[0])
    pg.wait_for_selector("body[data-ready]")
    yield pg
    pg.close()


# The page's Content-Security-Policy (default-src 'self') forbids evaluating strings, so the waits are the
# locators' own (expect), never wait_for_function.
def place(pg, card, zone):
    """Click the card in the list, then the zone: the card is placed there."""
    placed = pg.locator(f'[data-zone="{zone}"] > .dz > *')
    before = placed.count()
    pg.click(f'#cards [data-card="{card}"]')
    pg.click(f'[data-zone="{zone}"] > .zname')
    expect(placed).to_have_count(before + 1)


def settled(pg):
    """Wait until no request is in flight and no check is due."""
    expect(pg.locator("body.busy")).to_have_count(0)


def click_option(pg, text=None):
    steps = pg.locator("#steps li")
    before = steps.count()
    opts = pg.locator("#pending .option")
    (opts.filter(has_text=text) if text else opts).first.click()
    expect(steps).to_have_count(before + 1)
    settled(pg)


def save_ruling(pg, folder: Path, name: str, ident: str, clauses: str, ticks=()) -> Path:
    """Tick the expectations whose labels hold `ticks` (else the first three), fill in the fields, save."""
    pg.wait_for_selector("#expectations input")
    items = pg.locator("#expectations li")
    if ticks:
        for text in ticks:
            items.filter(has_text=text).first.locator("input").check()
    else:
        for k in range(min(3, items.count())):
            items.nth(k).locator("input").check()
    pg.fill("#r-id", ident)
    pg.fill("#r-title", "A ruling set up on the board in the browser test")
    pg.fill("#r-clauses", clauses)
    pg.click("#preview")
    expect(pg.locator("#yaml")).to_contain_text("mb-scenario/1")
    expect(pg.locator("#verdict")).to_have_text("The ruling passes.")
    pg.fill("#r-file", name)
    pg.click("#save")
    expect(pg.locator("#saved")).to_have_text(re.compile("^Saved"))
    path = folder / name
    assert path.is_file()
    return path


def test_the_readmes_question_becomes_a_passing_ruling_in_mindbug(page, server):
    # "Does TOUGH save a creature that Evolves into a POISONOUS blocker?" Curious Tadpole evolves into Frog
    # Prophet (POISONOUS, TOUGH) and blocks Gorillion.
    pg = page
    pg.check('#sets input[value="beyond-evolution"]')
    pg.wait_for_selector('#cards [data-card="Curious Tadpole"]')
    pg.check('input[name="mb-active"][value="1"]')
    place(pg, "Gorillion", "Player 0 play area")
    place(pg, "Bee Bear", "Player 0 hand")
    place(pg, "Curious Tadpole", "Player 1 play area")
    # a card dragged onto a zone is placed as a click places it
    pg.drag_and_drop('#cards li:has([data-card="Brain Fly"])', '[data-zone="Player 1 hand"] > .zname')
    expect(pg.locator('[data-zone="Player 1 hand"] .placed')).to_have_count(1)
    settled(pg)
    assert pg.inner_text("#problems") == "none"
    pg.click("#start")
    pg.wait_for_selector("#pending .option")
    click_option(pg, "activate Curious Tadpole")
    assert "Frog Prophet" in pg.inner_text("#step-events")      # the events, each with its clauses
    assert pg.locator('#step-events .chip[data-clause="later.evolve"]').count() == 1
    assert "later.evolve —" in pg.inner_text("#step-events")   # the clause quoted from the catalogue
    click_option(pg, "attack with Gorillion")
    click_option(pg, "block with")
    board = pg.inner_text("#board")
    assert "exhausted" in board                                 # TOUGH: exhausted instead of defeated
    assert "Gorillion" in pg.inner_text('#board [aria-label="Player 0 discard pile"]')   # POISONOUS
    pg.locator("h1").scroll_into_view_if_needed()
    shot = pg.screenshot()
    assert png_colours(shot) >= 16
    if os.environ.get("MB_ORACLE_BOARD_SCREENSHOT"):
        Path(os.environ["MB_ORACLE_BOARD_SCREENSHOT"]).write_bytes(shot)
    assert pg.locator("#steps li").count() == 4                 # the start and three steps
    # a step clicked shows the board as it was then; the steps stay
    pg.locator("#steps button").nth(1).click()
    expect(pg.locator("#steps .current")).to_have_text(re.compile(r"^1\."))
    settled(pg)
    assert "exhausted" not in pg.inner_text("#board")
    assert pg.locator("#steps li").count() == 4
    pg.locator("#steps button").nth(3).click()
    expect(pg.locator("#steps .current")).to_have_text(re.compile(r"^3\."))
    settled(pg)
    assert "Frog Prophet" in pg.inner_text("#board")        # the evolved creature by the face it shows
    path = save_ruling(pg, server[1], "board-mindbug.yaml", "tough.evolved-poisonous-blocker",
                       "keywords.tough, keywords.poisonous, later.evolve",
                       ticks=("discard pile holds Gorillion", "exhausted: "))
    text = path.read_text()
    assert "Curious Tadpole" in text and "exhausted" in text
    r = run_cli("scenarios", str(path))
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert pg.errors == []


def test_a_mind_up_position_played_three_choices_becomes_a_passing_ruling(page, server):
    pg = page
    pg.select_option("#game", "mind-up")
    pg.wait_for_selector('[data-zone="The line"]')
    for card in (12, 30, 41):
        place(pg, card, "The line")
    for who, cards in (("A", (50, 2, 3)), ("B", (9, 10, 11)), ("C", (33, 17, 18))):
        for card in cards:
            place(pg, card, f"player {who} hand")
    settled(pg)
    assert pg.inner_text("#problems") == "none"
    pg.click("#start")
    pg.wait_for_selector("#pending .option")
    assert "player A" in pg.inner_text("#pending")             # one player's hidden choice at a time
    click_option(pg)
    assert "player B" in pg.inner_text("#pending")
    click_option(pg)
    click_option(pg)                                           # the last choice: the cards are revealed
    assert pg.locator("#steps li").count() == 4
    path = save_ruling(pg, server[1], "board-mind-up.yaml", "board.mind-up-first-turn", "mu.turn.reveal")
    assert "mind-up" in path.read_text()
    r = run_cli("scenarios", str(path))
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert pg.errors == []


def test_a_card_placed_twice_is_a_problem_marked_on_the_board(page):
    pg = page
    place(pg, "Gorillion", "Player 0 hand")
    place(pg, "Gorillion", "Player 1 hand")                    # First Contact has one Gorillion: this is Gorillion#2
    settled(pg)
    second = pg.locator('[data-field="given.players[1].hand[0]"]')
    expect(second).to_have_class(re.compile(r"\bproblem\b"))   # marked on the card the problem names
    assert "1 copy" in second.get_attribute("title")
    assert pg.locator("#position .problem").count() == 1
    assert "given.players[1].hand[0]" in pg.inner_text("#problems")
    assert pg.locator("#start").is_disabled()
    # removing the second copy clears the problem
    pg.locator('[data-zone="Player 1 hand"] .rm').click()
    expect(pg.locator("#problems")).to_have_text("none")
    assert pg.locator("#position .problem").count() == 0
    assert pg.errors == []


def test_mind_up_problems_show_on_the_card_and_on_the_position(page):
    pg = page
    pg.select_option("#game", "mind-up")
    pg.wait_for_selector('[data-zone="The line"]')
    place(pg, 7, "player A hand")
    place(pg, 7, "player B hand")                              # a card in one place only
    settled(pg)
    expect(pg.locator('[data-field="given.hands[1][0]"]')).to_have_class(re.compile(r"\bproblem\b"))
    pg.locator('[data-zone="player B hand"] .rm').click()
    settled(pg)
    # hands of different sizes: the rules refuse the setup, a problem of the whole position, with its clause
    expect(pg.locator("#position")).to_have_class(re.compile(r"\bproblem\b"))
    assert pg.locator("#problems .chip").count() == 1
    assert pg.locator("#start").is_disabled()
    assert pg.errors == []


TOUGH = """\
format: mb-scenario/1
id: board.tough-blocker
title: A TOUGH blocker that loses the fight is exhausted and stays in play
clauses: [keywords.tough]
source: {kind: rulebook, ref: "Keywords: TOUGH"}
given:
  players:
    - hand: [Bee Bear]
      play: [Gorillion]
    - hand: [Brain Fly]
      play: [Shield Bugs]
steps:
  - attack: Gorillion
  - block: Shield Bugs
expect:
  players:
    - {play: [Gorillion]}
"""


def test_a_scenario_opens_as_its_position_and_steps_replays_in_another_edition_and_is_overwritten_when_confirmed(
        page, server):
    pg = page
    path = server[1] / "opened.yaml"
    path.write_text(TOUGH)
    pg.reload()
    pg.wait_for_selector("body[data-ready]")
    pg.select_option("#scenario-list", label="opened.yaml: board.tough-blocker")
    pg.click("#open-scenario")
    expect(pg.locator('[data-zone="Player 1 play area"] .placed')).to_have_text(re.compile("Shield Bugs"))
    expect(pg.locator("#r-id")).to_have_value("board.tough-blocker")
    settled(pg)
    pg.click("#start")                                          # its steps are the decisions played
    expect(pg.locator("#steps li")).to_have_count(3)
    expect(pg.locator("#steps .current")).to_have_text("2. player 1: block with Shield Bugs")
    # another edition: the same decisions played again under its rules
    pg.select_option("#edition", "en-first")
    expect(pg.locator("#status")).to_have_text("Replayed under en-first")
    settled(pg)
    assert pg.locator("#steps li").count() == 3
    assert "exhausted" in pg.inner_text("#board")
    pg.wait_for_selector("#expectations input")
    pg.locator("#expectations input").first.check()
    assert pg.input_value("#r-file") == "opened.yaml"
    pg.click("#save")
    expect(pg.locator("#overwrite")).to_be_visible()           # the file is there: overwrite only when asked
    assert path.read_text() == TOUGH
    pg.click("#overwrite-yes")
    expect(pg.locator("#saved")).to_have_text(re.compile("^Saved"))
    assert "en-first" in path.read_text() and "block" in path.read_text()
    r = run_cli("scenarios", str(path))
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    # the browser logs the refused first save (409) itself; the page's script logs nothing
    assert [e for e in pg.errors if "409 (Conflict)" not in e] == []


def test_text_from_a_file_is_shown_as_text(page, server):
    pg = page
    title = "title: A TOUGH blocker that loses the fight is exhausted and stays in play"
    (server[1] / "hostile.yaml").write_text(TOUGH.replace("id: board.tough-blocker", "id: board.hostile")
                                            .replace(title, "title: '<img src=x onerror=alert(1)>A TOUGH blocker'"))
    pg.reload()
    pg.wait_for_selector("body[data-ready]")
    pg.select_option("#scenario-list", label="hostile.yaml: board.hostile")
    pg.click("#open-scenario")
    expect(pg.locator("#r-title")).to_have_value(re.compile("^<img src=x"))
    settled(pg)
    pg.click("#start")
    pg.wait_for_selector("#expectations input")
    pg.click("#preview")
    expect(pg.locator("#yaml")).to_contain_text("<img src=x onerror=alert(1)>A TOUGH blocker")   # the YAML, as text
    assert pg.locator("img").count() == 0
    assert pg.errors == []


def test_the_later_sets_octonite_stage_and_boost_cards_are_set_up_on_a_creature(page):
    pg = page
    pg.check('#sets input[value="beyond-evolution"]')
    pg.wait_for_selector('#cards [data-card="Cloud Lady"]')
    place(pg, "Kangasaurus Rex", "Player 0 play area")
    place(pg, "Cloud Lady", "Player 0 play area")
    place(pg, "Bee Bear", "boost cards under Kangasaurus Rex")      # a zone within the creature
    octonite = pg.locator('[data-field="given.players[0].play[0].octonite"] input')
    octonite.fill("2")
    octonite.dispatch_event("change")
    pg.select_option('[data-field="given.players[0].play[1].stage"] select', "2")
    place(pg, "Brain Fly", "Player 1 hand")
    settled(pg)
    assert pg.inner_text("#problems") == "none"
    pg.click("#start")
    pg.wait_for_selector("#pending .option")
    rex = pg.locator('#board [aria-label^="Kangasaurus Rex"]')
    assert rex.get_attribute("aria-label").endswith(", power 8, 2 Octonite, 1 boost")     # 7, and 1 for its boost
    assert "boosts: Bee Bear" in rex.inner_text()
    assert "stage II" in pg.inner_text('#board [aria-label^="Cloud Lady"]')
    assert pg.errors == []
