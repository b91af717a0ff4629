"""conform's findings and artifacts for engines that part from the rules in
ways the example adapter does not: one that goes past a choice the rules
wait for (it never offers FRENZY's second attack) is cited under the
choice's clauses by conform and by verify on its log; one that offers a
choice to the wrong player, or after a forced step it took itself, is found
at that choice with a draft the rules pass; a card named by id is cited by
its own events; a draft of the later sets names them."""

from __future__ import annotations

import json

import msgspec

from oracle.games.mindbug.harness import engine_protocol as ep
from oracle.games.mindbug.harness.artifacts import failing_log
from oracle.games.mindbug.harness.lockstep import Divergence, compare
from oracle.games.mindbug.harness.views import full_claim

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


def test_a_draft_of_an_option_offered_to_the_wrong_player_passes_on_the_rules(tmp_path):
    """An engine that offers the HUNTER choice to the defender: the draft's
    refused step names its player (`by`), so the rules refuse it there and
    the draft passes on the oracle (written without the player, it was the
    attacker's legal HUNTER choice and the draft failed)."""
    import yaml

    from oracle.games.mindbug.harness.artifacts import draft_scenario
    from oracle.scenarios.loader import load_file
    from oracle.scenarios.runner import run as run_scenario

    setup, taken, g = find(lambda g: g.pending.stage == "hunt" and len(g.pending.options) > 1)
    wrong = [dict(d.to_json(), p=1 - d.player) for d in g.legal_decisions()]
    reply = ep.reply_decoder.decode(json.dumps({"options": wrong, "state": full_claim(g), "over": None}))
    finding, extra = compare(g, reply, len(taken), [])
    assert finding.code == "OPTIONS_DIFFER" and extra
    div = Divergence(list(taken), finding, reply, extra=extra, agreed=len(taken))
    doc = draft_scenario(div, "en-revised", setup, "wrong-chooser", "engine", extra[0])
    assert doc["steps"][-1]["by"] == 1 - g.pending.player
    path = tmp_path / "draft.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    sc = load_file(path).scenarios[0]
    assert run_scenario(sc, "en-revised").passed


def test_an_engine_that_takes_a_forced_step_and_then_parts_from_the_rules_is_compared_after_that_step():
    """The engine takes a forced decision on its own and then offers the next
    choice to the wrong player: the difference is found at that choice (the
    rules take the forced step too), not at the forced step, whose clause
    has nothing to do with it."""
    from oracle.games.mindbug.harness.lockstep import Run

    def forced_then_choice(g):
        p = g.pending
        if len(p.options) != 1 or p.stage == "action" or p.is_chance:
            return False
        after = g.copy()
        after.apply_unchecked(*p.options[0])
        q = after.pending
        return q is not None and not q.is_chance and len(q.options) > 1 and q.stage != p.stage

    setup, taken, g = find(forced_then_choice)
    after = g.copy()
    after.apply_unchecked(*g.pending.options[0])
    wrong = [dict(d.to_json(), p=1 - d.player) for d in after.legal_decisions()]
    reply = ep.reply_decoder.decode(json.dumps({"options": wrong, "over": None}))
    run = Run(None, g.copy(), reply)
    refusal = after.refusal(ep_decision(wrong[0]))
    assert len(run.decisions) == 1 and run.divergence is not None
    assert run.divergence.finding.clauses[0] == refusal.clause, (run.divergence.finding, refusal)


def ep_decision(o: dict):
    from oracle.games.mindbug.engine import Decision

    return Decision.make(o["t"], o.get("p"), o.get("cards", o.get("card")))


def test_a_card_named_by_id_is_attributed_to_its_own_events_not_to_a_same_named_cards():
    """The engine puts the card just played into play before the Mindbug
    decision, and writes its hands by name; its controller has just drawn
    the other copy of that card. The difference is the played card's (by
    id): it cites playing a card, not the draw of its namesake."""
    def twin_drawn(g):
        s = g.state
        if g.pending.stage != "mindbug" or s.played is None:
            return False
        name = g.table.names[s.played]
        return any(e.kind == "draw" and any(g.table.names[c] == name for c in e.cards or ()) for e in g.events)

    setup, taken, g = find(twin_drawn, edition="en-first", seeds=1500)
    claim = full_claim(g)
    played = claim["played"]
    claim["played"] = None
    claim["play"][g.state.active].append({"card": played})
    claim["hand"] = [[g.table.names[c] for c in hand] for hand in claim["hand"]]
    options = [msgspec.to_builtins(d.to_json()) for d in g.legal_decisions()]
    reply = ep.reply_decoder.decode(json.dumps({"options": options, "state": claim, "over": None}))
    finding, _ = compare(g, reply, len(taken), list(g.events))
    assert finding.code == "STATE_MISMATCH" and finding.clauses[0] == "play.from-hand", finding.clauses


