"""mu-replay/1: the replay log contract of Mind Up!, defined in code.

A log is JSON Lines, as mb-replay/1: every line one object whose `t` names
its type; `mb-oracle schema replay --game mind-up` prints the JSON Schema
generated from the structs below, and spec/mind-up/replay-format.md
documents them for people. Unknown fields are ignored (noted on game, setup,
round, state and end lines); `x` is the exporter's own data.

Players are numbered 0 to n-1; lists "by player" hold one item per player.
Cards are the main cards' numbers, 1 to 60.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Union

import msgspec
from msgspec import UNSET, Meta, UnsetType

from ....replay.lineform import Impl, _Line  # shared with mb-replay/1: the `t` tag, `x`, `impl`
from ....schemas import json_schema
from ..cards import player_name

FORMAT = "mu-replay/1"
GAME = "mind-up"

MAX_LIST = 100          # items in any list of a line: far above a legal game (60 cards)
Card = Annotated[int, Meta(ge=1, le=60, description="a main card, by its number")]
Cards = Annotated[list[Card], Meta(max_length=MAX_LIST)]
Player = Annotated[int, Meta(ge=0, le=5, description="a player, numbered from 0")]
ByPlayer = Annotated[list[Cards], Meta(max_length=6, description="one list of cards per player")]
Scores = Annotated[list[int], Meta(max_length=6, description="one score per player")]


class GameLine(_Line, tag="game", kw_only=True):
    """Starts a game of Mind Up!: `players` (how many), `objectives` (how
    many bonus objectives are shown at a time, 0 without the variant),
    `readings` (clause id -> choice, where the game does not take the team's).
    `game` may be left out: the format names the game."""

    game: Literal["mind-up"] | UnsetType = UNSET
    format: Literal["mu-replay/1"]
    id: str
    players: Annotated[int, Meta(ge=2, le=6)]
    objectives: Annotated[int, Meta(ge=0, le=5)] = 0
    edition: Literal["fr"] | UnsetType = UNSET
    impl: Impl | UnsetType = UNSET
    readings: dict[str, str] | UnsetType = UNSET


class SetupLine(_Line, tag="setup"):
    """The deal: either `deck` (the 60 cards, top first: player 0's 7 cards,
    then player 1's..., then the line, then the pile), or `hands` (7 cards
    per player) and `line` (one card per player), with the `pile` (the rest,
    top first) when known."""

    deck: Cards | UnsetType = UNSET
    hands: ByPlayer | UnsetType = UNSET
    line: Cards | UnsetType = UNSET
    pile: Cards | UnsetType = UNSET


class RoundLine(_Line, tag="round", kw_only=True):
    """The chance of a round: `order` (the Score values of the five columns,
    left to right), `draws` (rounds 2 and 3: the card each player draws, by
    player; default the pile's top cards in seat order), `objectives` (the
    objectives shown; default: kept, when 3 or more stay all game)."""

    round: Annotated[int, Meta(ge=1, le=3)] | UnsetType = UNSET
    order: Annotated[list[int], Meta(min_length=5, max_length=5)]
    draws: Cards | UnsetType = UNSET
    objectives: Annotated[list[int], Meta(max_length=5)] | UnsetType = UNSET


class TurnLine(_Line, tag="turn"):
    """A whole turn: every player's card, by player; then the reveal."""

    cards: Annotated[list[Card], Meta(max_length=6)]


class ChooseLine(_Line, tag="choose"):
    """One player's hidden choice; the reveal follows when every player has chosen."""

    p: Player
    card: Card


class RevealLine(_Line, tag="reveal"):
    """Optional, after `choose` lines: the reveal (every player must have chosen)."""


class LastLine(_Line, tag="last"):
    """Optional claim: each player's last card of the round (by player),
    which the rules put on the Score cards."""

    cards: Annotated[list[Card], Meta(max_length=6)]


class StateLine(_Line, tag="state"):
    """A claim on any subset of the state."""

    round: int | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    hands: ByPlayer | UnsetType = UNSET
    line: Cards | UnsetType = UNSET
    columns: Annotated[list[Annotated[list[Cards], Meta(min_length=5, max_length=5)]],
                       Meta(max_length=6)] | UnsetType = UNSET
    order: Annotated[list[int], Meta(max_length=5, description="this round's Score order; [] before round 1, "
                                     "which has none yet")] | UnsetType = UNSET
    scores: Annotated[list[Annotated[list[int], Meta(max_length=3)]], Meta(max_length=6)] | UnsetType = UNSET
    totals: Scores | UnsetType = UNSET
    pile: Annotated[int, Meta(ge=0)] | Cards | UnsetType = UNSET
    objectives: Annotated[list[int], Meta(max_length=5)] | UnsetType = UNSET


class EndLine(_Line, tag="end"):
    """The result the log claims: each player's game score, the winners
    (several when the victory is shared); `aborted` for a game stopped early."""

    scores: Scores | UnsetType = UNSET
    winners: Annotated[list[Player], Meta(max_length=6)] | UnsetType = UNSET
    reason: Literal["aborted"] | UnsetType = UNSET
    detail: str | UnsetType = UNSET


class NoteLine(_Line, tag="note"):
    """Free text for people; the oracle ignores it."""

    text: str = ""


Line = Union[GameLine, SetupLine, RoundLine, TurnLine, ChooseLine, RevealLine, LastLine, StateLine, EndLine,
             NoteLine]
LINE_TYPES = ("game", "setup", "round", "turn", "choose", "reveal", "last", "state", "end", "note")

decoder = msgspec.json.Decoder(Line)
_generic = msgspec.json.Decoder()
_STATE_FIELDS = len(StateLine.__struct_fields__)
KNOWN_FIELDS = {cls.__struct_config__.tag: set(cls.__struct_fields__) | {"t"}
                for cls in (GameLine, SetupLine, RoundLine, StateLine, EndLine)}


def unknown_fields(tag: str, raw: bytes, line: Line | None = None) -> list[str]:
    """Fields of a game, setup, round, state or end line that mu-replay/1
    does not define. `line`: the line decoded, when at hand: a state claim
    whose quotes are only those of its tag and of its fields' names (every
    value a number) has no other field, which is told without decoding it
    again."""
    known = KNOWN_FIELDS.get(tag)
    if known is None:
        return []
    if (line is not None and line.__class__ is StateLine and line.x is UNSET
            and raw.count(b'"') == 4 + 2 * (_STATE_FIELDS - msgspec.structs.astuple(line).count(UNSET))):
        return []
    data = _generic.decode(raw)
    return sorted(k for k in data if k not in known)


class _Head(msgspec.Struct):
    game: object = None


_head = msgspec.json.Decoder(_Head)


def names_mind_up(raw: bytes) -> bool:
    """Whether a game line says it is a game of Mind Up! (its `game` field)."""
    try:
        return _head.decode(raw).game == GAME
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        return False


_COLUMNS_AT = re.compile(r"Expected `array` of length ([<>]=) 5 - at `\$((?:\.state)?)\.columns\[(\d+)\]`$")


def explain(message: str) -> str:
    """A decoding error in the words of the contract where msgspec's own are
    vague: a player's Score cards in a claim are all five, left to right,
    an empty one written as `[]` (the field stays at the end, ` - at `$...``)."""
    m = _COLUMNS_AT.search(message)
    if m is None:
        return message
    fewer = m.group(1) == ">="
    return (f"{player_name(int(m.group(3)))}'s Score cards: `columns` lists all five, left to right, an empty one as [] "
            f"({'fewer' if fewer else 'more'} given)" + f" - at `${m.group(2)}.columns[{m.group(3)}]`")


def replay_schema() -> dict:
    """The JSON Schema of one mu-replay/1 line (`mb-oracle schema replay --game mind-up`)."""
    return json_schema(
        Line, id="https://mb-oracle.invalid/schema/mu-replay-1.json", title=f"{FORMAT} replay log line",
        description=("One line of a JSON Lines Mind Up! replay log; see spec/mind-up/replay-format.md. "
                     "Each line of a log must validate against this schema."))
