"""The hunt: search situations, shrink every finding, describe it.

A situation is probed (`probe`) in every edition; what the probe saw is
reduced to finding *keys*: the family of the finding and the set of
clauses in tension. Findings are deduplicated by that set.

- ``rules``: in some edition the applicable clauses admit no outcome
  (contradiction) or several (ambiguity);
- ``editions``: editions settle the same question, or the engine plays the
  same decisions, differently (a difference that only changes how turns
  are counted is reported as no real conflict);
- ``quiet``: a clause worded differently between editions was put to the
  test and every edition gave the same outcome (no real conflict, unless
  an ``editions`` finding on the same clause turns up);
- ``engine``: the engine's outcome is one the constraints forbid.

The search is `hypothesis.find` over the situation strategies, run again
and again: each run looks for a situation showing a key not seen yet and
Hypothesis shrinks it to a minimal one. Probes are cached, so a run that
goes over ground an earlier run covered costs little. Real cards come
first; then abstract situations (a creature may get another power or other
keywords) look for tensions no First Contact card can reach.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from random import Random

from hypothesis import HealthCheck, Phase, find, settings, target
from hypothesis.errors import NoSuchExample

from ..editions import EDITIONS
from ..cards import keyword_list
from . import budget as allowance
from .budget import SHARES, BudgetSpent
from .constraints import how_settled, status, verdict
from .probe import Observation, Probe, probe
from .strategies import DEFS, DESIGNS, Situation, label, situations

FAMILY_ORDER = {"engine": 0, "rules": 1, "editions": 2, "quiet": 3}


def _varies(clause: str) -> bool:
    return any(status(clause, e) == "varies" for e in EDITIONS)


def breadth(pr: Probe) -> int:
    """How many clauses (card abilities counted apart) spoke in the probe:
    the search leans towards situations where many rules meet."""
    refs = set()
    for ob in pr.observations:
        for v in ob.verdicts.values():
            refs.update(x.ref for x in v.voices)
            refs.update(x.ref for x in v.silent)
    return len(refs)


def keys_of(pr: Probe, scope=EDITIONS) -> dict[tuple, object]:
    """Every finding key the probe shows, with its first evidence."""
    out: dict[tuple, object] = {}
    scope = tuple(scope)
    for ob in pr.observations:
        vs = ob.verdicts
        unsettled = [e for e in scope if vs[e].kind != "settled"]
        if unsettled:
            refs = frozenset().union(*(vs[e].tension for e in unsettled))
            out.setdefault(("rules", refs), ob)
        else:
            answers = {e: vs[e].answer() for e in EDITIONS}
            differs = any(answers[e] != answers[x] for e in scope for x in EDITIONS)
            varied = {v.clause for e in EDITIONS for v in vs[e].voices if _varies(v.clause)}
            if differs:
                refs = frozenset(varied) or frozenset(
                    v.clause for e in EDITIONS for v in vs[e].voices
                    if len({status(v.clause, x) for x in EDITIONS}) > 1)
                out.setdefault(("editions", refs), ob)
            elif varied:
                out.setdefault(("quiet", frozenset(varied)), ob)
        for e, answer in ob.engine.items():
            if e not in scope:
                continue
            v = vs[e]
            if v.kind == "settled" or (v.kind == "ambiguity" and not v.silent):
                if answer not in v.admitted:
                    refs = frozenset(x.ref for x in v.voices if answer not in x.admitted) or frozenset({ob.question.kind})
                    out.setdefault(("engine", refs), (ob, e))
            else:
                # Left open by the edition: the engine must still follow its
                # declared reading (the clauses the edition is silent on).
                r = verdict(ob.question, e, readings=True)
                if r.kind == "settled" and answer not in r.admitted:
                    refs = frozenset(x.ref for x in v.silent if answer not in x.admitted) or frozenset({ob.question.kind})
                    out.setdefault(("engine", refs), (ob, e))
    for d in pr.differences:
        if not any(e in scope for g in d.groups for e in g):
            continue
        fam = "quiet" if d.bookkeeping else "editions"
        out.setdefault((fam, d.clauses), d)
    return out


@dataclass
class Finding:
    """One finding, from its minimal situation."""

    key: tuple
    category: str        # contradiction | ambiguity | edition-difference | no-real-conflict | engine-bug
    clauses: tuple[str, ...]
    question: str
    situation: Situation
    path: tuple
    editions: dict[str, dict]
    outcomes: dict[str, list[str]]
    summary: str
    reachable: bool
    seen: int = 1
    scenario: str | None = None
    question_kind: str = "difference"     # the constraints' question, or a difference between editions
    subject: tuple = ()
    fields: tuple = ()                    # what differs between editions

    @property
    def id(self) -> str:
        """`hunt.` and the clauses in tension, as a scenario id: `hunt.keywords-hunter.keywords-sneaky`."""
        return "hunt." + ".".join(re.sub(r"[^a-z0-9]+", "-", c.lower()).strip("-") for c in self.clauses)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "category": self.category,
            "clauses": list(self.clauses),
            "question": self.question,
            "summary": self.summary,
            "editions": self.editions,
            "outcomes": self.outcomes,
            "reachable_with_first_contact": self.reachable,
            "situations_seen": self.seen,
            "position": self.situation.to_json(),
            "steps": [_step_json(d, self.situation) for d in self.path],
            "scenario": self.scenario,
        }


def _step_json(d, sit: Situation) -> dict:
    defs = sit.spot.defs()
    if d.kind in ("choose", "random"):
        return {d.kind: [label(c, defs) for c in d.arg or ()], "player": d.player}
    if d.kind in ("mindbug", "pass"):
        return {d.kind: True, "player": d.player}
    return {d.kind: None if d.arg is None else label(d.arg, defs), "player": d.player}


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    examined: int = 0
    seconds: float = 0.0
    budget: int = 0
    seed: int = 0
    editions: tuple = EDITIONS
    phases: dict = field(default_factory=dict)
    jobs: int = 1

    def to_json(self) -> dict:
        return {"budget": self.budget, "seed": self.seed, "jobs": self.jobs, "editions": list(self.editions),
                "situations_examined": self.examined, "seconds": round(self.seconds, 2),
                "phases": self.phases, "findings": [f.to_json() for f in self.findings]}


class Hunt:
    """A hunt of at most `budget` situations, counted as module budget says; `progress`,
    if given, is called with the number of situations examined as they go."""

    def __init__(self, editions=EDITIONS, budget: int = allowance.DEFAULT, seed: int = 0, node_limit: int = 240,
                 abstract: bool = True, shrink_limit: int = 300, jobs: int = 1, designs=DESIGNS,
                 cap: int | None = None, progress=None):
        self.scope = tuple(editions)
        self.budget = budget
        self.cap = cap              # the situations this object may still probe (None: no bound)
        self.spent = False
        self.progress = progress
        self.seed = seed
        self.node_limit = node_limit
        self.abstract = abstract
        self.shrink_limit = shrink_limit
        self.jobs = max(1, jobs)
        self.designs = tuple(designs)
        self._hits = 0
        self._best: Situation | None = None
        self._cache: dict[Situation, tuple] = {}
        self.seen: dict[tuple, int] = {}
        self.unreachable: set[tuple] = set()
        self.examined = 0

    def keys(self, sit: Situation) -> dict:
        return self._probe(sit)[0]

    def _probe(self, sit: Situation) -> tuple[dict, int]:
        got = self._cache.get(sit)
        if got is None:
            if self.cap is not None and len(self._cache) >= self.cap:
                self.spent = True
                raise BudgetSpent
            allowance.count_one()
            pr = probe(sit, node_limit=self.node_limit)
            k = keys_of(pr, self.scope)
            got = (k, breadth(pr))
            self._cache[sit] = got
            for key in k:
                self.seen[key] = self.seen.get(key, 0) + 1
        return got

    def _counted(self, sit: Situation, test) -> bool:
        """Run `test` on `sit` for Hypothesis; once a situation passed it,
        count the shrinking candidates, and past `shrink_limit` stop the run
        with the best situation so far (the last one to pass)."""
        if self._hits:
            self._hits += 1
            if self._hits > self.shrink_limit:
                raise _ShrinkingDone
        k, score = self._probe(sit)
        target(score, label="clauses meeting")
        ok = test(k)
        if ok:
            self._best = sit
            self._hits = self._hits or 1
        return ok

    def _find(self, strategy, test, budget: int, seed: int) -> Situation | None:
        cfg = settings(max_examples=budget, database=None, deadline=None,
                       phases=(Phase.generate, Phase.target, Phase.shrink), suppress_health_check=list(HealthCheck))
        self._hits, self._best = 0, None
        try:
            return find(strategy, lambda s: self._counted(s, test), settings=cfg, random=Random(seed))
        except NoSuchExample:
            return None
        except (_ShrinkingDone, BudgetSpent):
            return self._best

    def _loop(self, strategy, found: dict, budget: int, seed: int) -> None:
        while True:
            sit = self._find(strategy, lambda k: bool(set(k) - set(found)), budget, seed)
            if sit is None:
                return
            for key in sorted(set(self.keys(sit)) - set(found), key=lambda k: (k[0], sorted(k[1]))):
                found[key] = sit
            if self.spent:
                return

    def run(self) -> Report:
        t0 = time.monotonic()
        rep = Report(budget=self.budget, seed=self.seed, editions=self.scope, jobs=self.jobs)
        found: dict[tuple, Situation] = {}
        real, changed = allowance.phase_budgets(self.budget, self.abstract)
        allowance.watch(self.progress)     # worker processes count on a shared value instead
        try:
            self._phase(found, abstract=False, total=real)
            rep.phases["real"] = {"findings": len(found), "seconds": round(time.monotonic() - t0, 2)}
            if self.abstract:
                t1 = time.monotonic()
                before, examined = set(found), self.examined
                self._phase(found, abstract=True, total=changed)
                self.unreachable |= set(found) - before
                self.cap = max(changed - (self.examined - examined), 0)     # what the shares left
                self._realise(found, changed)
        finally:
            allowance.watch(None)
        if self.abstract:
            rep.phases["abstract"] = {"findings": len(set(found) - before),
                                      "seconds": round(time.monotonic() - t1, 2)}
        rep.findings = self.describe(found)
        rep.examined = self.examined + len(self._cache)
        rep.seconds = time.monotonic() - t0
        return rep

    def _shares(self) -> list[tuple[str, ...]]:
        """The designs dealt into SHARES independent shares (the same
        whatever the number of jobs)."""
        return [share for k in range(SHARES) if (share := self.designs[k::SHARES])]

    def _phase(self, found: dict, abstract: bool, total: int) -> None:
        """Go through the designs share by share; within a share, one design
        after the other, each anchored in the situations of its own search,
        the budget shared between them. Every share starts from the findings
        of the earlier phases only, and the shares' findings are merged in
        share order (a finding two shares both make keeps the first share's
        situation): the hunt is the same with any number of jobs. With
        several jobs the shares go to fresh processes (which see the engine
        as installed, not as patched in this one). `total`: the situations
        of the phase, split between the shares."""
        base = dict(found)
        shares = self._shares()
        caps = allowance.share_caps(total, len(shares))
        args = [(self.scope, self.budget, self.seed, self.node_limit, self.shrink_limit, share, abstract, base, cap)
                for share, cap in zip(shares, caps)]
        if self.jobs > 1 and len(args) > 1:
            results = allowance.in_processes(_phase_worker, args, min(self.jobs, len(args)), self.progress)
        else:
            results = [_phase_worker(a) for a in args]
        for got, seen, examined in results:
            for key, sit in got.items():
                found.setdefault(key, sit)
            for key, n in seen.items():
                self.seen[key] = self.seen.get(key, 0) + n
            self.examined += examined

    def _search_share(self, found: dict, abstract: bool) -> None:
        per = allowance.examples_per_design(self.cap, len(self.designs))
        for name in self.designs:
            if self.spent:
                return
            i = DESIGNS.index(name)
            self._loop(situations(abstract=abstract, anchor=name), found, budget=per,
                       seed=self.seed * 1009 + i + (500 if abstract else 0))

    def _realise(self, found: dict, total: int) -> None:
        """For a finding only an abstract situation showed: look for it with
        real cards, anchored on each design its minimal situation holds,
        within what is left of the phase's `total` situations."""
        per = allowance.examples_per_design(total, len(DESIGNS)) * 2
        for key in sorted(self.unreachable, key=lambda k: (k[0], sorted(k[1]))):    # not a frozenset's own order
            if self.spent:
                return
            sit = found[key]
            if sit.real:
                continue
            spot = sit.spot
            designs = sorted({spot.defs()[c].name for z, _p, cards in spot.zones if z == "play" for c in cards})
            for i, name in enumerate(designs):
                real = self._find(situations(anchor=name), lambda k, key=key: key in k, per,
                                  self.seed * 7919 + i)
                if real is not None:
                    found[key] = real
                    self.unreachable.discard(key)
                    break

    # -- findings ---------------------------------------------------------------
    def describe(self, found: dict) -> list[Finding]:
        by_clauses: dict[frozenset, list[tuple]] = {}
        for key in found:
            by_clauses.setdefault(key[1], []).append(key)
        out = []
        for keys in by_clauses.values():
            keys.sort(key=lambda k: FAMILY_ORDER[k[0]])
            key = keys[0]
            sit = found[key]
            ev = keys_of(probe(sit, node_limit=self.node_limit), self.scope).get(key)
            if ev is None:   # not reproduced (should not happen: probes are deterministic)
                continue
            f = make_finding(key, sit, ev, reachable=sit.real or key not in self.unreachable)
            f.seen = sum(self.seen.get(k, 0) for k in keys)
            out.append(f)
        out.sort(key=lambda f: (CATEGORY_ORDER[f.category], f.clauses))
        return out


