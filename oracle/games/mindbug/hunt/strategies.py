"""Hypothesis strategies: positions, decision sequences, whole games and
combat situations, in every edition.

Every position is plain data (`Spot`) that builds a `Game` on demand, so a
failing example prints as something a person can set up on a table, and a
finding can be written as a scenario. Card ids are 1..48 over the order of
`oracle.games.mindbug.cards.full_set()`, as everywhere in the oracle.

Shrinking goes towards small positions: zone sizes shrink towards 0 (the
cards go back to the unused pile), card picks towards the first cards of
the set, life and Mindbugs towards the starting values, design changes
(abstract situations only) towards the printed card.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import msgspec
from hypothesis import strategies as st

from ..cards import CARDS, SETS, TOUGH, CardDef, full_set, keyword_list
from ..editions import EDITIONS
from ..engine import Decision, Game
from ..engine import position
from .facts import ABILITIES

__all__ = [
    "DEFS",
    "DESIGNS",
    "IDS",
    "NAMES",
    "ZONES",
    "Deal",
    "Line",
    "Situation",
    "Spot",
    "deals",
    "decision_indices",
    "label",
    "lines",
    "play_line",
    "positions",
    "situations",
    "whole_games",
]

NAMES: tuple[str, ...] = tuple(full_set())
IDS: tuple[int, ...] = tuple(range(1, len(NAMES) + 1))
DEFS: dict[int, CardDef] = {i: CARDS[n] for i, n in zip(IDS, NAMES)}
ZONES = ("deck", "hand", "play", "discard")


def label(card: int, defs: dict[int, CardDef] | None = None) -> str:
    """`Name` for the first copy of a design in id order, `Name#2` for the second."""
    defs = defs or DEFS
    name = defs[card].name
    n = sum(1 for c in IDS if c <= card and defs[c].name == name)
    return name if n == 1 else f"{name}#{n}"


@dataclass(frozen=True)
class Spot:
    """A position: who holds which card where, life, Mindbugs, exhaustion,
    whose turn it is. `changes` (abstract situations only) gives some
    cards another power or other keywords than the printed ones:
    `(card, power or None, keywords or None)`."""

    edition: str
    zones: tuple[tuple[str, int, tuple[int, ...]], ...]
    life: tuple[int, int] = (3, 3)
    mindbugs: tuple[int, int] = (2, 2)
    exhausted: tuple[int, ...] = ()
    active: int = 0
    turn: int = 1
    changes: tuple[tuple[int, int | None, int | None], ...] = ()

    @property
    def real(self) -> bool:
        """True when every card is as printed (the position can be set up
        with First Contact cards)."""
        return not self.changes

    def zone(self, zone: str, player: int) -> tuple[int, ...]:
        for z, p, cards in self.zones:
            if z == zone and p == player:
                return cards
        return ()

    def defs(self) -> dict[int, CardDef]:
        if not self.changes:
            return DEFS
        defs = dict(DEFS)
        for card, power, keywords in self.changes:
            d = defs[card]
            defs[card] = msgspec.structs.replace(
                d, power=d.power if power is None else power,
                keywords=d.keywords if keywords is None else keywords)
        return defs

    def game(self, edition: str | None = None) -> Game:
        """The game at the start of the active player's turn action."""
        zones = {(z, p): list(cards) for z, p, cards in self.zones}
        return position(edition or self.edition, zones, self.defs(), active=self.active, life=self.life,
                        mindbugs=self.mindbugs, exhausted=self.exhausted, turn=self.turn)

    def with_edition(self, edition: str) -> Spot:
        return dataclasses.replace(self, edition=edition)

    def to_json(self) -> dict:
        defs = self.defs()
        d = {
            "edition": self.edition,
            "active": self.active,
            "turn": self.turn,
            "life": list(self.life),
            "mindbugs": list(self.mindbugs),
            "players": [
                {z: [label(c, defs) for c in self.zone(z, p)] for z in ZONES if self.zone(z, p)}
                for p in (0, 1)
            ],
        }
        if self.exhausted:
            d["exhausted"] = [label(c, defs) for c in self.exhausted]
        if self.changes:
            d["changes"] = [
                {"card": label(c, defs), **({"power": pw} if pw is not None else {}),
                 **({"keywords": keyword_list(kw)} if kw is not None else {})}
                for c, pw, kw in self.changes
            ]
        return d

    def describe(self) -> str:
        """One line per player, for people."""
        defs = self.defs()
        out = []
        for p in (0, 1):
            parts = []
            for z in ZONES:
                cards = self.zone(z, p)
                if cards:
                    shown = []
                    for c in cards:
                        s = label(c, defs)
                        if c in self.exhausted:
                            s += " (exhausted)"
                        shown.append(s)
                    parts.append(f"{z}: " + ", ".join(shown))
            who = "active" if p == self.active else "opponent"
            out.append(f"player {p} ({who}, life {self.life[p]}, Mindbugs {self.mindbugs[p]}): "
                       + ("; ".join(parts) or "nothing"))
        for c, pw, kw in self.changes:
            d = defs[c]
            out.append(f"changed: {label(c, defs)} has power {d.power}, keywords "
                       f"{' '.join(keyword_list(d.keywords)) or 'none'}")
        return "\n".join(out)


