"""mb-scenario/1 for Mind Up! (`game: mind-up`): a ruling as a position in
the game's terms, the turns played from it and what must follow.

The structs below are the contract of a Mind Up! scenario document, as
oracle.games.mindbug.scenarios.format is for Mindbug; spec/scenario-format.md
("Mind Up!") documents them for people. Cards are their numbers (1 to 60), objectives
their ids (1 to 14, shared/cards/mind-up.md), players their seats from 0.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ....scenarios.document import FORMAT, ID_PATTERN, STATUSES, Source

GAME = "mind-up"
EDITIONS = ("fr",)
MAX_SEATS = 6          # six sets of Score cards: seats 0 to 5
# Refusal codes of the Mind Up! engine (RuleError.code, SetupError.code).
REFUSAL_CODES = ("ILLEGAL_DECISION", "ILLEGAL_RANDOM", "GAME_OVER", "MISSING_INPUT", "BAD_SETUP")
PENDING_KINDS = ("choose", "round", "over")
EVENT_KINDS = ("reveal", "place", "line", "score", "end", "take-back", "order")

Card = Annotated[int, Meta(ge=1, le=60, description="a main card, by its number (1 to 60)")]
Seat = Annotated[int, Meta(ge=0, le=MAX_SEATS - 1, description="a player, by seat: 0 is the first player")]
Objective = Annotated[int, Meta(ge=1, le=14, description="a bonus objective, by its id (1 to 14)")]
Value = Annotated[int, Meta(ge=1, le=5, description="a Score card's value")]
Order = Annotated[list[Value], Meta(min_length=5, max_length=5,
                                    description="the Score values of the five columns, left to right")]
Column = list[Card]
Columns = Annotated[list[Column], Meta(max_length=5, description="a player's Score cards, left to right: the "
                                                                 "cards on each (columns left out are empty)")]
Count = Annotated[int, Meta(ge=0, description="a number of cards")]


class _S(Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    pass


class MuDeal(_S, kw_only=True):
    """A game from its deal: each player's 7 cards and the line's cards (the
    rules sort them); the other cards form the pile, after the ones `pile`
    lists (top first), in number order."""

    hands: Annotated[list[list[Card]], Meta(min_length=1, max_length=MAX_SEATS + 1)]
    line: list[Card]
    pile: list[Card] = []


class MuGiven(_S, kw_only=True):
    """The position: the start of a turn of round `round`, every player's
    hand and Score cards, the line, this round's Score order and objectives,
    the pile (top first; the cards placed nowhere follow in number order),
    the scores of the rounds already played (one list per round, a score per
    player; left out, 0 each). `deal` replaces hands, line, columns, pile,
    round and scores. The position need not hold all of a round's cards: a
    ruling may give each player a few. Hands of one card each are the
    moment the rules place the round's last cards (mu.round.last-card):
    the run starts with it. `scored` gives a player's Score cards as the
    cards won this round, in the order won, placed by the rules of Score
    cards (mu.score-cards.place), instead of `columns`."""

    # The number of players, when written: it must be the number of hands.
    players: Annotated[int, Meta(ge=1, le=MAX_SEATS + 1)] | UnsetType = UNSET
    round: Annotated[int, Meta(ge=1, le=3)] = 1
    order: Order = msgspec.field(default_factory=lambda: [1, 2, 3, 4, 5])   # this round's Score order
    hands: Annotated[list[list[Card]], Meta(min_length=1, max_length=MAX_SEATS + 1)] | UnsetType = UNSET
    line: list[Card] | UnsetType = UNSET
    columns: list[Columns] = []
    # A player's cards won this round, in the order won (placed by the rules).
    scored: dict[Seat, list[Card]] = {}
    pile: list[Card] = []
    scores: list[list[int]] = []
    objectives: list[Objective] = []
    # Objectives shown in earlier rounds (discarded when renewed).
    shown_before: list[Objective] = []
    deal: MuDeal | UnsetType = UNSET


class MuNextRound(_S, kw_only=True):
    """What chance brings at the start of a round the scenario reaches: its
    Score order, the card each player draws (default: the pile's top cards
    in seat order), the objectives shown (default: kept, when 3 or more
    stay all game)."""

    order: Order
    draws: list[Card] | UnsetType = UNSET
    objectives: list[Objective] | UnsetType = UNSET


# A turn: each player's card (a list: the cards chosen one after the other,
# a change of mind); a player left out has not chosen when the cards are revealed.
Turn = dict[Seat, Union[Card, Annotated[list[Card], Meta(min_length=1)]]]


class MuParts(_S, kw_only=True):
    """A player's score of the last round scored, part by part."""

    columns: int | UnsetType = UNSET      # the Score values times the cards on them, added up
    bubbles: int | UnsetType = UNSET      # the bonus and malus bubbles, added up
    objectives: int | UnsetType = UNSET   # the values of the objectives met, added up
    met: list[Objective] | UnsetType = UNSET   # exactly these objectives are met
    total: int | UnsetType = UNSET


