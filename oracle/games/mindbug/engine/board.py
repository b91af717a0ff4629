"""What a rule module sees of a game: the static facts of its cards
(`Table`) and the game as the rules read and change it (`Board`).

The rule modules (combat, effects, power, ...) take a `Board`; `Game`
(game.py) is the board that drives them, and the only one there is. So the
rules name what they use of the game here, at the bottom of the engine, and
no rule module imports the module of the game, not even for a type.
`Board` is a base class rather than a typing.Protocol: the compiled build
calls its methods and reads its fields directly, where a Protocol is read
as any object (the rules typed with one cost about 16% more instructions
per decision, compiled, on the Mindbug corpora of `mb-oracle bench`; with
this base class the counts stay those of rules typed with `Game`).
"""

from __future__ import annotations

from typing import Final

from ..cards import CardDef, next_stage
from ..cards.abilities import ATTACK_RULES, BLOCK_RULES, COPY_LAYER, GRANT_LAYER, POWER_LAYER, RAISES_ONLY, TURN_FREE
from ..editions import Profile, profile as get_profile
from .presence import Flags, flags_of
from .records import Event, Pending
from .state import State, holds

_new_tuple: Final = tuple.__new__
# Board.stats: power and keywords by creature, and the block rules of constant abilities in play.
Stats = tuple[dict[int, int], dict[int, int], list]
# Final: the compiled build keeps it in the module's own variables, not its dict.
_EVENT: Final = Event


def design_face(d) -> tuple:
    """`Table.face` of a design (an evolved creature reads its stage's face):
    (power, keywords, constant ability or None); the constant ability as
    (changes powers or keywords, the rule by which it forbids blocks or
    None, the design's name, never reads whose turn it is, its functions
    of the power, granted and copied layers, each or None, whether its
    power-layer function may lower a power, and the rule by which it
    forbids enemy creatures to attack or None)."""
    n = d.name
    pw, gr, cp = POWER_LAYER.get(n), GRANT_LAYER.get(n), COPY_LAYER.get(n)
    forbids = BLOCK_RULES.get(n)
    bars = ATTACK_RULES.get(n)
    if pw is None and gr is None and cp is None:
        const = None if forbids is None and bars is None else (False, forbids, n, True, None, None, None, False, bars)
        return (d.power, d.keywords, const)
    free = (pw is None or pw in TURN_FREE) and (gr is None or gr in TURN_FREE) and (cp is None or cp in TURN_FREE)
    return (d.power, d.keywords, (True, forbids, n, free, pw, gr, cp, pw is not None and pw not in RAISES_ONLY, bars))


# design_face of the designs dealt so far, by the design's id: (design, face),
# the design kept so that its id names no other while it is here.
_FACES: Final[dict[int, tuple]] = {}
_FACES_KEPT: Final = 4096       # designs kept at most (a fuzz run declares many)


def face_of(d) -> tuple:
    """design_face(d), worked out once per design rather than once per game."""
    kept = _FACES.get(id(d))
    if kept is not None and kept[0] is d:
        return kept[1]
    f = design_face(d)
    if len(_FACES) >= _FACES_KEPT:
        _FACES.clear()
    _FACES[id(d)] = (d, f)
    return f


class Table:
    """Static facts of one game: which design each card id is, and whose deck
    it was dealt into (its owner)."""

    __slots__ = ("defs", "owner", "_names", "flags", "faces")

    def __init__(self, defs: dict[int, CardDef], owner: dict[int, int] | None = None, flags: Flags | None = None):
        self.defs = defs
        self.owner = owner or {}
        self._names: dict[int, str] | None = None
        # the mechanics its cards can meet (engine.presence); `flags`: those
        # the deal already knows them to be (setup.dealt_state)
        self.flags: Flags = flags_of(defs) if flags is None else flags
        self.faces: dict[int, tuple] = {}   # card id -> face(card), for the cards that have been in play

    @property
    def names(self) -> dict[int, str]:
        """card id -> its printed design's name: made when first read (a
        game that only compares states and decisions never needs it)."""
        n = self._names
        if n is None:
            n = self._names = {c: d.name for c, d in self.defs.items()}
        return n

    def name(self, card: int) -> str:
        return self.defs[card].name

    def face(self, card: int) -> tuple:
        """What powers and blocks read of a card: its printed power and
        keywords (cards.anatomy), and for a card with a constant ability
        (abilities.constant) whether that ability changes powers or keywords,
        the rule by which it forbids blocks (or None), the design's name,
        whether the ability never reads whose turn it is, its functions of
        each layer, whether it may lower a power and the rule by which it
        forbids enemy creatures to attack (or None); None for the others
        (design_face)."""
        f = self.faces.get(card)
        if f is None:
            f = self.faces[card] = face_of(self.defs[card])
        return f


class Base:
    """What the powers and keywords of the creatures in play are built from
    (power.base): each creature's printed power and keywords (a stage's face
    for an evolved creature, boost cards added), the constant abilities that
    change them (side, card, functions of the power, granted and copied
    layers, never reads whose turn it is), those that forbid blocks (side,
    card, rule) and those that forbid enemy creatures to attack (side, card,
    rule: restrictions.attack_barred), each in play order; whether none of
    them reads whose turn it is, and whether a power may end under the
    floor. Kept from one change of the board to the next where a creature
    only came or left (power.entered, power.left); `blocks` and `holders`
    are replaced, never changed in place, once the stats read them."""

    __slots__ = ("power", "kw", "holders", "blocks", "bars", "free", "under")

    def __init__(self, power: dict[int, int], kw: dict[int, int], holders: list[tuple], blocks: list[tuple],
                 bars: list[tuple], free: bool, under: bool):
        self.power = power
        self.kw = kw
        self.holders = holders
        self.blocks = blocks
        self.bars = bars
        self.free = free
        self.under = under


