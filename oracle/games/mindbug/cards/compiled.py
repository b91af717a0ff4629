"""Turning declared cards (oracle.games.mindbug.cards.declared) into cards the engine plays.

Each declared ability becomes a function of the same shape as a shipped
card's (`(verbs, game, controller, card)` for a triggered one, the power
layer's shape for a constant bonus), written with the engine's verbs only.
`register(declared)` adds the set, its cards and their abilities to the
card database; a card with `code` borrows the abilities of a shipped card.
"""

from __future__ import annotations

import sys

from ....term import error
from . import KEYWORD_NAMES, CardDef, CardSet, add_set, lookup, slugify
from . import abilities as table
from .declared import VERBS, CardFileError, Declared

VERB_TARGETS = {v: takes for v, (_t, takes, _l) in VERBS.items()}

TRIGGER_CLAUSE = {"play": "triggers.play", "attack": "triggers.attack", "defeated": "triggers.defeated",
                  "harvest": "triggers.harvest", "end-of-turn": "triggers.when", "action": "triggers.action",
                  "when-ally-defeated": "triggers.when.events", "when-enemy-defeated": "triggers.when.events",
                  "when-you-gain-life": "triggers.when.events", "when-you-lose-life": "triggers.when.events"}
_BITS = {name: bit for bit, name in KEYWORD_NAMES.items()}


def _pool(g, me, card, t):
    """The creatures a target allows, powers read now."""
    s = g.state
    side = "enemy" if t is None else t.side
    cards = list(s.play[1 - me]) if side == "enemy" else list(s.play[me]) if side == "allied" \
        else s.play[0] + s.play[1]
    if t is not None:
        if t.others:
            cards = [c for c in cards if c != card]
        if t.power_max is not None:
            cards = [c for c in cards if g.power(c) <= t.power_max]
        if t.power_min is not None:
            cards = [c for c in cards if g.power(c) >= t.power_min]
    return cards


def _triggered(a, trigger: str):
    clause = TRIGGER_CLAUSE[trigger]
    why = (clause,)
    verb = a.effect
    prompt = a.text or verb

    def pick(fx, g, me, card, then):
        pool = _pool(g, me, card, a.target)
        fx.choose(g, me, pool, 0 if a.up_to else a.count, a.count, then, why, card, prompt)

    def run(fx, g, me, card):
        s = g.state
        if a.cost == "octonite" and not fx.spend_octonite(g, card, why):   # later.octonite.spend
            return
        who = me if a.who == "me" else 1 - me
        if verb == "defeat":
            if a.all:
                fx.defeat(g, _pool(g, me, card, a.target), why, card)
            else:
                pick(fx, g, me, card, ("defeat", card, clause))
        elif verb == "take-control":
            if a.all:
                fx.take_control(g, me, _pool(g, me, card, a.target), card)
            else:
                pick(fx, g, me, card, ("take-control", me, card))
        elif verb == "bar-block":
            if a.all:
                for c in _pool(g, me, card, a.target):
                    fx.mark_this_turn(g, c, "no-block", why, card)
            else:
                pick(fx, g, me, card, ("bar-block", card, clause))
        elif verb == "gain-life":
            fx.gain_life(g, who, a.amount, why, card)
        elif verb == "lose-life":
            fx.lose_life(g, who, a.amount, why, card)
        elif verb == "discard":
            opp = 1 - me
            fx.choose(g, opp, s.hand[opp], a.count, a.count, ("discard", opp, card), why + ("terms.discard",), card,
                      prompt)
        elif verb == "steal":
            fx.pick_at_random(g, s.hand[1 - me], a.count, ("steal", me, card), why + ("terms.steal",), card, prompt)
        elif verb == "play-from-discard":
            fx.choose(g, me, s.discard[me], 1, 1, ("play-from-discard", me, me, card), why + ("effects.play-card",),
                      card, prompt)
        elif verb == "keyword-this-turn":
            fx.mark_this_turn(g, card, a.keyword.lower(), why + ("abilities.granted-this-turn",), card)
        elif verb == "steal-life":
            fx.steal_life(g, me, a.amount, why, card)
        elif verb == "draw-unused":
            fx.draw_unused(g, me, a.count, why, card)
        elif verb == "refresh":
            fx.refresh(g, me, why, card)
        elif verb == "boost":                                   # later.boost: up to `count` cards
            fx.boost(g, me, card, a.count, fx.THIS if a.target is None else fx.ANY, why)
    return run


def _useful(a):
    """Whether an Action effect would do something now (triggers.action)."""
    verb = a.effect

    def useful(g, me, card) -> bool:
        s = g.state
        if a.cost == "octonite" and not dict(s.octonite).get(card):  # later.octonite.spend: no counter, no Action
            return False
        if verb == "boost":
            return bool(s.discard[0] or s.discard[1])
        if VERB_TARGETS.get(verb):
            return bool(_pool(g, me, card, a.target))
        if verb == "discard" or verb == "steal":
            return bool(s.hand[1 - me])
        if verb == "play-from-discard":
            return bool(s.discard[me])
        if verb == "draw-unused":
            return bool(s.unused)
        if verb == "refresh":
            return s.mindbugs[me] < 2
        if verb == "steal-life":
            return s.life[1 - me] > 0
        return True
    return useful


