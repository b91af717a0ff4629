"""Running a Mindbug scenario in one edition: build the position, take the
steps, compare what follows with the expectation.

Forced decisions: before each step, while the game waits for a decision
with exactly one legal option and the step does not answer that kind of
decision, the runner takes the option. After the last step it keeps taking
forced decisions (unless `settle: false`) until a real choice is open, the
game is over, or a turn action is due: a scenario never starts a new turn
action on its own.
"""

from __future__ import annotations

import re
import traceback
from functools import cache

from msgspec import UNSET

from ....scenarios.result import Difference, Result
from ..cards import lookup, version
from ..editions import profile
from ..engine import Decision, EngineError, Game, Refused, SetupError, position
from ..engine.state import STAGE_KINDS
from .cards import all_ids, card_id, card_name, creature_id, face, scenario_sets
from .expectation import differences, stage_of
from .format import Expect, Illegal
from .loader import LoadedScenario, step_kind, step_text
# How the runner words cards, options and events (.wording); option_text,
# event_text and _decision are still found here, where other modules import them.
from .wording import _decision, _named, event_text, option_text, options_text  # noqa: F401

SETTLE_LIMIT = 500


# -- building the game ---------------------------------------------------------------


def _defs(sets) -> dict:
    return _defs_of(sets, version())


@cache
def _defs_of(sets, _version) -> dict:
    return {cid: lookup(card_name(cid).split("#")[0]) for cid in all_ids(sets)}


def build(sc: LoadedScenario, edition: str, extra_sets=()) -> Game:
    """The game the scenario starts from, under its readings, dealt from its
    sets and `extra_sets` (setup.sets); raises SetupError."""
    if sc.doc.readings is not UNSET:
        from ..readings import with_readings
        edition = with_readings(edition, sc.doc.readings)
    how, args = given_args(sc, edition, extra_sets)
    sets = args["sets"]
    if how == "deal":
        return Game.deal(edition, args["cards"], args["decks"], args["unused"], first=args["first"],
                         reveals=args["reveals"], sets=sets)
    zones = {(zone, p): args[zone][p] for zone in ("deck", "hand", "play", "discard") for p in (0, 1)}
    kwargs = {k: args[k] for k in ("unused", "out") if k in args}
    return position(edition, zones, _defs(sets), active=args["active"], life=tuple(args["life"]),
                    mindbugs=tuple(args["mindbugs"]), exhausted=args["exhausted"], turn=args["turn"],
                    octonite=args["octonite"], stages=args["stages"], boosts=args["boosts"], **kwargs)


def given_args(sc: LoadedScenario, edition, extra_sets=()) -> tuple[str, dict]:
    """The scenario's start as plain data, card ids as `card_name` numbers
    them, with the card sets it deals from (`sets`): ("deal", cards, decks,
    unused, first, reveals) or ("position", the zones deck, hand, play and
    discard per player, exhausted, octonite ((card, count) pairs of the
    creatures in play given counters), active, life, mindbugs, turn, and
    unused and out when the scenario gives the unused pile). Raises
    SetupError for life cards the unused pile cannot hold."""
    sets = scenario_sets(sc.doc, extra_sets)
    deck = all_ids(sets)
    g = sc.doc.given
    if g.deal is not UNSET:
        d = g.deal
        defs = _defs(sets)
        # setup.set-aside: a deal names its double-sided cards and deals them nowhere; a face of no line is no card
        # of the game
        cards = {cid: card_name(cid).split("#")[0] for cid in deck if defs[cid].stage < 2 or defs[cid].line}
        decks = [[card_id(r) for r in deck] for deck in d.decks]
        unused = [card_id(r) for r in d.unused]
        placed = set(decks[0]) | set(decks[1]) | set(unused)
        unused += [c for c in deck if c not in placed and defs[c].stage < 2]
        reveals = [[card_id(r) for r in pair] for pair in d.reveals]
        first = None if d.first is UNSET else d.first
        return "deal", {"cards": cards, "decks": decks, "unused": unused, "first": first, "reveals": reveals,
                        "sets": sets}
    zones: dict = {}
    exhausted = []
    octonite = []
    stages = []
    boosts = []
    players = g.players if g.players is not UNSET else None
    life, mindbugs = [3, 3], [2, 2]
    placed: set[int] = set()
    for p in (0, 1):
        side = players[p] if players else None
        if side is None:
            continue
        life[p], mindbugs[p] = side.life, side.mindbugs
        for zone in ("deck", "hand", "play", "discard"):
            ids = []
            for entry in getattr(side, zone):
                ref = entry if isinstance(entry, str) else entry.card
                cid = card_id(ref)
                ids.append(cid)
                if not isinstance(entry, str) and entry.exhausted:
                    exhausted.append(cid)
                if not isinstance(entry, str) and entry.octonite is not UNSET:
                    octonite.append((cid, entry.octonite))
                if not isinstance(entry, str) and entry.stage not in (UNSET, 1):
                    stages.append((cid, entry.stage))
                if not isinstance(entry, str) and entry.boosts:
                    under = tuple(card_id(r) for r in entry.boosts)
                    boosts.append((cid, under))
                    placed.update(under)
            zones[(zone, p)] = ids
            placed.update(ids)
    kwargs: dict = {}
    if g.unused is not UNSET:
        unused = [card_id(r) for r in g.unused]
        placed.update(unused)
        rest = [c for c in deck if c not in placed and _defs(sets)[c].stage < 2]   # faces: setup.set-aside
        if profile(edition).life_cards:
            # The life cards of the first English edition come from the top of the unused pile.
            need = life[0] + life[1]
            if len(rest) < need:
                raise SetupError("BAD_POSITION", "life.cards",
                                 f"{need} life cards are needed but only {len(rest)} cards are left")
            unused = rest[:need] + unused
            rest = rest[need:]
        kwargs = {"unused": unused, "out": rest}
    out = {zone: [zones.get((zone, p), []) for p in (0, 1)] for zone in ("deck", "hand", "play", "discard")}
    return "position", {**out, "exhausted": exhausted, "octonite": octonite, "stages": stages, "boosts": boosts,
                        "active": g.active, "life": life, "mindbugs": mindbugs, "turn": g.turn, "sets": sets,
                        **kwargs}


