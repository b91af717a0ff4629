"""Naming the clauses behind a state mismatch, from the events the rules
produced since the last claim that agreed."""

from __future__ import annotations

from .places import distinct_places

# The fields of a state claim each kind of event changes (for naming the
# clause behind a mismatch).
EVENT_FIELDS = {
    "draw": ("hand", "deck"), "gain-life": ("life",), "lose-life": ("life",), "no-gain": ("life",),
    "mindbug": ("mindbugs", "play", "played"), "play": ("hand", "played"),
    "enter-play": ("play", "played"), "defeat": ("play", "discard"), "exhaust": ("play",),
    "discard": ("hand", "discard"), "steal": ("hand",), "take-control": ("play",),
    "return-to-hand": ("hand", "discard"), "turn": ("active", "turn"), "end-turn": ("active", "turn"),
    "hand-over": ("hand",),
}
FIELD_FALLBACK = {
    "life": ("life.lose", "life.gain"), "mindbugs": ("mindbug.use",), "hand": ("drawing.refill",),
    "deck": ("drawing.refill",), "play": ("turns.action",), "discard": ("combat.to-discard",),
    "played": ("play.from-hand",), "active": ("turns.alternate",), "turn": ("turns.alternate",),
    "unused": ("setup.deal",), "set_aside": ("setup.set-aside",),
}
# Events whose absence of effect can explain any field (a Play effect that
# did not happen, an attack that ended early).
BROAD_EVENTS = {"play-effect-prevented", "attack-ends", "no-effect"}


def choice_clauses(g) -> list[str]:
    """The clauses of the choice the rules wait for, for a finding whose log
    skipped it: those that shape its options (a block SNEAKY or an ability
    forbids) first, then the decision's own."""
    from ..engine.combat import block_forbidden

    p = g.pending
    if p is None:
        return []
    from ..cards import SNEAKY

    out: list[str] = []
    s = g.state
    if p.stage == "block" and s.combat:
        if (s.combat[0] in s.play[0] or s.combat[0] in s.play[1]) and g.has(s.combat[0], SNEAKY):
            out.append("keywords.sneaky")
        for c in s.play[p.player]:
            why = block_forbidden(g, s.combat[0], c)
            if why is not None:
                out.append(why[0])
    return list(dict.fromkeys(out + list(p.clauses)))


def skip_explains(g, line, n) -> bool:
    """Whether an answer to the choice the rules wait for in `g`, with the
    forced steps after it, leaves fewer than `n` differences with the
    claim `line`: skipping that choice explains the claim."""
    from .diff import card_diff

    for option in g.pending.options:
        probe = g.copy()
        probe.apply_unchecked(*option)
        while probe.pending is not None and len(probe.pending.options) == 1:
            probe.apply_unchecked(*probe.pending.options[0])
        if len(card_diff(probe, line)) < n:
            return True
    return False


def _tough_wiped(g, diff) -> bool:
    """A TOUGH creature the rules have exhausted (its first defeat turned
    into exhaustion) and the claim has ready, in the same play area."""
    from ..cards import TOUGH

    for e in diff:
        if e.field is not None or not isinstance(e.log, list) or not isinstance(e.rules, list):
            continue
        card = e.card
        if card not in g.state.play[0] and card not in g.state.play[1] or not g.has(card, TOUGH):
            continue
        if any(isinstance(r, dict) and r.get("zone") == "play" and r.get("exhausted") is True for r in e.rules) and \
                any(isinstance(x, dict) and x.get("zone") == "play" and x.get("exhausted") is False for x in e.log):
            return True
    return False


def _tough_spent(g, diff) -> bool:
    """A TOUGH creature the claim has in play, exhausted, where the rules have
    it out of play (defeated, as it was exhausted already)."""
    from ..cards import TOUGH

    def in_play(places, exhausted=None) -> int:
        return sum(pl.get("count", 1) for pl in places if isinstance(pl, dict) and pl.get("zone") == "play"
                   and (exhausted is None or pl.get("exhausted") is exhausted))

    for e in diff:
        if e.field is not None or not isinstance(e.log, list) or not isinstance(e.rules, list):
            continue
        if in_play(e.log, True) <= in_play(e.rules):
            continue
        cards = [e.card] if e.card is not None else [c for c, n in g.table.names.items() if n == e.name]
        if any(c in g.table.defs and g.table.defs[c].keywords & TOUGH for c in cards):
            return True
    return False


