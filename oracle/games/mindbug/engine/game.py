"""The game as a small state machine.

A `Game` is either waiting for a decision (`pending`, with every legal
option), waiting for a chance outcome (`pending.is_chance`), or over
(`winner`, `reason`). `apply` takes one decision, runs the rules until the
next point where someone must decide, and returns the events it caused,
each naming the clauses that produced it.
"""

from __future__ import annotations

from typing import Any, Final

from ..cards import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH
from ..editions import Profile
from . import setup
from .board import Board, Stats, Table
from .combat import _block, after_attack, block_step, fight_step, hunt_step
from .drawing import refill
from .errors import GAME_OVER, EngineError, Refusal, Refused
from .explain import explain
from .outcome import end_clause
from .play import _mindbug
from .power import apply, base
from .registry import RESUMES, TASKS
from .restrictions import attack_barred
from .records import Decision, Event, Pending
from .state import COMPILED
from .triggers import resolve_triggers
from .turns import _action, end_turn, start_turn, turn_action

# Final: the compiled build keeps these in the module's own variables, not its dict.
_TASKS: Final = TASKS
_RESUMES: Final = RESUMES
_COMPILED: Final = COMPILED
# The steps most decisions take, as the registries held them when the rules
# were loaded: while a registry still holds one of these, Game._step and
# apply_unchecked call it directly, which the compiled build does without
# packing its arguments into Python objects (about 150 instructions a call).
# A step an adapter put in its place is called through the registry, and so
# is every step interpreted, where a direct call is no faster.
_ACTION: Final = RESUMES["action"]
_MINDBUG: Final = RESUMES["mindbug"]
_BLOCK: Final = RESUMES["block"]
_TURN_ACTION: Final = TASKS["action"]
_START_TURN: Final = TASKS["turn"]
_END_TURN: Final = TASKS["end-turn"]
_HUNT: Final = TASKS["hunt"]
_BLOCK_STEP: Final = TASKS["block"]
_FIGHT: Final = TASKS["fight"]
_AFTER_ATTACK: Final = TASKS["after-attack"]
_RESOLVE: Final = TASKS["resolve-triggers"]

__all__ = ["Decision", "Game", "QuietGame", "Table", "FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH"]


class Game(Board):
    """The board that drives the rules (board.Board): a decision in, the
    rules run until the next decision, the events out."""

    __slots__ = ()

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
        return explain(self, d)      # the slow path, only for refusals

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
        if not _COMPILED:
            if n == 1:
                _RESUMES[r[0]](self, kind, arg)
            elif n == 2:                  # the common lengths called without unpacking
                _RESUMES[r[0]](self, kind, arg, r[1])
            else:
                _RESUMES[r[0]](self, kind, arg, *r[1:])
            self.run()
            return self.events
        f = _RESUMES[r[0]]                # compiled: the common answers' steps called directly
        if n == 1:
            if f is _ACTION:
                _action(self, kind, arg)
            elif f is _BLOCK:
                _block(self, kind, arg)
            else:
                f(self, kind, arg)
        elif n == 2:
            if f is _MINDBUG:
                _mindbug(self, kind, arg, r[1])
            else:
                f(self, kind, arg, r[1])
        else:
            f(self, kind, arg, *r[1:])
        self.run()
        return self.events

    def run(self) -> None:
        """Run the rules until a decision is needed or the game is over."""
        s = self.state
        stack = s.stack
        tasks = _TASKS
        direct = _COMPILED
        while s.pending is None and s.winner is None:
            if not stack:
                raise EngineError("nothing left to do and no decision pending")
            t = stack.pop()
            n = len(t)
            if direct:
                self._step(t, n)
            elif n == 1:
                tasks[t[0]](self)
            elif n == 2:                  # the common lengths called without unpacking
                tasks[t[0]](self, t[1])
            elif n == 3:
                tasks[t[0]](self, t[1], t[2])
            else:
                tasks[t[0]](self, *t[1:])

    def _step(self, t: tuple, n: int) -> None:
        """The task `t` (of `n` parts) as the compiled build runs it: the
        steps most decisions take called directly while the registry holds
        them (interpreted, a direct call is no faster, and `run` calls each
        through the registry)."""
        f = _TASKS[t[0]]
        if n == 1:
            if f is _END_TURN:
                end_turn(self)
            elif f is _HUNT:
                hunt_step(self)
            elif f is _BLOCK_STEP:
                block_step(self)
            elif f is _FIGHT:
                fight_step(self)
            elif f is _RESOLVE:
                resolve_triggers(self)
            else:
                f(self)
        elif n == 2:
            if f is _TURN_ACTION:
                turn_action(self, t[1])
            elif f is _AFTER_ATTACK:
                after_attack(self, t[1])
            elif f is _END_TURN:
                end_turn(self, t[1])
            else:
                f(self, t[1])
        elif n == 3:
            if f is _START_TURN:
                start_turn(self, t[1], t[2])
            else:
                f(self, t[1], t[2])
        else:
            f(self, *t[1:])

    # -- what the rule modules ask of the game (board.Board) ---------------
    def stats(self) -> Stats:
        """power.compute's answer, kept until the board changes (`changed`,
        `recount`, power.entered, power.left), and built from the kept
        `Base` where there is one."""
        st = self._stats
        if st is None:
            b = self._base
            if b is None:
                b = self._base = base(self)
            st = self._stats = apply(self, b)
        return st

    def attack_barred(self, player: int) -> frozenset:
        """restrictions.attack_barred's answer for `player`."""
        return attack_barred(self, player)

    # -- construction ----------------------------------------------------
    @classmethod
    def deal(cls, edition: Profile | str | None, cards: Any, decks, unused, first=None,
             reveals=(), life_piles=None, tolerate: list | None = None, sets=setup.DEFAULT_SETS,
             set_aside=None) -> "Game":
        """A game from a deal (setup.deal) of the deck of `sets` (setup.sets):
        raises SetupError for a deal the rules refuse. `cards`: id -> name,
        or the names of the ids 1 to N in order (deck.numbered).
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
