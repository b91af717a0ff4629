"""Run the engine through a situation in every edition at once, and ask the
constraints at every decision and every fight.

From the situation's turn action (or from every turn action the position
allows), the probe walks the tree of decisions (every option, depth first,
up to a node budget shared between the turn actions) until the turn action
is over, with one game per edition moved in lockstep by the same decisions.
At each node it turns what is happening into questions (`constraints`),
records each edition's verdict and what the engine did, and compares the
editions' games with each other: where they part, it records which
clauses the events of that step cite differently.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from ..cards import FRENZY, HUNTER, POISONOUS
from ..editions import EDITIONS
from ..engine import Decision
from .constraints import Verdict, status, verdicts
from .questions import FATES, NO, YES, Question
from .facts import Board, effect, ref

BOOKKEEPING = frozenset({"turn"})


@cache
def floor_of(edition: str) -> int:
    """The lowest power where the edition states one (cards.power-minimum)."""
    return 1 if status("cards.power-minimum", edition) == "states" else 0


@dataclass
class Observation:
    """One question at one point of the walk: every edition's verdict and,
    for each edition walked, what the engine did."""

    question: Question
    path: tuple[Decision, ...]
    verdicts: dict[str, Verdict]
    engine: dict[str, object] = field(default_factory=dict)

    def admitted(self, edition):
        return self.verdicts[edition].admitted


@dataclass
class Difference:
    """The editions' games part at the end of `path`."""

    path: tuple[Decision, ...]
    groups: tuple[tuple[str, ...], ...]
    fields: frozenset
    clauses: frozenset
    views: dict[str, dict]
    events: dict[str, list]
    split: tuple[tuple[str, ...], ...] = ()    # every group the editions fall into at this point

    @property
    def bookkeeping(self) -> bool:
        return self.fields <= BOOKKEEPING


@dataclass
class Probe:
    observations: list[Observation] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    nodes: int = 0


def view(g) -> dict:
    """What a player could see and rely on, for comparing editions. Life
    cards (English first edition) and the unused pile are how life is kept,
    not what it is, so they are left out."""
    s = g.state
    p = s.pending
    return {
        "life": tuple(s.life), "mindbugs": tuple(s.mindbugs),
        "hand": tuple(tuple(sorted(h)) for h in s.hand), "deck": tuple(tuple(d) for d in s.deck),
        "play": tuple(tuple(sorted(x)) for x in s.play), "discard": tuple(tuple(sorted(x)) for x in s.discard),
        "exhausted": tuple(sorted(s.exhausted)), "played": s.played, "active": s.active,
        "winner": s.winner, "reason": s.reason,
        "pending": None if p is None else (p.stage, p.player, tuple(sorted(map(repr, p.options)))),
        "turn": s.turn,
    }


@dataclass
class _Attack:
    card: int
    side: int
    attacks: int
    survived: bool = True
    hunted: bool = False
    asked_hunt: bool = False
    done: bool = False


