"""The HTML report's content, without a browser: every game listed, each
finding placed at its step, hostile text kept inert, the same bytes for
the same run, bounded boards, and `mb-oracle show`."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from oracle.replay.reader import read_all
from oracle.report.page import HtmlReport
from oracle.games.mindbug.board import game_steps

from html_pages import game_data, game_index
from conftest import ROOT, run_cli


def _manifest():
    return yaml.safe_load((ROOT / "replays" / "manifest.yaml").read_text())["games"]


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "report.html"
    r = run_cli("verify", "replays/", "-q", "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    return out.read_text(encoding="utf-8")


def test_verify_html_lists_every_sample_game_with_its_verdict(sample_page):
    listed = {r["id"]: r["verdict"] for r in game_index(sample_page)}
    # the manifest's verdicts, but for the games it verifies under --strict (not asked for here)
    expected = {g["game"]: "conforms" if g.get("strict") else g["verdict"] for g in _manifest()}
    assert listed == expected


def test_each_violation_is_shown_on_its_board_at_the_step_of_its_line(sample_page):
    data = game_data(sample_page)
    # A game of Mind Up! has its own board (the line, the cards played under it, the Score columns).
    mind_up = [d for d in data.values() if d["report"].get("game") == "mind-up"]
    assert mind_up and all(d["steps"] and all(s["board"]["game"] == "mind-up" for s in d["steps"]) for d in mind_up)
    assert all("game" not in s["board"] for d in data.values() if d["report"].get("game") != "mind-up"
               for s in d.get("steps", ()))
    violating = [d for d in data.values() if d["report"]["verdict"] == "violates"]
    assert len(violating) == sum(g["verdict"] == "violates" and not g.get("strict") for g in _manifest())
    for d in violating:
        assert d["steps"], d["report"]["id"]
        for f, at in zip(d["report"]["findings"], d["at"], strict=True):
            step = d["steps"][at]
            assert step["line"] <= f["line"]
            # the next step, if any, comes from a later line: this is the last board before the finding
            if at + 1 < len(d["steps"]):
                assert d["steps"][at + 1]["line"] > f["line"] or d["steps"][at + 1]["line"] == f["line"] is None
        assert any(line[0] == d["report"]["findings"][0]["line"] for line in d["log"])


def test_a_board_has_both_players_zones_and_the_pending_decision(sample_page):
    data = game_data(sample_page)
    d = next(d for d in data.values() if d["report"]["id"] == "violation-poisonous-ignored")
    deal = d["steps"][0]["board"]
    assert [len(h) for h in deal["hand"]] == [5, 5]
    assert deal["life"] == [3, 3] and deal["mindbugs"] == [2, 2]
    assert deal["pending"]["stage"] == "action" and deal["pending"]["options"]
    later = d["steps"][d["at"][0]]["board"]
    assert any(later["play"][p] for p in (0, 1))
    # a creature in play carries its power after constant abilities, its keywords and whether it is exhausted
    assert all(len(c) == 4 for p in (0, 1) for c in later["play"][p])
    assert any(ev[1] for s in d["steps"] for ev in s["events"]), "events name their clauses"


def test_same_run_gives_the_same_bytes_whatever_the_worker_count(tmp_path):
    pages = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.html"
        run_cli("verify", "replays/violations", "-q", "-j", jobs, "--output", f"html={out}")
        # the command line shown in the page is the one difference
        pages.append(re.sub(r"mb-oracle verify [^<]*", "", out.read_text(encoding="utf-8")))
    assert pages[0] == pages[1]
    again = tmp_path / "again.html"
    first = tmp_path / "r1.html"
    run_cli("verify", "replays/violations", "-q", "-j", "1", "--output", f"html={again}")
    assert re.sub(r"again\.html", "r1.html", again.read_text(encoding="utf-8")) == first.read_text(encoding="utf-8")


def test_hostile_text_from_a_log_stays_text(tmp_path):
    hostile = '</script><script>alert(1)</script><!--'
    log = tmp_path / "hostile.jsonl"
    log.write_text('{"t":"game","format":"mb-replay/1","id":"%s","edition":"en-revised","sets":["first-contact"]}\n'
                   % hostile.replace('"', '\\"'), encoding="utf-8")
    out = tmp_path / "page.html"
    r = run_cli("verify", str(log), "--output", f"html={out}")
    assert r.returncode == 2
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html
    assert html.count("<script") == html.count("</script>")
    (d,) = game_data(html).values()
    assert d["report"]["id"] == hostile


def test_boards_are_drawn_for_a_bounded_number_of_games(tmp_path):
    from oracle.replay.jobs import Options
    from oracle.replay.verify import verify_game
    from oracle.report.source import LogSource

    page = HtmlReport(title="t", options=Options(), source=LogSource(), max_boards=2, max_conforming_boards=1)
    reps = [verify_game(raw) for raw in read_all((str(ROOT / "replays"),))]
    for rep in reps:
        page.game(rep)
    out = tmp_path / "p.html"
    with open(out, "w", encoding="utf-8") as f:
        page.finish(f)
    html = out.read_text(encoding="utf-8")
    data = game_data(html)
    assert len(game_index(html)) == len(reps)
    with_board = [d["report"]["verdict"] for d in data.values() if "steps" in d]
    assert sorted(with_board) == ["conforms", "violates", "violates"]
    # past the limit, no board, whatever the game
    assert all(d["no_board"] == "board_limit" for d in data.values() if "steps" not in d)
    # a conforming game with no board and nothing to note is its row alone
    assert sum(r["board"] for r in game_index(html)) == 3
    rows = game_index(html)
    bare = [rows[i] for i in range(len(rows)) if i not in data]
    assert bare and all(r["verdict"] == "conforms" and not r["board"] for r in bare)


def test_steps_cover_the_game_from_the_deal_to_the_end():
    raw = next(iter(read_all((str(ROOT / "replays/conforming/en-revised.jsonl"),))))
    rep, steps = game_steps(raw)
    assert rep.verdict == "conforms"
    s = steps["steps"]
    assert s[0]["decision"] is None and s[0]["board"]["pending"]["stage"] == "action"
    assert s[-1]["board"]["over"] == rep.result and s[-1]["board"]["pending"] is None
    assert len(s) - 1 >= rep.decisions


def test_show_writes_the_page_of_the_chosen_game(tmp_path):
    out = tmp_path / "g.html"
    r = run_cli("show", "replays/conforming/en-revised.jsonl", "--game", "selfplay-en-revised-s11-00001",
                "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    (d,) = game_data(out.read_text(encoding="utf-8")).values()
    assert d["report"]["id"] == "selfplay-en-revised-s11-00001" and d["report"]["verdict"] == "conforms"
    assert len(d["steps"]) > 10


def test_show_says_as_verify_does_that_a_mind_up_game_ignores_edition(tmp_path):
    """`show --edition` is Mindbug's edition, as verify's and annotate's: its
    help says that a game of Mind Up! ignores it, and the page is the same."""
    assert b"its games ignore this" in b" ".join(run_cli("show", "--help").stdout.split())
    pages = []
    for extra in ((), ("--edition", "en-first")):
        out = tmp_path / f"p{len(pages)}.html"
        assert run_cli("show", "replays/conforming/mind-up.jsonl", *extra, "-o", str(out)).returncode == 0
        pages.append(game_data(out.read_text(encoding="utf-8")))
    assert pages[0] == pages[1]


def test_show_names_the_games_when_the_one_asked_for_is_not_there():
    r = run_cli("show", "replays/conforming/en-revised.jsonl", "--game", "nope")
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "no game 'nope'" in err and "selfplay-en-revised-s11-00000" in err and "Traceback" not in err


SCENARIO = """\
format: mb-scenario/1
id: demo.healer-wrong-life
title: Axolotl Healer's Play effect, expected (wrongly) to give 3 life
clauses: [triggers.play, life.gain]
cards: [Axolotl Healer]
source: {kind: card list, ref: "Axolotl Healer: Play: you gain 2 life"}
editions: [en-revised]
given:
  players:
    - hand: [Axolotl Healer, Bee Bear]
    - hand: [Brain Fly]