def test_a_draft_of_a_game_of_the_later_sets_names_its_sets_and_passes(tmp_path):
    """A game dealt from the later sets: the draft scenario says which sets it
    plays with (without them it did not load: every card 'belongs to a set
    the scenario does not play with')."""
    import random

    import yaml

    from oracle.games.mindbug.harness.artifacts import draft_scenario
    from oracle.games.mindbug.harness.start import game_from_setup
    from oracle.games.mindbug.replay.selfplay import choose, random_deal
    from oracle.scenarios.loader import load_file
    from oracle.scenarios.runner import run as run_scenario

    sets = ("beyond-eternity", "beyond-evolution")
    rng = random.Random(3)
    setup = random_deal(rng, "en-revised", sets)
    setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
    g = game_from_setup("en-revised", setup, None, sets)
    taken = []
    for _ in range(6):
        d = choose(g, "random", rng)
        g.apply_unchecked(d.kind, d.arg)
        taken.append(d)
    claim = full_claim(g)
    claim["life"] = [x + 1 for x in claim["life"]]
    options = [msgspec.to_builtins(d.to_json()) for d in g.legal_decisions()]
    reply = ep.reply_decoder.decode(json.dumps({"options": options, "state": claim, "over": None}))
    finding, _ = compare(g, reply, len(taken), [])
    doc = draft_scenario(Divergence(taken, finding, reply, agreed=len(taken)), "en-revised", setup, "later", "engine")
    assert doc["sets"] == list(sets)
    path = tmp_path / "draft.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    loaded = load_file(path)
    assert not loaded.errors, loaded.errors[:2]
    assert run_scenario(loaded.scenarios[0], "en-revised").passed


def test_a_draft_that_names_a_creature_the_attack_effect_removed_before_hunter_passes_on_the_rules(tmp_path):
    """An engine that lists HUNTER's choice of the creature the attacker's
    Attack effect has just defeated: the rules refuse it by the hunt-order
    reading (effects.hunter-order), and the draft says so, as the scenario
    runner finds it (the draft named keywords.hunter, judged on a copy of
    the game that had forgotten the Attack effect's events, and failed on
    the oracle: "expected keywords.hunter, got effects.hunter-order")."""
    import yaml

    from oracle.games.mindbug.harness.artifacts import draft_scenario
    from oracle.scenarios.loader import load_file
    from oracle.scenarios.runner import run as run_scenario

    def hunt_after_a_defeat(g):
        return g.pending.stage == "hunt" and any(
            e.kind == "defeat" and e.card in g.table.defs and g.state.combat and e.source == g.state.combat[0]
            for e in g.events)

    setup, taken, g = find(hunt_after_a_defeat, seeds=2000)
    gone = next(e.card for e in g.events if e.kind == "defeat")
    options = [msgspec.to_builtins(d.to_json()) for d in g.legal_decisions()]
    listed = {"t": "hunt", "p": g.pending.player, "card": gone}
    reply = ep.reply_decoder.decode(json.dumps({"options": options + [listed], "state": full_claim(g), "over": None}))
    finding, extra = compare(g, reply, len(taken), list(g.events))
    assert finding.code == "OPTIONS_DIFFER" and finding.clauses[0] == "effects.hunter-order", finding.clauses
    doc = draft_scenario(Divergence(list(taken), finding, reply, extra=extra, agreed=len(taken)), "en-revised",
                         setup, "hunter-order", "engine", extra[0])
    assert doc["illegal"]["clause"] == "effects.hunter-order", doc["illegal"]
    path = tmp_path / "draft.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    sc = load_file(path).scenarios[0]
    result = run_scenario(sc, "en-revised")
    assert result.passed, result