class Board:
    """A game as its rules see it: the table, the edition's profile, the
    state, the events of the decision under way, and the helpers the rule
    modules call. What needs the rules themselves (`stats`, `attack_barred`)
    the game gives (game.Game)."""

    __slots__ = ("table", "_profile", "state", "events", "_stats", "_base", "_turn_free", "chance_before",
                 "later_sets", "power_floor", "life_cards", "refill_below_five", "no_action_loses",
                 "extra_action", "hunter_override")

    def __init__(self, table: Table, profile: Profile | str | None, state: State):
        self.table = table
        self.use_profile(profile if isinstance(profile, Profile) else get_profile(profile))
        self.state = state
        self.events: list[Event] = []
        self._stats: Stats | None = None
        self._base: Base | None = None      # what _stats are built from (power.base)
        self._turn_free = False     # _stats hold whoever's turn it is (power.compute says)
        # (the attack under way, the events of its decisions up to its last chance event): ask_chance
        self.chance_before: tuple = ()

    @property
    def profile(self) -> Profile:
        """The edition's profile the game is played under."""
        return self._profile

    @profile.setter
    def profile(self, profile: Profile) -> None:
        self.use_profile(profile)

    def use_profile(self, profile: Profile) -> None:
        """Play under `profile`: its switches that the rules read at every
        step are kept as the board's own fields, which the compiled build
        reads directly (a Profile's are looked up by name)."""
        self._profile: Profile = profile
        self.later_sets: bool = profile.later_sets
        self.power_floor: int = profile.power_floor
        self.life_cards: bool = profile.life_cards
        self.refill_below_five: bool = profile.refill == "below-five"
        self.no_action_loses: bool = profile.no_action_loses
        self.extra_action: bool = profile.mindbug_extra == "action"
        self.hunter_override: bool = profile.hunter_override

    # -- what the game gives -----------------------------------------------
    def stats(self) -> Stats:
        """(power, keywords) of every creature in play, all constant abilities
        applied, and the creatures in play whose constant ability forbids
        blocks, as (side, card, rule) in play order."""
        raise NotImplementedError

    def attack_barred(self, player: int) -> frozenset:
        """`player`'s creatures that may not attack now (abilities.cannot-attack,
        later.in-discard, later.action.fresh): for abilities, which read the
        game and never import the engine's modules."""
        raise NotImplementedError

    # -- helpers used by the rule modules --------------------------------
    def emit(self, kind: str, clauses: tuple[str, ...], player=None, card=None, cards=None,
             amount=None, source=None) -> None:
        # An Event built as the tuple it is: the hottest call of the engine.
        self.events.append(_new_tuple(_EVENT, (kind, clauses, player, card, cards, amount, source)))

    def push_next(self, *tasks: tuple) -> None:
        """Schedule `tasks` to run next, in the order given."""
        if len(tasks) == 1:
            self.state.stack.append(tasks[0])
        else:
            self.state.stack.extend(reversed(tasks))

    def ask(self, stage: str, player: int | None, options: list, resume: tuple,
            clauses: tuple[str, ...], source: int | None = None, prompt: str = "") -> None:
        self.state.pending = Pending(stage, player, options, resume, clauses, source, prompt)

    def ask_chance(self, options: list, resume: tuple, clauses: tuple[str, ...], source: int | None = None,
                   prompt: str = "") -> None:
        """Wait for a chance event's outcome (no player decides it). The events
        of the attack under way so far are kept (`chance_before`): a refusal
        after the outcome still sees what the attack did before it
        (explain: effects.hunter-order)."""
        self.chance_before = (self.state.combat, self.events_before_chance() + self.events)
        self.ask("random", None, options, resume, clauses, source, prompt)

    def events_before_chance(self) -> list:
        """The events of the attack under way up to its last chance event
        (ask_chance); none outside an attack or in another one."""
        prior = self.chance_before
        combat = self.state.combat
        return prior[1] if prior and combat is not None and prior[0] is combat else []

    def end_game(self, winner: int, reason: str, clauses: tuple[str, ...]) -> None:
        s = self.state
        s.winner = winner
        s.reason = reason
        s.pending = None
        s.stack.clear()
        s.triggers.clear()
        s.combat = None
        self.emit("game-over", clauses, player=winner)

    def changed(self) -> None:
        """Forget cached powers and keywords, and what they are built from,
        after the board changed."""
        self._stats = None
        self._base = None

    def recount(self) -> None:
        """Forget cached powers and keywords, not what they are built from
        (`Base`), after a change that moved no creature and changed no face:
        whose turn it is, a life total."""
        self._stats = None

    def controller(self, card: int) -> int | None:
        play = self.state.play
        if holds(play[0], card):
            return 0
        if holds(play[1], card):
            return 1
        return None

    def name(self, card: int) -> str:
        return self.design(card).name

    def design(self, card: int) -> CardDef:
        """The design a card shows: for an evolved creature (later.evolve) the
        face of its stage, otherwise its printed design."""
        st = self.state.stages
        if st:
            for c, aside, stage in st:
                if c == card:
                    d = self.table.defs[aside]
                    return d if stage == 2 else (next_stage(d) or d)
        return self.table.defs[card]

    def power(self, card: int) -> int:
        st = self._stats       # tested against None: `or` would build the tuple again (compiled)
        if st is None:
            st = self.stats()
        return st[0][card]

    def keywords(self, card: int) -> int:
        st = self._stats
        if st is None:
            st = self.stats()
        return st[1][card]

    def has(self, card: int, keyword: int) -> bool:
        st = self._stats
        if st is None:
            st = self.stats()
        return st[1][card] & keyword != 0
