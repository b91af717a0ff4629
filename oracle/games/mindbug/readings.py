"""Team readings as switches.

Where no edition settles a question (every edition of the clause is
`silent` in spec/clauses.yaml), the engine takes the team's reading. Another
engine may reasonably take another one, so each such reading is a named
switch with its alternatives, applied to a rules profile like the edition
switches: `with_readings(profile, {"effects.hunter-order": "hunter-first"})`
gives a profile whose plain attributes the engine reads.

A reading whose clause has no reasonable alternative (the question is closed
by putting two stated rules together) is listed with no alternatives, so the
catalogue of readings stays complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from msgspec.structs import replace

from .beyond_readings import READINGS as LATER_READINGS
from .editions import Profile, profile as get_profile
from ...reading_type import Reading, UnknownReading, check_choices


READINGS: tuple[Reading, ...] = (
    Reading("effects.hunter-order", "hunter_order", "attack-effect-first", (
        ("attack-effect-first", "the attacker's Attack effect resolves, then HUNTER names a creature still in play"),
        ("hunter-first", "HUNTER names its creature first, then the Attack effect resolves; if the named "
                         "creature is then gone, the attack ends with no block and no life lost (keywords.hunter)"),
    ), "with hunter-first, a HUNTER attack may not hit the opponent directly, so losing its target ends it"),
    Reading("combat.attacker-gone", "attacker_gone", "attack-ends", (
        ("attack-ends", "an attacker that left play or changed sides before the block ends the attack: "
                        "no block, no fight, no life lost"),
        ("unblocked", "the attack still counts as unblocked: no block is asked and the defender loses 1 life"),
    )),
    Reading("terms.leave-play", "leave_play", "resets", (
        ("resets", "a card that leaves play loses its exhaustion; back in play, its TOUGH works again"),
        ("keeps-exhaustion", "an exhausted card stays exhausted through the discard pile or hand, and comes "
                             "back into play exhausted"),
    )),
    Reading("cards.any-creature", "any_creature", "either-side", (
        ("either-side", "'a creature' of Count Draculeech, Turf the Surfer and the creatures Majestic Manticore "
                        "compares are creatures of both sides, the card itself included"),
        ("enemy-only", "they are enemy creatures only (a Draculeech with no enemy creature defeats nothing; "
                       "a Manticore compares and defeats enemy creatures)"),
    ), "the Game Terms call creatures of both sides plain 'creatures'; one public engine reads enemies"),
    Reading("cards.extreme-power", "extreme_scope", "among-enemies", (
        ("among-enemies", "Ferret Pacifier and Hamster Lion bar the enemy creatures whose power is the highest "
                          "(lowest) among enemy creatures"),
        ("among-all", "they bar the enemy creatures whose power equals the highest (lowest) power of all "
                      "creatures in play"),
    )),
    Reading("life.lose.set-lower", "set_life_loss", "counts", (
        ("counts", "a life total set lower (Mysterious Mermaid) is a loss of life: Hyenix triggers"),
        ("not-a-loss", "a life total set lower is not a loss of life: Hyenix does not trigger, and "
                       "Knightmare does not stop it"),
    )),
    Reading("effects.this-turn", "this_turn", "ends-with-turn", (
        ("ends-with-turn", "an effect that lasts this turn ends between the end of the turn and the next turn"),
    ), "no alternative: 'this turn' has no later end than the turn's own"),
    Reading("triggers.from-discard", "from_discard", "pile-holder", (
        ("pile-holder", "an ability that works from a discard pile acts for the player whose pile holds the "
                        "card; it waits its turn after the effect under way, like any triggered effect"),
    ), "no alternative: a discard pile has one player, and effects.finish-one forbids breaking into an effect"),
    Reading("cards.hand-over", "hand_over", "giver-picks", (
        ("giver-picks", "the opponent who gives picks the card and draws back up; the receiver plays it at once "
                        "or keeps it"),
    ), "no alternative: the player performing an action makes its choices (effects.chooser)"),
    Reading("keywords.frenzy.same-creature", "frenzy_timing", "at-once", (
        ("at-once", "the FRENZY second attack is offered right after the first, within the same turn action"),
    ), "no alternative: a turn holds one turn action, so there is no later point to offer it"),
)

# The Beyond sets' readings come after; they have no profile attribute
# (`attr` empty): the engine reads them with `choice`.
READINGS = READINGS + LATER_READINGS

BY_CLAUSE: dict[str, Reading] = {r.clause: r for r in READINGS}
# Readings that every edition now settles in words: a game line may still
# name them with the one choice they had, which changes nothing.
SETTLED: dict[str, str] = {"effects.play-card": "play-effect"}
TEAM: dict[str, str] = {r.clause: r.team for r in READINGS}


def check(readings: dict, by_clause: dict | None = None, settled: dict | None = None,
          what: str = "reading") -> dict[str, str]:
    """Validate a clause -> choice mapping against Mindbug's readings (or
    `by_clause`); raise UnknownReading naming the bad entry."""
    return check_choices(readings, BY_CLAUSE if by_clause is None else by_clause,
                         SETTLED if settled is None else settled, what)


def parse(spec: str) -> tuple[str, str]:
    """`CLAUSE=CHOICE` as given on the command line."""
    clause, sep, choice = spec.partition("=")
    if not sep:
        raise UnknownReading(f"{spec!r}: write a reading as CLAUSE=CHOICE, e.g. effects.hunter-order=hunter-first")
    clause, choice = clause.strip(), choice.strip()
    check({clause: choice})
    return clause, choice


def differing(readings: dict) -> dict[str, str]:
    """The entries of `readings` that are not the team's reading, in catalogue order."""
    return {r.clause: readings[r.clause] for r in READINGS if readings.get(r.clause, r.team) != r.team}