steps:
  - play: Axolotl Healer
  - pass
expect:
  players:
    - {life: 6, play: [Axolotl Healer]}
    - {life: 3}
"""


def test_scenarios_html_shows_a_failing_run_on_its_board(tmp_path):
    (tmp_path / "bad.yaml").write_text(SCENARIO, encoding="utf-8")
    out = tmp_path / "sc.html"
    r = run_cli("scenarios", str(tmp_path / "bad.yaml"), "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    html = out.read_text(encoding="utf-8")
    (d,) = game_data(html).values()
    assert d["kind"] == "scenario"
    (f,) = d["report"]["findings"]
    assert f["code"] == "SCENARIO_FAILED" and f["line"] == 15   # the expect key
    assert f["log"] == {"players[0].life": 6} and f["rules"] == {"players[0].life": 5}
    # the deal (the given position), step 1 (play), step 2 (pass): the failure is shown after step 2
    assert [s["decision"] for s in d["steps"]] == [None, "step 1: play: Axolotl Healer", "step 2: pass"]
    assert d["at"] == [2]
    assert d["steps"][2]["board"]["life"] == [5, 3]
    assert d["steps"][0]["board"]["hand"][0] and d["log"][0] == [1, "format: mb-scenario/1"]


OCTONITE_SCENARIO = """\
format: mb-scenario/1
id: demo.monarch-counters
title: Lychee Monarch with two counters, expected (wrongly) to have lost both after one turn
clauses: [triggers.harvest, later.octonite]
cards: [Lychee Monarch]
sets: [first-contact, fruit-lab]
card_file: CARD_FILE
editions: [en-revised]
source: {kind: card list, ref: "Harvest: one counter comes off at the start of its controller's turn"}
given:
  active: 1
  players:
    - {play: [{card: Lychee Monarch, octonite: 2}], hand: [Bee Bear]}
    - {hand: [Spider Owl, Brain Fly]}
