"""The scenario library against an engine adapter: each scenario's start
(a position, or a deal) is set up on both sides, its steps are taken in
lockstep (forced decisions it leaves out included, as the scenario runner
takes them), and the sides are compared after each."""

from __future__ import annotations

from typing import Iterator

import msgspec

from ....replay.findings import Finding, GameReport
from ....scenarios.loader import load_paths
from ..scenarios.cards import all_ids, card_name, step_card
from ..scenarios.loader import step_kind, step_text
from ..scenarios.runner import build, given_args
from . import engine_protocol as ep
from . import protocol as pr
from ....harness.engine_client import EngineFault
from ..cards import DEFAULT_SETS
from ..engine import Decision, SetupError
from ..engine.state import STAGE_KINDS
from ..readings import differing
from .start import setup_line
from .lockstep import Run

SETTLE_LIMIT = 50


def _decision(step) -> tuple[str, object, int | None]:
    kind, value, by = step_kind(step)
    if kind in ("mindbug", "pass"):
        return kind, None, by
    if kind in ("choose", "random"):
        # A number (a die face, a named power) is itself; a name is a card.
        return kind, tuple(sorted(step_card(kind)(r) if isinstance(r, str) else r for r in value)), by
    return kind, (None if value is None else step_card(kind)(value)), by


def _start_message(sc, edition: str):
    how, args = given_args(sc, edition)
    sets = {} if tuple(args["sets"]) == DEFAULT_SETS else {"sets": list(args["sets"])}
    if how == "deal":
        setup = {"cards": args["cards"], "decks": args["decks"], "unused": args["unused"],
                 "reveals": args["reveals"]}
        if args["first"] is not None:
            setup["first"] = args["first"]
        return ep.Deal(edition=edition, setup=setup_line(setup), **sets)
    cards = {cid: card_name(cid).split("#")[0] for cid in all_ids(args["sets"])}
    extra = {k: args[k] for k in ("unused", "out") if k in args}
    counters = {cid: n for cid, n in args.get("octonite", ()) if n}    # later.octonite: 0 places nothing
    if counters:
        extra["octonite"] = counters
    pos = pr.Position(cards=cards, hand=args["hand"], play=args["play"], discard=args["discard"], deck=args["deck"],
                      exhausted=list(args["exhausted"]), active=args["active"], life=list(args["life"]),
                      mindbugs=list(args["mindbugs"]), turn=args["turn"], **extra)
    return ep.SetPosition(edition=edition, position=pos, **sets)


