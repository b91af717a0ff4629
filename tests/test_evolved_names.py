"""An evolved creature (Beyond Evolution, later.evolve) is named in reports by
the face it shows, with its own card id, as the board draws it: in a
finding's card names (and so its legal options), its events, the HTML
report's step lists and options, and conform's and serve's event texts.
An event names it by the face it showed when the event happened: the
"evolve" event by the face it evolved from."""

from __future__ import annotations

import io
import json
import re

import pytest
from conftest import ROOT, run_cli

from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.engine.records import Event
from oracle.games.mindbug.harness.views import event_views
from oracle.replay import report as render
from oracle.games.mindbug.replay.narrate import creature_label, faces, names_by_event, shown_names
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.games.mindbug.replay.verifier import Verifier
from oracle.replay.verify import verify_game
from oracle.games.mindbug.board import game_steps, scenario_steps
from oracle.scenarios.loader import load_file

SETS = ("beyond-evolution",)


def _evolving_game() -> tuple[list[dict], int, int, str, str]:
    """A self-played Beyond Evolution game in which a creature evolves:
    (its lines, the index of the first claim that shows a stage II face,
    the creature, its printed name, the face)."""
    lines: list[dict] = []
    games = []
    for raw in selfplay_lines(12, 9, "en-revised", sets=SETS):
        d = json.loads(raw)
        if d["t"] == "game":
            lines = []
            games.append(lines)
        lines.append(d)
    for lines in games:
        printed = {int(k): v for k, v in lines[1]["cards"].items()}
        for i, d in enumerate(lines):
            if d["t"] != "state":
                continue
            for side in d["play"]:
                for c in side:
                    if isinstance(c, dict) and c.get("stage") == 2:
                        assert c["face"] != printed[c["card"]]
                        return lines, i, c["card"], printed[c["card"]], c["face"]
    raise AssertionError("no creature evolves in 12 self-played Beyond Evolution games")


@pytest.fixture(scope="module")
def evolving():
    return _evolving_game()


def _verify(lines: list[dict]):
    data = b"".join(json.dumps(d).encode() + b"\n" for d in lines)
    (raw,) = split_games(io.BytesIO(data), "evolved.jsonl")
    return raw, verify_game(raw)


def _named_cards(rep) -> dict[int, str]:
    """The "cards:" line of the human report's finding: id -> name."""
    (line,) = [x for x in render.human_game(rep).splitlines() if x.startswith("    cards:")]
    return {int(k): v for k, v in (entry.split(" ", 1) for entry in line.split(":", 1)[1].strip().split(", "))}


def test_a_finding_names_the_evolved_creature_by_its_face(evolving):
    lines, at, card, printed, face = evolving
    broken = [dict(d) for d in lines]
    broken[at] = dict(broken[at], life=[v + 5 for v in broken[at]["life"]])   # a claim that differs
    _raw, rep = _verify(broken)
    (f,) = [f for f in rep.findings if f.code == "STATE_MISMATCH"][:1]
    assert f.cards[card] == face, f.cards
    # The events since log and rules last agreed: the evolve event by the
    # face it evolved from; every event after it by the new face.
    texts = [(e.kind, e.text) for e in f.events]
    evolved = next(i for i, (kind, text) in enumerate(texts) if kind == "evolve" and f"({card})" in text)
    assert texts[evolved][1].startswith(f"evolve {printed} ({card}) ")
    for kind, text in texts[evolved + 1:]:
        assert f"{printed} ({card})" not in text, text
    assert _named_cards(rep)[card] == face


def test_a_refused_decision_names_the_face_in_play(evolving):
    lines, at, card, printed, face = evolving
    # Right after the claim that shows the new face, the next player to
    # decide plays the evolved creature, which is in play, not in a hand.
    nxt = next(i for i in range(at + 1, len(lines)) if "p" in lines[i] and lines[i]["t"] != "state")
    broken = [dict(d) for d in lines]
    broken[nxt] = {"t": "play", "p": lines[nxt]["p"], "card": card}
    _raw, rep = _verify(broken)
    f = rep.findings[0]
    assert (f.code, f.line) == ("ILLEGAL_DECISION", nxt + 1) and f.options, f
    assert f.cards[card] == face, f.cards
    assert _named_cards(rep)[card] == face


