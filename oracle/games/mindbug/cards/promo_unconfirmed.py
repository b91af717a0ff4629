"""A promo known from one public engine's code alone, with no card scan:
Ivybug. It is kept in a set of its own so that no deal of the confirmed
promos holds it; a game deals it only by naming this set. Its ability is
the team's reading of the one line that describes it (promo.life-as-mindbugs).
"""

from __future__ import annotations

SET_ID = "promo-unconfirmed"
NAME = "Unconfirmed promos"
FRENCH = "Unconfirmed promos"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Ivybug", "Ivybug", 5, 0, 1, None,
     "You may use your life as Mindbugs (no card scan confirms this ability)."),
)

FACES: tuple[tuple, ...] = ()
LINES: dict[str, tuple[str, str]] = {}
OTHER_NAMES: dict[str, tuple[str, ...]] = {}
