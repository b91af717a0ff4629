"""Comparing a game with a scenario's expectation: every field the
expectation names, each difference with the cards it is about."""

from __future__ import annotations

from collections import Counter

from msgspec import UNSET

from ....scenarios.result import Difference
from ..cards import keyword_list
from ..engine import Game
from ..engine.octonite import counters
from ..engine.state import asks_number, decision_words
from .cards import card_id, card_name, creature_id, face, keyword_name
from .format import Expect
from .wording import _cards, _decision, event_text, option_text, options_text


def differences(g: Game, e: Expect, events) -> list[Difference]:
    """What differs between the game after the steps (with the events of
    the last step, or of every step, as the expectation asks) and `e`."""
    diffs: list[Difference] = []
    s = g.state

    def differ(fieldname, expected, actual, cards=(), values=None):
        diffs.append(Difference(fieldname, expected, actual, tuple(cards), values))

    if e.players is not UNSET:
        for p, pe in enumerate(e.players):
            base = f"players[{p}]"
            for key in ("life", "mindbugs"):
                want = getattr(pe, key)
                if want is not UNSET and getattr(s, key)[p] != want:
                    differ(f"{base}.{key}", str(want), str(getattr(s, key)[p]), values=(want, getattr(s, key)[p]))
            for zone in ("hand", "play", "discard", "deck"):
                want = getattr(pe, zone)
                if want is UNSET:
                    continue
                have = getattr(s, zone)[p]
                _zone(differ, f"{base}.{zone}", want, have, s, ordered=zone == "deck", creature=zone == "play")
    if e.active is not UNSET and s.active != e.active:
        differ("active", str(e.active), str(s.active), values=(e.active, s.active))
    if e.turn is not UNSET and s.turn != e.turn:
        differ("turn", str(e.turn), str(s.turn), values=(e.turn, s.turn))
    if e.exhausted is not UNSET:
        want = sorted(creature_id(r) for r in e.exhausted)
        if want != sorted(s.exhausted):
            differ("exhausted", _cards(want), _cards(sorted(s.exhausted)), set(want) ^ s.exhausted,
                   (_names(want), _names(sorted(s.exhausted))))
        for ref in e.exhausted:
            _face_stage(differ, f"exhausted[{ref}]", ref, g)
    for key in ("power", "keywords", "octonite"):
        for ref in getattr(e, key) or {}:
            _face_stage(differ, f"{key}[{ref}]", ref, g)
    if e.stage is not UNSET:
        _each_creature(differ, "stage", e.stage, g, lambda cid: stage_of(s, cid))
    if e.power is not UNSET:
        _each_creature(differ, "power", e.power, g, g.power)
    if e.keywords is not UNSET:
        for ref, words in e.keywords.items():
            cid = creature_id(ref)
            want = sorted(keyword_name(w) for w in words)
            if g.controller(cid) is None:
                differ(f"keywords[{ref}]", str(want), f"{card_name(cid)} not in play", [cid])
                continue
            have = sorted(keyword_list(g.keywords(cid)))
            if have != want:
                differ(f"keywords[{ref}]", "[" + ", ".join(want) + "]", "[" + ", ".join(have) + "]", [cid],
                       (want, have))
    if e.octonite is not UNSET:
        _each_creature(differ, "octonite", e.octonite, g, lambda cid: counters(s, cid))
    if e.set_aside is not UNSET:
        want = sorted(card_id(r) for r in e.set_aside)
        if want != sorted(s.set_aside):
            differ("set_aside", _cards(want), _cards(sorted(s.set_aside)), set(want) ^ set(s.set_aside),
                   (_names(want), _names(sorted(s.set_aside))))
    if e.winner is not UNSET and g.winner != e.winner:
        differ("winner", _player(e.winner), _player(g.winner))
    if e.reason is not UNSET and g.reason != e.reason:
        differ("reason", str(e.reason), str(g.reason))
    if e.pending is not UNSET:
        _pending(g, e.pending, differ)
    if e.unused is not UNSET and len(s.unused) != e.unused:
        differ("unused", f"{e.unused} cards", f"{len(s.unused)} cards")
    if e.out is not UNSET and len(s.out) != e.out:
        differ("out", f"{e.out} cards", f"{len(s.out)} cards")
    if e.events is not UNSET:
        for k, m in enumerate(e.events):
            if not any(_matches(m, ev) for ev in events):
                differ(f"events[{k}]", _pattern(m), "no such event")
    if e.no_events is not UNSET:
        for k, m in enumerate(e.no_events):
            hits = [ev for ev in events if _matches(m, ev)]
            if hits:
                differ(f"no_events[{k}]", f"no event {_pattern(m)}", event_text(hits[0]))
    return diffs


def _names(ids) -> list[str]:
    return [card_name(c) for c in ids]


def _player(p) -> str:
    return "no winner (the game goes on)" if p is None else f"player {p}"


def stage_of(s, cid: int) -> int:
    """The stage of a creature in play (later.evolve): 1 unless it evolved."""
    return next((n for c, _a, n in s.stages if c == cid), 1)


def _face_stage(differ, fieldname, ref: str, g: Game) -> None:
    """A stage face names its line's stage I card at that stage: a creature
    in play at another stage is a difference."""
    f = face(ref)
    if f is None:
        return
    cid = creature_id(ref)
    if g.controller(cid) is not None and stage_of(g.state, cid) != f[1]:
        differ(f"{fieldname}.stage", f"{ref} (stage {f[1]})",
               f"{card_name(cid)} at stage {stage_of(g.state, cid)}", [cid])


