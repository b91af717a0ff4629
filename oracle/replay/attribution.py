"""Naming the clauses behind a state mismatch, from the events the rules
produced since the last claim that agreed."""

from __future__ import annotations

from collections import Counter

# The fields of a state claim each kind of event changes (for naming the
# clause behind a mismatch).
EVENT_FIELDS = {
    "draw": ("hand", "deck"), "gain-life": ("life",), "lose-life": ("life",), "no-gain": ("life",),
    "mindbug": ("mindbugs", "play", "played"), "play": ("hand", "played"),
    "enter-play": ("play", "played"), "defeat": ("play", "discard"), "exhaust": ("play",),
    "discard": ("hand", "discard"), "steal": ("hand",), "take-control": ("play",),
    "return-to-hand": ("hand", "discard"), "turn": ("active", "turn"), "end-turn": ("active", "turn"),
}
FIELD_FALLBACK = {
    "life": ("life.lose", "life.gain"), "mindbugs": ("mindbug.use",), "hand": ("drawing.refill",),
    "deck": ("drawing.refill",), "play": ("turns.action",), "discard": ("combat.to-discard",),
    "played": ("play.from-hand",), "active": ("turns.alternate",), "turn": ("turns.alternate",),
    "unused": ("setup.deal",),
}
# Events whose absence of effect can explain any field (a Play effect that
# did not happen, an attack that ended early).
BROAD_EVENTS = {"play-effect-prevented", "attack-ends", "no-effect"}


def attribute(g, events, fields, rules, log) -> list[str]:
    """The clauses behind a mismatch: those of the events that changed the
    differing cards or fields since the last claim; else a clause per field."""
    clauses: list[str] = []
    diff_cards = set()
    for f in ("hand", "discard"):
        if f in fields:
            for p in (0, 1):
                a, b = rules[f][p], log[f][p] if p < len(log[f]) else []
                diff_cards |= set(Counter(a) - Counter(b)) | set(Counter(b) - Counter(a))
    if "play" in fields:
        for p in (0, 1):
            ra = {e: e[0] for e in rules["play"][p]}
            la = {e: e[0] for e in (log["play"][p] if p < len(log["play"]) else [])}
            diff_cards |= {ra[k] for k in ra.keys() - la.keys()} | {la[k] for k in la.keys() - ra.keys()}
            for e in log["play"][p] if p < len(log["play"]) else []:
                if e[2] is not None and e[2] < g.profile.power_floor:
                    clauses.append("cards.power-minimum")
            if set(ra) != set(la) and any(e[2] is not None or e[3] is not None for e in rules["play"][p]):
                clauses.append("abilities.constant")
    # The same card in the same kind of zone, on the other side: a question
    # of who controls it.
    for p in (0, 1):
        for f in ("discard",):
            if f in fields and p < len(log[f]):
                for c in set(log[f][p]) - set(rules[f][p]):
                    if c in rules[f][1 - p]:
                        clauses += ["mindbug.defeated-controller", "combat.to-discard"]
    names = g.table.names
    arrivals = {e.card: e.clauses for e in events if e.kind == "enter-play"}

    def cite(e):
        # An effect's clauses, after how its source came into play when that
        # decides who the effect is for (a mindbugged Play effect).
        src = arrivals.get(e.source, ())
        if "mindbug.play-effect" in src:
            clauses.extend(src)
        clauses.extend(e.clauses)

    for e in events:
        touched = ({e.card} if e.card is not None else set()) | set(e.cards or ())
        touched |= {names[c] for c in touched if c in names}
        if touched & diff_cards or (e.kind in EVENT_FIELDS and set(EVENT_FIELDS[e.kind]) & set(fields)
                                    and not diff_cards):
            cite(e)
        elif e.kind in BROAD_EVENTS:
            cite(e)
    if "life" in fields:
        for e in events:
            if e.kind in ("gain-life", "lose-life", "no-gain"):
                cite(e)
    for f in fields:
        clauses.extend(FIELD_FALLBACK.get(f, ()))
    # Generic clauses that every step cites say little: put them last.
    generic = {"triggers.controller", "effects.chooser", "combat.to-discard", "mindbug.defeated-controller",
               "drawing.before-effects", "turns.action", "combat.block"}
    ordered = list(dict.fromkeys(clauses))
    specific = [c for c in ordered if c not in generic]
    rest = [c for c in ordered if c in generic]
    if "mindbug.defeated-controller" in clauses[:2]:
        return ["mindbug.defeated-controller"] + [c for c in ordered if c != "mindbug.defeated-controller"]
    return specific + rest