def test_the_step_list_names_the_face_once_the_creature_has_evolved(evolving):
    lines, at, card, printed, face = evolving
    raw, _rep = _verify(lines)
    _rep, data = game_steps(raw)
    seen = 0
    evolved_at = None
    for n, s in enumerate(data["steps"]):
        shows = {c: name for c, _stage, name in s["board"].get("evolved", [])}
        if card in shows and evolved_at is None:
            evolved_at = n
            assert any(e[0] == "evolve" and e[2].startswith(f"evolve {printed} ({card})") for e in s["events"]), s
        pending = s["board"]["pending"]
        for text in (pending["options"] if pending else []):
            if f"({card})" in text:
                want = shows.get(card, printed)
                assert f"{want} ({card})" in text, (text, want)
                seen += card in shows
        if evolved_at is not None and n > evolved_at and card in shows and s["decision"]:
            assert f"{printed} ({card})" not in s["decision"], s["decision"]
    assert evolved_at is not None and seen, "the creature is never among the options once evolved"


def test_scenario_boards_name_the_face_in_their_options():
    shown = 0
    for name in ("beyond-evolution.yaml", "cross-set-evolution.yaml"):
        for sc in load_file(ROOT / "scenarios" / name).scenarios:
            data = scenario_steps(sc, sc.editions()[0])
            for s in (data or {"steps": []})["steps"]:
                pending = s["board"]["pending"]
                for c, _stage, face in s["board"].get("evolved", []):
                    printed = data["cards"][c]
                    for text in (pending["options"] if pending else []):
                        if re.search(rf"\({c}\)", text):
                            assert f"{face} ({c})" in text and (face == printed or f"{printed} ({c})" not in text)
                            shown += 1
    assert shown >= 10, shown


def _game_at(lines: list[dict], upto: int) -> Game:
    """The rules' game after the lines of `lines` before index `upto`."""
    data = b"".join(json.dumps(d).encode() + b"\n" for d in lines[:upto])
    (raw,) = split_games(io.BytesIO(data), "evolved.jsonl")
    v = Verifier(raw)
    v.run()
    return v.g


def test_names_by_event_follow_evolution_and_leaving_play(evolving):
    lines, at, card, printed, face = evolving
    g = _game_at(lines, at)
    assert faces(g) == {card: face}
    assert shown_names(g)[card] == face and g.table.names[card] == printed
    assert creature_label(g, card) == f"{face} ({card}, stage II of {printed})"
    aside = next(a for c, a, _n in g.state.stages if c == card)
    events = [Event("attack", (), 0, card, None, None, None),
              Event("unevolve", (), 0, card, (aside,), None, None),      # it left play
              Event("discard", (), 0, card, None, None, None),
              Event("evolve", (), 0, card, (aside,), 2, None),           # (as a later game might)
              Event("ready", (), 0, card, None, None, None)]
    each, after = names_by_event(g, events, {card: face})
    assert [names[card] for names in each] == [face, face, printed, printed, face]
    assert after == {card: face}
    # A stage III face: the side the double-sided card turns to.
    each, after = names_by_event(g, [Event("evolve", (), 0, card, (aside,), 3, None)], {card: face})
    assert each[0][card] == face and after[card] not in (face, printed)


def test_serve_event_texts_name_the_face_the_creature_showed(evolving):
    lines, at, card, printed, face = evolving
    g = _game_at(lines, at)
    attack = Event("attack", ("combat.attack",), 0, card, None, None, None)
    (view,) = event_views(g, [attack], {card: face})
    assert view.text == f"attack {face} ({card}) (player 0)"
    (view,) = event_views(g, [attack], {})
    assert view.text == f"attack {printed} ({card}) (player 0)"
    (view,) = event_views(g, [attack])          # by default, the faces now
    assert view.text == f"attack {face} ({card}) (player 0)"


