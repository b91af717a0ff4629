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
ETERNITY: tuple[Reading, ...] = (
    Reading("later.boost.leave", "", "controller", (
        ("controller", "the boost cards of a creature that leaves play go to the discard pile of the player who "
                       "controlled it, whoever owns them"),
        ("owner", "each boost card goes to its owner's discard pile"),
    ), "the Beyond rules say 'your' pile; a defeated creature goes to its controller's pile"),
    Reading("later.boost.defeated", "", "stay-under", (
        ("stay-under", "a defeated creature whose Defeated effect uses its boost cards (Big Box Mimic) keeps them "
                       "under its card until that effect is done; the rest then go to the discard pile"),
        ("released-first", "the boost cards go to the discard pile as the creature leaves play, so nothing is "
                           "under it when its Defeated effect resolves"),
    )),
    Reading("later.boost.empty", "", "any-card-in-pile", (
        ("any-card-in-pile", "a boost takes any card lying in a discard pile as it resolves, the card whose "
                             "ability it is included (a defeated Fire Antler may boost with itself)"),
        ("not-the-source", "the card whose ability boosts is never one of its boost cards"),
    )),
    Reading("later.in-discard.life", "", "same-event", (
        ("same-event", "Blessed Killer Bee adds its 2 to the loss that woke it: one loss of life, which "
                       "abilities such as Hyenix answer once"),
        ("separate-loss", "the 2 more are a loss of their own, just after: Hyenix answers each loss; the extra "
                          "loss wakes no Blessed Killer Bee"),
    ), "either way once per loss: the extra loss never wakes a Blessed Killer Bee again"),
    Reading("triggers.to-discard", "", "pile-owner", (
        ("pile-owner", "'your discard pile' is the pile the card arrives in: it triggers for that pile's player "
                       "wherever it arrives"),
        ("own-pile-only", "it triggers only when it arrives in its owner's discard pile"),
    )),
    Reading("later.discard-then-draw", "", "after-effect", (
        ("after-effect", "Tornado Dragon's player draws back to 5 once its whole effect is done"),
        ("at-once", "the draw back to 5 comes right after the discards, before the defeats"),
    )),
)

# -- Beyond Evolution: Action, Evolve, reversed fights, forced attacks, control
EVOLUTION: tuple[Reading, ...] = ()

# -- the promos: the other new effect kinds ------------------------------------
PROMOS: tuple[Reading, ...] = ()

READINGS: tuple[Reading, ...] = SETUP + ETERNITY + EVOLUTION + PROMOS
