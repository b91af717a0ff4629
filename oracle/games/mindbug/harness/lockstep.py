"""Playing one game of Mindbug on the reference engine and on an engine
adapter at once, comparing after every decision: the result, the state,
the legal options. The first difference is a `Finding`, worded as verify
words its findings: a code, the clauses, both sides, a diff, what the rules
did. The codes are both games' (oracle.harness.lockstep)."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from . import engine_protocol as ep
from ....harness.engine_client import Engine, EngineFault
from ....harness.lockstep import ENGINE_REFUSED, OPTIONS_DIFFER, STATE_MISMATCH, WRONG_RESULT, engine_words
from ....replay.findings import DiffEntry, Finding, name_cards
from ..engine import Decision, Game
from ..engine.outcome import end_clause
from ..engine.state import STAGE_KINDS, decision_words
from ..replay.attribution import attribute, choice_clauses
from ..replay.claims import claim_matches, claim_views
from ..replay.diff import card_diff, listed, readable
from ..replay.narrate import card_label, faces, names_by_event, rules_events, shown_names, waiting_text
from .views import line_of, option_key

U = msgspec.UNSET
MAX_FORCED = 8      # forced steps an engine may take on its own at once


@dataclass
class Divergence:
    """Where the engine and the rules first differ: after `decisions` (the
    decisions both applied), the finding, and the engine's reply there."""

    decisions: list[Decision]
    finding: Finding
    reply: ep.Reply
    extra: list[dict] = field(default_factory=list)   # options the engine lists and the rules refuse
    agreed: int = 0     # the decisions after which the sides last agreed

    @property
    def signature(self) -> tuple:
        f = self.finding
        return (f.code, f.clauses[0] if f.clauses else None)


def _option_text(g: Game, o: dict) -> str:
    names = shown_names(g)
    who = f"player {o['p']}: " if o.get("p") is not None else ""
    if "cards" in o:
        return f"{who}{o['t']} [{', '.join(card_label(names, c) for c in o['cards'])}]"
    if "card" in o:
        return f"{who}{o['t']} {'none' if o['card'] is None else card_label(names, o['card'])}"
    return f"{who}{o['t']}"


def compare(g: Game, reply: ep.Reply, step: int, events: list, before: dict | None = None
            ) -> tuple[Finding | None, list[dict]]:
    """The first difference between the rules' game `g` and the engine's
    reply after `step` decisions (`events`: what the rules did since the
    sides last agreed; `before`: the evolved creatures' faces then, as
    narrate.faces gives them), and the options the engine lists that the
    rules refuse."""
    if reply.error is not U:
        if step == 0:
            return _named(g, Finding(ENGINE_REFUSED, ["setup.deal"], 0, f"the engine refused to set up the game, "
                                     f"which the rules accept: {reply.error}", events=_said(g, events, before))), []
        return _named(g, Finding(ENGINE_REFUSED, ["turns.action"] if g.pending is None else list(g.pending.clauses),
                                 step, f"the engine refused a decision the rules and the engine both listed as "
                                       f"legal: {reply.error}", events=_said(g, events, before))), []
    state = reply.state
    if state is not U and not claim_matches(g, state):
        rules, log = claim_views(g, state)
        if rules != log:
            diff = card_diff(g, state)
            if diff:
                fields = [k for k in rules if rules[k] != log.get(k)] or list(rules)
                clauses = attribute(g, events, diff)
                diff = engine_words(diff)
                text = f"the engine's state differs from the rules ({', '.join(fields)}): {diff[0].text}" + \
                    (f" (and {len(diff) - 1} more)" if len(diff) > 1 else "")
                if skipped(g, reply):
                    text = f"the rules are waiting for {waiting_text(g)}, which the engine skips; {text}"
                    clauses = list(dict.fromkeys(choice_clauses(g) + clauses))
                return _named(g, Finding(STATE_MISMATCH, clauses, step, text,
                                         log=readable(log), rules=readable(rules), diff=listed(diff),
                                         events=_said(g, events, before),
                                         options=[d.to_json() for d in g.legal_decisions()])), []
    over = None if reply.over is U or reply.over is None else (reply.over.winner, reply.over.reason)
    mine = (g.winner, g.reason) if g.is_over else None
    if over != mine:
        clauses = [end_clause((mine or over or (None, "life"))[1])]
        text = (f"the engine says the game is over ({_result(over)}); the rules say {_result(mine)}")
        return _named(g, Finding(WRONG_RESULT, clauses, step, text, log={"over": _over_json(over)},
                                 rules={"over": _over_json(mine)}, events=_said(g, events, before),
                                 options=[d.to_json() for d in g.legal_decisions()])), []
    if reply.options is U:
        return None, []         # (Run refuses such a reply as a fault)
    theirs = {option_key(o): o for o in (msgspec.to_builtins(x) for x in reply.options)}
    ours = {option_key(d.to_json()): d for d in g.legal_decisions()}
    extra = [theirs[k] for k in theirs if k not in ours]
    missing = [ours[k] for k in ours if k not in theirs]
    if not extra and not missing:
        return None, []
    clauses: list[str] = []
    diff: list[DiffEntry] = []
    for o in sorted(extra, key=lambda o: str(option_key(o))):
        r = g.refusal(Decision.make(o["t"], o.get("p"), o.get("cards", o.get("card"))))
        why = f" [{r.clause}]: {r.message}" if r is not None else ""
        if r is not None:
            clauses.append(r.clause)
        diff.append(DiffEntry(f"the engine lists {_option_text(g, o)}; the rules refuse it{why}", field="options",
                              log=o))
    if missing:
        clauses.extend(g.pending.clauses)
        for d in missing:
            o = d.to_json()
            diff.append(DiffEntry(f"the rules allow {_option_text(g, o)}; the engine does not list it",
                                  field="options", rules=o))
    pend = g.pending
    who = "a random outcome" if pend.is_chance else decision_words(pend.stage, pend.player)
    text = (f"the legal options differ at {who}: " + diff[0].text +
            (f" (and {len(diff) - 1} more)" if len(diff) > 1 else ""))
    f = Finding(OPTIONS_DIFFER, list(dict.fromkeys(clauses)) or list(pend.clauses), step, text,
                log={"options": sorted(theirs.values(), key=lambda o: str(option_key(o)))},
                rules={"stage": pend.stage, "player": pend.player, "options": [d.to_json() for d in ours.values()]},
                diff=diff, events=_said(g, events, before), options=[d.to_json() for d in ours.values()])
    return _named(g, f), extra


