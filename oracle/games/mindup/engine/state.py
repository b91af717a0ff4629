"""The state of a game of Mind Up!, as plain data, and the engine's errors
and events.

Who must decide is a set of players: every player who has not yet chosen a
card this turn. Chance (a round's Score order, the cards drawn, the
objectives shown) is an input the engine waits for, as a pending `round`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..cards import COLUMNS


@dataclass
class State:
    players: int
    objectives_count: int = 0           # 0: the variant is not played; 1-5 objectives at a time
    round: int = 0                      # 1-3 once the first round started; 0 before
    turn: int = 0                       # turns revealed this round
    hands: list[list[int]] = field(default_factory=list)   # per player, ascending
    line: list[int] = field(default_factory=list)          # the central line, left to right (ascending)
    pile: list[int] | None = None       # the face-down pile, top first; None: the log did not give it
    order: tuple[int, ...] = ()         # this round's Score order: the value of each column, left to right
    columns: list[list[list[int]]] = field(default_factory=list)  # [player][column] -> cards, in arrival order
    chosen: list[int | None] = field(default_factory=list)        # this turn's hidden choices
    scores: list[list[int]] = field(default_factory=list)         # [player] -> score of each round played
    objectives: tuple[int, ...] = ()    # the objectives shown this round
    shown: list[int] = field(default_factory=list)                # every objective shown so far, in order
    orders: list[tuple[int, ...]] = field(default_factory=list)   # the Score order of each round
    waiting_round: bool = True          # the next round's chance (order, draws, objectives) is awaited
    over: bool = False

    @classmethod
    def empty(cls, players: int, objectives: int) -> "State":
        return cls(players, objectives, hands=[[] for _ in range(players)],
                   columns=[[[] for _ in range(COLUMNS)] for _ in range(players)],
                   chosen=[None] * players, scores=[[] for _ in range(players)])

    def copy(self) -> "State":
        """A copy that shares nothing that changes: the lists are copied
        (ints and tuples, which never change, are shared)."""
        return State(self.players, self.objectives_count, self.round, self.turn, [h[:] for h in self.hands],
                     self.line[:], None if self.pile is None else self.pile[:], self.order,
                     [[col[:] for col in cols] for cols in self.columns], self.chosen[:],
                     [x[:] for x in self.scores], self.objectives, self.shown[:], self.orders[:],
                     self.waiting_round, self.over)

    def totals(self) -> list[int]:
        return [sum(s) for s in self.scores]

    def scored(self, p: int) -> list[int]:
        """Every card on player p's Score cards."""
        return [c for col in self.columns[p] for c in col]


@dataclass(frozen=True)
class Pending:
    """What the game waits for: `round` (the chance of a new round), `choose`
    (a card from each player in `players`), or `over`."""

    kind: str
    players: frozenset[int] = frozenset()

    def __reduce__(self) -> tuple:
        # pickle and copy make it again from its fields: a compiled frozen class takes no setattr
        return (Pending, (self.kind, self.players))


class Event:
    """Something the rules did, with the clauses that made it happen, and
    its text for people: given, or written when it is first read by
    `say(*words)`, from values that no later step changes (a game verified
    without a finding reads no event's text)."""

    def __init__(self, kind: str, clauses: list[str], text: str = "", player: int | None = None,
                 card: int | None = None, cards: list[int] | None = None, column: int | None = None,
                 amount: int | None = None, parts: dict | None = None,
                 say: Callable[..., str] | None = None, words: tuple = ()):
        self.kind = kind
        self.clauses = clauses
        self.player = player
        self.card = card
        self.cards = cards
        self.column = column
        self.amount = amount
        self.parts = parts      # a score: the round score part by part (scoring.breakdown)
        self._text = text
        self._say = say
        self._words = words

    @property
    def text(self) -> str:
        say = self._say
        if say is not None:
            self._text = say(*self._words)
            self._say = None
        return self._text

    def __reduce__(self) -> tuple:
        # pickle and copy make it again from its fields, the text written: a compiled class has no __dict__
        return (Event, (self.kind, self.clauses, self.text, self.player, self.card, self.cards, self.column,
                        self.amount, self.parts))


class RuleError(Exception):
    """A decision or an input the rules refuse: the clause, a message for
    people, the legal options (when the refusal is a player's decision)."""

    def __init__(self, clause: str, message: str, options=None, code: str = "ILLEGAL_DECISION"):
        super().__init__(f"[{clause}] {message}")
        self.clause = clause
        self.message = message
        self.options = list(options or ())
        self.code = code


class SetupError(RuleError):
    """A deal the rules cannot start from."""

    def __init__(self, clause: str, message: str):
        super().__init__(clause, message, code="BAD_SETUP")