@dataclass(frozen=True)
class Deal:
    """A shuffled deal: the order of the 48 cards (two draw piles of 10,
    the rest unused) and the starting player."""

    edition: str
    order: tuple[int, ...]
    first: int

    def game(self, edition: str | None = None) -> Game:
        o = list(self.order)
        cards = {c: DEFS[c].name for c in IDS}
        return Game.deal(edition or self.edition, cards, [o[:10], o[10:20]], o[20:], first=self.first)


@dataclass(frozen=True)
class Line:
    """A start (a position or a deal) and the decisions taken from it."""

    start: Spot | Deal
    decisions: tuple[Decision, ...] = field(default=())

    def game(self, edition: str | None = None) -> Game:
        g = self.start.game(edition)
        for d in self.decisions:
            g.apply(d)
        return g


# -- positions ---------------------------------------------------------------

_DEFAULT_MAX = {"deck": 10, "hand": 7, "play": 5, "discard": 6}


@st.composite
def positions(draw, editions=EDITIONS, max_sizes: dict | None = None, max_life: int = 6,
              turn: bool = True, playable: bool = False) -> Spot:
    """Any distribution of the 48 cards over the draw piles, hands, play
    areas and discard piles (the rest unused), with life, Mindbugs,
    exhaustion (only of TOUGH creatures in play) and the active player.

    In the English first edition life is a pile of cards taken from the
    unused pile, so enough cards are left unused to hold both lives.

    With `playable`, the active player holds a card or controls a creature,
    so the game does not end before its first decision."""
    edition = draw(st.sampled_from(tuple(editions)), label="edition")
    sizes = dict(_DEFAULT_MAX, **(max_sizes or {}))
    order = draw(st.permutations(IDS), label="card order")
    life = (draw(st.integers(1, max_life), label="life 0"), draw(st.integers(1, max_life), label="life 1"))
    reserve = sum(life) if edition == "en-first" else 0
    left = len(IDS) - reserve
    active = draw(st.integers(0, 1), label="active")
    zones = []
    at = 0
    for p in (0, 1):
        for z in ZONES:
            n = min(draw(st.integers(0, sizes[z]), label=f"{z} {p}"), left - at)
            if playable and p == active and z == "play" and n == 0 and left - at > 0 and not any(
                    zz == "hand" and pp == p for zz, pp, _ in zones):
                n = 1
            if n:
                zones.append((z, p, tuple(order[at:at + n])))
            at += n
    mindbugs = (draw(st.integers(0, 2), label="mindbugs 0"), draw(st.integers(0, 2), label="mindbugs 1"))
    mindbugs = (2 - mindbugs[0], 2 - mindbugs[1])   # shrink towards two Mindbugs each
    exhausted = _draw_exhausted(draw, zones, DEFS)
    t = draw(st.integers(1, 30), label="turn") if turn else 1
    return Spot(edition, tuple(zones), life, mindbugs, exhausted, active, t)


def _draw_exhausted(draw, zones, defs) -> tuple[int, ...]:
    tough = sorted(c for z, _p, cards in zones if z == "play" for c in cards if defs[c].keywords & TOUGH)
    return tuple(c for c in tough if draw(st.booleans(), label=f"exhausted {c}"))


@st.composite
def deals(draw, editions=EDITIONS) -> Deal:
    """A shuffled deal of the whole set, as at the start of a game."""
    edition = draw(st.sampled_from(tuple(editions)), label="edition")
    order = draw(st.permutations(IDS), label="shuffle")
    first = draw(st.integers(0, 1), label="first player")
    return Deal(edition, tuple(order), first)


