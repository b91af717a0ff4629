"""An engine that goes past a choice the rules wait for (it never offers
FRENZY's second attack and ends the turn): conform names the choice's
clauses first, and the replay log it writes shows the skip to verify with
the same clauses, so the root cause and its artifact agree."""

from __future__ import annotations

import json

import msgspec

from oracle.harness import engine_protocol as ep
from oracle.harness.artifacts import failing_log
from oracle.harness.lockstep import Divergence, compare
from oracle.harness.views import full_claim

from test_skipped_choice_clauses import find


def test_an_engine_that_skips_the_frenzy_choice_is_cited_under_frenzy_by_conform_and_its_log():
    setup, taken, g = find(lambda g: g.pending.stage == "frenzy")
    engine = g.copy()
    engine.apply_unchecked("pass", None)            # the engine's turn ends after the first attack
    options = [msgspec.to_builtins(d.to_json()) for d in engine.legal_decisions()]
    reply = ep.reply_decoder.decode(json.dumps({"options": options, "state": full_claim(engine), "over": None}))
    finding, _ = compare(g, reply, len(taken), [])
    assert finding.code == "STATE_MISMATCH" and finding.clauses[0] == "keywords.frenzy"
    div = Divergence(list(taken), finding, reply, agreed=len(taken))
    lines, _, checked = failing_log(div, "en-revised", setup, "cut", {"name": "engine"})
    assert lines[-2] in options                     # the engine's next decision, past the choice
    assert checked.verdict == "violates"
    assert (checked.findings[0].code, checked.findings[0].clauses[0]) == ("STATE_MISMATCH", "keywords.frenzy")
