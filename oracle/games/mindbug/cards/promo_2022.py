"""The 2022 promo cards: 10 designs, one copy each (P1/2022 to P10/2022).

Facts (names, powers, printed keywords) follow the card scans; no French
names are known, so each card's French name is its English one. Every
ability text here is written in the project's own words.

Sluggernaut prints TOUGH only: HUNTER and FRENZY stand on its side
markers (5 HUNTER on one edge, 8 FRENZY on the other) and are never stored
as keywords; its text gives the one public engine's reading of them.
"""

from __future__ import annotations

from .first_contact import FRENZY, TOUGH

SET_ID = "promo-2022"
NAME = "Promo 2022"
FRENCH = "Promo 2022"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Slugapult", "Slugapult", 5, TOUGH | FRENZY, 1, "attack",
     "Attack: you may defeat another creature of yours; if you do, defeat an enemy creature."),
    ("Mindbug Bug", "Mindbug Bug", 7, TOUGH, 1, "mindbug-used",
     "Whenever your opponent uses a Mindbug, they first lose 1 life."),
    ("Ratomancer", "Ratomancer", 2, 0, 1, "play",
     "Play: put any number of cards of power 4 or less from your discard pile into play; their Play effects "
     "do not happen."),
    ("Ram Hopper", "Ram Hopper", 7, FRENZY, 1, None, "Your other creatures have FRENZY."),
    ("Boar-Zooka", "Boar-Zooka", 6, 0, 1, ("defeated",),
     "This creature cannot block. Defeated: every enemy creature is defeated."),
    ("Sluggernaut", "Sluggernaut", 6, TOUGH, 1, None,
     "Side markers (a reading, no rules text): once its TOUGH is used, its controller picks a side, and until "
     "it leaves play it is either power 5 with HUNTER or power 8 with FRENZY."),
    ("Chuck", "Chuck", 3, TOUGH, 1, "play",
     "Play: roll a die; on 4 or more, defeat an enemy creature and roll again; stop on 3 or less."),
    ("Jazz Dog", "Jazz Dog", 5, 0, 1, "end-of-turn",
     "At the end of your turn, take control of every enemy creature still in play that blocked this turn."),
    ("Macaw Dagon", "Macaw Dagon", 8, 0, 1, "attack", "Attack: you and your opponent swap hands."),
    ("Unigon", "Unigon", 9, 0, 1, "attack", "Attack: if your hand is empty, you win the game."),
)

FACES: tuple[tuple, ...] = ()
LINES: dict[str, tuple[str, str]] = {}
OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "Ratomancer": ("Ratomanger",),
    "Boar-Zooka": ("Boar Zooka",),
}