# -- decisions ---------------------------------------------------------------

def decision_indices(max_steps: int = 30):
    """Indices into the legal decisions, one per step (shrinks to the first option)."""
    return st.lists(st.integers(0, 63), max_size=max_steps)


def play_line(start: Spot | Deal, picks, cap: int | None = None) -> tuple[Line, Game]:
    """Follow `picks` (indices, taken modulo the number of legal decisions)
    from `start`; stop early if the game ends."""
    g = start.game()
    taken = []
    for i in picks:
        if g.is_over or (cap is not None and len(taken) >= cap):
            break
        options = g.legal_decisions()
        d = options[i % len(options)]
        g.apply(d)
        taken.append(d)
    return Line(start, tuple(taken)), g


@st.composite
def lines(draw, editions=EDITIONS, max_steps: int = 30, **position_args) -> Line:
    """A legal position and a sequence of legal decisions from it."""
    start = draw(positions(editions, **position_args))
    picks = draw(decision_indices(max_steps), label="decisions")
    return play_line(start, picks)[0]


@st.composite
def whole_games(draw, editions=EDITIONS, cap: int = 3000) -> Line:
    """A deal played to its end (or to `cap` decisions), every decision
    drawn by Hypothesis among the legal ones."""
    start = draw(deals(editions))
    g = start.game()
    taken = []
    while not g.is_over and len(taken) < cap:
        options = g.legal_decisions()
        i = draw(st.integers(0, len(options) - 1), label="decision") if len(options) > 1 else 0
        d = options[i]
        g.apply(d)
        taken.append(d)
    return Line(start, tuple(taken))


# -- combat situations ---------------------------------------------------------


@dataclass(frozen=True)
class Situation:
    """A position and the active player's turn action (an attack or a play
    from hand) whose consequences the hunt examines."""

    spot: Spot
    action: Decision | None = None    # None: every turn action the position allows

    @property
    def real(self) -> bool:
        return self.spot.real

    def game(self, edition: str | None = None) -> Game:
        return self.spot.game(edition)

    def describe(self) -> str:
        if self.action is None:
            return self.spot.describe()
        defs = self.spot.defs()
        verb = "attacks with" if self.action.kind == "attack" else "plays"
        return f"{self.spot.describe()}\nplayer {self.action.player} {verb} {label(self.action.arg, defs)}"

    def to_json(self) -> dict:
        d = self.spot.to_json()
        if self.action is not None:
            d["action"] = {self.action.kind: label(self.action.arg, self.spot.defs())}
        return d


# The designs of First Contact and New Servants: the cards of the later series (whose abilities
# are written apart, setup.sets.later) are not hunted here.
DESIGNS: tuple[str, ...] = tuple(n for n, d in CARDS.items() if not SETS[d.card_set].later)
COPIES: dict[str, tuple[int, ...]] = {n: tuple(i for i in IDS if NAMES[i - 1] == n) for n in DESIGNS}


def _cards(draw, n_min, n_max, lbl, changes=False):
    """A list of (design, power or None, keywords or None): the printed card,
    or with `changes` another power or other keywords."""
    # The changes come before the design, so that shrinking drops a change
    # before it trades a printed card for a changed one.
    item = st.tuples((st.none() | st.integers(1, 10)) if changes else st.none(),
                     (st.none() | st.integers(0, 31)) if changes else st.none(),
                     st.integers(0, len(DESIGNS) - 1))
    return [(d, p, k) for p, k, d in draw(st.lists(item, min_size=n_min, max_size=n_max), label=lbl)]


