"""The difference between a state claim and the rules' state, for people and
for tools.

Cards are compared by identity, never by list position: the claim and the
rules each say where every card of the claimed zones is, and one card in the
wrong zone is one difference ("Elephantopus (12): the log has it in player
1's discard pile; the rules have it in player 1's play area, exhausted").
Zones the log writes with card names (engines without stable card identity)
are compared as multisets of names, one difference per design. Other fields
(life, Mindbugs, draw pile sizes, whose turn) are one difference per player
or per field; the entries label the two sides `log` and `rules`. Finding
the differences costs time linear in the size of the claim (every card and
place is looked at a bounded number of times, whatever a hostile claim
repeats), and a finding lists at most MAX_DIFF_ENTRIES cards and designs,
the others counted in one last entry ("and 995 more").
"""

from __future__ import annotations

from collections import Counter

import msgspec

from ....replay.findings import DiffEntry
from ..cards import KEYWORD_NAMES
from ..engine.state import ZONE_WORDS
from .claims import ROMAN, all_ids, boosts_of, face_name, name_of, stage_of
from .narrate import creature_label, shown_names
from .places import distinct_places, sorted_places

U = msgspec.UNSET
PLAY_FIELDS = ("card", "exhausted", "power", "keywords", "stage", "face", "boosts")
LATER_FIELDS = ("stage", "face", "boosts")   # compared, in a zone of names, on the designs the log claims them for
# What a finding lists of a state claim's differences: a claim of a hostile
# size (a thousand cards in the wrong place, a card listed a thousand times)
# makes a finding of a bounded size, the rest counted.
MAX_DIFF_ENTRIES = 20       # cards and designs listed in a finding's `diff`
MAX_PLACES_SAID = 20        # places an entry says and lists, of one side


def readable(view: dict) -> dict:
    """A claim view with play entries as objects, for the finding's log and rules."""
    out = dict(view)
    if "play" in out:
        out["play"] = [[{k: v for k, v in zip(PLAY_FIELDS, e) if v is not None}
                        for e in side] for side in out["play"]]
        for side in out["play"]:
            for e in side:
                for k in ("keywords", "boosts"):
                    if k in e:
                        e[k] = list(e[k])
    return out


def _pair(value) -> list | None:
    return value if isinstance(value, list) and len(value) == 2 else None


class _Want:
    """Which sub-fields of a play entry the log claims."""

    def __init__(self, line):
        entries = [c for side in (line.play if line.play is not U else []) for c in side]
        self.exhausted = any(c.exhausted is not U for c in entries)
        self.power = any(c.power is not U for c in entries)
        self.keywords = any(c.keywords is not U for c in entries)
        self.stage = any(c.stage is not U for c in entries)
        self.face = any(c.face is not U for c in entries)
        # Boost cards compared on the creature, as names: where the log names
        # the creature or one of its boost cards (else each boost card by id).
        # `named`: those entries, each looked at once (a creature may list a thousand boost cards).
        self.named = {id(c) for c in entries if _named_boosts(c)}
        self.boosts = bool(self.named)


def _named_boosts(entry) -> bool:
    """Whether a creature's boost cards are compared as names on it."""
    return entry.boosts is not U and (entry.card.__class__ is str or
                                      not all_ids(entry.boosts))


def _locations(s) -> dict:
    """Where the rules have every card: card -> (zone, player or None), and
    for a card under a creature (a boost card, an evolved creature's stage
    face) (zone, its controller, the creature)."""
    where = {}
    for zone in ("hand", "play", "discard", "deck", "life_pile"):
        for p in (0, 1):
            for c in getattr(s, zone)[p]:
                where[c] = (zone, p)
    for c in s.unused:
        where[c] = ("unused", None)
    for c in s.set_aside:
        where[c] = ("set_aside", None)
    side = {c: p for p in (0, 1) for c in s.play[p]}
    for creature, under in s.boosts:
        for c in under:
            where[c] = ("boost", side.get(creature), creature)
    for creature, aside, _n in s.stages:
        where[aside] = ("stage", side.get(creature), creature)
    if s.played is not None:
        where[s.played] = ("played", None)
    return where


