"""The game as a small state machine.

A `Game` is either waiting for a decision (`pending`, with every legal
option), waiting for a chance outcome (`pending.is_chance`), or over
(`winner`, `reason`). `apply` takes one decision, runs the rules until the
next point where someone must decide, and returns the events it caused,
each naming the clauses that produced it.
"""

from __future__ import annotations

from typing import Final

from ..cards import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH, CardDef, next_stage
from ..editions import Profile, profile as get_profile
from . import setup
from .drawing import refill
from .errors import GAME_OVER, EngineError, Refusal, Refused
from .outcome import end_clause
from .power import compute, design_face
from .presence import Flags, flags_of
from .registry import RESUMES, TASKS
from .restrictions import attack_barred
from .records import Decision, Event, Pending
from .state import State

_new_tuple: Final = tuple.__new__
# Game.stats: power and keywords by creature, and the block rules of constant abilities in play.
Stats = tuple[dict[int, int], dict[int, int], list]
# Final: the compiled build keeps these in the module's own variables, not its dict.
_EVENT: Final = Event
_TASKS: Final = TASKS
_RESUMES: Final = RESUMES

__all__ = ["Decision", "Game", "QuietGame", "Table", "FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH"]


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
        the rule by which it forbids blocks (or None), the design's name and
        whether the ability never reads whose turn it is; None for the others
        (power.design_face)."""
        f = self.faces.get(card)
        if f is None:
            f = self.faces[card] = design_face(self.defs[card])
        return f


class Game:
    __slots__ = ("table", "profile", "state", "events", "_stats", "_turn_free", "chance_before")

    def __init__(self, table: Table, profile: Profile | str | None, state: State):
        self.table = table
        self.profile = profile if isinstance(profile, Profile) else get_profile(profile)
        self.state = state
        self.events: list[Event] = []
        self._stats: Stats | None = None
        self._turn_free = False     # _stats hold whoever's turn it is (power.compute says)
        # (the attack under way, the events of its decisions up to its last chance event): ask_chance
        self.chance_before: tuple = ()

    # -- the protocol ----------------------------------------------------
    @property
    def pending(self) -> Pending | None:
        return self.state.pending

    @property
    def is_over(self) -> bool:
        return self.state.winner is not None

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def reason(self) -> str | None:
        return self.state.reason

    def legal_decisions(self) -> list[Decision]:
        p = self.state.pending
        if p is None:
            return []
        return [Decision(k, p.player, a) for k, a in p.options]

    def copy(self) -> "Game":
        g = self.__class__(self.table, self.profile, self.state.copy())
        kept = self.events_before_chance()
        if kept:
            g.chance_before = (g.state.combat, kept)     # the same attack, in the copy
        return g

    def refusal(self, d: Decision) -> Refusal | None:
        """Why the rules refuse `d` here, or None if it is legal."""
        s = self.state
        p = s.pending
        if p is None:
            return Refusal(GAME_OVER, end_clause(s.reason),
                           "the game is already over")
        if p.player == d.player and (d.kind, d.arg) in p.options:
            return None
        from .explain import explain  # the slow path, only for refusals
        return explain(self, d)

    def apply(self, d: Decision) -> list[Event]:
        """Apply a legal decision; raise `Refused` (state unchanged) otherwise."""
        r = self.refusal(d)
        if r is not None:
            raise Refused(r)
        return self.apply_unchecked(d.kind, d.arg)

    def apply_unchecked(self, kind: str, arg) -> list[Event]:
        s = self.state
        pend = s.pending
        s.pending = None
        self.events = []
        r: tuple = pend.resume  # type: ignore[union-attr]  # a decision is pending: the caller checked
        n = len(r)
        if n == 1:
            _RESUMES[r[0]](self, kind, arg)
        elif n == 2:                      # the common lengths called without unpacking
            _RESUMES[r[0]](self, kind, arg, r[1])
        else:
            _RESUMES[r[0]](self, kind, arg, *r[1:])
        self.run()
        return self.events

    def run(self) -> None:
        """Run the rules until a decision is needed or the game is over."""
        s = self.state
        stack = s.stack
        tasks = _TASKS
        while s.pending is None and s.winner is None:
            if not stack:
                raise EngineError("nothing left to do and no decision pending")
            t = stack.pop()
            n = len(t)
            if n == 1:
                tasks[t[0]](self)
            elif n == 2:                  # the common lengths called without unpacking
                tasks[t[0]](self, t[1])
            elif n == 3:
                tasks[t[0]](self, t[1], t[2])
            else:
                tasks[t[0]](self, *t[1:])

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
        """Forget cached powers and keywords after the board or the turn changed."""
        self._stats = None

    def controller(self, card: int) -> int | None:
        s = self.state
        if card in s.play[0]:
            return 0
        if card in s.play[1]:
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

    def stats(self) -> Stats:
        """(power, keywords) of every creature in play, all constant abilities
        applied, and the creatures in play whose constant ability forbids
        blocks, as (side, card, rule) in play order."""
        if self._stats is None:
            self._stats = compute(self)
        return self._stats

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

    def attack_barred(self, player: int) -> frozenset:
        """`player`'s creatures that may not attack now (abilities.cannot-attack,
        later.in-discard, later.action.fresh): for abilities, which read the
        game and never import the engine's modules."""
        return attack_barred(self, player)

    def has(self, card: int, keyword: int) -> bool:
        st = self._stats
        if st is None:
            st = self.stats()
        return st[1][card] & keyword != 0

    # -- construction ----------------------------------------------------
    @classmethod
    def deal(cls, edition: Profile | str | None, cards: dict[int, str], decks, unused, first=None,
             reveals=(), life_piles=None, tolerate: list | None = None, sets=setup.DEFAULT_SETS,
             set_aside=None) -> "Game":
        """A game from a deal (setup.deal) of the deck of `sets` (setup.sets):
        raises SetupError for a deal the rules refuse.
        With `tolerate` (a list), the faults that leave a game to play are
        collected there and the game is dealt as given (`setup.dealt_state`).
        `set_aside`: the ids the log says are set aside (setup.set-aside)."""
        prof, defs, owner, s, flags = setup.dealt_state(edition, cards, decks, unused, first, reveals, life_piles,
                                                        tolerate, sets, set_aside)
        g = cls(Table(defs, owner, flags), prof, s)
        g.emit("setup", ("setup.deal", "setup.hand", "setup.life", "setup.first-player"),
               player=s.stack[-1][1])
        g.run()
        return g

    @classmethod
    def position(cls, edition, zones: dict, defs: dict, **kw) -> "Game":
        """A game from an arbitrary position (`setup.position_state`), at the start of
        the active player's turn: what happens at the start of a turn (Harvest,
        triggers.harvest), then the turn action."""
        prof, owner, s = setup.position_state(edition, zones, defs, **kw)
        g = cls(Table(defs, owner), prof, s)
        if prof.refill == "below-five":          # drawing.refill
            for p in (0, 1):
                refill(g, p)
        g.run()
        return g


class QuietGame(Game):
    """A game that keeps no record of what happened: the same rules, the same
    states, no events (the rules never read them). For a reader that only
    compares states and decisions, such as verify's fast lane."""

    __slots__ = ()

    def emit(self, kind, clauses, player=None, card=None, cards=None, amount=None, source=None) -> None:
        pass