def _claimed_wrong(lines: list[dict], at: int, card: int) -> list[dict]:
    """`lines` with the claim at `at` wrong on the evolved creature's exhaustion."""
    broken = [json.loads(json.dumps(d)) for d in lines]
    for side in broken[at]["play"]:
        for c in side:
            if c["card"] == card:
                c["exhausted"] = not c["exhausted"]
    return broken


def test_a_state_difference_names_the_face_first(evolving):
    lines, at, card, printed, face = evolving
    _raw, rep = _verify(_claimed_wrong(lines, at, card))
    (entry,) = [e for f in rep.findings for e in f.diff or () if e.card == card][:1]
    assert entry.name == face
    assert entry.text.startswith(f"{face} ({card}, stage II of {printed}): the log has it in player "), entry.text


def test_the_html_report_draws_the_face_on_the_board_and_on_both_sides_of_a_finding(evolving, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed")
    from browser import launch

    lines, at, card, printed, face = evolving
    broken = _claimed_wrong(lines, at, card)
    log = tmp_path / "evolved.jsonl"
    log.write_bytes(b"".join(json.dumps(d).encode() + b"\n" for d in broken))
    page = tmp_path / "report.html"
    r = run_cli("verify", str(log), "--output", f"html={page}")
    assert r.returncode == 1, r.stderr.decode()
    with sync_api.sync_playwright() as p:
        b = launch(p)
        try:
            pg = b.new_page(viewport={"width": 1280, "height": 900})
            pg.goto(page.as_uri())
            pg.get_by_role("button", name=lines[0]["id"], exact=False).first.click()
            pg.wait_for_selector("#detail h2")
            labels = pg.eval_on_selector_all(f'#detail [data-card="{card}"]',
                                             "els => els.map(e => e.getAttribute('aria-label'))")
        finally:
            b.close()
    # the board at the finding's step, the log's side and the rules' side
    assert len(labels) >= 3, labels
    assert all(x.startswith(f"{face} ({card}, stage II of {printed}), ") for x in labels), labels


def test_conform_names_the_face_in_the_options_it_compares(evolving):
    import msgspec

    from oracle.games.mindbug.harness import engine_protocol as ep
    from oracle.games.mindbug.harness.lockstep import compare
    from oracle.games.mindbug.harness.views import full_claim

    lines, at, card, printed, face = evolving
    for upto in range(at + 1, len(lines)):
        g = _game_at(lines, upto)
        if faces(g).get(card) == face and g.pending is not None and \
                any(d.arg == card for d in g.legal_decisions()):
            break
    else:
        raise AssertionError("the evolved creature is never among the legal decisions")
    # An engine that leaves out the decisions of the evolved creature.
    options = [msgspec.to_builtins(d.to_json()) for d in g.legal_decisions() if d.arg != card]
    reply = ep.reply_decoder.decode(json.dumps({"options": options, "state": full_claim(g), "over": None}))
    attack = Event("attack", ("combat.attack",), g.pending.player, card, None, None, None)
    finding, _ = compare(g, reply, 3, [attack], {card: face})
    assert finding.code == "OPTIONS_DIFFER" and finding.cards[card] == face
    missing = [d.text for d in finding.diff if f"({card})" in d.text]
    assert missing and all(f"{face} ({card})" in t and f"{printed} ({card})" not in t for t in missing), missing
    assert finding.events[0].text.startswith(f"attack {face} ({card})")
    # From faces before it evolved, the same event names the card it was.
    finding, _ = compare(g, reply, 3, [attack], {})
    assert finding.events[0].text.startswith(f"attack {printed} ({card})")