def _rules_place(g, card: int, want: _Want, positions: set, where: dict) -> dict:
    """Where the rules have `card`, with the sub-fields the log claims."""
    s = g.state
    zone, p, *creature = where.get(card, ("out", None))
    if zone in ("played", "out", "set_aside"):
        return {"zone": zone}
    if creature:
        return {"zone": zone, "player": p, "under": creature[0]}
    if zone == "unused":
        place = {"zone": "unused"}
        if ("unused", None) in positions:
            place["position"] = s.unused.index(card)
        return place
    place = {"zone": zone, "player": p}
    if zone == "play":
        if want.exhausted:
            place["exhausted"] = card in s.exhausted
        if want.power:
            place["power"] = g.power(card)
        if want.keywords:
            m = g.keywords(card)
            place["keywords"] = sorted(n for b, n in KEYWORD_NAMES.items() if m & b)
        if want.stage:
            place["stage"] = stage_of(g, card)
        if want.face:
            place["face"] = g.design(card).name
        if want.boosts:
            place["boosts"] = sorted(g.table.names[b] for b in boosts_of(g, card))
    if (zone, p) in positions:
        place["position"] = getattr(s, zone)[p].index(card)
    return place


def _log_place(zone: str, p, entry=None, position=None, names=None, boost_names=False) -> dict:
    """Where the log puts a card; `boost_names`: the creature `entry`'s boost
    cards are given on it as names (`_Want.named`)."""
    place = {"zone": zone} if p is None else {"zone": zone, "player": p}
    if entry is not None:
        if entry.exhausted is not U:
            place["exhausted"] = entry.exhausted
        if entry.power is not U:
            place["power"] = entry.power
        if entry.keywords is not U:
            place["keywords"] = sorted(k.upper() for k in entry.keywords)
        if entry.stage is not U:
            place["stage"] = entry.stage
        if entry.face is not U:
            place["face"] = name_of(entry.face, {})
        if boost_names:
            # Boost cards as names (a multiset), on the creature.
            place["boosts"] = sorted(name_of(r, names) for r in entry.boosts)
    if position is not None:
        place["position"] = position
    return place


def place_text(place: dict, names: dict | None = None) -> str:
    """A place in game terms: "player 1's play area, exhausted, stage II:
    Typhoon Princess", "under Sea-Rex (12) in player 0's play area"."""
    zone, p = place.get("zone"), place.get("player")
    if zone == "played":
        text = "waiting for the Mindbug decision"
    elif zone == "unused":
        text = "the unused pile"
    elif zone == "out":
        text = "out of the game"
    elif zone == "set_aside":
        text = "the set-aside cards"
    elif zone in ("boost", "stage"):
        under = place.get("under")
        label = f"{names[under]} ({under})" if names and under in names else f"card {under}"
        where = f" in player {p}'s play area" if p is not None else ""
        text = f"under {label}{where}" if zone == "boost" else f"on {label}{where}, as the face it shows"
    else:
        text = f"player {p}'s {ZONE_WORDS.get(zone, zone)}"
    if "position" in place:
        text += f" ({place['position'] + 1} from the top)"
    if "exhausted" in place:
        text += ", exhausted" if place["exhausted"] else ", ready"
    if "power" in place:
        text += f", power {place['power']}"
    if "keywords" in place:
        text += f", keywords {' '.join(place['keywords']) or 'none'}"
    if "stage" in place:
        stage = place["stage"]
        text += f", stage {ROMAN.get(stage, stage)}" if stage else ", of no evolution line"
        if place.get("face"):
            text += f": {place['face']}"
    elif place.get("face"):
        text += f", showing {place['face']}"
    if "boosts" in place:
        n = len(place["boosts"])
        text += f", with {n} boost card{'s' * (n != 1)} under it" + (f" ({', '.join(place['boosts'])})" if n else "")
    return text


def _places_text(places: list, counted: bool = False, names: dict | None = None) -> str:
    """Where one side puts a card ("in player 1's hand"), or how many of a
    design it puts where ("2 in player 1's play area"); at most
    MAX_PLACES_SAID places, the others counted ("and 950 more places")."""
    if counted:
        return " and ".join(f"{pl['count']} in {place_text(pl)}" for pl in places[:MAX_PLACES_SAID]) + \
            _more_places(len(places)) if places else "none"
    texts = [place_text(pl, names) for pl in places[:MAX_PLACES_SAID + 1]]
    if len(places) > 1 and len(set(texts)) == 1 and \
            all(pl == places[0] or place_text(pl, names) == texts[0] for pl in distinct_places(places)):
        return f"in {texts[0]}, {len(places)} times"
    texts = texts[:MAX_PLACES_SAID]
    return " and ".join(("" if t.startswith(("under ", "on ")) else "in ") + t for t in texts) + \
        _more_places(len(places))