@st.composite
def situations(draw, edition: str = "en-revised", abstract: bool = False, max_side: int = 4,
               max_hand: int = 3, max_deck: int = 3, every_action: bool = True,
               anchor: str | None = None) -> Situation:
    """Creatures that may attack, block, fight or be hit, and cards to play:
    real cards with their keywords, power, exhaustion and abilities. With
    `abstract`, a creature may also get another power or other keywords
    than its printed ones, to reach combinations no First Contact card has
    (findings only these reach are reported as not reachable with the set).

    With `anchor` (a design name), that card is (nearly always) there: among the
    allied creatures, the enemy creatures or (real cards only) in hand, so
    that a search can go through the designs one by one.

    A hand is short of 5 cards only when its draw pile is empty: that holds
    in every edition, so all editions start from the same position."""
    if abstract:
        # Combat only: the changes are about keywords, power and abilities
        # meeting in a fight, so no card is played and no pile matters.
        mine = _cards(draw, 1, max_side, "allied creatures", True)
        theirs = _cards(draw, 1, max_side, "enemy creatures", True)
        deck, their_deck, hand = [], [], []
        their_hand = _cards(draw, 0, 2, "enemy hand")
    else:
        mine = _cards(draw, 0, max_side, "allied creatures")
        theirs = _cards(draw, 0, max_side, "enemy creatures")
        deck = _cards(draw, 0, max_deck, "draw pile")
        their_deck = _cards(draw, 0, max_deck, "enemy draw pile")
        hand = _cards(draw, 5 if deck else 0, max_hand + (5 if deck else 0), "hand")
        their_hand = _cards(draw, 5 if their_deck else 0, max_hand + (5 if their_deck else 0), "enemy hand")
    # The anchor is there in most examples; shrinking may still take it
    # out (0), so that a minimal situation holds only the cards it needs.
    if anchor is not None and draw(st.integers(0, 3), label="anchor there") > 0:
        # A card whose ability works when it is played is tried from the hand
        # too; any card is tried as an allied and as an enemy creature.
        plays = any(getattr(a, "trigger", None) == "play" for a in ABILITIES.get(anchor, ()))
        places = ("ally", "enemy") + (("hand",) if plays and not abstract else ())
        place = draw(st.sampled_from(places), label="anchor place")
        power = draw(st.none() | st.integers(1, 10), label="anchor power") if abstract else None
        kws = draw(st.none() | st.integers(0, 31), label="anchor keywords") if abstract else None
        item = (DESIGNS.index(anchor), power, kws)
        into = {"ally": mine, "enemy": theirs, "hand": hand}[place]
        into.insert(draw(st.integers(0, len(into)), label="anchor at"), item)
    left = {n: list(ids) for n, ids in COPIES.items()}
    changes = []
    cut = {}
    for key, items in (("play0", mine), ("play1", theirs), ("hand0", hand), ("hand1", their_hand),
                       ("deck0", deck), ("deck1", their_deck)):
        ids = []
        for design, power, kws in items:
            name = DESIGNS[design]
            if not left[name]:
                continue                      # every copy of the design is placed already
            c = left[name].pop(0)
            ids.append(c)
            d = DEFS[c]
            if (power is not None and power != d.power) or (kws is not None and kws != d.keywords):
                changes.append((c, power, kws))
        cut[key] = tuple(ids)
    if not cut["play0"] and not cut["hand0"]:
        cut["play0"] = (next(iter(left[n][0] for n in DESIGNS if left[n])),)
    life = (3, 4 - draw(st.integers(1, 3), label="enemy life"))
    # Now and then a crowded table: nearly every card is in a discard pile and
    # the unused pile holds little beyond what English first edition life
    # needs (in that edition life is gained by taking unused cards).
    crowd = 0 if abstract else draw(st.integers(0, 3), label="crowded")
    if crowd:
        placed = {c for v in cut.values() for c in v}
        rest = [c for c in IDS if c not in placed]
        spare = sum(life) + crowd - 1
        extra = rest[spare:]
        cut["discard0"], cut["discard1"] = tuple(extra[0::2]), tuple(extra[1::2])
    zones = []
    for key, (z, p) in (("deck0", ("deck", 0)), ("hand0", ("hand", 0)), ("play0", ("play", 0)),
                        ("discard0", ("discard", 0)), ("deck1", ("deck", 1)), ("hand1", ("hand", 1)),
                        ("play1", ("play", 1)), ("discard1", ("discard", 1))):
        if cut.get(key):
            zones.append((z, p, cut[key]))
    spot = Spot(edition, tuple(zones), life=life,
                mindbugs=(2, 2 - draw(st.integers(0, 2), label="enemy Mindbugs used")),
                changes=tuple(sorted(changes)))
    exhausted = _draw_exhausted(draw, zones, spot.defs())
    spot = dataclasses.replace(spot, exhausted=exhausted)
    if every_action:
        return Situation(spot)
    choices = [Decision("attack", 0, c) for c in cut["play0"]] + [Decision("play", 0, c) for c in cut["hand0"]]
    action = choices[draw(st.integers(0, len(choices) - 1), label="turn action")]
    return Situation(spot, action)
