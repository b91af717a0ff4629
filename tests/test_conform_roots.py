"""conform's root causes: groups whose shrunk games verify names alike are
one root cause, a root cause whose draft does not fail on the engine says
so in its note, and one that stands only under a team reading says so
(`basis: reading`) however its log reads."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from conftest import ROOT
from test_harness_conform import conform, reports, wrapped_adapter

from oracle.games.mindbug.harness.roots import Root, merged


def test_an_artifact_that_does_not_fail_on_the_engine_is_said_in_the_root_cause(tmp_path):
    """An engine that never offers FRENZY's second attack to a creature
    dealt under another id than the scenarios number it by: conform's games
    show it, but the draft (the root cause's only artifact: no log shows an
    option left out) deals the cards under the scenarios' ids, where the
    engine plays by the rules. The note says the draft does not fail on the
    engine, and that no artifact of the root cause does."""
    script = wrapped_adapter(
        tmp_path / "by_id.py",
        "    from oracle.games.mindbug.scenarios.cards import card_id\n"
        "    g = a.game\n"
        "    p = g.pending if g is not None else None\n"
        "    if p is not None and p.stage == 'frenzy' and p.source != card_id(g.table.names[p.source]):\n"
        "        reply['options'] = [o for o in reply['options'] if o['t'] != 'attack']\n")
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "8", "--seed", "1", "--edition", "en-first",
                "--edition", "fr-first", "--format", "json", "--out", str(tmp_path / "found"))
    assert r.returncode == 1, r.stderr
    [note] = [n for g in reports(r) if g["t"] == "game" for n in g["notes"] if n.startswith("root cause ")]
    assert "OPTIONS_DIFFER [keywords.frenzy]" in note and "artifact: the draft scenario" in note, note
    assert note.endswith("; the draft scenario does not fail on the engine (it conforms there); this root cause "
                         "has no artifact that fails on it"), note
    assert "fails on the rules" not in note


def test_a_draft_that_fails_on_the_engine_adds_nothing_to_the_note(tmp_path):
    from test_harness_conform import ADAPTER

    r = conform("--engine", f"{ADAPTER} --plant frenzy", "--budget", "8", "--seed", "1", "--edition", "en-first",
                "--edition", "fr-first", "--format", "json", "--out", str(tmp_path / "found"))
    assert r.returncode == 1, r.stderr
    [note] = [n for g in reports(r) if g["t"] == "game" for n in g["notes"] if n.startswith("root cause ")]
    assert note.endswith("(no replay log can show an option the engine does not list)"), note


def _root(name: str, sig: tuple, code: str, clauses: list, games: list, draft: int) -> Root:
    div = SimpleNamespace(decisions=[None] * draft)
    first = games[0]
    return Root(first, list(games), first, sig, div, {}, div, {}, code=code, clauses=clauses, note=f"{name} shrunk")


def test_two_root_causes_with_the_same_code_and_first_clause_are_one():
    """Two groups that part from the rules at different rule events in
    lockstep (the choice HUNTER's order skips, a steal's choice), whose
    shrunk games verify names alike (MISSING_DECISION [effects.hunter-order]):
    one root cause, with the games of both in the run's order and the
    artifact of the shorter; a third, named otherwise, stays apart."""
    games = [SimpleNamespace(name=f"g{i}") for i in range(5)]
    a = _root("a", ("OPTIONS_DIFFER", "triggers.attack"), "MISSING_DECISION",
              ["effects.hunter-order", "triggers.attack"], [games[0], games[3]], 6)
    b = _root("b", ("STATE_MISMATCH", "keywords.tough"), "STATE_MISMATCH", ["keywords.tough"], [games[1]], 2)
    c = _root("c", ("OPTIONS_DIFFER", "terms.steal"), "MISSING_DECISION",
              ["effects.hunter-order", "terms.steal"], [games[2], games[4]], 3)
    out = merged([a, b, c], games)
    assert [r.key for r in out] == [("MISSING_DECISION", "effects.hunter-order"), ("STATE_MISMATCH", "keywords.tough")]
    one = out[0]
    assert one is c and one.members == [games[0], games[2], games[3], games[4]]
    assert one.note == ("its games first part from the rules at 2 different rule events (OPTIONS_DIFFER "
                        "[triggers.attack], OPTIONS_DIFFER [terms.steal]), which their shrunk games show as one; "
                        "c shrunk")
    assert out[1] is b and b.members == [games[1]] and b.note == "b shrunk"


def test_an_engine_that_names_the_hunter_target_first_differs_on_the_reading_and_its_drafts_pass(tmp_path):
    """An engine that takes the other reading of effects.hunter-order
    (HUNTER names its target before the Attack effect resolves): every
    difference conform finds is a matter of that reading (`basis: reading`),
    also the state differences whose log verify flags on the rules (the log
    holds the decisions in the rules' order, which the other reading cannot
    replay), and every draft passes on the oracle."""
    script = wrapped_adapter(
        tmp_path / "hunter_first.py",
        "    if msg['op'] in ('deal', 'position'):\n"
        "        from oracle.games.mindbug.readings import with_readings\n"
        "        a.game.profile = with_readings(a.game.profile, {'effects.hunter-order': 'hunter-first'})\n"
        "        reply = ea.view(a.game)\n")
    out = tmp_path / "found"
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "16", "--seed", "2", "--format", "json",
                "--out", str(out))
    assert r.returncode == 1, r.stderr
    lines = reports(r)
    bad = [g for g in lines if g["t"] == "game" and g["verdict"] == "violates"]
    assert {g["findings"][0]["code"] for g in bad} >= {"STATE_MISMATCH", "MISSING_DECISION"}
    for g in bad:
        f = g["findings"][0]
        assert (f["basis"], f["reading"], f["alternatives"]) == (
            "reading", {"clause": "effects.hunter-order", "choice": "attack-effect-first"}, ["hunter-first"]), f
    assert lines[-1]["reading_only"] == len(bad)
    notes = [n for g in bad for n in g["notes"] if n.startswith("root cause ")]
    assert any("a matter of the reading effects.hunter-order: played in lockstep under hunter-first" in n
               for n in notes), notes
    drafts = sorted(out.glob("*.yaml"))
    assert len(drafts) == len(notes) >= 2
    for draft in drafts:
        done = subprocess.run([sys.executable, "-m", "oracle", "scenarios", str(draft)], capture_output=True,
                              text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