def with_readings(prof: "Profile | str | None", readings: dict | None) -> Profile:
    """The profile with the given readings applied (the team's for the others)."""
    prof = get_profile(prof)
    if not readings:
        return prof
    return _cached(prof, tuple(sorted(differing(readings).items())))


@lru_cache(maxsize=256)
def _cached(prof: Profile, chosen: tuple) -> Profile:
    if not chosen:
        return prof
    return replace(prof, readings=chosen, **{BY_CLAUSE[c].attr: v for c, v in chosen if BY_CLAUSE[c].attr})


# The clauses of the readings asked for, while `consulted` records them.
_ASKED: ContextVar[Asked | None] = ContextVar("readings_asked", default=None)


class Asked(dict):
    """The clauses of the readings asked for, each with where it was first
    asked (`where()`, or None without it)."""

    __slots__ = ("where",)

    def __init__(self, where: Callable[[], object] | None = None):
        super().__init__()
        self.where = where

    def add(self, clause: str) -> None:
        if clause not in self:
            self[clause] = None if self.where is None else self.where()


def choice(prof: Profile, clause: str) -> str:
    """The choice `prof` takes for the reading of `clause` (the team's unless
    the profile names another). The engine reads every reading with an
    alternative here, never from the profile's attributes: `consulted`
    relies on it."""
    asked = _ASKED.get()
    if asked is not None:
        asked.add(clause)
    for c, v in prof.readings:
        if c == clause:
            return v
    return TEAM[clause]


@contextmanager
def consulted(where: Callable[[], object] | None = None) -> Iterator[Asked]:
    """The clauses of the readings the engine asks for (`choice`) within,
    each with `where()` at its first asking (the line a verifier reads): a
    replay that changes the choice of none of them goes exactly as this one
    did (verify --keep-going leaves out the others' alternatives), and one
    that changes the choice of one goes exactly as this one did up to where
    it was first asked."""
    asked = Asked(where)
    token = _ASKED.set(asked)
    try:
        yield asked
    finally:
        _ASKED.reset(token)


def choices_of(prof: Profile) -> dict[str, str]:
    """Every reading's choice in a profile."""
    return {r.clause: getattr(prof, r.attr) if r.attr else choice(prof, r.clause) for r in READINGS}