def _more_places(n: int) -> str:
    return f" and {n - MAX_PLACES_SAID:,} more places" if n > MAX_PLACES_SAID else ""


def listed(diff: list[DiffEntry]) -> list[DiffEntry]:
    """The entries a finding lists: the fields' (a bounded number) and at
    most MAX_DIFF_ENTRIES of the cards' and designs', the others counted in
    an entry of their own after them ("and 995 more", with `more`); of an
    entry's places, at most MAX_PLACES_SAID a side, the others counted
    (`left_out`)."""
    things = [_trimmed(e) for e in diff if e.field is None]
    if len(things) <= MAX_DIFF_ENTRIES:
        return things + [e for e in diff if e.field is not None]
    more = len(things) - MAX_DIFF_ENTRIES
    return [*things[:MAX_DIFF_ENTRIES], DiffEntry(f"and {more:,} more cards or designs that differ", more=more),
            *(e for e in diff if e.field is not None)]


def _trimmed(e: DiffEntry) -> DiffEntry:
    """A card's or design's entry with at most MAX_PLACES_SAID places a side."""
    cut = {side: len(v) - MAX_PLACES_SAID for side, v in (("log", e.log), ("rules", e.rules))
           if isinstance(v, list) and len(v) > MAX_PLACES_SAID}
    if not cut:
        return e
    return msgspec.structs.replace(e, log=e.log[:MAX_PLACES_SAID] if "log" in cut else e.log,
                                   rules=e.rules[:MAX_PLACES_SAID] if "rules" in cut else e.rules, left_out=cut)


def _differing(rules: dict, log: dict) -> list:
    """The keys whose values differ in two models with the same keys. The
    values are plain data of strict types (the line's decoder refuses a
    number where a card, a player or a flag belongs), so comparing them
    with `!=` is comparing them whole, in time linear in their size."""
    if rules == log:
        return []
    return [k for k in rules if rules[k] != log[k]]