# -- running -------------------------------------------------------------------------


class _Fail(Exception):
    def __init__(self, step, text, message, clause=None, differences=(), events=()):
        super().__init__(message)
        self.step, self.text, self.message, self.clause = step, text, message, clause
        self.differences = list(differences)
        self.events = list(events)
        self.happened = [event_text(e) for e in events]


def run(sc: LoadedScenario, edition: str, sets=()) -> Result:
    """The scenario in one edition; `sets`: card sets added to its deck."""
    d = sc.doc
    res = Result(d.id, d.title, sc.file, sc.line, edition, clauses=list(d.clauses), draft=d.status == "draft")
    if d.exact_sets and set(scenario_sets(d, sets)) != set(scenario_sets(d)):
        res.status = "not-applicable"
        res.message = (f"holds with exactly its sets ({', '.join(scenario_sets(d))}; exact_sets), "
                       f"not with {', '.join(scenario_sets(d, sets))}")
        return res
    expect, illegal = sc.expectation(edition)
    try:
        _run(sc, edition, expect, illegal, sets)
    except _Fail as f:
        res.status = "fail"
        res.step, res.step_text, res.message, res.clause = f.step, f.text, f.message, f.clause
        res.differences, res.happened = f.differences, f.happened
        res.at_line = _failing_line(sc, edition, f)
        if res.clause is None:
            res.clause = _clause_at_stake(d.clauses, f.events, f.differences)
    return res


def _failing_line(sc: LoadedScenario, edition: str, f: "_Fail") -> int:
    """Where the failure is in the file: the expectation that does not hold
    (the edition's override when the fields that differ come from it), else
    the step, else `given` for the setup."""
    if f.differences:
        part = "illegal" if all(d.field.startswith("illegal.") for d in f.differences) else "expect"
        by = sc.doc.expect_by_edition if sc.doc.expect_by_edition is not UNSET else {}
        over = by.get(edition)
        mine = None if over is None else getattr(over, part)
        if mine is not UNSET and mine is not None:
            tops = {re.split(r"[.\[]", d.field)[0] for d in f.differences}
            if part == "illegal" or all(getattr(mine, t, UNSET) is not UNSET for t in tops):
                return sc.line_of(f"expect_by_edition.{edition}")
        return sc.line_of(part)
    if f.step:
        return sc.line_of("step", f.step)
    return sc.line_of("given")


def _clause_at_stake(cited, events, differences) -> str:
    """The rule a difference is about: among the clauses the scenario cites,
    the one the last event touching a differing card names first; else one
    that fired at the failing step; else the first cited."""
    cards = {c for d in differences for c in d.cards}
    for ev in reversed(events):
        if cards & ({ev.card} | set(ev.cards or ())):
            for c in ev.clauses:
                if c in cited:
                    return c
    fired = {c for ev in events for c in ev.clauses}
    return next((c for c in cited if c in fired), cited[0])