steps:
  - play: Spider Owl
  - pass
expect:
  players:
    - {play: [{card: Lychee Monarch, octonite: 0}]}
"""


def test_the_board_shows_the_octonite_counters_on_a_creature(tmp_path):
    text = OCTONITE_SCENARIO.replace("CARD_FILE", str(ROOT / "examples" / "later-sets.yaml"))
    (tmp_path / "octo.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "sc.html"
    r = run_cli("scenarios", str(tmp_path / "octo.yaml"), "--output", f"html={out}")
    assert r.returncode == 1, r.stderr.decode()
    (d,) = game_data(out.read_text(encoding="utf-8")).values()
    boards = [s["board"] for s in d["steps"]]
    # a fifth entry on the creature: 2 counters at the deal, 1 after its controller's turn began
    assert [b["play"][0][0][4] for b in boards] == [2, 2, 1]
    assert all(len(e) == 4 for b in boards for e in b["play"][1])   # a creature without counters has no fifth entry


def test_logs_are_read_again_in_one_pass_even_with_lines_outside_games(tmp_path):
    from oracle.replay.verify import verify_game
    from oracle.report.source import LogSource

    src = (ROOT / "replays/conforming/en-revised.jsonl").read_bytes()
    log = tmp_path / "mixed.jsonl"
    log.write_bytes(b'{"t":"note","text":"before any game"}\n' + src)
    reps = [verify_game(raw) for raw in read_all((str(log),))]
    assert reps[0].verdict == "malformed"   # the line outside any game
    source = LogSource()
    found = [source.raw(rep) for rep in reps]
    assert found[0] is None
    assert [r.first_line for r in found[1:]] == [rep.line for rep in reps[1:]]
    # the same file again (given twice): read from its start
    assert source.raw(reps[1]).first_line == reps[1].line
    source.close()


def test_format_html_writes_the_page_to_standard_output():
    r = run_cli("verify", "replays/violations/sneaky-block.jsonl", "--format", "html")
    assert r.returncode == 1
    html = r.stdout.decode("utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    (d,) = game_data(html).values()
    assert d["report"]["id"] == "violation-sneaky-block" and d["steps"]


def test_a_game_not_verified_is_not_replayed_for_its_board(tmp_path):
    from oracle.replay.jobs import Options, error_report
    from oracle.report.source import LogSource

    raw = next(iter(read_all((str(ROOT / "replays/violations/sneaky-block.jsonl"),))))
    page = HtmlReport(title="t", options=Options(), source=LogSource())
    page.game(error_report(raw, "WORKER_DIED", "the worker verifying this game died twice"))
    out = tmp_path / "p.html"
    with open(out, "w", encoding="utf-8") as f:
        page.finish(f)
    (d,) = game_data(out.read_text(encoding="utf-8")).values()
    assert "steps" not in d and d["no_board"] == "the game was not verified"


def _page_data(html: str) -> dict:
    import json
    m = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_a_mind_up_reveal_step_shows_the_line_fought_for_and_the_cards_under_it(sample_page):
    d = next(d for d in game_data(sample_page).values() if d["report"]["id"] == "mind-up-3p")
    step = next(s for s in d["steps"] if s["decision"] and s["decision"].startswith("reveal"))
    b = step["board"]
    # the line the cards were played for, and under it the played cards, lowest first, with their players
    assert b["line"] == [15, 24, 39] and b["under"] == [[14, 1], [32, 0], [37, 2]]
    assert b["columns"][0][0] == [24] and b["columns"][1][0] == [15] and b["columns"][2][0] == [39]
    assert b["order"] == [5, 3, 2, 4, 1] and b["hands"][0] == [9, 21, 22, 45, 46, 52]
    last = d["steps"][-1]["board"]
    assert last["winners"] == [2] and last["totals"] == [85, 90, 95] and len(last["scores"][0]) == 3
    data = _page_data(sample_page)
    assert data["mind_up"]["cards"]["46"] == ["orange", 1] and data["mind_up"]["objectives"]["5"][:2] == ["C", -2]
    assert "mu.turn.take" in data["clauses"]


def test_a_page_of_mindbug_games_carries_nothing_of_mind_up(tmp_path):
    out = tmp_path / "mb.html"
    r = run_cli("verify", "replays/conforming/", "-q", "--output", f"html={out}")
    html = out.read_text(encoding="utf-8")
    assert r.returncode in (0, 1)
    out2 = tmp_path / "only-mindbug.html"
    logs = [p for p in (ROOT / "replays" / "conforming").glob("*.jsonl") if not p.name.startswith("mind-up")]
    assert run_cli("verify", *map(str, logs), "-q", "--output", f"html={out2}").returncode == 0
    data = _page_data(out2.read_text(encoding="utf-8"))
    assert "mind_up" not in data and not any(c.startswith("mu.") for c in data["clauses"])
    assert "mind_up" in _page_data(html)


def test_each_game_gives_its_board_through_its_registry_entry():
    """The page has no branch of its own per game: each game's entry names
    its board (BOARD), which gives the same functions and its part of the
    page's script, and the steps it makes say whose they are."""
    import importlib

    from oracle.games import entry, names

    for game in names():
        board = importlib.import_module(entry(game).BOARD)
        for name in ("game_steps", "shown_game", "scenario_steps", "page_data", "card_names"):
            assert callable(getattr(board, name)), (game, name)
        assert board.SCRIPT.is_file(), game
        log = ROOT / "replays" / "conforming" / ("mind-up.jsonl" if game == "mind-up" else "en-revised.jsonl")
        rep, steps = board.game_steps(next(read_all((str(log),))))
        assert rep.verdict == "conforms" and steps["game"] == game and steps["steps"], game