def _each_creature(differ, key: str, wanted: dict, g: Game, value) -> None:
    """A number expected of each named creature (`key`: stage, power,
    octonite) against `value(creature)`, the creature in play."""
    for ref, want in wanted.items():
        cid = creature_id(ref)
        if g.controller(cid) is None:
            differ(f"{key}[{ref}]", str(want), f"{card_name(cid)} not in play", [cid])
        else:
            have = value(cid)
            if have != want:
                differ(f"{key}[{ref}]", str(want), str(have), [cid], (want, have))


def _zone(differ, fieldname, want, have, s, ordered, creature=False) -> None:
    if isinstance(want, int):
        if len(have) != want:
            differ(fieldname, f"{want} card{'s' * (want != 1)}", f"{len(have)} {_cards(have)}", have)
        return
    named = creature_id if creature else card_id
    ids = [named(x if isinstance(x, str) else x.card) for x in want]
    same = ids == list(have) if ordered else Counter(ids) == Counter(have)
    if not same:
        shown = _cards(ids)
        extra = ""
        if not ordered:
            missing = list((Counter(ids) - Counter(have)).elements())
            unexpected = list((Counter(have) - Counter(ids)).elements())
            bits = []
            if missing:
                bits.append(f"missing {_cards(missing)}")
            if unexpected:
                bits.append(f"unexpected {_cards(unexpected)}")
            extra = " (" + "; ".join(bits) + ")"
        differ(fieldname, shown, _cards(have) + extra, set(ids) ^ set(have), (_names(ids), _names(have)))
        return
    for x in want:
        f = face(x if isinstance(x, str) else x.card) if creature else None
        if f is not None and stage_of(s, named(f[0])) != f[1]:
            cid = named(f[0])
            differ(f"{fieldname}[{card_name(cid)}].stage", f"stage {f[1]} ({x if isinstance(x, str) else x.card})",
                   f"stage {stage_of(s, cid)}", [cid])
        if not isinstance(x, str):
            cid = named(x.card)
            if (cid in s.exhausted) != x.exhausted:
                state = "exhausted" if cid in s.exhausted else "not exhausted"
                differ(f"{fieldname}[{card_name(cid)}]",
                       "exhausted" if x.exhausted else "not exhausted", state, [cid])
            if x.octonite is not UNSET and counters(s, cid) != x.octonite:
                differ(f"{fieldname}[{card_name(cid)}].octonite", str(x.octonite), str(counters(s, cid)), [cid])
            if x.stage is not UNSET:
                have = stage_of(s, cid)
                if have != x.stage:
                    differ(f"{fieldname}[{card_name(cid)}].stage", str(x.stage), str(have), [cid])
            if x.boosts is not UNSET:
                under = next((u for c, u in s.boosts if c == cid), ())
                want_under = [card_id(r) for r in x.boosts]
                if Counter(under) != Counter(want_under):
                    differ(f"{fieldname}[{card_name(cid)}].boosts", _cards(want_under) or "none",
                           _cards(list(under)) or "none", [cid, *(set(under) ^ set(want_under))])


def _pending(g, pe, differ) -> None:
    p = g.pending
    if pe is None:
        if p is not None:
            differ("pending", "no decision (the game is over)", decision_words(p.stage, p.player))
        return
    if p is None:
        differ("pending", "a decision", f"none: the game is over (player {g.winner} won)")
        return
    if pe.stage is not UNSET and p.stage != pe.stage:
        differ("pending.stage", pe.stage, p.stage)
    if pe.player is not UNSET and p.player != pe.player:
        differ("pending.player", str(pe.player), str(p.player))
    have = {(k, a) for k, a in p.options}
    num = asks_number(p)        # picks written as numbers, not as cards
    if pe.options is not UNSET:
        want = {_decision(x) for x in pe.options}
        if want != have:
            missing = sorted(option_text(*o, num) for o in want - have)
            extra = sorted(option_text(*o, num) for o in have - want)
            bits = ([f"missing {missing}"] if missing else []) + ([f"unexpected {extra}"] if extra else [])
            differ("pending.options", str(sorted(option_text(*o, num) for o in want)),
                   str(sorted(option_text(*o, num) for o in have)) + " (" + "; ".join(bits) + ")")
    if pe.has is not UNSET:
        for x in pe.has:
            o = _decision(x)
            if o not in have:
                differ("pending.has", option_text(*o, num), "not a legal option: " + options_text(g))
    if pe.lacks is not UNSET:
        for x in pe.lacks:
            o = _decision(x)
            if o in have:
                differ("pending.lacks", f"{option_text(*o, num)} not legal", "it is legal")
    if pe.source is not UNSET and p.source != card_id(pe.source):
        differ("pending.source", pe.source, "none" if p.source is None else card_name(p.source))
    if pe.clauses is not UNSET:
        for c in pe.clauses:
            if c not in p.clauses:
                differ("pending.clauses", c, str(list(p.clauses)))


def _matches(m, ev) -> bool:
    if m.kind is not UNSET and ev.kind != m.kind:
        return False
    if m.clause is not UNSET and m.clause not in ev.clauses:
        return False
    if m.player is not UNSET and ev.player != m.player:
        return False
    if m.card is not UNSET and ev.card != card_id(m.card):
        return False
    if m.source is not UNSET and ev.source != card_id(m.source):
        return False
    if m.amount is not UNSET and ev.amount != m.amount:
        return False
    if m.cards is not UNSET and Counter(ev.cards or ()) != Counter(card_id(r) for r in m.cards):
        return False
    return True


def _pattern(m) -> str:
    bits = []
    for f in ("kind", "card", "cards", "player", "amount", "source", "clause"):
        v = getattr(m, f)
        if v is not UNSET:
            bits.append(f"{f}={v}")
    return "{" + ", ".join(bits) + "}"
