"""Team readings of the Beyond sets and the promos: the open questions of
their card sheet (numbered Q) and the points where public engines read the
cards differently, each a switch with its alternatives.

These readings have no attribute of their own on a rules profile: the
engine asks `oracle.readings.choice(profile, clause)`. Each part of the
sets keeps its own tuple below.
"""

from __future__ import annotations

from .reading_type import Reading

# -- set-up: set-aside double-sided cards ------------------------------------
SETUP: tuple[Reading, ...] = ()

# -- Beyond Eternity: Boost, abilities from the discard pile, arrivals in it --
ETERNITY: tuple[Reading, ...] = ()

# -- Beyond Evolution: Action, Evolve, reversed fights, forced attacks, control
EVOLUTION: tuple[Reading, ...] = ()

# -- the promos: the other new effect kinds ------------------------------------
PROMOS: tuple[Reading, ...] = ()

READINGS: tuple[Reading, ...] = SETUP + ETERNITY + EVOLUTION + PROMOS