def play_one(campaign, sc, edition: str) -> GameReport | str:
    """The scenario's report against the engine, or why it cannot be played there."""
    engine = campaign.engine
    rep = GameReport(file=sc.file, line=sc.line, id=f"scenario {sc.id} [{edition}]", edition=edition,
                     impl=f"{engine.name} {getattr(engine, 'version', '')}".strip())
    try:
        g = build(sc, edition)
        msg = _start_message(sc, edition)
    except SetupError:
        return "its setup is one the rules refuse: nothing to play"
    if isinstance(msg, ep.SetPosition) and not engine.positions:
        return "it starts from a position, and the engine cannot set up positions (hello: positions false)"
    if g.state.stages:
        # later.evolve: a protocol position has no stages; sent as stage I creatures it would be another position
        return "it places evolved creatures, which a position of the engine protocol cannot say"
    if g.state.boosts:
        # later.boost: nor boost cards under a creature
        return "it places boost cards under creatures, which a position of the engine protocol cannot say"
    sets = msg.sets if msg.sets is not msgspec.UNSET else DEFAULT_SETS
    engine_sets = ep.dealt_sets(engine)
    if not set(sets) <= set(engine_sets):
        return f"it deals {', '.join(x for x in sets if x not in engine_sets)}, a set the engine does not deal"
    at = 0                              # the step under way, for the finding's line
    refuse_at = _refused_step(sc, edition)
    stopped = None                      # why the steps stop short of the end, with no divergence
    try:
        run = Run(engine, g, engine.send(msg))
        ahead: list[Decision] = []      # forced decisions the engine took on its own, the rules with it
        for at, step in enumerate(sc.doc.steps, 1):
            if not run.going:
                if run.divergence is None and at != refuse_at:
                    stopped = f"the game is over (player {run.g.winner} won: {run.g.reason}) before step {at}"
                at -= 1
                break
            kind, arg, by = _decision(step)
            took = _taken(ahead, kind, arg, by)
            if took is not None:
                del ahead[:took + 1]    # the step is one of them: already taken on both sides
                continue
            ahead.clear()
            taken = 0
            while run.going and len(run.g.pending.options) == 1 and kind not in STAGE_KINDS[run.g.pending.stage]:
                k, a = run.g.pending.options[0]
                run.step(Decision(k, None if run.g.pending.is_chance else run.g.pending.player, a))
                taken += 1
                if taken > SETTLE_LIMIT:
                    break
            if not run.going:
                if run.divergence is None and at != refuse_at:
                    stopped = f"the game is over (player {run.g.winner} won: {run.g.reason}) before step {at}"
                break
            p = run.g.pending
            player = None if p.is_chance else (p.player if by is None else by)
            if (kind, arg) not in p.options or (not p.is_chance and player != p.player):
                # A step the rules refuse: the options were compared before it. Unless it is not the
                # refusal the scenario expects: then the run stops short of the scenario's end.
                if at != refuse_at:
                    r = run.g.refusal(Decision(kind, player, arg))
                    stopped = f"the rules refuse its step {at} ({step_text(step)}) where the run reaches it" + (
                        f": {r.code} [{r.clause}] {r.message}" if r is not None else "")
                break
            n = len(run.decisions)
            run.step(Decision(kind, player, arg))
            ahead = run.decisions[n + 1:]
    except EngineFault as e:
        rep.verdict = "malformed"
        rep.findings.append(Finding("ENGINE_FAULT", [], sc.line, str(e)))
        try:
            engine.restart()
        except EngineFault:
            pass
        return rep
    rep.decisions = len(run.decisions)
    if run.divergence is None and stopped is not None:
        return (f"it stops short of its end against the engine, with no difference found: {stopped} (the "
                "scenario fails on the rules, or the sides took forced steps it does not write)")
    if run.divergence is not None:
        f = run.divergence.finding
        f.line = sc.line_of("step", at) if at and run.divergence.decisions else sc.line_of("given")
        rep.verdict = "violates"
        rep.findings.append(f)
        rep.notes.append(f"after {len(run.divergence.decisions)} decisions of the scenario "
                         f"(forced ones included); the finding's line is the scenario file's")
    return rep


def _refused_step(sc, edition: str) -> int | None:
    """The step the scenario expects the rules to refuse (its last when it names none), or None."""
    illegal = sc.expectation(edition)[1]
    if illegal is None:
        return None
    return len(sc.doc.steps) if illegal.step is msgspec.UNSET else illegal.step


def _taken(ahead: list[Decision], kind: str, arg, by: int | None) -> int | None:
    """Where among the forced decisions the engine took on its own (and the
    rules with it) a step is: those before it are forced ones the scenario
    leaves out, as the scenario runner takes them. None if it is not there."""
    for i, d in enumerate(ahead):
        if (d.kind, d.arg) == (kind, arg) and by in (None, d.player):
            return i
    return None


def run_scenarios(campaign, paths) -> Iterator[GameReport]:
    files, errors = load_paths(paths)
    for e in errors + [e for f in files for e in f.errors]:
        yield GameReport(file=e.file, line=e.line or 0, id="scenario file", verdict="malformed",
                         findings=[Finding("BAD_SCENARIO", [], e.line or 0, str(e))])
    for f in files:
        for sc in f.scenarios:
            if sc.game != "mindbug":    # an engine under `conform --scenarios` plays Mindbug
                campaign.skipped.append((f"scenario {sc.id}", f"{sc.file}:{sc.line}",
                                         f"it is a ruling of {sc.game}, and --scenarios plays Mindbug's", True))
                continue
            for edition in sc.editions():
                if edition not in campaign.editions:
                    why = f"the engine does not play {edition}" if edition not in campaign.engine.editions else \
                        "its edition is not among those of the run (--edition)"
                elif sc.doc.readings is not msgspec.UNSET and differing(sc.doc.readings):
                    why = ("it is under the reading " + ", ".join(f"{c}={v}" for c, v in
                                                                   differing(sc.doc.readings).items())
                           + ", and the engine plays the team's readings")
                else:
                    why = play_one(campaign, sc, edition)
                if isinstance(why, str):
                    campaign.skipped.append((f"scenario {sc.id} [{edition}]", f"{sc.file}:{sc.line}", why,
                                             edition in campaign.editions))
                else:
                    yield why