def skipped(g: Game, reply: ep.Reply) -> bool:
    """The rules wait for a choice inside a turn (more than one option) that
    none of the engine's options answers: the engine went past it."""
    p = g.pending
    if p is None or p.stage == "action" or len(p.options) < 2 or reply.options is U:
        return False
    kinds = STAGE_KINDS[p.stage]
    return not any(o.__struct_config__.tag in kinds and (p.is_chance or getattr(o, "p", None) == p.player)
                   for o in reply.options)


def _answers(reply: ep.Reply, g: Game) -> bool:
    """Whether an option of the engine is of a kind that answers the
    decision pending in `g`."""
    p = g.pending
    if p is None or reply.options is U or not reply.options:
        return False
    return any(o.__struct_config__.tag in STAGE_KINDS[p.stage] for o in reply.options)


def _result(r) -> str:
    return "it goes on" if r is None else f"player {r[0]} won ({r[1]})"


def _over_json(r):
    return None if r is None else {"winner": r[0], "reason": r[1]}


def _named(g: Game, f: Finding) -> Finding:
    name_cards(f, shown_names(g))
    return f


def _said(g: Game, events: list, before: dict | None) -> list:
    """What the rules did (`events`, from the faces `before`), for a finding."""
    each = names_by_event(g, events, faces(g) if before is None else before)[0]
    return rules_events(events, g.table.names, each)


