"""State claims: the rules' view and the log's view of the claimed fields.

Hands, discard piles and play areas are compared as sets (their order means
nothing in the rules); draw piles by count or in order; cards by id, or by
name for engines without stable card identity.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ..cards import KEYWORD_NAMES, UnknownCard, lookup, next_stage
from ..engine import Game
from .format import FullClaim

ROMAN = {1: "I", 2: "II", 3: "III"}


def _zone(oracle_cards, claimed, names) -> tuple[list, list]:
    """A hand or discard pile, compared as a set: by ids, or by names when
    the log names cards (engines without stable card identity)."""
    try:
        log = sorted(claimed)
        if not log or log[0].__class__ is int:
            return sorted(oracle_cards), log
    except TypeError:
        pass  # ids and names mixed
    return sorted(names[c] for c in oracle_cards), sorted(name_of(c, names) for c in claimed)


def name_of(ref, names) -> str:
    """A card as a design name: an id through the setup's names, a name as the card database spells it."""
    if isinstance(ref, str):
        try:
            return lookup(ref).name
        except UnknownCard:
            return ref
    return names.get(ref, str(ref))


def stage_of(g: Game, card: int) -> int | None:
    """The stage a creature of an evolution line shows (later.evolve): 1, 2
    or 3; None for a creature of no line."""
    return g.design(card).stage or None


def boosts_of(g: Game, card: int) -> tuple:
    """The boost cards under a creature (later.boost), in the order they came."""
    for c, under in g.state.boosts:
        if c == card:
            return under
    return ()


def face_name(ref: str, stage=msgspec.UNSET) -> str:
    """The design a creature named `ref` shows: a stage face names itself (a
    creature written "Frog Prophet" is the evolved creature); a stage I name
    with a claimed `stage` of 2 or 3 names that stage's face of its line."""
    name = name_of(ref, {})
    if stage is msgspec.UNSET or not isinstance(stage, int):
        return name
    try:
        d = lookup(name)
    except UnknownCard:
        return name
    while d.stage and d.stage < stage:
        after = next_stage(d)
        if after is None:
            break
        d = after
    return d.name


def all_ids(refs) -> bool:
    """Whether every card of `refs` is given by its id, an int (a bool is
    no id): a loop in C over their classes."""
    return _IDS.issuperset(map(type, refs))


def _refs(refs, names, as_names: bool) -> tuple:
    """Cards as sorted ids, or as sorted names (`as_names`): a set of cards."""
    if as_names:
        return tuple(sorted(name_of(r, names) for r in refs))
    return tuple(sorted(refs))


def _later_fields_match(g: Game, entry, card: int) -> bool:
    """The later-set sub-fields of a creature claimed by id: stage, face, boosts."""
    U = _U
    v = entry.stage
    if v is not U and v != stage_of(g, card):
        return False
    v = entry.face
    if v is not U and name_of(v, {}) != g.design(card).name:
        return False
    v = entry.boosts
    if v is U:
        return True
    as_names = any(r.__class__ is not int for r in v)
    return _refs(v, g.table.names, as_names) == _refs(boosts_of(g, card), g.table.names, as_names)


_U = msgspec.UNSET
_IDS: Final = frozenset((int,))     # the class of a card id (a bool is no id)


def claim_matches(g: Game, line) -> bool:
    """A quick test that a claim states exactly the rules' state, in the
    rules' own order. False means: compare properly (claim_views). Called
    on every claim: each field is read once, the common claim (every field,
    creatures by id with `exhausted`) takes no detour."""
    s = g.state
    U = _U
    v = line.life
    if v is not U and v != s.life:
        return False
    v = line.mindbugs
    if v is not U and v != s.mindbugs:
        return False
    v = line.hand
    if v is not U and v != s.hand:
        return False
    v = line.discard
    if v is not U and v != s.discard:
        return False
    v = line.play
    if v is not U:
        if len(v) != 2:
            return False
        ex = s.exhausted
        for claimed, mine in zip(v, s.play):
            if len(claimed) != len(mine):
                return False
            for c, o in zip(claimed, mine):
                if c.card != o:
                    return False
                e = c.exhausted
                if (e is not U and e != (o in ex)) or c.power is not U or c.keywords is not U:
                    return False
                if (c.stage is not U or c.face is not U or c.boosts is not U) and not _later_fields_match(g, c, o):
                    return False
    v = line.deck
    if v is not U:
        if len(v) != 2:
            return False
        c, d = v[0], s.deck[0]
        if (c != len(d)) if c.__class__ is int else (c != d):
            return False
        c, d = v[1], s.deck[1]
        if (c != len(d)) if c.__class__ is int else (c != d):
            return False
    v = line.unused
    if v is not U and ((v != len(s.unused)) if v.__class__ is int else (v != s.unused)):
        return False
    v = line.played
    if v is not U and v != s.played:
        return False
    v = line.active
    if v is not U and v != s.active:
        return False
    v = line.set_aside
    if v is not U and sorted(v) != sorted(s.set_aside):
        return False
    v = line.turn
    return v is U or v == s.turn