class _Walk:
    def __init__(self, situation, editions, node_limit, child_limit):
        self.sit = situation
        self.editions = tuple(editions)
        self.node_limit = node_limit
        self.child_limit = child_limit
        self.out = Probe()
        self._seen: dict[tuple, Observation] = {}
        self.budget_left = node_limit
        self.min_per_action = 24

    # -- questions --------------------------------------------------------------
    def ask(self, edition, q: Question, path, answer) -> None:
        sig = (path, q.kind, q.subject, _board_sig(q.board), _facts_sig(q.facts))
        ob = self._seen.get(sig)
        if ob is None:
            ob = Observation(q, path, verdicts(q))
            self._seen[sig] = ob
            self.out.observations.append(ob)
        ob.engine[edition] = answer

    # -- the walk -----------------------------------------------------------------
    def run(self) -> Probe:
        games = {e: self.sit.game(e) for e in self.editions}
        games = {e: g for e, g in games.items() if not g.is_over}
        if not games:
            return self.out
        actions = [self.sit.action] if self.sit.action is not None else games[next(iter(games))].legal_decisions()
        per_action = max(self.node_limit // max(len(actions), 1), self.min_per_action)
        for d in actions:
            self.budget_left = per_action
            self.step(games, (), {e: None for e in games}, d, _partition(games))
        return self.out

    def step(self, games, path, attacks, d: Decision, parts) -> None:
        """Apply `d` to every edition's game, ask about what happened, walk on."""
        if self.budget_left <= 0:
            return
        self.budget_left -= 1
        self.out.nodes += 1
        here = path + (d,)
        nxt, events, att = {}, {}, {}
        for e, g in games.items():
            if (d.kind, d.arg) not in g.pending.options:
                continue
            parent_board = Board.of(g, floor_of(e))
            child = g.copy()
            ev = child.apply_unchecked(d.kind, d.arg)
            a = attacks[e]
            if d.kind == "attack":
                a = _Attack(d.arg, g.state.active, g.state.attacks.get(d.arg, 0) + 1)
            elif a is not None:
                a = _Attack(**a.__dict__)
            self.after(e, g, parent_board, d, child, ev, a, here)
            nxt[e], events[e], att[e] = child, ev, a
        if not nxt:
            return
        new_parts = _partition(nxt)
        self.compare(parts, new_parts, nxt, events, here)
        live = {e: g for e, g in nxt.items() if not g.is_over and g.pending.stage != "action"}
        if not live:
            return
        for e, g in live.items():
            self.at_node(e, g, att[e], here)
        ref_e = next(iter(live))
        options = live[ref_e].legal_decisions()
        for nd in _spread(options, self.child_limit):
            self.step(live, here, {e: att[e] for e in live}, nd, {k: v for k, v in new_parts.items() if k in live})

    def at_node(self, e, g, a: _Attack | None, path) -> None:
        """Questions about the decision the game now waits for."""
        p = g.pending
        board = Board.of(g, floor_of(e))
        opts = set(p.options)
        if a is not None and not a.done and p.stage in ("hunt", "block") and board.side(a.card) != a.side:
            self.ask(e, Question("attack-goes-on", (a.card,), ("stops", "goes-on"), board), path, "goes-on")
        if p.stage == "hunt":
            x = p.source
            if a is not None:
                a.asked_hunt = True
            if _has_enemies(board, x):
                self.ask(e, Question("hunt-offered", (x,), (YES, NO), board, default=NO), path, YES)
            for b in board.play[1 - board.side(x)] if board.side(x) is not None else ():
                self.ask(e, Question("hunt", (x, b), (YES, NO), board), path, YES if ("hunt", b) in opts else NO)
            self.ask(e, Question("hunt-none", (x,), (YES, NO), board), path, YES if ("hunt", None) in opts else NO)
        elif p.stage == "block":
            x = p.source
            if a is not None and not a.asked_hunt and _has_enemies(board, x):
                self.ask(e, Question("hunt-offered", (x,), (YES, NO), board, default=NO), path, NO)
            for b in board.play[p.player]:
                self.ask(e, Question("block", (x, b), (YES, NO), board), path, YES if ("block", b) in opts else NO)
            self.ask(e, Question("block-none", (x,), (YES, NO), board), path, YES if ("block", None) in opts else NO)
        elif p.stage == "order":
            self.ask(e, Question("order-chooser", (), (0, 1), board), path, p.player)
        elif p.stage == "frenzy" and a is not None:
            self.frenzy(e, g, board, a, path, YES)
        elif p.stage == "choose" and p.source is not None:
            s = p.source
            eff = effect(g.table.defs[s])
            if eff is not None and eff.acts_on_creatures and eff.count != "all":
                picked = {c for _, combo in p.options for c in combo}
                for x in board.creatures():
                    q = Question("target", (s, x), (YES, NO), board,
                                 facts={"effect": eff, "controller": p.player})
                    self.ask(e, q, path, YES if x in picked else NO)

    def frenzy(self, e, g, board, a: _Attack, path, answer) -> None:
        in_play = board.side(a.card) == a.side
        has = board.has(a.card, FRENZY) if board.side(a.card) is not None else bool(
            g.table.defs[a.card].keywords & FRENZY)
        facts = {"frenzy": has, "attacks": a.attacks, "in_play": in_play, "survived": a.survived,
                 "allied": in_play}
        self.ask(e, Question("frenzy", (a.card,), (YES, NO), board, default=NO, facts=facts), path, answer)
        a.done = True

    def after(self, e, g, board: Board, d: Decision, child, ev, a: _Attack | None, path) -> None:
        """Questions about what applying `d` did."""
        p = g.pending
        defs = g.table.defs
        hit = {}
        for x in ev:
            if x.kind in ("defeat", "exhaust") and (x.card, x.source) not in hit:
                hit[(x.card, x.source)] = "defeated" if x.kind == "defeat" else "exhausted"
        if a is not None:
            for x in ev:
                if x.kind == "defeat" and x.card == a.card:
                    a.survived = False
                if x.kind == "hunt":
                    a.hunted = True
        # HUNTER and Attack effects: which comes first.
        if d.kind == "attack":
            x = d.arg
            eff = effect(defs[x], "attack")
            side = board.side(x)
            if (eff is not None and eff.acts_on_creatures and board.has(x, HUNTER)
                    and board.effect_happens(side, eff)
                    and set(board.targets(x, side, eff)) & set(board.play[1 - side])):
                cp = child.pending
                first = "hunt-first"
                if any(v.kind == "trigger" and v.card == x for v in ev) or (
                        cp is not None and cp.stage != "hunt"):
                    first = "effect-first"
                self.ask(e, Question("order", (x,), ("effect-first", "hunt-first"), board), path, first)
        # A named blocker: the defender has no say.
        if p.stage == "hunt" and d.arg is not None:
            cp = child.pending
            asked = cp is not None and cp.stage == "block" and cp.source == p.source
            self.ask(e, Question("defender-chooses", (p.source,), (YES, NO), board, facts={"hunted": True}),
                     path, YES if asked else NO)
        # A fight.
        for x in ev:
            if x.kind == "combat":
                at, bl = x.cards
                self.fight(e, board, at, bl, hit, path)
                self.ask(e, Question("life", (1 - board.side(at),), (0, 1), board, default=0,
                                     facts={"blocked": True}), path, _unblocked_loss(ev))
        if p.stage == "block" and d.arg is None and a is not None and board.side(a.card) == a.side:
            self.ask(e, Question("life", (p.player,), (0, 1), board, default=0, facts={"blocked": False}),
                     path, _unblocked_loss(ev))
        # An effect that defeats the creatures it picked.
        if p.stage == "choose" and p.source is not None:
            eff = effect(defs[p.source])
            if eff is not None and eff.verb == "defeat":
                cause = ("effect", ref(f"triggers.{eff.trigger}", defs[p.source]), eff.trigger)
                for c in d.arg or ():
                    self.fate(e, board, c, [cause], hit.get((c, p.source), "stays"), path)
        # Effects that resolve without a choice: Play effects, effects hitting every match.
        for x in ev:
            if x.kind == "enter-play":
                s = x.card
                eff = effect(defs[s], "play")
                if eff is None:
                    continue
                there = board.moved(s, x.player)
                prevented = any(v.kind == "play-effect-prevented" and v.card == s for v in ev)
                self.ask(e, Question("play-effect", (s,), (YES, NO), there, facts={"controller": x.player}),
                         path, NO if prevented else YES)
                if eff.verb == "defeat" and eff.count == "all" and not prevented:
                    cause = ("effect", ref("triggers.play", defs[s]), "play")
                    targets = set(there.targets(s, x.player, eff))
                    for c in there.creatures():
                        got = hit.get((c, s))
                        q = Question("target", (s, c), (YES, NO), there, facts={"effect": eff, "controller": x.player})
                        self.ask(e, q, path, YES if got else NO)
                        if c in targets:
                            self.fate(e, there, c, [cause], got or "stays", path)
        # The attack stopped with its attacker gone.
        for x in ev:
            if x.kind == "attack-ends" and a is not None:
                self.ask(e, Question("attack-goes-on", (x.card,), ("stops", "goes-on"), board.without([x.card])),
                         path, "stops")
                a.done = True
        # The attack is over and the turn ends: no second attack was offered.
        if a is not None and not a.done and any(v.kind == "end-turn" for v in ev) and not child.is_over:
            self.frenzy(e, g, Board.of(child, floor_of(e)), a, path, NO)

    def fight(self, e, board: Board, at: int, bl: int, hit, path) -> None:
        pa, pb = board.power(at), board.power(bl)
        for x, other in ((at, bl), (bl, at)):
            px, po = (pa, pb) if x == at else (pb, pa)
            causes = []
            if px < po:
                causes.append(("weaker",))
            elif px == po:
                causes.append(("equal",))
            if board.has(other, POISONOUS):
                causes.append(("poison",))
            self.fate(e, board, x, causes, hit.get((x, None), "stays"), path, fought=other)

    def fate(self, e, board, x, causes, answer, path, fought=None) -> None:
        facts = {"causes": tuple(causes)}
        if fought is not None:
            facts["fought"] = fought
        self.ask(e, Question("fate", (x,), FATES, board, default="stays", facts=facts), path, answer)

    # -- editions -------------------------------------------------------------------
    def compare(self, parts, new_parts, games, events, path) -> None:
        """Record where editions that agreed so far now disagree."""
        before = {}
        for e, k in parts.items():
            before.setdefault(k, []).append(e)
        for group in before.values():
            group = [e for e in group if e in new_parts]
            split = {}
            for e in group:
                split.setdefault(new_parts[e], []).append(e)
            if len(split) < 2:
                continue
            groups = tuple(tuple(v) for v in split.values())
            for i, ga in enumerate(groups):
                for gb in groups[i + 1:]:
                    pair = (ga, gb)
                    views = {g[0]: view(games[g[0]]) for g in pair}
                    fields = frozenset(k for k in views[ga[0]] if views[ga[0]][k] != views[gb[0]][k])
                    for clauses, touched in _differing_parts(pair, events):
                        self.out.differences.append(Difference(
                            path, pair, fields & touched, clauses, views,
                            {g[0]: [x.to_json() for x in events[g[0]]] for g in pair}, groups))


def _has_enemies(board: Board, card: int) -> bool:
    side = board.side(card)
    return side is not None and bool(board.play[1 - side])


def _unblocked_loss(ev) -> int:
    return sum(x.amount or 0 for x in ev if x.kind == "lose-life" and "combat.unblocked" in x.clauses)


def _partition(games) -> dict[str, str]:
    return {e: repr(view(g)) for e, g in games.items()}


# The view fields each kind of event can change.
TOUCHES = {
    "draw": {"hand", "deck"}, "gain-life": {"life"}, "lose-life": {"life"}, "no-gain": {"life"},
    "end-turn": {"turn", "active", "pending"}, "turn": {"turn", "active", "pending"},
    "mindbug": {"mindbugs", "play", "played"}, "play": {"hand", "played"}, "enter-play": {"play"},
    "defeat": {"play", "discard", "exhausted"}, "exhaust": {"exhausted"}, "discard": {"hand", "discard"},
    "steal": {"hand"}, "take-control": {"play"}, "return-to-hand": {"hand", "discard"},
    "game-over": {"winner", "reason", "pending"},
}


def _differing_parts(pair, events) -> list[tuple[frozenset, frozenset]]:
    """What the two groups' events do differently, in parts: events that
    touch the same fields of the game make one part. For each part, the
    clauses its events cite, kept to those whose status differs between the
    two groups' editions (all of them if none differs), and the fields it
    touches. Events are compared by what they do, not by what they cite."""
    per = [events[g[0]] for g in pair]
    def sig(x):
        return (x.kind, x.player, x.card, x.cards, x.amount)

    a, b = (Counter(sig(x) for x in evs) for evs in per)
    odd = set((a - b) + (b - a))
    eds = [e for g in pair for e in g]
    parts: list[list] = []       # [fields, clauses]
    for evs in per:
        for x in evs:
            if sig(x) not in odd:
                continue
            touched = TOUCHES.get(x.kind, {"pending"})
            cited = {c for c in x.clauses if len({status(c, e) for e in eds}) > 1} or set(x.clauses)
            for part in parts:
                if part[0] & touched:
                    part[0] |= touched
                    part[1] |= cited
                    break
            else:
                parts.append([set(touched), set(cited)])
    # Parts that came to touch the same fields merge.
    merged: list[list] = []
    for f, c in parts:
        for m in merged:
            if m[0] & f:
                m[0] |= f
                m[1] |= c
                break
        else:
            merged.append([f, c])
    return [(frozenset(c), frozenset(f)) for f, c in merged]


def _board_sig(b: Board) -> tuple:
    # Power and keywords rather than the edition's floor of power: editions
    # whose boards agree share one observation.
    cs = b.creatures()
    return (b.play, tuple(sorted(b.exhausted)), b.active, tuple(b.power(c) for c in cs),
            tuple(b.keywords(c) for c in cs))


def _facts_sig(f: dict) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in f.items()))


def _spread(options, limit):
    """At most `limit` options, taken across the list (first, last, and between)."""
    if len(options) <= limit:
        return options
    step = (len(options) - 1) / (limit - 1)
    return [options[round(i * step)] for i in range(limit)]


def probe(situation, editions=EDITIONS, node_limit: int = 240, child_limit: int = 6) -> Probe:
    return _Walk(situation, editions, node_limit, child_limit).run()
