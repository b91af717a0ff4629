"""mb-scenario/1 for Mindbug: the scenario format, defined in code.

A scenario file holds one or more YAML documents; each document is one
scenario. The structs below are the contract: the loader converts every
document with them, `mb-oracle schema scenario` prints the JSON Schema they
generate (oracle.scenarios.document), and spec/scenario-format.md
documents them for people.

Cards are named in English, in French or by slug; `Name#2` is the second
copy of a two-copy design. Unknown keys are refused everywhere, so a typo in
an expectation cannot pass unchecked.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ....scenarios.document import FORMAT, ID_PATTERN, SOURCE_KINDS, STATUSES, Source  # noqa: F401 (the format's names)
from ..editions import EDITIONS

STAGES = ("action", "mindbug", "frenzy", "fast", "hunt", "block", "choose", "order", "random")
REASONS = ("life", "no-action", "card")
# Event kinds the engine emits (oracle/games/mindbug/engine: `g.emit(kind, ...)`).
EVENT_KINDS = (
    "setup", "turn", "end-turn", "play", "draw", "mindbug", "enter-play", "play-effect-prevented",
    "trigger", "attack", "attack-ends", "hunt", "block", "combat", "lose-life", "gain-life", "no-gain",
    "defeat", "exhaust", "discard", "steal", "take-control", "return-to-hand", "no-effect", "game-over",
    "this-turn", "this-turn-ends", "from-discard", "hand-over", "keep-in-hand", "octonite", "octonite-removed",
    "octonite-moved", "octonite-spent", "refresh", "activate",
    "boost", "boost-released", "boost-taken", "discard-draw-pile", "put-in-discard",
    "evolve", "unevolve", "ready", "not-defeated", "discard-all",
)
# The promos' events (promo.* clauses).
EVENT_KINDS += ("card-win", "card-loss", "no-life-loss", "hand-closed", "swap-hands", "name-power",
                "unused-to-deck", "set-aside", "side")
# Refusal codes (oracle.games.mindbug.engine.errors) and setup error codes (SetupError.code).
REFUSAL_CODES = ("ILLEGAL_DECISION", "ILLEGAL_RANDOM", "GAME_OVER")
SETUP_CODES = ("BAD_SETUP", "WRONG_FIRST_PLAYER", "BAD_POSITION", "UNKNOWN_CARD")

# The most Octonite counters a scenario may place on (or expect of) one
# creature (later.octonite): far more than a game can gather on one creature,
# few enough that a typo such as 1000 is refused.
MAX_OCTONITE = 99

Player = Annotated[int, Meta(ge=0, le=1, description="player 0 or player 1")]
Edition = Literal[EDITIONS]  # type: ignore[valid-type]
Card = Annotated[str, Meta(min_length=1, description="a card: English name, French name or slug; "
                                                     "`Name#2` is the second copy")]


Number = Annotated[int, Meta(ge=1, le=99, description="a number an effect asks for instead of cards: a die's "
                                                     "face (promo.die-roll), a named power (promo.name-a-power), "
                                                     "a side marker's power (promo.side-markers)")]


class _S(Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    pass


# -- the position --------------------------------------------------------------


Octonite = Annotated[int, Meta(ge=0, le=MAX_OCTONITE, description="Octonite counters on the creature "
                                                                  "(later.octonite, English revised)")]
Stage = Annotated[int, Meta(ge=1, le=3, description="the evolution stage of a creature of an evolution line "
                                                    "(later.evolve, English revised): 1, 2 or 3")]


class Placed(_S, kw_only=True):
    """A creature in play with its state; a bare name is a creature that is
    not exhausted. `octonite`: the counters on it (later sets); in `given`
    none when left out, in `expect` not checked when left out. `stage`: the
    stage of a stage I card of an evolution line (later.evolve); in `given`
    1 when left out, in `expect` not checked when left out. `boosts`: the
    boost cards under it (later.boost); in `given` none when left out, in
    `expect` checked in any order, not checked when left out. `card` may
    name a stage face (Frog Prophet): the line's stage I card at that stage."""

    card: Card
    exhausted: bool = False
    octonite: Octonite | UnsetType = UNSET
    stage: Stage | UnsetType = UNSET
    boosts: list[Card] | UnsetType = UNSET