def card_diff(g, line) -> list[DiffEntry]:
    """Every difference between the claim `line` and the rules' state, one
    entry per card, design or field, in a stable order (the cards', then the
    fields')."""

    s = g.state
    names = g.table.names
    shown = shown_names(g)              # an evolved creature by the face it shows (narrate)
    want = _Want(line)
    out: list[DiffEntry] = []           # the fields' differences, put after the cards'

    # -- the shape: one list or value per player ----------------------------
    for field in ("hand", "discard", "play"):
        claimed = getattr(line, field)
        if claimed is not U and len(claimed) != 2:
            out.append(DiffEntry(f"{field}: the log gives {len(claimed)} lists, not one per player",
                                 field=field, log=len(claimed), rules=2))

    # -- fields: one entry per player or per field --------------------------
    for field, word in (("life", "life"), ("mindbugs", "unused Mindbugs")):
        claimed = getattr(line, field)
        if claimed is U:
            continue
        mine = getattr(s, field)
        if _pair(claimed) is None:
            out.append(DiffEntry(f"{field}: the log gives {claimed}, not one value per player",
                                 field=field, log=claimed, rules=list(mine)))
            continue
        for p in (0, 1):
            if claimed[p] != mine[p]:
                out.append(DiffEntry(f"player {p}'s {word}: the log says {claimed[p]}; the rules say {mine[p]}",
                                     field=f"{field}[{p}]", log=claimed[p], rules=mine[p]))
    if line.deck is not U:
        if _pair(line.deck) is None:
            out.append(DiffEntry(f"deck: the log gives {len(line.deck)} draw piles, not one per player",
                                 field="deck", log=line.deck, rules=[len(d) for d in s.deck]))
        else:
            for p in (0, 1):
                c = line.deck[p]
                if isinstance(c, int) and c != len(s.deck[p]):
                    out.append(DiffEntry(f"player {p}'s draw pile: the log says {c} cards; the rules say "
                                         f"{len(s.deck[p])}", field=f"deck[{p}]", log=c, rules=len(s.deck[p])))
    if isinstance(line.unused, int) and line.unused is not U and line.unused != len(s.unused):
        out.append(DiffEntry(f"the unused pile: the log says {line.unused} cards; the rules say {len(s.unused)}",
                             field="unused", log=line.unused, rules=len(s.unused)))
    for field, what in (("active", "whose turn it is"), ("turn", "the turn number")):
        claimed = getattr(line, field)
        if claimed is not U and claimed != getattr(s, field):
            out.append(DiffEntry(f"{what}: the log says {claimed}; the rules say {getattr(s, field)}",
                                 field=field, log=claimed, rules=getattr(s, field)))

    # -- cards: by id in the zones claimed with ids, by name in the others ---
    by_id: dict[int, list] = {}          # card -> the places the log puts it: (place, times in a row)
    id_zones: set = set()                # (zone, player) claimed with ids
    by_name: dict[tuple, Counter] = {}   # (zone, player) claimed with names -> names (with sub-fields)
    positions: set = set()

    def side_lists(field):
        claimed = getattr(line, field)
        if claimed is U:
            return []
        return [(p, claimed[p]) for p in (0, 1) if p < len(claimed)]

    boosted: set = set()                 # creatures claimed by id whose boost cards the log lists
    for field in ("hand", "discard", "play"):
        for p, side in side_lists(field):
            refs = [e.card for e in side] if field == "play" else list(side)
            if all(isinstance(r, int) and not isinstance(r, bool) for r in refs):
                id_zones.add((field, p))
                for i, r in enumerate(refs):
                    entry = side[i] if field == "play" else None
                    named = entry is not None and id(entry) in want.named
                    by_id.setdefault(r, []).append((_log_place(field, p, entry, names=names, boost_names=named), 1))
                    if entry is not None and entry.boosts is not U and not named:
                        boosted.add(r)    # each boost card by id, a place of its own ("under Sea-Rex (12)")
                        under = {"zone": "boost", "player": p, "under": r}    # one place, however often listed
                        for b, k in Counter(entry.boosts).items():      # a card listed k times: k in one step
                            by_id.setdefault(b, []).append((under, k))
            else:
                key = (field, p)
                by_name[key] = Counter()
                for i, r in enumerate(refs):
                    entry = side[i] if field == "play" else None
                    place = _log_place(field, p, entry, names=names,
                                       boost_names=entry is not None and id(entry) in want.named)
                    n = name_of(r, names)
                    if entry is not None:   # a creature is named by the face it shows (later.evolve)
                        n = face_name(r, entry.stage) if isinstance(r, str) else \
                            (g.design(r).name if r in names else n)
                    by_name[key][(n, _frozen(place))] += 1
    if line.deck is not U:
        for p, c in enumerate(line.deck[:2]):
            if isinstance(c, list):
                id_zones.add(("deck", p))
                positions.add(("deck", p))
                for i, r in enumerate(c):
                    by_id.setdefault(r, []).append((_log_place("deck", p, position=i), 1))
    if isinstance(line.unused, list):
        id_zones.add(("unused", None))
        positions.add(("unused", None))
        for i, r in enumerate(line.unused):
            by_id.setdefault(r, []).append((_log_place("unused", None, position=i), 1))
    if line.set_aside is not U:                  # setup.set-aside: order ignored
        id_zones.add(("set_aside", None))
        for r in line.set_aside:
            by_id.setdefault(r, []).append((_log_place("set_aside", None), 1))
    if line.played is not U:
        id_zones.add(("played", None))
        if line.played is not None:
            by_id.setdefault(line.played, []).append(({"zone": "played"}, 1))

    def rules_zone(zone, p):
        if zone == "unused":
            return s.unused
        if zone == "set_aside":
            return s.set_aside
        if zone == "played":
            return [s.played] if s.played is not None else []
        if zone == "play":   # with the boost cards the log lists under its creatures (later.boost)
            return s.play[p] + [b for c in s.play[p] if c in boosted for b in boosts_of(g, c)]
        return getattr(s, zone)[p]

    fields_out, out = out, []
    known = set(names)
    cards = set(by_id) | {c for zone, p in id_zones for c in rules_zone(zone, p)}
    log_model = {c: sorted_places(by_id.get(c, [])) for c in cards}
    where = _locations(s)
    rules_model = {c: [_rules_place(g, c, _want_for(want, log_model[c]), positions, where)] if c in known else []
                   for c in cards}
    name_log: dict = {}
    name_rules: dict = {}
    for (zone, p), counted in by_name.items():
        later: dict = {}      # design -> the later-set sub-fields the log claims for it (stage, face, boosts)
        for (n, place), k in counted.items():
            name_log.setdefault(n, Counter())[place] += k
            later.setdefault(n, set()).update(key for key, _v in place if key in LATER_FIELDS)
        for c in rules_zone(zone, p):
            n = g.design(c).name if zone == "play" else names[c]
            place = _rules_place(g, c, want, positions, where)
            place = {k: v for k, v in place.items() if k not in LATER_FIELDS or k in later.get(n, ())}
            name_rules.setdefault(n, Counter())[_frozen(place)] += 1
    for n in set(name_log) | set(name_rules):
        name_log.setdefault(n, Counter())
        name_rules.setdefault(n, Counter())
    differ = _differing(rules_model, log_model)
    for c in sorted(differ, key=lambda x: (not isinstance(x, int), str(x))):
        label = _label(g, c)
        rules_places = rules_model[c]
        log_text = f"the log has it {_places_text(log_model[c], names=names)}" if log_model[c] else \
            "the log does not list it"
        rules_text = f"the rules have it {_places_text(rules_places, names=names)}" if rules_places else \
            "the rules know no such card"
        out.append(DiffEntry(f"{label}: {log_text}; {rules_text}",
                             card=c, name=shown.get(c), log=log_model[c], rules=rules_places))
    for n in name_log:
        if name_log[n] != name_rules[n] and _covers(name_rules[n], name_log[n]):
            name_log[n] = name_rules[n]     # sub-fields claimed for some copies only: those agree
    as_lists = {n: _counted(name_log[n]) for n in name_log}
    rules_lists = {n: _counted(name_rules[n]) for n in name_rules}
    differ = _differing(rules_lists, as_lists)
    for n in sorted(differ, key=str):
        out.append(DiffEntry(f"{n}: the log has {_places_text(as_lists[n], True)}; "
                             f"the rules have {_places_text(rules_lists[n], True)}",
                             name=n, log=as_lists[n], rules=rules_lists[n]))
    return out + fields_out