def _boost_power(g, e, logs, rules) -> bool:
    """Whether the power of a boosted creature is all that differs, by the
    number of cards under it: the log's power leaves the boost out."""
    from ..engine.boost import under

    if e.card is None or len(logs) != 1 or len(rules) != 1:
        return False
    log, rule = logs[0], rules[0]
    if not (isinstance(log, dict) and isinstance(rule, dict)) or "keywords" in log or "keywords" in rule:
        return False
    lp, rp = log.get("power"), rule.get("power")
    if not isinstance(lp, int) or not isinstance(rp, int):
        return False
    n = len(under(g, e.card))
    return n > 0 and lp + n == rp


def _own_first(clauses) -> list[str]:
    """An event's clauses with what it did (where it put cards) before the
    trigger that set it off."""
    return sorted(clauses, key=lambda c: c.startswith("triggers."))


def buried(g, under_deck, arg) -> list[str]:
    """The clauses of the effects that put a card the decision names (`arg`:
    a card or a list of cards) under a draw pile where it still is (Future
    Eric's): a log that refers to it as drawn broke the rule of where they
    went, not the rule that refuses the decision."""
    named = set(arg) if isinstance(arg, (list, tuple)) else {arg}
    decks = g.state.deck
    out: list[str] = []
    for e in reversed(under_deck):
        if any(c in named and (c in decks[0] or c in decks[1]) for c in e.cards):
            out.extend(c for c in _own_first(e.clauses) if c not in out)
    return out


def _life_events(events, diff) -> list:
    """The gains and losses of life, latest first, that each account for a
    player's life total differing: a gain of the difference where the log's
    total is lower, a loss of it where the log's is higher. Each comes with
    whether the other player's total is off the other way by as much (the
    log gave it to the other player)."""
    gaps = {d.field: d.rules - d.log for d in diff if d.field in ("life[0]", "life[1]")
            and isinstance(d.log, int) and isinstance(d.rules, int)}
    out = []
    for field, gap in gaps.items():
        p = int(field[5])
        kind = "gain-life" if gap > 0 else "lose-life"
        misdirected = gaps.get(f"life[{1 - p}]") == -gap
        out += [(e, misdirected) for e in reversed(events)
                if e.kind == kind and e.player == p and e.amount == abs(gap)]
    return out


def _base(field: str) -> str:
    return field.split("[", 1)[0]