def _run(sc: LoadedScenario, edition: str, expect: Expect | None, illegal: Illegal | None, sets=()) -> None:
    d = sc.doc
    n = len(d.steps)
    refuse_at = None if illegal is None else (n if illegal.step is UNSET else illegal.step)
    try:
        g = build(sc, edition, sets)
    except SetupError as e:
        if refuse_at == 0:
            _check_refusal(0, "the setup", e.code, e.clause, None, illegal, _named(e.message))
            return
        raise _Fail(0, "the setup", f"the position cannot be set up: {e.code} [{e.clause}] {_named(e.message)}",
                    clause=e.clause) from None
    if refuse_at == 0:
        raise _Fail(0, "the setup", f"the setup was accepted, but {_illegal_text(illegal)} was expected",
                    clause=None if illegal.clause is UNSET else illegal.clause)
    events = list(g.events)
    last: list = events[:]
    last_i, last_text = 0, "the setup"
    at = (0, "the setup")  # the step being taken, for a crash report
    try:
        for i, step in enumerate(d.steps, 1):
            text = step_text(step)
            at = (i, text)
            kind, arg = _decision(step)
            _, _, by = step_kind(step)
            # Forced decisions the scenario leaves out.
            forced: list = []  # their events
            taken = 0
            while (g.pending is not None and len(g.pending.options) == 1
                   and kind not in STAGE_KINDS[g.pending.stage]):
                forced += g.apply_unchecked(*g.pending.options[0])
                taken += 1
                if taken > SETTLE_LIMIT:
                    raise _Fail(i, text, "forced decisions never stop before this step")
            if g.pending is None and refuse_at != i:
                raise _Fail(i, text, f"the game is already over (player {g.winner} won: {g.reason}) "
                                     f"before step {i}", clause="winning.life" if g.reason == "life" else None,
                            events=last + forced)
            wrong = _face_at_another_stage(g, step)
            if wrong:
                raise _Fail(i, text, f"step {i} ({text}) {wrong}", clause="later.evolve", events=last + forced)
            player = (g.pending.player if g.pending else None) if by is None else by
            decision = Decision.make(kind, player, arg)
            refusal = g.refusal(decision)
            if refusal is not None:
                events += forced
                if refuse_at == i:
                    before = g.state.to_builtins()
                    try:
                        g.apply(decision)
                    except Refused:
                        pass
                    if g.state.to_builtins() != before:
                        raise _Fail(i, text, "the refused decision changed the game", clause=refusal.clause)
                    _check_refusal(i, text, refusal.code, refusal.clause, refusal.card, illegal,
                                   _named(refusal.message))
                    if expect is not None:
                        _check_expect(g, expect, events, i, text, last)
                    return
                raise _Fail(i, text, f"step {i} ({text}) was refused: {refusal.code} [{refusal.clause}] "
                                     f"{_named(refusal.message)}; legal here: "
                                     + options_text(g), clause=refusal.clause)
            if refuse_at == i:
                raise _Fail(i, text, f"step {i} ({text}) was accepted, but {_illegal_text(illegal)} was expected",
                            clause=None if illegal.clause is UNSET else illegal.clause)
            events += forced
            last = forced + g.apply(decision)
            events += last[len(forced):]
            last_i, last_text = i, text
        if d.settle:
            forced = 0
            while (g.pending is not None and len(g.pending.options) == 1
                   and g.pending.stage != "action"):
                more = g.apply_unchecked(*g.pending.options[0])
                events += more
                last += more
                forced += 1
                if forced > SETTLE_LIMIT:
                    raise _Fail(last_i, last_text, "forced decisions never stop after the last step")
    except EngineError as e:
        raise _Fail(*at, f"engine error: {_named(str(e))}") from None
    except (_Fail, Refused):
        raise
    except Exception as e:  # an engine crash fails this run, not the whole library
        where = traceback.extract_tb(e.__traceback__)[-1]
        raise _Fail(*at, f"engine crash: {type(e).__name__}: {_named(str(e))} "
                                       f"({where.filename}:{where.lineno})") from None
    if expect is not None:
        _check_expect(g, expect, events, last_i, last_text, last)


def _face_at_another_stage(g: Game, step) -> str | None:
    """A step naming a stage face (Frog Prophet) names its line's stage I
    card at that stage: the words for a creature in play at another stage."""
    kind, value, _by = step_kind(step)
    if kind in ("play", "random", "mindbug", "pass") or value is None:
        return None
    for ref in value if isinstance(value, list) else [value]:
        f = face(ref) if isinstance(ref, str) else None
        if f is None:
            continue
        cid = creature_id(ref)
        have = stage_of(g.state, cid)
        if g.controller(cid) is not None and have != f[1]:
            return (f"names {ref}, the stage {'I' * f[1]} face of {card_name(cid)}, and {card_name(cid)} is at stage "
                    f"{'I' * have} (later.evolve)")
    return None


def _illegal_text(il: Illegal) -> str:
    s = il.code
    if il.clause is not UNSET:
        s += f" [{il.clause}]"
    return "a refusal " + s


def _check_refusal(i, text, code, clause, card, il: Illegal, message) -> None:
    diffs = []
    if code != il.code:
        diffs.append(Difference("illegal.code", il.code, code))
    if il.clause is not UNSET and clause != il.clause:
        diffs.append(Difference("illegal.clause", il.clause, clause))
    if il.card is not UNSET and card != lookup(il.card).name:
        diffs.append(Difference("illegal.card", lookup(il.card).name, str(card)))
    if diffs:
        raise _Fail(i, text, f"step {i} ({text}) was refused, but not as expected: {message}",
                    clause=clause, differences=diffs)


def _check_expect(g: Game, e: Expect, events, i, text, last) -> None:
    diffs = differences(g, e, events)
    if diffs:
        where = f"after step {i} ({text})" if i else "at the start"
        raise _Fail(i, text, f"{where}: {len(diffs)} difference{'s' * (len(diffs) != 1)}",
                    differences=diffs, events=last)
