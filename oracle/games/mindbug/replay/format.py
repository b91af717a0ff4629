"""mb-replay/1: the replay log contract, defined in code.

Every line of a log is one JSON object whose `t` names its type. The structs
below are the contract: `mb-oracle schema replay` prints the JSON Schema
generated from them, and spec/replay-format.md documents them for people.
Unknown fields are ignored, so that exporters may add their own; the
verifier notes the unknown fields of claim and setup lines, where a typo
would otherwise leave a claim unchecked. The free-form `x` field of any
line is the place meant for an exporter's own data.
"""

from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ....replay.lineform import Impl, _Line
from ....schemas import json_schema
from ..editions import EDITIONS

FORMAT = "mb-replay/1"

# Size caps, far above anything a legal game holds (48 cards in all): a
# claim or setup beyond them is refused as it is decoded (BAD_LINE), before
# any comparison is made. spec/replay-format.md documents them.
MAX_CARDS = 1000      # entries of the setup's `cards`
MAX_ZONE = 1000       # card ids or names in one zone or card list
MAX_REVEALS = 1000    # pairs in the setup's `reveals`
MAX_NAMES = 100       # names in a list of words (`sets`, a creature's `keywords`)

CardRef = Union[int, str]  # an instance id, or a card name for engines without stable ids
Player = Annotated[int, Meta(ge=0, le=1, description="player 0 or player 1")]
Edition = Literal[EDITIONS]  # type: ignore[valid-type]
Ids = Annotated[list[int], Meta(max_length=MAX_ZONE, description="card ids")]
Refs = Annotated[list[CardRef], Meta(max_length=MAX_ZONE, description="card ids or card names")]
Names = Annotated[list[str], Meta(max_length=MAX_NAMES)]
Count = Annotated[int, Meta(description="a number of cards")]
# Pairs are indexed by player: exactly two items.
_PAIR = Meta(min_length=2, max_length=2, description="a pair, indexed by player (0, 1)")
IntPair = Annotated[list[int], _PAIR]
IdsPair = Annotated[list[Ids], _PAIR]
RefsPair = Annotated[list[Refs], _PAIR]
PilePair = Annotated[list[Union[Count, Ids]], _PAIR]
RevealPair = Annotated[list[int], Meta(min_length=2, max_length=2,
                                       description="the cards of player 0 and player 1")]


class GameLine(_Line, tag="game"):
    """Starts a game. `edition` may be left out: --edition gives it, else en-revised;
    `readings` names the team readings the game follows where it does not
    take the team's (clause id -> choice)."""

    format: Literal[FORMAT]  # type: ignore[valid-type]
    id: str
    game: Literal["mindbug"] | UnsetType = UNSET   # the game (oracle.games); Mindbug when left out
    edition: Edition | UnsetType = UNSET
    sets: Names = msgspec.field(default_factory=lambda: ["first-contact"])
    impl: Impl | UnsetType = UNSET
    # The team readings the game follows where it does not take the team's
    # (clause id -> choice, see `mb-oracle editions`); --reading overrides.
    readings: dict[str, str] | UnsetType = UNSET


class SetupLine(_Line, tag="setup"):
    """The deal: every card id with its name, each player's draw pile (top
    first, the starting hand is its first 5 cards), the unused pile (top
    first), the pairs revealed to pick the starting player, and the starting
    player. English first edition: `life_cards`, each player's 3 life cards
    (default: the top 3 of the unused pile for player 0, the next 3 for 1).
    `cards` also names the double-sided cards of evolution lines, set aside
    before the deal (named by their stage II face); `set_aside` may list
    their ids (setup.set-aside)."""

    cards: Annotated[dict[int, str], Meta(max_length=MAX_CARDS)]
    decks: IdsPair
    unused: Ids
    first: Player | UnsetType = UNSET
    reveals: Annotated[list[RevealPair], Meta(max_length=MAX_REVEALS)] | UnsetType = UNSET
    life_cards: IdsPair | UnsetType = UNSET
    set_aside: Ids | UnsetType = UNSET


class PlayLine(_Line, tag="play"):
    """Turn action: play `card` from hand."""

    p: Player
    card: int


class AttackLine(_Line, tag="attack"):
    """Turn action: attack with `card`; also FRENZY's second attack."""

    p: Player
    card: int


class ActivateLine(_Line, tag="activate"):
    """Turn action (English revised, later sets): activate the Action effect of `card`."""

    p: Player
    card: int


class MindbugLine(_Line, tag="mindbug"):
    """`p` uses a Mindbug on the card just played."""

    p: Player


class PassLine(_Line, tag="pass"):
    """`p` declines: no Mindbug on the card just played, or no FRENZY second attack."""

    p: Player