def claim(g: Game) -> dict:
    """A full state claim of the game as it stands: what self-play and
    annotate write, and the form the fast lane compares first (fastlane)."""
    s = g.state
    return {
        "t": "state",
        "life": list(s.life),
        "mindbugs": list(s.mindbugs),
        "hand": [list(s.hand[0]), list(s.hand[1])],
        "play": [[_creature(g, c) for c in s.play[p]] for p in (0, 1)],
        "discard": [list(s.discard[0]), list(s.discard[1])],
        "deck": [len(s.deck[0]), len(s.deck[1])],
        "played": s.played,
        "active": s.active,
        "turn": s.turn,
        **({"set_aside": sorted(s.set_aside)} if s.set_aside else {}),
    }


_enc_into: Final = msgspec.json.Encoder().encode_into
_Raw: Final = msgspec.Raw


# How a plain creature of a claim is written, as raw JSON that the encoder
# copies as it is: READY[c] and EXHAUSTED[c] for the card ids 0 to
# _ROWS - 1, each made when first met and kept; other ids written each time.
# Final: the compiled build keeps these in the module's own variables, not its dict.
_ROWS: Final = 512
READY: Final[list] = [None] * _ROWS
EXHAUSTED: Final[list] = [None] * _ROWS
# The full claim as the encoder writes it (format.FullClaim: StateLine's bytes, made by position).
_full_claim: Final[Any] = FullClaim


def claim_into(g: Game, buf: bytearray) -> bytearray:
    """`claim(g)` as the bytes of a JSON line, written into `buf`: the memory
    of a buffer kept from one claim to the next is not allocated again."""
    _enc_into(_claim_line(g), buf)
    return buf


def _claim_line(g: Game) -> Any:
    """`claim(g)` as an encoder writes it; made directly where no creature
    has a stage or boost cards and nothing is set aside: a
    `format.FullClaim`, which writes StateLine's fields in the order of
    `claim`, each creature as raw JSON."""
    s = g.state
    if s.set_aside or s.boosts or g.table.flags.lines:
        return claim(g)
    ex = s.exhausted
    play = []
    for side in s.play:
        written = []
        for c in side:
            rows = EXHAUSTED if ex and c in ex else READY
            w = rows[c] if 0 <= c < _ROWS else None
            if w is None:
                w = _Raw(b'{"card":%d,"exhausted":%s}' % (c, b"true" if rows is EXHAUSTED else b"false"))
                if 0 <= c < _ROWS:
                    rows[c] = w
            written.append(w)
        play.append(written)
    d = s.deck
    return _full_claim(s.life, s.mindbugs, s.hand, play, s.discard, [len(d[0]), len(d[1])], s.played, s.active,
                       s.turn)


def _creature(g: Game, c: int) -> dict:
    """A creature of a claim: its id and exhaustion; a creature of an
    evolution line with its stage (and, evolved, the face it shows); a
    creature with boost cards with the cards under it."""
    entry: dict = {"card": c, "exhausted": c in g.state.exhausted}
    d = g.design(c)
    if d.stage:
        entry["stage"] = d.stage
        if d.stage >= 2:
            entry["face"] = d.name
    if g.state.boosts:
        under = next((u for k, u in g.state.boosts if k == c), ())
        if under:
            entry["boosts"] = list(under)
    return entry


def claim_views(g: Game, line) -> tuple[dict, dict]:
    """The claimed fields as the rules see them and as the log states them,
    both normalised: hands, discard piles and play areas are compared as
    sets (their order means nothing); draw piles by count or in order."""
    s = g.state
    rules: dict = {}
    log: dict = {}
    U = msgspec.UNSET
    if line.life is not U:
        rules["life"], log["life"] = list(s.life), list(line.life)
    if line.mindbugs is not U:
        rules["mindbugs"], log["mindbugs"] = list(s.mindbugs), list(line.mindbugs)
    for field in ("hand", "discard"):
        claimed = getattr(line, field)
        if claimed is not U:
            zones = getattr(s, field)
            names = g.table.names
            pairs = [_zone(zones[p], claimed[p] if p < len(claimed) else [], names) for p in (0, 1)]
            rules[field] = [pairs[0][0], pairs[1][0]]
            log[field] = [pairs[0][1], pairs[1][1]] if len(claimed) == 2 else claimed
    if line.play is not U:
        rp, lp = [], []
        for p in (0, 1):
            claimed = line.play[p] if p < len(line.play) else []
            r, l_ = _play_side(g, p, claimed)
            rp.append(r)
            lp.append(l_)
        rules["play"], log["play"] = rp, (lp if len(line.play) == 2 else line.play)
    if line.deck is not U:
        rd: list = []
        ld: list = []
        for p in (0, 1):
            c = line.deck[p] if p < len(line.deck) else None
            if isinstance(c, list):
                rd.append(list(s.deck[p]))
                ld.append(list(c))
            else:
                rd.append(len(s.deck[p]))
                ld.append(c)
        rules["deck"], log["deck"] = rd, ld
    if line.unused is not U:
        if isinstance(line.unused, list):
            rules["unused"], log["unused"] = list(s.unused), list(line.unused)
        else:
            rules["unused"], log["unused"] = len(s.unused), line.unused
    if line.played is not U:
        rules["played"], log["played"] = s.played, line.played
    if line.active is not U:
        rules["active"], log["active"] = s.active, line.active
    if line.turn is not U:
        rules["turn"], log["turn"] = s.turn, line.turn
    if line.set_aside is not U:
        rules["set_aside"], log["set_aside"] = sorted(s.set_aside), sorted(line.set_aside)
    return rules, log


