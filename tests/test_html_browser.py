"""The HTML report in a real browser (headless Chromium): it loads without
a console error, stepping changes the board, the finding's step is marked,
a filter hides the other games, a screenshot is not blank, and a
10,000-game page opens quickly."""

from __future__ import annotations

import pytest

from browser import browser, png_colours  # noqa: F401  (browser: a fixture)
from conftest import ROOT, run_cli
from html_pages import large_page, sample_games

sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed "
                                                             "(pip install -e '.[test]')")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "report.html"
    r = run_cli("verify", "replays/", "-q", "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    return out


@pytest.fixture
def page(browser, report):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.set_default_timeout(5000)
    pg.errors = []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.goto(report.as_uri())
    yield pg
    pg.close()


def _open(pg, game_id):
    pg.get_by_role("button", name=game_id, exact=False).first.click()
    pg.wait_for_selector("#detail h2")
    assert pg.inner_text("#detail h2") == game_id


def test_the_report_loads_without_console_errors(page):
    assert page.title() == "mb-oracle verify report"
    _open(page, "violation-poisonous-ignored")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.errors == []


def test_stepping_changes_the_board(page):
    _open(page, "selfplay-en-revised-s11-00000")
    assert page.locator("#b-first").is_disabled()     # a conforming game opens at the deal
    deal = page.inner_text("#board")
    status = page.inner_text("#step-status")
    assert status.startswith("Step 0 of ")
    page.click("#b-next")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step-status").startswith("Step 2 of ")
    assert page.inner_text("#board") != deal
    page.keyboard.press("Home")
    assert page.inner_text("#board") == deal
    page.keyboard.press("End")
    assert "Game over" in page.inner_text("#board")


def test_the_findings_step_is_marked_and_its_differing_card_outlined(page):
    _open(page, "violation-poisonous-ignored")
    # a game with a finding opens at the finding's step
    status = page.locator("#step-status")
    assert "finding: STATE_MISMATCH" in status.inner_text()
    assert "at-finding" in status.get_attribute("class")
    current = page.locator(".steps li.current")
    assert "finding-step" in current.get_attribute("class")
    assert page.locator(".finding.here").count() == 1
    marked = page.locator("#board .card.mark")
    assert marked.count() >= 1 and "differs" in marked.first.get_attribute("aria-label")
    # the log's claim and the rules' state side by side, drawn as cards, the differing card marked on both
    assert page.locator(".finding .sides > div").count() == 2
    assert page.locator(".finding .sides .card.mark").count() == 2
    # away from the finding nothing is marked
    page.click("#b-first")
    assert page.locator("#board .card.mark").count() == 0
    assert page.locator(".finding.here").count() == 0


def test_an_illegal_decision_shows_the_legal_options_in_words(page):
    _open(page, "violation-mindbug-in-play")
    rules = page.inner_text(".finding .sides > div:nth-child(2)")
    assert rules.startswith("The rules") and "null" not in rules
    assert "player 0: block Elephantopus (3)" in rules and "player 0: block: none" in rules


@pytest.mark.parametrize("game_id", ["accepted-early-frenzy-decline", "violation-sneaky-block"])
def test_no_entry_of_the_step_list_is_cut_off(page, game_id):
    """The step list scrolls down only: every entry, a finding's step with
    its mark too, fits its width and wraps between words."""
    _open(page, game_id)
    over = page.evaluate("""() => {
        const nav = document.querySelector('nav.steps');
        const edge = nav.getBoundingClientRect().left + nav.clientLeft + nav.clientWidth + 0.5;
        return [nav.scrollWidth - nav.clientWidth,
                Array.from(nav.querySelectorAll('button')).filter(b => b.getBoundingClientRect().right > edge)
                     .map(b => b.textContent)];
    }""")
    assert over == [0, []], over


def test_a_filter_hides_the_other_games(page):
    total = page.locator("#game-list .row").count()
    assert page.inner_text("#shown") == f"{total} games shown"
    page.select_option("#f-verdict", "violates")
    visible = page.locator("#game-list .row:visible")
    n = visible.count()
    assert 0 < n < total
    assert set(visible.evaluate_all("rows => rows.map(r => r.dataset.verdict)")) == {"violates"}
    page.select_option("#f-code", "WRONG_RESULT")
    assert 0 < page.locator("#game-list .row:visible").count() < n
    page.select_option("#f-verdict", "")
    page.select_option("#f-code", "")
    page.fill("#f-card", "Sharky Crab-Dog-Mummypus")
    page.fill("#f-id", "violation-")
    assert 0 < page.locator("#game-list .row:visible").count() < n
    assert page.inner_text("#shown").endswith("shown")


def test_keyboard_alone_reaches_a_game_and_every_control_has_a_name(page):
    page.focus("#game-list .row button")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.dataset.i")
    assert focused == "2"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "detail"
    page.keyboard.press("End")
    n = page.evaluate("document.querySelectorAll('.steps li').length") - 1
    assert page.inner_text("#step-status").startswith(f"Step {n} of {n}")
    unnamed = page.evaluate("""() => Array.from(document.querySelectorAll('button, select, input')).filter(e =>
        !(e.getAttribute('aria-label') || e.textContent.trim() || (e.labels && e.labels.length))).length""")
    assert unnamed == 0
    assert page.locator("[role=status][aria-live=polite]").count() == 1
    assert page.locator("#board .card[aria-label]").count() > 5


def test_every_sample_game_steps_from_deal_to_end_without_an_error(browser, tmp_path):
    out = tmp_path / "kg.html"
    r = run_cli("verify", "replays/", "-q", "--keep-going", "--strict", "--output", f"html={out}")
    assert r.returncode == 2, r.stderr.decode()
    pg = browser.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(out.as_uri())
    steps = pg.evaluate("""() => {
        const n = JSON.parse(document.getElementById('game-index').textContent).rows.length;
        let total = 0;
        for (let i = 0; i < n; i++) {
            window.mbReport.openGame(i, 0, false);
            const count = document.querySelectorAll('.steps li').length;
            const every = Math.max(1, Math.floor(count / 25));   // about 25 boards a game, and each finding's
            const at = Array.from(document.querySelectorAll('.steps li.finding-step button')).map(b => +b.dataset.step);
            for (let k = 0; k < count; k++) if (k % every === 0 || k === count - 1 || at.includes(k)) {
                window.mbReport.go(k); total++;
            }
        }
        return total;
    }""")
    assert steps > 500 and errors == []
    pg.close()


def failing_scenario_page(browser, tmp_path, text: str, status: int = 1):
    """The HTML report of a scenario file whose one run fails (`status` 2: a
    document of it cannot be read too), open in a new page; the page's
    script errors are gathered in the list returned."""
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "sc.html"
    assert run_cli("scenarios", str(tmp_path / "bad.yaml"), "--output", f"html={out}").returncode == status
    pg = browser.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(out.as_uri())
    return pg, errors


def test_a_failing_scenario_opens_on_its_board(browser, tmp_path):
    from test_html_report import SCENARIO

    pg, errors = failing_scenario_page(browser, tmp_path, SCENARIO)
    # the one failing run opens by itself, at the step that failed
    assert pg.inner_text("#detail h2") == "demo.healer-wrong-life[en-revised]"
    assert "finding: SCENARIO_FAILED" in pg.inner_text("#step-status")
    assert "The scenario expects" in pg.inner_text(".finding .sides")
    assert "life 5" in pg.inner_text("#board")
    assert errors == []
    pg.close()


def test_a_creature_with_octonite_counters_shows_them_on_the_board(browser, tmp_path):
    from test_html_report import OCTONITE_SCENARIO

    text = OCTONITE_SCENARIO.replace("CARD_FILE", str(ROOT / "examples" / "later-sets.yaml"))
    pg, errors = failing_scenario_page(browser, tmp_path, text)
    card = pg.locator('#board .card[aria-label^="Lychee Monarch"]')
    assert card.locator(".octo").inner_text() == "1 Octonite"         # the failing step: after one Harvest
    assert "1 Octonite" in card.get_attribute("aria-label")
    pg.evaluate("window.mbReport.go(0)")
    assert pg.locator('#board .card[aria-label^="Lychee Monarch"] .octo').inner_text() == "2 Octonite"
    assert errors == []
    pg.close()


def test_a_screenshot_is_not_blank(page):
    _open(page, "violation-poisonous-ignored")
    shot = page.screenshot(clip={"x": 0, "y": 0, "width": 1280, "height": 900})
    assert png_colours(shot) >= 16


def test_narrow_window_shows_one_column_and_print_hides_the_controls(browser, report):
    pg = browser.new_page(viewport={"width": 420, "height": 800})
    pg.goto(report.as_uri() + "#game-0")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 430
    pg.emulate_media(media="print")
    assert not pg.locator("#b-next").is_visible()
    assert pg.locator("#board").is_visible()
    pg.close()


def test_a_ten_thousand_game_report_opens_drawing_its_rows_500_at_a_time(browser, tmp_path):
    # How fast it opens is measured by tests/bench_html_open.py (against its
    # 2 s target), not here: a test's wall-clock time on a shared machine
    # says little. What makes it open fast is checked: rows drawn 500 at a time.
    out = tmp_path / "big.html"
    large_page(sample_games(ROOT), 10_000, out)
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(out.as_uri(), wait_until="load")
    assert pg.inner_text("#shown") == "10000 games shown"
    assert pg.locator("#game-list .row").count() == 500      # drawn 500 at a time
    # A game the page draws no board for says so in its row, not with a bare mark.
    assert pg.locator("#game-list .row .noboard").first.inner_text() == "no board"
    pg.click("#more")
    assert pg.locator("#game-list .row").count() == 1000
    pg.select_option("#f-verdict", "violates")
    pg.locator("#game-list .row:visible").first.locator("button").click()
    pg.wait_for_selector("#board")
    assert errors == []
    pg.close()


def test_a_game_of_mind_up_steps_through_its_board(page):
    _open(page, "mind-up-3p")
    board = page.locator("#board .muboard")
    assert board.count() == 1 and page.locator("#board .side").count() == 0   # the Mind Up! board, not Mindbug's
    assert "Before round 1" in page.inner_text("#board")
    assert page.locator("#board .muplayer").count() == 3
    assert page.locator("#board .muplayer").first.locator(".mucards").last.locator(".mucard").count() == 7   # a hand of 7
    page.keyboard.press("ArrowRight")                        # round 1 starts: its Score order
    head = page.inner_text("#board .muhead")
    assert "Round 1" in head and "Score order 5-3-2-4-1" in head
    page.keyboard.press("ArrowRight")                        # the first reveal
    status = page.inner_text("#step-status")
    assert status.startswith("Step 2 of ") and "reveal" in status
    slots = page.locator("#board .muline .muslot")
    assert slots.count() == 3
    # under each line card, the card played for it and who played it: 14 (B) under 15, 32 (A) under 24, 37 (C) under 39
    assert [slots.nth(k).locator(".mucard").nth(0).get_attribute("data-card") for k in range(3)] == ["15", "24", "39"]
    assert [slots.nth(k).locator(".mucard").nth(1).get_attribute("data-card") for k in range(3)] == ["14", "32", "37"]
    assert slots.nth(0).locator(".mucard").nth(1).locator(".who").inner_text() == "Player B"
    # player A took 24 onto the first Score card, worth 5 this round
    first = page.locator("#board .muplayer").first.locator(".mucol").first
    assert first.locator(".muval").inner_text() == "×5 = 5" and first.locator(".mucard").get_attribute("data-card") == "24"
    assert "card 24, blue" in first.locator(".mucard").get_attribute("aria-label")
    page.keyboard.press("End")
    text = page.inner_text("#board")
    assert "Game over: the winner is Player C" in text
    assert "game score 95" in page.inner_text("#board .muplayer >> nth=2")
    assert page.errors == []


def test_show_draws_a_mind_up_game_with_a_finding_on_its_board(browser, tmp_path):
    out = tmp_path / "show.html"
    r = run_cli("show", "replays/violations/mind-up-wrong-score-card.jsonl", "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    pg = browser.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(out.as_uri())
    assert pg.locator("#board .muboard").count() == 1
    assert "finding:" in pg.inner_text("#step-status")          # a game with a finding opens at its step
    assert pg.locator("#board .muplayer").count() >= 3
    pg.keyboard.press("Home")
    assert "Before round 1" in pg.inner_text("#board")
    assert errors == []
    pg.close()


def test_a_failing_mind_up_scenario_opens_on_its_board(browser, tmp_path):
    text = (ROOT / "scenarios" / "mind-up" / "examples.yaml").read_text(encoding="utf-8").split("\n---\n")[0]
    wrong = text.replace("columns: {0: [[8, 46]]}", "columns: {0: [[8], [46]]}")
    assert wrong != text
    pg, errors = failing_scenario_page(browser, tmp_path, wrong)
    assert pg.inner_text("#detail h2") == "mind-up.example.christine-card-46[fr]"
    assert "finding: SCENARIO_FAILED" in pg.inner_text("#step-status")
    assert pg.locator("#board .muboard").count() == 1
    # the failing turn: Christine (player A) took 46 onto her first Score card, beside 8
    first = pg.locator("#board .muplayer").first.locator(".mucol").first
    assert [first.locator(".mucard").nth(k).get_attribute("data-card") for k in range(2)] == ["8", "46"]
    assert "Player A" in pg.inner_text("#board .muline")
    pg.evaluate("window.mbReport.go(0)")
    assert pg.locator("#board .muplayer").first.locator(".mucol").first.locator(".mucard").count() == 1
    assert errors == []
    pg.close()


def _diff_tables(pg) -> dict[str, list[list[str]]]:
    """The open game's difference tables: caption -> rows of cell texts."""
    return pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#detail table.diff')].map((t) =>
      [t.caption.textContent, [...t.querySelectorAll('tr')].slice(1).map((r) =>
        [...r.cells].map((c) => c.innerText))]))""")


def test_a_scenario_page_says_fails_lists_events_and_shows_a_winners_difference_field_by_field(browser, tmp_path):
    from test_scenario_html import BAD_DOCUMENT, WRONG_WINNERS

    pg, errors = failing_scenario_page(browser, tmp_path, WRONG_WINNERS + "\n---\n" + BAD_DOCUMENT, status=2)
    assert pg.locator("#game-list .row").count() == 2
    pg.get_by_role("button", name="mind-up.end.shared-win[fr]", exact=False).click()
    assert pg.inner_text("#detail .meta .badge") == "fails"
    assert _diff_tables(pg) == {"Differences, field by field": [["winners", "[1]", "[0, 1]"]]}
    pg.get_by_text("What happened at the step that failed").click()         # the events, folded beside the board
    events = pg.locator("#detail .finding ol.events > li")
    assert events.count() > 3
    assert events.last.inner_text().startswith("the game ends: shared victory of player A, player B")
    assert events.last.locator("abbr.chip").all_inner_texts() == ["mu.game.rounds", "mu.game.winner"]
    assert pg.locator("#board .muboard").count() == 1
    # the document that cannot be read: its problems, at their lines of the document shown
    pg.get_by_role("button", name="malformed", exact=False).click()
    assert pg.inner_text("#detail .meta .badge") == "malformed"
    heads = pg.locator("#detail .finding .head").all_inner_texts()
    assert heads and all(h.startswith("SCENARIO_ERROR at line ") for h in heads)
    assert "missing required key 'title'" in pg.inner_text("#detail .findings")
    assert "colour: green" in pg.inner_text("#detail .log")
    assert errors == []
    pg.close()


def test_a_mindbug_scenario_keeps_a_card_difference_card_by_card(browser, tmp_path):
    from test_html_report import SCENARIO

    wrong = SCENARIO.replace("    - {life: 3}\n", "    - {life: 3}\n  power: {Axolotl Healer: 9}\n")
    pg, errors = failing_scenario_page(browser, tmp_path, wrong)
    tables = _diff_tables(pg)
    assert tables["Differences, field by field"] == [["players[0].life", "6", "5"]]
    ((text, expected, _),) = tables["Differences, card by card"]
    assert text.startswith("power[Axolotl Healer]: expected 9") and expected == "9"
    assert errors == []
    pg.close()


def test_verify_puts_field_differences_in_their_own_table(page):
    _open(page, "violation-play-effect-wrong-player")
    (rows,) = _diff_tables(page).values()
    assert list(_diff_tables(page)) == ["Differences, field by field"]
    assert [r[0].splitlines()[0] for r in rows] == ["life[0]", "life[1]"] and [r[1:] for r in rows] == [["3", "5"],
                                                                                                       ["7", "5"]]
    _open(page, "violation-always-late-draw")
    assert sorted(_diff_tables(page)) == ["Differences, card by card", "Differences, field by field"]
    assert page.errors == []