class Run:
    """One game in lockstep: the rules' game and the engine's, the decisions
    so far, and the first divergence."""

    def __init__(self, engine: Engine, g: Game, reply: ep.Reply):
        self.engine = engine
        self.g = g
        self.decisions: list[Decision] = []
        self.divergence: Divergence | None = None
        self.agreed = 0
        self.before = faces(g)      # the evolved creatures' faces before the events being compared
        self._check(reply, list(g.events))

    def _check(self, reply: ep.Reply, events: list) -> None:
        if reply.error is U and reply.options is U:
            raise EngineFault("the reply gives no `options` (every legal decision, [] once the game is over)")
        if reply.drawn is not U and reply.error is U:
            f = self._drawn(reply, events)
            if f is not None:
                self.divergence = Divergence(list(self.decisions), f, reply, [], self.agreed)
                return
        f, extra = compare(self.g, reply, len(self.decisions), events, self.before)
        if f is None:
            self.agreed = len(self.decisions)
            return
        ahead = self._forced_ahead(reply, events)
        if ahead is True:
            self.agreed = len(self.decisions)
            return
        if ahead is not None:
            # The engine answers a decision the rules reach only after forced
            # steps, but not as the rules do: the difference is there.
            f, extra = compare(self.g, reply, len(self.decisions), ahead, self.before)
        self.divergence = Divergence(list(self.decisions), f, reply, extra, self.agreed)

    def _drawn(self, reply: ep.Reply, events: list) -> Finding | None:
        """Chance outcomes the engine drew itself (`chance: reports`): each
        one the rules allow at their chance event is taken on the rules' side
        too (and kept among the decisions); one they do not allow is a finding."""
        for line in reply.drawn:
            d = Decision("random", None, tuple(sorted(line.cards)))
            g = self.g
            while g.pending is not None and not g.pending.is_chance and len(g.pending.options) == 1:
                kind, arg = g.pending.options[0]                # forced steps before the chance event
                self.decisions.append(Decision(kind, g.pending.player, arg))
                events += g.apply_unchecked(kind, arg)
            p = g.pending
            if p is None or not p.is_chance or ("random", d.arg) not in p.options:
                r = g.refusal(d)
                why = f" [{r.clause}]: {r.message}" if r is not None else ""
                clauses = [r.clause] if r is not None else (list(p.clauses) if p is not None else ["turns.action"])
                text = f"the engine drew {_option_text(g, d.to_json())}; the rules refuse it{why}"
                return _named(g, Finding(OPTIONS_DIFFER, clauses, len(self.decisions), text,
                                         log={"drawn": d.to_json()},
                                         rules={"options": [x.to_json() for x in g.legal_decisions()]},
                                         diff=[DiffEntry(text, field="options", log=d.to_json())],
                                         events=_said(g, events, self.before),
                                         options=[x.to_json() for x in g.legal_decisions()]))
            events += g.apply_unchecked("random", d.arg)
            self.decisions.append(d)
        return None

    def _forced_ahead(self, reply: ep.Reply, events: list) -> bool | list | None:
        """An engine may take forced decisions (one legal option) on its own:
        when its view matches the rules' a few forced steps further on, the
        rules take those steps too (they are kept among the decisions): True.
        When it does not match anywhere, but the engine's options answer none
        of the rules' pending decision and do answer the decision the rules
        reach after some forced steps (the engine took them and then parts
        from the rules), the rules take the steps up to that decision: the
        events since the sides agreed. Else None."""
        probe = self.g.copy()
        taken: list[Decision] = []
        seen = list(events)
        later = None
        for _ in range(MAX_FORCED):
            p = probe.pending
            if p is None or len(p.options) != 1:
                break
            kind, arg = p.options[0]
            taken.append(Decision(kind, None if p.is_chance else p.player, arg))
            seen += probe.apply_unchecked(kind, arg)
            if compare(probe, reply, len(self.decisions) + len(taken), seen, self.before)[0] is None:
                self.g = probe
                self.decisions += taken
                return True
            if later is None and _answers(reply, probe) and not _answers(reply, self.g):
                later = (probe.copy(), list(taken), list(seen))
        if later is None:
            return None
        self.g, steps, seen = later
        self.decisions += steps
        return seen

    def step(self, d: Decision) -> None:
        """Apply a decision the rules allow on both sides, then compare."""
        self.before = faces(self.g)
        events = self.g.apply_unchecked(d.kind, d.arg)
        self.decisions.append(d)
        self._check(self.engine.send(ep.Apply(decision=line_of(d))), events)

    @property
    def going(self) -> bool:
        return self.divergence is None and not self.g.is_over


def start_game(edition: str, start, readings: dict | None = None) -> tuple[Game, object]:
    """The rules' game and the message that starts the engine's, from a deal
    (a setup dict) or a protocol position (a game followed past an expected
    divergence starts again from one)."""
    from ..cards import DEFAULT_SETS
    from .start import deal_sets, game_from_position, game_from_setup, setup_line

    if isinstance(start, dict):
        sets = deal_sets(start)   # setup.sets: a deal of other sets names them to the engine
        named = {} if sets == DEFAULT_SETS else {"sets": list(sets)}
        return game_from_setup(edition, start, readings, sets), ep.Deal(edition=edition, setup=setup_line(start),
                                                                         **named)
    from ..readings import with_readings

    return game_from_position(with_readings(edition, readings), start), ep.SetPosition(edition=edition,
                                                                                       position=start)


def replay(engine: Engine, edition: str, setup, decisions: list[Decision], readings: dict | None = None) -> Run:
    """Start from `setup` (a deal, or a position) on both sides and apply
    `decisions` in lockstep, skipping any the rules do not allow at that
    point (so that a shortened game still plays), until the list ends or
    the sides differ."""
    g, msg = start_game(edition, setup, readings)
    run = Run(engine, g, engine.send(msg))
    for d in decisions:
        if not run.going:
            break
        p = run.g.pending
        if (d.kind, d.arg) not in p.options or (not p.is_chance and p.player != d.player):
            continue
        run.step(d)
    return run