def _play_side(g: Game, p, claimed) -> tuple[list, list]:
    """A play area as rules and log see it: entries (card, exhausted, power,
    keywords, stage, face, boosts), each part None where the log does not
    claim it; sorted. In a play area of names a creature is named by the
    face it shows (later.evolve)."""
    s = g.state
    U = msgspec.UNSET
    names = g.table.names
    by_name = want_ex = want_pw = want_kw = want_later = False
    for c in claimed:
        if c.card.__class__ is str:
            by_name = True
        if c.exhausted is not U:
            want_ex = True
        if c.power is not U:
            want_pw = True
        if c.keywords is not U:
            want_kw = True
        if c.stage is not U or c.face is not U or c.boosts is not U:
            want_later = True
    ex = s.exhausted
    rules: list
    log: list
    if not (by_name or want_pw or want_kw or want_later):
        if want_ex:
            rules = sorted((c, c in ex, None, None, None, None, None) for c in s.play[p])
            log = sorted((c.card, None if c.exhausted is U else c.exhausted, None, None, None, None, None)
                         for c in claimed)
        else:
            rules = sorted((c, None, None, None, None, None, None) for c in s.play[p])
            log = sorted((c.card, None, None, None, None, None, None) for c in claimed)
        return rules, log
    want_st = any(c.stage is not U for c in claimed)
    want_face = any(c.face is not U for c in claimed)
    want_boosts = any(c.boosts is not U for c in claimed)
    boosts_by_name = any(not all_ids(c.boosts) for c in claimed if c.boosts is not U)
    rules = []
    for c in s.play[p]:
        kw = None
        if want_kw:
            m = g.keywords(c)
            kw = tuple(sorted(n for b, n in KEYWORD_NAMES.items() if m & b))
        rules.append((g.design(c).name if by_name else c, (c in ex) if want_ex else None,
                      g.power(c) if want_pw else None, kw,
                      stage_of(g, c) if want_st else None, g.design(c).name if want_face else None,
                      _refs(boosts_of(g, c), names, boosts_by_name) if want_boosts else None))
    log = []
    for c in claimed:
        ref = c.card
        log.append(((face_name(ref, c.stage) if ref.__class__ is str else
                     g.design(ref).name if ref in names else str(ref)) if by_name else ref,
                    (None if c.exhausted is U else c.exhausted) if want_ex else None,
                    (None if c.power is U else c.power) if want_pw else None,
                    (None if c.keywords is U else tuple(sorted(k.upper() for k in c.keywords))) if want_kw else None,
                    (None if c.stage is U else c.stage) if want_st else None,
                    (None if c.face is U else name_of(c.face, names)) if want_face else None,
                    (None if c.boosts is U else _refs(c.boosts, names, boosts_by_name))
                    if want_boosts else None))
    return _sorted_entries(rules), _sorted_entries(log)


def _sorted_entries(entries: list) -> list:
    """Play entries (card, exhausted, power, keywords, stage, face, boosts)
    sorted by the texts of their parts: a creature's boost cards (up to a
    thousand) written once for all the creatures that list the same."""
    texts: dict = {}

    def key(e: tuple) -> tuple:
        boosts = e[6]
        if boosts is None:
            return tuple(str(x) for x in e)
        text = texts.get(boosts)
        if text is None:
            text = texts[boosts] = str(boosts)
        return (*(str(x) for x in e[:6]), text)

    return sorted(entries, key=key)


def not_pairs(line) -> str | None:
    """The first field of a state claim that should be a pair and is not."""
    for f in ("life", "mindbugs", "hand", "play", "discard", "deck"):
        value = getattr(line, f)
        if value is not msgspec.UNSET and len(value) != 2:
            return f
    return None


def is_full_claim(line) -> bool:
    """A claim that describes a whole position, in the shape mb-replay/1
    gives it (so that keep-going can rebuild the game from it): life,
    Mindbugs, hands, play areas, discard piles and draw piles, one per
    player, every card by id."""
    U = msgspec.UNSET
    if any(getattr(line, f) is U for f in ("life", "mindbugs", "hand", "play", "discard", "deck")):
        return False
    if any(len(getattr(line, f)) != 2 for f in ("life", "mindbugs", "hand", "play", "discard", "deck")):
        return False
    if any(isinstance(n, int) and n < 0 for n in line.deck) or any(n < 0 for n in line.life + line.mindbugs):
        return False
    zones = [line.hand, line.discard]
    return all(isinstance(c, int) for z in zones for side in z for c in side) and \
        all(isinstance(c.card, int) and (c.boosts is U or all(isinstance(b, int) for b in c.boosts))
            for side in line.play for c in side)