InPlay = Union[Card, Placed]


class GivenPlayer(_S, kw_only=True):
    """One player's side of the position. Zones default to empty."""

    life: Annotated[int, Meta(ge=0)] = 3
    mindbugs: Annotated[int, Meta(ge=0, le=2)] = 2
    hand: list[Card] = []
    play: list[InPlay] = []
    discard: list[Card] = []  # bottom first: the last card is the one discarded last
    deck: list[Card] = []     # the draw pile, top first


class Deal(_S, kw_only=True):
    """A game from its setup (Game Setup in the rulebooks) instead of a position:
    10-card draw piles, the unused pile (top first; cards named nowhere follow
    in set order), the pairs revealed to choose the first player, the first player."""

    decks: Annotated[list[list[Card]], Meta(min_length=2, max_length=2)]
    unused: list[Card] = []
    reveals: list[Annotated[list[Card], Meta(min_length=2, max_length=2)]] = []
    first: Player | UnsetType = UNSET


class Given(_S, kw_only=True):
    """The position the scenario starts from, at the start of `active`'s
    turn (Harvest first, then the turn action). Every card of the set is in
    the game; cards placed nowhere are in the unused pile, unless `unused`
    lists it, in which case the others are out of the game. `deal` replaces
    all of this with a game from its setup."""

    active: Player = 0
    turn: Annotated[int, Meta(ge=1)] = 1
    players: Annotated[list[GivenPlayer], Meta(min_length=2, max_length=2)] | UnsetType = UNSET
    unused: list[Card] | UnsetType = UNSET
    deal: Deal | UnsetType = UNSET


# -- decisions -----------------------------------------------------------------


class StepMap(_S, kw_only=True):
    """One decision written as a mapping with exactly one decision key, and
    `by` to state the player (otherwise the player the game waits for)."""

    play: Card | UnsetType = UNSET
    attack: Card | UnsetType = UNSET
    activate: Card | UnsetType = UNSET
    mindbug: bool | None | UnsetType = UNSET
    pass_: bool | None | UnsetType = msgspec.field(default=UNSET, name="pass")
    hunt: Card | None | UnsetType = UNSET
    block: Card | None | UnsetType = UNSET
    choose: list[Card | Number] | UnsetType = UNSET
    random: list[Card | Number] | UnsetType = UNSET
    by: Player | UnsetType = UNSET


Step = Union[Literal["mindbug", "pass"], StepMap]


# -- expectations ----------------------------------------------------------------

CardList = list[Card]
Count = Annotated[int, Meta(ge=0, description="the number of cards")]


class PlayerExpect(_S, kw_only=True):
    """What must hold for one player; a zone is a list of cards (compared
    regardless of order, except the draw pile, top first) or a count."""

    life: int | UnsetType = UNSET
    mindbugs: int | UnsetType = UNSET
    hand: Union[Count, CardList] | UnsetType = UNSET
    play: Union[Count, list[InPlay]] | UnsetType = UNSET
    discard: Union[Count, CardList] | UnsetType = UNSET
    deck: Union[Count, CardList] | UnsetType = UNSET


class PendingExpect(_S, kw_only=True):
    """The decision the game waits for at the end."""

    stage: Literal[STAGES] | UnsetType = UNSET  # type: ignore[valid-type]
    player: Player | None | UnsetType = UNSET
    options: list[Step] | UnsetType = UNSET     # exactly these legal decisions
    has: list[Step] | UnsetType = UNSET         # among the legal decisions
    lacks: list[Step] | UnsetType = UNSET       # not among the legal decisions
    source: Card | UnsetType = UNSET            # the card whose ability asks
    clauses: list[str] | UnsetType = UNSET      # cited by the pending decision