class HuntLine(_Line, tag="hunt"):
    """HUNTER: `card` must block; null: HUNTER is not used."""

    p: Player
    card: int | None


class BlockLine(_Line, tag="block"):
    """`card` blocks; null: no block."""

    p: Player
    card: int | None


class ChooseLine(_Line, tag="choose"):
    """The cards picked for the pending choice of an effect (a set: order is
    not significant), or the one waiting effect that resolves next."""

    p: Player
    cards: Ids


class RandomLine(_Line, tag="random"):
    """The outcome of a random effect: the cards it took."""

    cards: Ids


Stage = Annotated[int, Meta(ge=1, le=3, description="the stage of an evolution line's creature: 1, 2 or 3")]


class Creature(Struct, omit_defaults=True):
    """A creature in play. Later sets: `stage` (1, 2, 3) and `face` (the
    design an evolved creature shows) of an evolution line's creature;
    `boosts`, the cards under it (a set: order is not significant)."""

    card: CardRef
    exhausted: bool | UnsetType = UNSET
    power: int | UnsetType = UNSET
    keywords: Names | UnsetType = UNSET
    stage: Stage | UnsetType = UNSET
    face: str | UnsetType = UNSET
    boosts: Refs | UnsetType = UNSET


PlayArea = Annotated[list[Creature], Meta(max_length=MAX_ZONE, description="creatures in play")]


class StateLine(_Line, tag="state"):
    """A claim about the state at this point. Each field present is compared;
    absent fields are not. Pairs are indexed by player (0, 1)."""

    life: IntPair | UnsetType = UNSET
    mindbugs: IntPair | UnsetType = UNSET
    hand: RefsPair | UnsetType = UNSET
    play: Annotated[list[PlayArea], _PAIR] | UnsetType = UNSET
    discard: RefsPair | UnsetType = UNSET
    deck: PilePair | UnsetType = UNSET
    unused: Union[Count, Ids, UnsetType] = UNSET
    played: int | None | UnsetType = UNSET
    active: Player | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    set_aside: Ids | UnsetType = UNSET   # the set-aside double-sided cards, compared as a set


class FullClaim(Struct, tag_field="t", tag="state"):
    """Not a form of the contract but a way of writing one: a full state
    claim (claims.claim, without set-aside cards) as the fast lane writes it
    (claims.claim_into). Its fields are those of StateLine that such a claim
    holds, in StateLine's order and all present, so it encodes to the same
    bytes; it is made with its fields by position, which costs msgspec less
    than StateLine's names."""

    life: list
    mindbugs: list
    hand: list
    play: list
    discard: list
    deck: list
    played: Any
    active: int
    turn: int


class EndLine(_Line, tag="end"):
    """The result the implementation claims. `reason`: life, no-action, card
    (a card's text ended it: promo.win-lose), or aborted (the implementation
    stopped the game; `winner` null)."""

    winner: Player | None
    reason: Literal["life", "no-action", "card", "aborted"]
    detail: str | UnsetType = UNSET


class NoteLine(_Line, tag="note"):
    """Free text for people; the oracle ignores it."""

    text: str = ""


Line = Union[GameLine, SetupLine, PlayLine, AttackLine, ActivateLine, MindbugLine, PassLine, HuntLine,
             BlockLine, ChooseLine, RandomLine, StateLine, EndLine, NoteLine]

LINE_TYPES = ("game", "setup", "play", "attack", "activate", "mindbug", "pass", "hunt", "block", "choose",
              "random", "state", "end", "note")
DECISION_TYPES = {"play", "attack", "activate", "mindbug", "pass", "hunt", "block", "choose", "random"}

_generic = msgspec.json.Decoder()


def __getattr__(name: str):
    """`decoder` (every line type, extra fields allowed) is made when first
    read: a conforming log is decoded by `strict_decoder` alone."""
    if name == "decoder":
        made = globals()["decoder"] = msgspec.json.Decoder(Line)
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The fields of the line types whose unknown fields deserve a note.
KNOWN_FIELDS = {
    cls.__struct_config__.tag: set(cls.__struct_fields__) | {"t"}
    for cls in (GameLine, SetupLine, StateLine, EndLine)
}
CREATURE_FIELDS = set(Creature.__struct_fields__)


def _shadow(cls, nested=None):
    """A strict twin of a line type whose fields are left undecoded: decoding
    with it only tests for unknown fields, cheaply."""
    fields = [(f, nested.get(f, msgspec.Raw) if nested else msgspec.Raw, None)
              for f in list(cls.__struct_fields__) + ["t"]]
    return msgspec.defstruct(f"Strict{cls.__name__}", fields, forbid_unknown_fields=True)


