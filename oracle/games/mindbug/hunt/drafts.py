"""Findings as draft scenarios (spec/scenario-format.md, mb-scenario/1).

Each finding becomes one YAML file: the minimal position, the decisions
that lead to the question, and what the engine does in each edition, as
`expect` (and `expect_by_edition` where editions part). The comment block
at the top says what the hunt found: the clauses in tension, the outcomes
each admits, and which editions settle it and how. The scenario is a
draft (`status: draft`): it pins down the engine's current outcome for a
person to review, and it runs like any other scenario.

A finding no First Contact card can reach (it needed a creature with
another power or other keywords) cannot be set up in the format; its file
holds the description as comments only, which loads as no scenario.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..clauses import load_catalogue
from ....draftfile import DraftRefused, edited, write_draft
from ..cards import TOUGH, lookup
from ..editions import EDITIONS
from ..engine import Decision
from .search import Finding
from .strategies import DEFS, Spot, label

FORMAT = "mb-scenario/1"


def scenario_id(f: Finding) -> str:
    return f.id


def _name(c: int, spot: Spot) -> str:
    return label(c, spot.defs())


def given(spot: Spot) -> dict:
    players = []
    for p in (0, 1):
        side: dict = {}
        if spot.life[p] != 3:
            side["life"] = spot.life[p]
        if spot.mindbugs[p] != 2:
            side["mindbugs"] = spot.mindbugs[p]
        for z in ("hand", "play", "discard", "deck"):
            cards = spot.zone(z, p)
            if not cards:
                continue
            if z == "play":
                side[z] = [{"card": _name(c, spot), "exhausted": True} if c in spot.exhausted else _name(c, spot)
                           for c in cards]
            else:
                side[z] = [_name(c, spot) for c in cards]
        players.append(side)
    out: dict = {}
    if spot.active != 0:
        out["active"] = spot.active
    if spot.turn != 1:
        out["turn"] = spot.turn
    out["players"] = players
    return out


def step(d: Decision, spot: Spot):
    if d.kind in ("mindbug", "pass"):
        return d.kind
    if d.kind in ("choose", "random"):
        return {d.kind: [_name(c, spot) for c in d.arg or ()]}
    return {d.kind: None if d.arg is None else _name(d.arg, spot)}


def _ev(spot, **kw) -> dict:
    out = {}
    for k, v in kw.items():
        if k in ("card", "source") and isinstance(v, int):
            v = _name(v, spot)
        out[k] = v
    return out


def _replay(spot: Spot, path, edition):
    g = spot.game(edition)
    events = list(g.events)
    last = []
    for d in path:
        last = g.apply(d)
        events += last
    return g, events, last


def _pending_expect(g, spot) -> dict | None:
    p = g.pending
    if p is None:
        return None
    d = {"stage": p.stage, "player": p.player}
    if p.source is not None and p.stage in ("hunt", "block", "choose", "frenzy"):
        d["source"] = _name(p.source, spot)
    return d


def _outcome(f: Finding, edition: str):
    """(extra steps, expect, illegal) for one edition, from the engine."""
    spot = f.situation.spot
    g, _, last = _replay(spot, f.path, edition)
    q = f.question_kind
    subject = f.subject
    if q in ("hunt", "block"):
        a, b = subject
        d = Decision(q, g.pending.player if g.pending else None, b)
        if g.pending is not None and (d.kind, d.arg) in g.pending.options:
            g.apply(d)
            return [step(d, spot)], {"events": [_ev(spot, kind=q, card=b)]}, None
        return [step(d, spot)], None, {"step": len(f.path) + 1}
    if q in ("hunt-none", "block-none"):
        kind = q.split("-")[0]
        d = Decision(kind, g.pending.player if g.pending else None, None)
        if g.pending is not None and (d.kind, d.arg) in g.pending.options:
            return [step(d, spot)], {"no_events": [_ev(spot, kind=kind, source=subject[0])]}, None
        return [step(d, spot)], None, {"step": len(f.path) + 1}
    if q == "fate":
        (x,) = subject
        got = {e.kind for e in last if e.kind in ("defeat", "exhaust") and e.card == x}
        if "defeat" in got:
            return [], {"events": [_ev(spot, kind="defeat", card=x)]}, None
        if "exhaust" in got:
            return [], {"events": [_ev(spot, kind="exhaust", card=x)],
                        "no_events": [_ev(spot, kind="defeat", card=x)]}, None
        return [], {"no_events": [_ev(spot, kind="defeat", card=x), _ev(spot, kind="exhaust", card=x)]}, None
    if q == "life":
        (p,) = subject
        lost = sum(e.amount or 0 for e in last if e.kind == "lose-life" and "combat.unblocked" in e.clauses)
        if lost:
            return [], {"events": [_ev(spot, kind="lose-life", player=p, amount=lost, clause="combat.unblocked")]}, None
        return [], {"no_events": [_ev(spot, kind="lose-life", clause="combat.unblocked")]}, None
    if q == "attack-goes-on":
        (a,) = subject
        if any(e.kind == "attack-ends" for e in last):
            return [], {"events": [_ev(spot, kind="attack-ends", card=a)],
                        "no_events": [_ev(spot, kind="lose-life", clause="combat.unblocked")]}, None
        return [], {"pending": _pending_expect(g, spot)}, None
    if q == "play-effect":
        (s,) = subject
        if any(e.kind == "play-effect-prevented" and e.card == s for e in last):
            return [], {"events": [_ev(spot, kind="play-effect-prevented", card=s)]}, None
        return [], {"events": [_ev(spot, kind="trigger", card=s, clause="triggers.play")]}, None
    if q == "target" and g.pending is not None and g.pending.stage == "choose":
        s, x = subject
        picks = {c for _, combo in g.pending.options for c in combo}
        pick = {"choose": [_name(x, spot)]}
        if any(combo == (x,) for _, combo in g.pending.options):
            return [], {"pending": {"stage": "choose", "has": [pick]}}, None
        if x in picks:
            return [], {"pending": {"stage": "choose"}}, None
        return [], {"pending": {"stage": "choose", "lacks": [pick]}}, None
    if q == "target":
        s, x = subject
        hit = [e.kind for e in last if e.kind in ("defeat", "exhaust") and e.card == x and e.source == s]
        if hit:
            return [], {"events": [_ev(spot, kind=hit[0], card=x, source=s)]}, None
        return [], {"no_events": [_ev(spot, kind="defeat", card=x, source=s),
                                  _ev(spot, kind="exhaust", card=x, source=s)]}, None
    if q == "order":
        (a,) = subject
        exp = {"pending": _pending_expect(g, spot)}
        if any(e.kind == "trigger" and e.card == a for e in last):
            exp["events"] = [_ev(spot, kind="trigger", card=a, clause="triggers.attack")]
            exp["no_events"] = [_ev(spot, kind="hunt")]
        return [], exp, None
    if q == "defender-chooses":
        return [], {"no_events": [_ev(spot, kind="block")], "pending": _pending_expect(g, spot)}, None
    # hunt-offered, frenzy, order-chooser, and differences between editions:
    # the decision the game waits for, and what differs.
    exp: dict = {"pending": _pending_expect(g, spot)}
    if g.is_over:
        exp = {"winner": g.winner}
    fields = f.fields
    if fields:
        s = g.state
        players = [{}, {}]
        for fld in fields:
            if fld in ("hand", "deck", "discard"):
                for p in (0, 1):
                    players[p][fld] = len(getattr(s, fld)[p])
            elif fld == "play":
                for p in (0, 1):
                    players[p]["play"] = len(s.play[p])
            elif fld in ("life", "mindbugs"):
                for p in (0, 1):
                    players[p][fld] = getattr(s, fld)[p]
            elif fld in ("turn", "active"):
                exp[fld] = getattr(s, fld)
            elif fld == "exhausted":
                exp["exhausted"] = [_name(c, spot) for c in sorted(s.exhausted)]
        if any(players):
            exp["players"] = players
    return [], exp, None


def _ruled(f: Finding, edition: str):
    """For an engine bug: (extra steps, expect, illegal) from what the
    constraints of `edition` admit, where they settle the question and the
    answer can be written as an expectation; None otherwise."""
    entry = f.editions.get(edition, {})
    admitted = entry.get("admitted", []) if entry.get("verdict") == "settled" else entry.get("reading", [])
    if len(admitted) != 1 or admitted[0] == entry.get("engine"):
        return None
    answer = admitted[0]
    spot = f.situation.spot
    q, subject = f.question_kind, f.subject
    if q == "fate":
        (x,) = subject
        if answer == "defeated":
            return [], {"events": [_ev(spot, kind="defeat", card=x)]}, None
        if answer == "exhausted":
            return [], {"events": [_ev(spot, kind="exhaust", card=x)],
                        "no_events": [_ev(spot, kind="defeat", card=x)]}, None
        return [], {"no_events": [_ev(spot, kind="defeat", card=x), _ev(spot, kind="exhaust", card=x)]}, None
    if q in ("hunt", "block"):
        a, b = subject
        d = Decision(q, None, b)
        if answer == "yes":
            return [step(d, spot)], {"events": [_ev(spot, kind=q, card=b)]}, None
        return [step(d, spot)], None, {"step": len(f.path) + 1}
    if q == "life":
        (p,) = subject
        if int(answer):
            return [], {"events": [_ev(spot, kind="lose-life", player=p, amount=int(answer),
                                       clause="combat.unblocked")]}, None
        return [], {"no_events": [_ev(spot, kind="lose-life", clause="combat.unblocked")]}, None
    if q == "play-effect":
        (c,) = subject
        kind = "trigger" if answer == "yes" else "play-effect-prevented"
        return [], {"events": [_ev(spot, kind=kind, card=c)]}, None
    if q == "frenzy" and answer == "yes":
        (a,) = subject
        return [], {"pending": {"stage": "frenzy", "source": _name(a, spot)}}, None
    return None


def _clauses(f: Finding) -> list[str]:
    cat = load_catalogue()
    ids = []
    for r in f.clauses:
        c = r.split("@")[0]
        if c in cat and c not in ids:
            ids.append(c)
    for e in EDITIONS:
        entry = f.editions.get(e, {})
        for r in list(entry.get("settled_by", ())) + list(entry.get("would_settle", {})):
            c = r.split("@")[0]
            if c in cat and c not in ids:
                ids.append(c)
    return ids or ["combat.block"]


def _cards(f: Finding) -> list[str]:
    names = []
    for r in f.clauses:
        if "@" in r:
            n = lookup(r.split("@")[1]).name
            if n not in names:
                names.append(n)
    spot = f.situation.spot
    for c in f.subject:
        if isinstance(c, int):
            n = spot.defs()[c].name
            if n not in names:
                names.append(n)
    return names


def printed(f: Finding) -> dict:
    """For a finding that needs changed cards: the same position with the
    cards as printed, the decisions as far as they stay legal, and the
    decision the game then waits for, so that the scenario pins down what
    the real cards do where the finding arises."""
    old = f.situation.spot
    spot = Spot(old.edition, old.zones, old.life, old.mindbugs,
                tuple(c for c in old.exhausted if DEFS[c].keywords & TOUGH), old.active, old.turn)
    steps = None
    for e in EDITIONS:
        g = spot.game(e)
        taken = []
        for d in f.path:
            if g.pending is None or (d.kind, d.arg) not in g.pending.options:
                break
            g.apply(d)
            taken.append(d)
        if steps is None or len(taken) < len(steps):
            steps = taken
    per = {}
    for e in EDITIONS:
        g = spot.game(e)
        for d in steps:
            g.apply(d)
        exp: dict = {"pending": _pending_expect(g, spot)}
        if g.pending is not None:
            exp["pending"]["options"] = [step(Decision(k, g.pending.player, a), spot) for k, a in g.pending.options]
        per[e] = (exp, None)
    doc = _head(f, title=f"Hunt finding (needs changed cards, shown with the printed ones): {f.question}")
    doc["given"] = given(spot)
    doc["steps"] = [step(d, spot) for d in steps]
    doc["settle"] = False
    _expectations(doc, per)
    return doc


def _head(f: Finding, title: str | None = None) -> dict:
    doc: dict = {
        "format": FORMAT,
        "id": scenario_id(f),
        "title": (title or _title(f))[:200],
        "clauses": _clauses(f),
    }
    cards = _cards(f)
    if cards:
        doc["cards"] = cards
    unsettled = [e for e in EDITIONS if f.editions.get(e, {}).get("verdict") in ("contradiction", "ambiguity")]
    if unsettled:
        src = {"kind": "team ruling",
               "ref": f"mb-oracle hunt: {', '.join(f.clauses)} in tension in {', '.join(unsettled)}; "
                      "the engine's reading"}
    else:
        src = {"kind": "rulebook", "ref": f"mb-oracle hunt: {', '.join(f.clauses)} ({f.category})"}
    doc["source"] = src
    doc["status"] = "draft"
    return doc


def scenario(f: Finding) -> dict:
    """The scenario document for a finding."""
    if not f.situation.spot.real:
        return printed(f)
    spot = f.situation.spot
    per = {}
    extra_steps = None
    for e in EDITIONS:
        # An engine bug is written as the rules have it, so that the draft
        # fails until the engine is fixed; anything else as the engine plays it.
        ruled = _ruled(f, e) if f.category == "engine-bug" else None
        steps, exp, illegal = ruled or _outcome(f, e)
        if extra_steps is None or len(steps) > len(extra_steps):
            extra_steps = steps
        per[e] = (exp, illegal)
    doc = _head(f)
    doc["given"] = given(spot)
    doc["steps"] = [step(d, spot) for d in f.path] + list(extra_steps or [])
    doc["settle"] = False
    _expectations(doc, per)
    return doc


def _expectations(doc: dict, per: dict) -> None:
    """The outcome most editions share is the expectation; the others override it."""
    groups: dict[str, list[str]] = {}
    for e, v in per.items():
        groups.setdefault(repr(v), []).append(e)
    common = max(groups.values(), key=len)
    exp, illegal = per[common[0]]
    if exp:
        doc["expect"] = exp
    if illegal:
        doc["illegal"] = illegal
    overrides = {}
    for e in EDITIONS:
        if e in common:
            continue
        e_exp, e_ill = per[e]
        o: dict = {}
        if e_exp != exp:
            o["expect"] = _replacing(exp or {}, e_exp or {})
        if e_ill != illegal:
            o["illegal"] = e_ill
        overrides[e] = o
    if overrides:
        doc["expect_by_edition"] = overrides
    if "expect" not in doc and "illegal" not in doc:
        doc["expect"] = {"events": [{"kind": "setup"}]}


def _replacing(base: dict, mine: dict) -> dict:
    """An override that turns `base` into `mine`: keys of `mine`, and for the
    keys only `base` has, a value that checks nothing more than needed."""
    out = dict(mine)
    for k, v in base.items():
        if k not in out:
            out[k] = [] if k in ("events", "no_events") else None if k == "pending" else v
    return out


def _title(f: Finding) -> str:
    t = f"Hunt finding ({f.category}): {f.question}"
    return t[:200]


def comment(f: Finding, budget: int | None = None, seed: int | None = None) -> str:
    lines = ["Found by mb-oracle hunt" + (f" (budget {budget} situations, seed {seed})" if budget is not None else "")
             + "."]
    lines.append(f"{f.category}: {f.summary}")
    lines.append(f"Clauses in tension: {', '.join(f.clauses)}")
    if f.outcomes:
        lines.append("Outcomes:")
        for k, v in f.outcomes.items():
            lines.append(f"  {k}: {', '.join(map(str, v)) if isinstance(v, list) else v}")
    lines.append("Editions:")
    for e in EDITIONS:
        entry = f.editions.get(e)
        if not entry:
            continue
        bits = [entry.get("verdict", "")] if entry.get("verdict") else []
        if entry.get("admitted") is not None and "verdict" in entry:
            bits.append("admits " + (", ".join(entry["admitted"]) or "nothing"))
        if entry.get("settled_by"):
            bits.append("settled by " + ", ".join(entry["settled_by"]))
        if entry.get("would_settle"):
            bits.append("silent: " + "; ".join(f"{k} would give {', '.join(v)}"
                                               for k, v in entry["would_settle"].items()))
        if entry.get("engine"):
            bits.append(f"engine: {entry['engine']}")
        if entry.get("group"):
            bits.append("same outcome as " + ", ".join(entry["group"]))
        lines.append(f"  {e}: " + "; ".join(b for b in bits if b))
    if not f.reachable:
        lines.append("Not reachable with First Contact cards: the position needs a creature with another power or")
        lines.append("other keywords than printed. The scenario below sets the position up with the printed")
        lines.append("cards and pins down what they do at that point. The position of the finding:")
        for x in f.situation.describe().splitlines():
            lines.append("  " + x)
        if f.path:
            lines.append("  steps: " + ", ".join(_step_text(d, f.situation.spot) for d in f.path))
    return "".join(f"# {x}\n" for x in lines)


def _step_text(d, spot) -> str:
    s = step(d, spot)
    if isinstance(s, str):
        return s
    (k, v), = s.items()
    return f"{k}: {v}"


class DraftEdited(DraftRefused):
    """Writing a draft would overwrite a file a person has edited (or one
    the hunt did not write), or write through a link out of the folder."""


def draft_path(f: Finding, folder: Path) -> Path:
    return folder / f"{scenario_id(f)}.yaml"


def write(f: Finding, folder: Path, budget=None, seed=None, force: bool = False) -> Path:
    """Write the finding's draft; refuses (DraftEdited) to overwrite a file
    that is not the hunt's own untouched draft, unless `force`, and to
    write through a link out of `folder`."""
    path = draft_path(f, folder)
    body = comment(f, budget, seed) + yaml.safe_dump(scenario(f), sort_keys=False, allow_unicode=True, width=100)
    try:
        write_draft(path, folder, body, "hunt", force)
    except DraftRefused as e:
        raise DraftEdited(str(e)) from None
    f.scenario = str(path)
    return path
