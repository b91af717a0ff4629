"""The verdicts of the editions on a question (questions.py), from the
voices of the clauses that speak to it (clause_rules.py).

The verdict of an edition on a question is ``settled`` (one answer),
``contradiction`` (none) or ``ambiguity`` (several). The clauses in tension
are the smallest set of voices with no common answer (a contradiction) or
the voices that speak without settling (an ambiguity). `verdict(...,
readings=True)` also counts the clauses the edition is silent on, as the
catalogue's readings do: that is what the engine declares it does there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

from ..clauses import load_catalogue
from ..editions import EDITIONS
from .clause_rules import RULES
from .questions import Question, Rule, Voice

# -- verdicts -----------------------------------------------------------------------


@cache
def statuses() -> dict[tuple[str, str], str]:
    cat = load_catalogue()
    return {(cid, e): c.editions[e].status for cid, c in cat.items() for e in EDITIONS}


def status(clause: str, edition: str) -> str:
    return statuses()[(clause, edition)]


@cache
def implied_by(clause: str, edition: str) -> str:
    """The catalogue's account of how the edition's text implies `clause`."""
    return " ".join((load_catalogue()[clause].editions[edition].text or "").split())


@cache
def rules_for(kind: str) -> tuple[Rule, ...]:
    return tuple(r for r in RULES if kind in r.kinds)


@dataclass
class Verdict:
    edition: str
    kind: str                       # settled | contradiction | ambiguity
    admitted: frozenset
    voices: tuple[Voice, ...]       # applicable and not overridden
    dropped: tuple[tuple[Voice, Voice], ...]   # (voice, the voice it gave way to)
    silent: tuple[Voice, ...]       # voices of clauses this edition is silent on
    tension: frozenset              # refs
    implied: tuple[Voice, ...] = ()  # applicable voices the edition implies without saying

    @property
    def settled(self) -> bool:
        return self.kind == "settled"

    def answer(self):
        return next(iter(self.admitted)) if len(self.admitted) == 1 else None

    def to_json(self) -> dict:
        d = {"verdict": self.kind, "admitted": sorted(map(str, self.admitted))}
        if self.tension:
            d["tension"] = sorted(self.tension)
        if self.dropped:
            d["settled_by"] = sorted({w.ref for _, w in self.dropped})
        if self.silent:
            d["silent"] = sorted({v.ref for v in self.silent})
        if self.implied:
            # Why such a voice counts: the catalogue's account of what implies it.
            d["implied"] = {v.ref: implied_by(v.clause, self.edition) for v in self.implied}
        return d


def voices(q: Question) -> list[tuple[Voice, str]]:
    """Every clause's voice on `q`, with nothing filtered: (voice, statuses it applies in)."""
    out = []
    answers = frozenset(q.answers)
    for r in rules_for(q.kind):
        for rf, admitted in r.speak(q):
            out.append(Voice(rf, r.clause, admitted & answers, r))
    return out


def _gives_way(v: Voice, w: Voice) -> bool:
    return v is not w and (v.clause in w.rule.overrides or w.clause in v.rule.yields_to)


def verdict(q: Question, edition: str, every: list[Voice] | None = None, readings: bool = False) -> Verdict:
    """The edition's verdict on `q`. With `readings`, the clauses the edition
    is silent on count as if stated: the outcome the catalogue's readings
    (the engine's declared reading for that edition) give."""
    every = voices(q) if every is None else every
    applicable, silent, implied = [], [], []
    table = statuses()
    for v in every:
        st = table[(v.clause, edition)]
        if st == "implied" and "states" in v.rule.statuses:
            # The edition's text leads to the rule without saying it: it binds
            # like a stated one, and the verdict says so (`implied`).
            applicable.append(v)
            implied.append(v)
        elif st in v.rule.statuses or (readings and st == "silent" and "states" in v.rule.statuses):
            applicable.append(v)
        elif st == "silent":
            silent.append(v)
    kept, dropped = [], []
    for v in applicable:
        by = next((w for w in applicable if _gives_way(v, w)), None)
        if by is None:
            kept.append(v)
        else:
            dropped.append((v, by))
    admitted = frozenset(q.answers)
    for v in kept:
        admitted &= v.admitted
    if not kept:
        admitted = frozenset(q.answers) if q.default is None else frozenset({q.default})
    if not admitted:
        kind = "contradiction"
        tension = _smallest_conflict(kept, frozenset(q.answers))
    elif len(admitted) > 1:
        kind = "ambiguity"
        tension = frozenset(v.ref for v in kept)
    else:
        kind = "settled"
        tension = frozenset()
    implied = tuple(v for v in implied if v in kept or any(w is v for _, w in dropped))
    return Verdict(edition, kind, admitted, tuple(kept), tuple(dropped), tuple(silent), tension, implied)


def _smallest_conflict(kept: list[Voice], answers: frozenset) -> frozenset:
    for n in range(1, len(kept) + 1):
        for group in combinations(kept, n):
            common = answers
            for v in group:
                common &= v.admitted
            if not common:
                return frozenset(v.ref for v in group)
    return frozenset(v.ref for v in kept)


def verdicts(q: Question, editions=EDITIONS) -> dict[str, Verdict]:
    every = voices(q)
    return {e: verdict(q, e, every) for e in editions}


def how_settled(q: Question, v: Verdict, tension: frozenset) -> list[str]:
    """The voices that made `v` settle what other editions leave in tension:
    those that overrode a voice in tension, or the ones left standing."""
    by = sorted({w.ref for d, w in v.dropped if d.ref in tension})
    return by or sorted({w.ref for w in v.voices})