_strict: dict = {}     # made on first use (`unknown_fields`): a conforming log never asks


def _strict_decoders() -> dict:
    if not _strict:
        creature = _shadow(Creature)
        _strict.update({
            "game": msgspec.json.Decoder(_shadow(GameLine)),
            "setup": msgspec.json.Decoder(_shadow(SetupLine)),
            "state": msgspec.json.Decoder(_shadow(StateLine, {"play": list[list[creature]] | None})),
            "end": msgspec.json.Decoder(_shadow(EndLine)),
        })
    return _strict


class _StrictCreatureLine(Creature, forbid_unknown_fields=True):
    pass


class _StrictGame(GameLine, forbid_unknown_fields=True):
    pass


class _StrictSetup(SetupLine, forbid_unknown_fields=True):
    pass


class _StrictState(StateLine, forbid_unknown_fields=True):
    play: Annotated[list[Annotated[list[_StrictCreatureLine], Meta(max_length=MAX_ZONE)]], _PAIR] | UnsetType = UNSET


class _StrictEnd(EndLine, forbid_unknown_fields=True):
    pass


# The same contract, refusing the fields mb-replay/1 does not define on the
# lines whose unknown fields deserve a note: a line it decodes has none, so
# the common line is decoded once (`lines.read_line`). Each type is a
# subclass of the ordinary one.
_STRICT = {"game": _StrictGame, "setup": _StrictSetup, "state": _StrictState, "end": _StrictEnd}
strict_decoder = msgspec.json.Decoder(Union[tuple(_STRICT.get(cls.__struct_config__.tag, cls)  # type: ignore[misc]
                                                  for cls in Line.__args__)])

def named_setup(names: tuple[str, ...]) -> type:
    """The strict setup line whose cards are named among `names` (the card
    database's own names): each name decoded is the very string of `names`,
    whose hash is kept, so that the deal looks it up without hashing a new
    string. A line that names another card does not decode with it."""

    class NamedSetup(_StrictSetup):
        cards: Annotated[dict[int, Literal[names]], Meta(max_length=MAX_CARDS)]  # type: ignore[valid-type]

    return NamedSetup


def ordered_setup(count: int) -> type:
    """The strict setup line whose cards are the ids 1 to `count`: its
    `cards` decoded as a struct of `count` fields, one an id, which msgspec
    fills without building a mapping or reading each key as a number. A
    line whose cards are other ids, or not all of them, does not decode
    with it. (Text fields: a field of a Literal of the card names would
    cost msgspec a table of the names for each field as it makes the
    decoder, about 8 M instructions for First Contact.)"""
    cards = msgspec.defstruct(f"Cards{count}", [(f"c{i}", str) for i in range(1, count + 1)],
                              forbid_unknown_fields=True, rename=_id_of_field)
    return msgspec.defstruct("OrderedSetup", [("cards", cards)], bases=(_StrictSetup,))


def _id_of_field(field: str) -> str:
    return field[1:]        # c12 -> "12"


# The strict line types whose every field, at every level, is one the
# contract defines: decoded by `strict_decoder` with no exporter data (`x`
# unset), such a line nests no deeper than the contract's own fields, far
# below limits.MAX_DEPTH.
BOUNDED_LINES = frozenset((_StrictSetup, _StrictState, _StrictEnd))


def decision_arg(line):
    """The engine's argument for a decision line: the sorted card ids of a
    choose or random line, nothing for mindbug and pass, else the card."""
    t = line.__struct_config__.tag
    if t == "choose" or t == "random":
        return tuple(sorted(line.cards))
    if t == "mindbug" or t == "pass":
        return None
    return line.card


def unknown_fields(tag: str, raw: bytes) -> list[str]:
    """Fields of a game, setup, state or end line that mb-replay/1 does not define."""
    strict = _strict_decoders().get(tag)
    if strict is None:
        return []
    try:
        strict.decode(raw)
        return []
    except msgspec.ValidationError:
        pass
    data = _generic.decode(raw)
    known = KNOWN_FIELDS[tag]
    extra = sorted(k for k in data if k not in known)
    if tag == "state" and isinstance(data.get("play"), list):
        extra += sorted({f"play[].{k}" for side in data["play"] if isinstance(side, list)
                         for e in side if isinstance(e, dict) for k in e if k not in CREATURE_FIELDS})
    return extra


def replay_schema() -> dict:
    """The JSON Schema of one log line (`mb-oracle schema replay`)."""
    return json_schema(
        Line, id="https://mb-oracle.invalid/schema/mb-replay-1.json", title=f"{FORMAT} replay log line",
        description=("One line of a JSON Lines Mindbug replay log; see spec/replay-format.md. "
                     "Each line of a log must validate against this schema."))
