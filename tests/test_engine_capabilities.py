"""mb-engine/1 capabilities: an engine that draws chance outcomes itself
and reports them (`chance: reports`), and what the example adapter says in
its hello."""

from __future__ import annotations

import json
import random
import sys

from conftest import ROOT

from oracle.games.mindbug.harness import engine_protocol as ep
from oracle.games.mindbug.harness.lockstep import OPTIONS_DIFFER, Run
from oracle.games.mindbug.harness.start import game_from_setup, setup_line
from oracle.games.mindbug.replay.selfplay import choose, random_deal
from oracle.harness.engine_protocol import message_encoder

sys.path.insert(0, str(ROOT / "examples"))
import engine_adapter as ea  # noqa: E402


class InProcess:
    """The example adapter, spoken to through the protocol's own encoding."""

    def __init__(self, adapter, tamper=None):
        self.adapter, self.tamper = adapter, tamper
        self.sent: list[dict] = []

    def send(self, msg) -> ep.Reply:
        data = json.loads(message_encoder.encode(msg))
        self.sent.append(data)
        reply = self.adapter.handle(data)
        if self.tamper is not None:
            reply = self.tamper(reply)
        return ep.reply_decoder.decode(json.dumps(reply).encode())


def game_with_chance(edition="en-revised"):
    """A seeded deal and bot whose game meets a chance event."""
    for seed in range(200):
        rng = random.Random(seed)
        setup = random_deal(rng, edition)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        g = game_from_setup(edition, setup)
        while g.pending is not None:
            if g.pending.is_chance:
                return setup, seed
            d = choose(g, "random", rng)
            g.apply_unchecked(d.kind, d.arg)
    raise AssertionError("no game meets a chance event")


def play(engine, setup, seed, edition="en-revised") -> Run:
    rng = random.Random(seed)
    g = game_from_setup(edition, setup)
    run = Run(engine, g, engine.send(ep.Deal(edition=edition, setup=setup_line(setup))))
    while run.going:
        run.step(choose(run.g, "random", rng))
    return run


def test_an_engine_that_reports_the_outcomes_it_drew_is_followed_and_conforms():
    setup, seed = game_with_chance()
    run = play(InProcess(ea.Adapter(None, draw=True)), setup, seed)
    assert run.divergence is None and run.g.is_over
    assert any(d.kind == "random" for d in run.decisions)


def test_an_outcome_the_rules_do_not_allow_is_an_options_difference():
    setup, seed = game_with_chance()

    def tamper(reply):
        for d in reply.get("drawn", ()):
            d["cards"] = [47, 48][:len(d["cards"]) or 1]
        return reply

    run = play(InProcess(ea.Adapter(None, draw=True), tamper), setup, seed)
    f = run.divergence.finding
    assert f.code == OPTIONS_DIFFER and f.message.startswith("the engine drew") and f.options


def test_the_example_adapter_says_its_capabilities_in_hello():
    plain = ea.Adapter(None).handle({"op": "hello"})
    assert plain["chance"] == "lists" and "deviations" not in plain
    assert set(plain["claims"]) >= {"life", "hand", "play", "played", "active"}
    drawn = ea.Adapter("sneaky", declare=True, draw=True).handle({"op": "hello"})
    assert drawn["chance"] == "reports" and drawn["deviations"] == ["keywords.sneaky"]
    ep.reply_decoder.decode(json.dumps(drawn).encode())