def attribute(g, events, diff, earlier=()) -> list[str]:
    """The clauses behind a mismatch, from its diff entries: first those of
    the events that moved the differing cards (the latest event first, as it
    put the card where the rules have it; `earlier`: events before the last
    claim that agreed, which put cards under a draw pile where the claim
    could not see their order, come before them), then those of events that left
    something undone, then those of events that change the differing fields,
    then a clause per field; the clauses every step
    cites come last. The order depends only on the game and the claim."""
    clauses: list[str] = []
    names = g.table.names
    diff_cards: set = set()
    fields: list[str] = []
    for e in diff:
        if e.field is not None:
            fields.append(_base(e.field))
            continue
        if e.card is not None:
            diff_cards.add(e.card)          # that card, not every card of its name
        elif e.name is not None:
            diff_cards.add(e.name)
        for side in (e.log, e.rules):
            for place in distinct_places(side) if isinstance(side, list) else ():
                if isinstance(place, dict) and place.get("zone") in FIELD_FALLBACK:
                    fields.append(place["zone"])
    fields = list(dict.fromkeys(fields))
    floor = g.profile.power_floor
    for e in diff:
        logs = e.log if isinstance(e.log, list) else []
        rules = e.rules if isinstance(e.rules, list) else []
        # Each place once, however often a claim lists it (a card under a creature a thousand times).
        log_places, rule_places = distinct_places(logs), distinct_places(rules)
        if any(isinstance(pl, dict) and isinstance(pl.get("power"), int) and pl["power"] < floor
               for pl in log_places):
            clauses.append("cards.power-minimum")
        if any(isinstance(pl, dict) and ("power" in pl or "keywords" in pl) for pl in rule_places + log_places) \
                and len(logs) == len(rules) and [pl.get("zone") for pl in logs] == [pl.get("zone") for pl in rules]:
            # A power the cards under the creature account for is the boost's
            # (later.boost.counts), not a constant ability's.
            clauses.append("later.boost.counts" if _boost_power(g, e, logs, rules) else "abilities.constant")
        # Later sets: a creature's stage or face (later.evolve), a boost card
        # or the cards under a creature (later.boost).
        places = [pl for pl in rule_places + log_places if isinstance(pl, dict)]
        if any("stage" in pl or "face" in pl or pl.get("zone") == "stage" for pl in places):
            clauses.append("later.evolve")
        if any("boosts" in pl or pl.get("zone") == "boost" for pl in places):
            clauses.append("later.boost")
    # The same card in a discard pile, on the other side: a question of who
    # controlled it when it was defeated.
    controller_swap = any(
        len(e.log) == 1 and len(e.rules) == 1 and e.log[0].get("zone") == e.rules[0].get("zone") == "discard"
        and e.log[0].get("player") != e.rules[0].get("player")
        for e in diff if e.field is None and isinstance(e.log, list) and isinstance(e.rules, list))
    if controller_swap:
        clauses += ["mindbug.defeated-controller", "combat.to-discard"]
    arrivals = {e.card: e.clauses for e in events if e.kind == "enter-play"}

    def cite(e):
        # An effect's clauses, after how its source came into play when that
        # decides who the effect is for (a mindbugged Play effect).
        src = arrivals.get(e.source, ())
        if "mindbug.play-effect" in src:
            clauses.extend(src)
        clauses.extend(e.clauses)

    def touched(e):
        t = ({e.card} if e.card is not None else set()) | set(e.cards or ())
        return t | {names[c] for c in t if c in names}

    for e in reversed(earlier):
        if touched(e) & diff_cards:
            # A claim after it agreed: the effect happened, where it put the cards is at stake.
            clauses.extend(_own_first(e.clauses))
    for e in reversed(events):
        if touched(e) & diff_cards:
            cite(e)
    # A life total off by the amount of one gain or loss of that player's
    # (a gain the log left out, a loss it did not take): that event.
    for e, misdirected in _life_events(events, diff):
        if misdirected:
            cite(e)                 # who the effect was for
        else:
            clauses.extend(e.clauses)
    # What the rules left undone (an attack that ended early, a Play effect
    # prevented) explains a difference better than the steps that followed it.
    for e in reversed(events):
        if e.kind in BROAD_EVENTS:
            cite(e)
    for e in reversed(events):
        if e.kind in EVENT_FIELDS and set(EVENT_FIELDS[e.kind]) & set(fields) and not diff_cards:
            cite(e)
    if "life" in fields:
        for e in reversed(events):
            if e.kind in ("gain-life", "lose-life", "no-gain"):
                cite(e)
    if _tough_wiped(g, diff) or _tough_spent(g, diff):
        clauses.append("keywords.tough")
    if {"turn", "active"} & set(fields) and any(e.kind == "mindbug" for e in events):
        clauses.append("mindbug.extra-action")  # who acts after a Mindbug, and in which turn
    for f in fields:
        clauses.extend(FIELD_FALLBACK.get(f, ()))
    # Generic clauses that every step cites say little: put them last.
    generic = {"triggers.controller", "effects.chooser", "combat.to-discard", "mindbug.defeated-controller",
               "drawing.before-effects", "turns.action", "combat.block"}
    ordered = list(dict.fromkeys(clauses))
    if controller_swap:
        return ["mindbug.defeated-controller"] + [c for c in ordered if c != "mindbug.defeated-controller"]
    return [c for c in ordered if c not in generic] + [c for c in ordered if c in generic]