class EventMatch(_S, kw_only=True):
    """An event pattern: every field given must match the same event."""

    kind: Literal[EVENT_KINDS] | UnsetType = UNSET  # type: ignore[valid-type]
    clause: str | UnsetType = UNSET                 # among the event's clauses
    player: Player | UnsetType = UNSET
    card: Card | UnsetType = UNSET
    cards: CardList | UnsetType = UNSET
    amount: int | UnsetType = UNSET
    source: Card | UnsetType = UNSET


class Expect(_S, kw_only=True):
    """What must hold after the steps. Only what is listed is checked."""

    players: Annotated[list[PlayerExpect], Meta(min_length=1, max_length=2)] | UnsetType = UNSET
    active: Player | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    exhausted: CardList | UnsetType = UNSET
    power: dict[str, int] | UnsetType = UNSET
    keywords: dict[str, list[str]] | UnsetType = UNSET
    octonite: dict[str, Octonite] | UnsetType = UNSET   # counters on named creatures in play
    stage: dict[str, Stage] | UnsetType = UNSET         # the stage of named creatures in play, alone
    set_aside: CardList | UnsetType = UNSET             # the double-sided cards aside (setup.set-aside)
    winner: Player | None | UnsetType = UNSET
    reason: Literal[REASONS] | None | UnsetType = UNSET  # type: ignore[valid-type]
    pending: PendingExpect | None | UnsetType = UNSET
    events: list[EventMatch] | UnsetType = UNSET
    no_events: list[EventMatch] | UnsetType = UNSET
    unused: Count | UnsetType = UNSET
    out: Count | UnsetType = UNSET


class Illegal(_S, kw_only=True):
    """The step that the rules must refuse (0: the setup itself), with the
    refusal's code and clause, and the card whose ability forbids it."""

    step: Annotated[int, Meta(ge=0)] | UnsetType = UNSET
    code: Literal[REFUSAL_CODES + SETUP_CODES] = "ILLEGAL_DECISION"  # type: ignore[valid-type]
    clause: str | UnsetType = UNSET
    card: Card | UnsetType = UNSET


class EditionOverride(_S, kw_only=True):
    """What differs in one edition: `expect` fields replace the shared ones
    (player by player); `illegal` replaces the shared one (null: no refusal)."""

    expect: Expect | UnsetType = UNSET
    illegal: Illegal | None | UnsetType = UNSET


class Scenario(_S, kw_only=True):
    """One scenario: a position, a few decisions, and what must follow."""

    format: Literal[FORMAT]  # type: ignore[valid-type]
    # The game the scenario is about: Mindbug unless it says otherwise
    # (`game: mind-up` is oracle.games.mindup.scenarios.format's MindUpScenario).
    game: Literal["mindbug"] = "mindbug"
    id: Annotated[str, Meta(pattern=ID_PATTERN)]
    title: Annotated[str, Meta(min_length=1)]
    clauses: Annotated[list[str], Meta(min_length=1)]
    cards: list[str] = []
    # The card sets of the game (setup.sets); default: First Contact alone.
    sets: Annotated[list[str], Meta(min_length=1, max_length=100)] | UnsetType = UNSET
    # The ruling holds with exactly these sets (it counts the cards of the deck, such as
    # the unused pile): `mb-oracle scenarios --sets` adding others finds it not applicable.
    exact_sets: bool = False
    # Cards declared as data (spec/card-format.md), a path relative to the scenario file.
    card_file: Annotated[str, Meta(min_length=1, max_length=500)] | UnsetType = UNSET
    editions: Union[Literal["all"], Annotated[list[Edition], Meta(min_length=1)]] = "all"
    # Team readings to play under (clause id -> choice), where not the team's.
    readings: dict[str, str] | UnsetType = UNSET
    source: Source
    status: Literal[STATUSES] = "approved"  # type: ignore[valid-type]
    given: Given
    steps: list[Step] = []
    settle: bool = True
    expect: Expect | UnsetType = UNSET
    illegal: Illegal | UnsetType = UNSET
    expect_by_edition: dict[Edition, EditionOverride] | UnsetType = UNSET