class _ShrinkingDone(BaseException):
    """Ends a Hypothesis run whose shrinking spent its budget. A BaseException,
    so that Hypothesis lets it through instead of taking it for a failure."""


def _phase_worker(args):
    """One share of the designs, searched by a fresh hunt (its own cache, so
    that the counts do not depend on what ran before in the process)."""
    scope, budget, seed, node_limit, shrink_limit, designs, abstract, found, cap = args
    h = Hunt(scope, budget, seed, node_limit, abstract, shrink_limit, jobs=1, designs=designs, cap=cap)
    found = dict(found)
    before = set(found)
    h._search_share(found, abstract)
    return {k: v for k, v in found.items() if k not in before}, h.seen, len(h._cache)


CATEGORY_ORDER = {"engine-bug": 0, "contradiction": 1, "ambiguity": 2, "edition-difference": 3,
                  "no-real-conflict": 4}


def make_finding(key, sit: Situation, ev, reachable: bool) -> Finding:
    fam, refs = key
    defs = sit.spot.defs()

    def name(c):
        return changed_label(c, defs)

    clauses = tuple(sorted(refs))
    if fam in ("rules", "quiet", "editions", "engine") and isinstance(ev, (Observation, tuple)):
        ob, bad = (ev if isinstance(ev, tuple) else (ev, None))
        q = ob.question
        per = {}
        for e in EDITIONS:
            v = ob.verdicts[e]
            entry = v.to_json()
            if e in ob.engine:
                entry["engine"] = str(ob.engine[e])
            if v.kind == "settled" and fam == "rules":
                entry["settled_by"] = how_settled(q, v, refs)
            if v.silent:
                entry["would_settle"] = {s.ref: sorted(map(str, s.admitted)) for s in v.silent}
            per[e] = entry
        outcomes = {}
        if fam == "rules":
            voices = {x.ref: x for e in EDITIONS for x in ob.verdicts[e].voices}
            voices.update({x.ref: x for e in EDITIONS for x in ob.verdicts[e].silent})
            for r in clauses:
                if r in voices:
                    outcomes[r] = sorted(map(str, voices[r].admitted))
            for e in EDITIONS:
                v = ob.verdicts[e]
                if v.kind == "settled":
                    outcomes.setdefault(f"settled in {e}", sorted(map(str, v.admitted)))
        else:
            for e in EDITIONS:
                outcomes.setdefault(str(ob.verdicts[e].answer()), []).append(e)
        unsettled = [e for e in EDITIONS if ob.verdicts[e].kind != "settled"]
        if fam == "engine":
            category = "engine-bug"
            v = ob.verdicts[bad]
            if v.kind == "settled" or not v.silent:
                summary = (f"{q.describe(name)} the engine ({bad}) answers {ob.engine[bad]}, "
                           f"the constraints of {bad} admit only {sorted(map(str, v.admitted))}")
            else:
                r = verdict(q, bad, readings=True)
                summary = (f"{q.describe(name)} the engine ({bad}) answers {ob.engine[bad]}, its declared reading "
                           f"of the clauses {bad} is silent on gives {sorted(map(str, r.admitted))}")
            for e in EDITIONS:
                if ob.verdicts[e].kind != "settled":
                    r = verdict(q, e, readings=True)
                    if r.kind == "settled":
                        per[e]["reading"] = sorted(map(str, r.admitted))
        elif fam == "rules":
            category = "contradiction" if any(ob.verdicts[e].kind == "contradiction" for e in unsettled) else "ambiguity"
            settled = [e for e in EDITIONS if e not in unsettled]
            summary = f"{q.describe(name)} {category} in {', '.join(unsettled)}"
            summary += f"; settled in {', '.join(settled)}" if settled else "; no edition settles it"
            engine = {str(ob.engine[e]) for e in unsettled if e in ob.engine}
            if engine:
                summary += f"; the engine answers {', '.join(sorted(engine))}"
        elif fam == "editions":
            category = "edition-difference"
            summary = f"{q.describe(name)} the editions settle it differently"
        else:
            category = "no-real-conflict"
            summary = (f"{q.describe(name)} the wording of {', '.join(clauses)} differs between editions, "
                       f"the outcome does not")
        return Finding(key, category, clauses, q.describe(name), sit, ob.path, per, outcomes, summary, reachable,
                       question_kind=q.kind, subject=q.subject)
    # An engine-level difference between editions.
    d = ev
    category = "no-real-conflict" if d.bookkeeping else "edition-difference"
    per = {}
    outcomes = {}
    for g in d.split or d.groups:
        for e in g:
            per[e] = {"group": list(g)}
    for g in d.groups:
        outcomes[" / ".join(g)] = _view_text(d.views[g[0]], d.fields, name)
    fields = ", ".join(sorted(d.fields))
    if d.bookkeeping:
        summary = (f"the editions part only in {fields} ({', '.join(clauses)}): "
                   "the game itself goes on the same way")
    else:
        summary = f"the same decisions leave different {fields} ({', '.join(clauses)})"
    question = f"what do these decisions leave in each edition? ({', '.join(sorted(d.fields))} differ)"
    return Finding(key, category, clauses, question, sit, d.path,
                   per, outcomes, summary, reachable, fields=tuple(sorted(d.fields)))


def changed_label(c: int, defs) -> str:
    """The card's name; for a card the situation changed, what changed, as
    in "a Bee Bear given HUNTER", "an Elephantopus with power 3, without
    FRENZY"."""
    name = label(c, defs)
    printed, now = DEFS[c], defs[c]
    if (printed.power, printed.keywords) == (now.power, now.keywords):
        return name
    bits = []
    gained = keyword_list(now.keywords & ~printed.keywords)
    lost = keyword_list(printed.keywords & ~now.keywords)
    if gained:
        bits.append("given " + " and ".join(gained))
    if now.power != printed.power:
        bits.append(f"with power {now.power}")
    if lost:
        bits.append("without " + " or ".join(lost))
    article = "an" if name[:1] in ("A", "E", "I", "O", "U") else "a"      # an Elephantopus, an Urchin Hurler
    return f"{article} {name} " + ", ".join(bits)


def _view_text(v: dict, fields, name) -> list[str]:
    out = []
    for f in sorted(fields):
        x = v[f]
        if f in ("hand", "play", "discard", "deck"):
            x = [[name(c) for c in side] for side in x]
        elif f == "pending" and x is not None:
            x = f"{x[0]} by player {x[1]}"
        out.append(f"{f}: {x}")
    return out