def _power(a):
    amount, own_turn, t = a.amount, a.when == "own-turn", a.target

    def bonus(g, me, card, mine, power, kw):
        if own_turn and g.state.active != me:
            return
        if t is None:
            power[card] += amount
            return
        for c in mine:
            if not (t.others and c == card):
                power[c] += amount
    return bonus


_LOADED: dict[str, Declared] = {}


def declared(path) -> Declared:
    """`--cards FILE` of a command: load and register the card file; a bad
    file is a usage error (exit 2), one line for each of its problems,
    naming its file, line and field."""
    try:
        return load_file(path)
    except CardFileError as e:
        for line in str(e).splitlines():
            error(line)
        sys.exit(2)


def load_file(path, text: bytes | None = None) -> Declared:
    """Load and register a card file once (a second call gives the same set);
    `text`: the file's bytes, read already. Raises CardFileError."""
    from pathlib import Path

    from .declared import load
    key = str(Path(path).resolve())
    if key not in _LOADED:
        declared = {d.set.id: d for d in _LOADED.values()}
        decl = load(path, text=text, declared=declared)
        if decl is not declared.get(decl.set.id):      # not a copy of a file loaded already
            register(decl)
        _LOADED[key] = decl
    return _LOADED[key]


def register(decl: Declared) -> list[CardDef]:
    """Add the declared set and cards to the database; return their designs."""
    defs, names = [], {}
    for c in decl.cards:
        bits = 0
        for k in c.keywords:
            bits |= _BITS[k]
        trigger = None
        borrowed = None
        if c.code is not None:
            borrowed = lookup(c.code)
            trigger = borrowed.trigger
        for a in c.abilities:
            if a.trigger != "constant":
                trigger = a.trigger
        text = c.text or " ".join(a.text for a in c.abilities if a.text) or (borrowed.text if borrowed else "")
        trigs = tuple(dict.fromkeys([a.trigger for a in c.abilities if a.trigger != "constant"]
                                    or ([] if borrowed is None else list(borrowed.triggers))))
        line = c.line or (c.name if c.stage == 1 else "")       # evolution lines (setup.set-aside)
        d = CardDef(c.name, c.names.get("fr", c.name), slugify(c.name), c.power, bits, c.table_copies, trigger,
                    text, decl.set.id, trigs, c.stage or 0, line)
        defs.append(d)
        names[c.name] = tuple(c.names.values())
        if borrowed is not None:
            for t in borrowed.triggers:
                if (borrowed.name, t) in table.TRIGGERED:
                    table.TRIGGERED[(c.name, t)] = table.TRIGGERED[(borrowed.name, t)]
            for layer in (table.POWER_LAYER, table.GRANT_LAYER, table.COPY_LAYER, table.BLOCK_RULES,
                          table.ATTACK_RULES):
                if borrowed.name in layer:
                    layer[c.name] = layer[borrowed.name]
            if borrowed.name in table.PLAY_BLOCKERS:
                table.PLAY_BLOCKERS.add(c.name)
            if borrowed.name in table.LIFE_READERS:
                table.LIFE_READERS.add(c.name)
        for a in c.abilities:
            if a.trigger == "constant":
                table.POWER_LAYER[c.name] = _power(a)
            else:
                table.TRIGGERED[(c.name, a.trigger)] = _triggered(a, a.trigger)
                if a.trigger == "action":
                    table.ACTION_USEFUL[c.name] = _useful(a)
        if c.octonite:
            table.OCTONITE[c.name] = c.octonite
        if c.distribute:
            table.DISTRIBUTE.add(c.name)                     # later.octonite.distribute
        later = decl.uses_later_mechanics(c)
        if later:
            table.LATER[c.name] = tuple(later)
    designs = tuple((d.name, d.french, d.power, d.keywords, d.copies, d.trigger, d.text)
                    for d in defs if d.stage < 2)
    faces = tuple((d.name, d.french, d.power, d.keywords, d.stage, d.trigger, d.text)
                  for d in defs if d.stage >= 2)
    lines = tuple((one.name, *(next((d.name for d in defs if d.line == one.name and d.stage == n), "")
                               for n in (2, 3))) for one in defs if one.stage == 1)
    add_set(CardSet(decl.set.id, decl.set.name, decl.set.names.get("fr", decl.set.name), designs, faces, lines),
            defs, names)
    return defs


def snapshot():
    """The card database as it is now; call the function returned to put it
    back (declared sets and their abilities added since are forgotten, and
    their files may be loaded again). For a process that tries cards for a
    while, such as a test."""
    from . import _ALIASES, _OTHER_DECLARED, _SLUGS, _VERSION, CARDS, SETS, STAGE_AFTER

    registries = [SETS, CARDS, _ALIASES, _SLUGS, _OTHER_DECLARED, STAGE_AFTER, _LOADED, table.TRIGGERED, table.POWER_LAYER,
                  table.GRANT_LAYER, table.COPY_LAYER, table.BLOCK_RULES, table.ATTACK_RULES, table.PLAY_BLOCKERS,
                  table.LIFE_READERS, table.ACTION_USEFUL, table.OCTONITE, table.DISTRIBUTE, table.LATER]
    saved = [(r, r.copy()) for r in registries]

    def restore() -> None:
        changed = False
        for r, was in saved:
            if r != was:
                r.clear()
                r.update(was)
                changed = True
        if changed:
            _VERSION[0] += 1     # caches of card ids key on the version: never reuse one

    return restore