def test_a_mind_up_choice_by_a_player_not_in_the_game_is_a_finding_on_its_board(tmp_path):
    from oracle.games.mindup.board import game_steps as mind_up_steps
    lines = (ROOT / "replays" / "conforming" / "mind-up.jsonl").read_text(encoding="utf-8").splitlines()
    turn = next(i for i, line in enumerate(lines) if '"t":"turn"' in line)
    lines.insert(turn, '{"t":"choose","p":5,"card":60}')       # a game of 3 players: no player 5
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (raw, *_) = read_all((str(log),))
    rep, steps = mind_up_steps(raw)
    assert rep.verdict == "violates" and rep.findings[0].line == turn + 1
    assert steps["steps"]                                     # the board up to it


HOSTILE = ["plain", "a\u202eb", "bell\x07", "esc\x1b[31m", "c1\x9b", "zero\u200bwidth", "sep\u2028ara\u2029tor",
           "tag\U000e0001", "bom\ufeff", "two\nlines", "soft\xadhyphen", "\ud800lone", "caf\u00e9 \U0001f41b"]

DRAW = r'''
const fs = require("fs");
const src = fs.readFileSync(process.argv[1], "utf8");
const part = src.slice(src.indexOf("  const HIDDEN"), src.indexOf("  // JSON with lists of plain values"));
function node(tag) {
  return { tag, kids: [], attrs: {}, append(...k) { this.kids.push(...k); },
           setAttribute(k, v) { this.attrs[k] = v; }, addEventListener() {} };
}
const document = { createElement: node };
const el = new Function("document", part + "; return el;")(document);
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
const out = texts.map((t) => { const e = el("span", { text: t, title: t }, t); return [e.textContent, e.attrs.title, e.kids[0]]; });
process.stdout.write(JSON.stringify(out));
'''


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_script_drawn_parts_escape_text_as_the_server_drawn_parts_do():
    import json
    import subprocess

    from oracle.term import visible

    app = ROOT / "oracle" / "report" / "templates" / "app.js"
    r = subprocess.run(["node", "-e", DRAW, str(app)], input=json.dumps(HOSTILE).encode(), capture_output=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    drawn = json.loads(r.stdout)
    assert drawn == [[visible(t, lines=True)] * 3 for t in HOSTILE]
