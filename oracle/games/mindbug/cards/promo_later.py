"""The later promo cards (2024, 2025 and online): 8 designs, one copy each,
and Evilcat.

Facts (names, powers, printed keywords) follow the card scans of the one
public engine that has them; Short-Neck Giraffodile has no printed card
(that engine calls it online-only). No French names are known, so each
card's French name is its English one. Every ability text here is written
in the project's own words.

Evilcat is the stage III face of a double-sided promo card whose lower
stages no source has: it belongs to no evolution line, is never dealt and
never set aside; only a scenario position can place it. Ivybug, known only
from a comment in that engine's code with no scan, is in a set of its own
(oracle/games/mindbug/cards/promo_unconfirmed.py), which no deal of these promos holds.
"""

from __future__ import annotations

from .first_contact import FRENZY, HUNTER, TOUGH

SET_ID = "promo-later"
NAME = "Later promos"
FRENCH = "Later promos"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Battle Beetle", "Battle Beetle", 8, 0, 1, "attack",
     "Attack: if you and your opponent have as many unused Mindbugs as each other, your opponent loses 2 life."),
    ("Knightmare", "Knightmare", 5, TOUGH, 1, ("defeated",),
     "You cannot lose life. Defeated: you lose the game."),
    ("Alpacoodle", "Alpacoodle", 2, FRENZY, 1, ("play", "defeated"),
     "Play: set every other creature in play aside. Defeated: the creatures it set aside come back into play; "
     "their Play effects do not happen."),
    ("Steamforger", "Steamforger", 9, 0, 1, "attack",
     "Attack: if you have at least 3 creatures more in play than your opponent, you win the game."),
    ("Wolfman Steve", "Wolfman Steve", 8, 0, 1, None, "Your opponent cannot play cards of power 4 or less."),
    ("Wheatle", "Wheatle", 6, FRENZY | TOUGH, 1, "attack",
     "Attack: name a power; your opponent gives you every card of that power in their hand."),
    ("The Pack", "The Pack", 4, HUNTER | TOUGH, 1, None, "While exhausted, this creature has SNEAKY."),
    ("Short-Neck Giraffodile", "Short-Neck Giraffodile", 7, 0, 1, "attack",
     "Attack: put 2 cards of your choice from your discard pile into your hand."),
)

# The stage faces: name, French name, power, keywords, stage, trigger(s), ability text (our words).
FACES: tuple[tuple, ...] = (
    ("Evilcat", "Evilcat", 3, 0, 3, "attack", "Attack: you win the game."),
)

LINES: dict[str, tuple[str, str]] = {}   # Evilcat's line is unknown

OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "Wheatle": ("Wheatl-E", "Wheatl_e"),
}