class MuPending(_S, kw_only=True):
    """What the game waits for: `choose` (the cards of `players`), `round`
    (the chance of the next round), `over`."""

    kind: Literal[PENDING_KINDS] | UnsetType = UNSET  # type: ignore[valid-type]
    players: list[Seat] | UnsetType = UNSET


class MuEventMatch(_S, kw_only=True):
    """An event pattern: every field given must match the same event."""

    kind: Literal[EVENT_KINDS] | UnsetType = UNSET  # type: ignore[valid-type]
    clause: str | UnsetType = UNSET
    player: Seat | UnsetType = UNSET
    card: Card | UnsetType = UNSET
    column: Annotated[int, Meta(ge=0, le=4)] | UnsetType = UNSET   # the Score card, 0 the leftmost
    amount: int | UnsetType = UNSET


class MuExpect(_S, kw_only=True):
    """What must hold after the turns. Only what is listed is checked; a
    mapping by player checks the players it names."""

    round: Annotated[int, Meta(ge=1, le=3)] | UnsetType = UNSET
    turn: Annotated[int, Meta(ge=0)] | UnsetType = UNSET    # turns revealed this round
    order: Order | UnsetType = UNSET
    line: list[Card] | UnsetType = UNSET
    hands: dict[Seat, Union[Count, list[Card]]] | UnsetType = UNSET
    hands_include: dict[Seat, Annotated[list[Card], Meta(min_length=1)]] | UnsetType = UNSET  # among others
    columns: dict[Seat, Columns] | UnsetType = UNSET
    pile: Union[Count, list[Card]] | UnsetType = UNSET
    objectives: list[Objective] | UnsetType = UNSET
    rounds: dict[Seat, list[int]] | UnsetType = UNSET     # each round's score so far
    parts: dict[Seat, MuParts] | UnsetType = UNSET          # the last round scored, part by part
    scores: dict[Seat, int] | UnsetType = UNSET           # the game scores: the rounds added up
    winners: list[Seat] | UnsetType = UNSET               # []: the game is not over
    pending: MuPending | UnsetType = UNSET
    # The card each player took from the line in the last turn revealed.
    won: dict[Seat, Card] | UnsetType = UNSET
    events: list[MuEventMatch] | UnsetType = UNSET
    no_events: list[MuEventMatch] | UnsetType = UNSET


class MuIllegal(_S, kw_only=True):
    """What the rules must refuse: turn N's choices or reveal (`turn`; 0 is
    the setup: BAD_SETUP, or ILLEGAL_RANDOM for the first round's chance
    of a deal), or the start of round N (`round`); the refusal's code and
    clause, and for a choice the player who made it."""

    turn: Annotated[int, Meta(ge=0)] | UnsetType = UNSET
    round: Annotated[int, Meta(ge=2, le=4)] | UnsetType = UNSET     # 4: no round after the third
    player: Seat | UnsetType = UNSET
    code: Literal[REFUSAL_CODES] = "ILLEGAL_DECISION"  # type: ignore[valid-type]
    clause: str | UnsetType = UNSET


class MindUpScenario(_S, kw_only=True):
    """One Mind Up! scenario: a position, the turns played, what must follow."""

    format: Literal[FORMAT]  # type: ignore[valid-type]
    game: Literal[GAME]  # type: ignore[valid-type]
    id: Annotated[str, Meta(pattern=ID_PATTERN)]
    title: Annotated[str, Meta(min_length=1)]
    clauses: Annotated[list[str], Meta(min_length=1)]
    editions: Union[Literal["all"], Annotated[list[Literal[EDITIONS]], Meta(min_length=1)]] = "all"  # type: ignore[valid-type]
    readings: dict[str, str] | UnsetType = UNSET
    source: Source
    status: Literal[STATUSES] = "approved"  # type: ignore[valid-type]
    given: MuGiven
    turns: list[Turn] = []
    next_rounds: list[MuNextRound] = []
    expect: MuExpect | UnsetType = UNSET
    # What must hold right after turn N (0: the position as set up), before
    # any later turn or round start.
    expect_after_turn: dict[Annotated[int, Meta(ge=0)], MuExpect] | UnsetType = UNSET
    illegal: MuIllegal | UnsetType = UNSET