def _label(g, c) -> str:
    """A card in game terms: "Sea-Rex (12)", an evolved creature with the face
    it shows first, as the board labels it: "Typhoon Princess (7, stage II of
    Cloud Lady)"."""
    if c not in g.table.names:
        return f"card {c} (not a card of this game)"
    return creature_label(g, c)


def _want_for(want: _Want, log_places: list) -> _Want:
    """The sub-fields to give for a card: those the log claims for it where it
    puts it in a play area; else those it claims for any creature."""
    in_play = [pl for pl in distinct_places(log_places) if pl.get("zone") == "play"]
    if not in_play:
        return want
    w = _Want.__new__(_Want)
    w.exhausted = any("exhausted" in pl for pl in in_play)
    w.power = any("power" in pl for pl in in_play)
    w.keywords = any("keywords" in pl for pl in in_play)
    w.stage = any("stage" in pl for pl in in_play)
    w.face = any("face" in pl for pl in in_play)
    w.boosts = any("boosts" in pl for pl in in_play)
    return w


def _covers(rules: Counter, log: Counter) -> bool:
    """Whether the places the log gives the copies of one design (in zones
    of names) can be paired one to one with the rules' places, each log
    place agreeing on every sub-field it claims: a creature claimed without
    `exhausted`, `boosts`... leaves that sub-field unchecked, as by id."""
    rl = [dict(pl) for pl, k in rules.items() for _ in range(k)]
    ll = [dict(pl) for pl, k in log.items() for _ in range(k)]
    if len(rl) != len(ll):
        return False
    fits = [[j for j, r in enumerate(rl) if all(k in r and r[k] == v for k, v in lp.items())] for lp in ll]
    match: dict[int, int] = {}          # rules place -> log place

    def augment(i: int, seen: set) -> bool:
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in match or augment(match[j], seen):
                    match[j] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(ll)))


def _frozen(place: dict) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in place.items()))


def _counted(counter: Counter) -> list[dict]:
    out = []
    for place, k in sorted(counter.items(), key=repr):
        d = {key: list(v) if isinstance(v, tuple) else v for key, v in place}
        d["count"] = k
        out.append(d)
    return out
