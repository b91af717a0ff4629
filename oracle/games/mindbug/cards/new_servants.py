"""New Servants, the First Contact add-on: 12 designs, two copies each (24 cards).

Facts (names, French names, powers, printed keywords, copy counts) follow
the public card lists and scans; every ability text here is written in the
project's own words. The Lurker prints TOUGH only: its SNEAKY is granted by
its Attack effect until the end of the turn, never stored.
"""

from __future__ import annotations

from .first_contact import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH

SET_ID = "new-servants"

# name, French name, power, keywords, copies, trigger, ability text (our words)
DESIGNS: tuple[tuple[str, str, int, int, int, str | None, str], ...] = (
    ("Bugserker", "Cafarbarbare", 3, TOUGH, 2, None,
     "While its controller has exactly 1 life, this creature gets +8 power."),
    ("Count Draculeech", "Comte Sangsula", 7, 0, 2, "attack",
     "Attack: you lose 1 life, then choose a creature in play and defeat it."),
    ("Creep from the Deep", "Méduse squelettique", 4, POISONOUS | HUNTER, 2, None, ""),
    ("Ferret Pacifier", "Furet pacifique", 4, 0, 2, None,
     "The enemy creatures with the highest power among enemy creatures cannot block."),
    ("Froblin Instigator", "Instigateur Gobelouille", 1, HUNTER, 2, None,
     "This creature gets +2 power for each other creature its controller has in play."),
    ("Goreagle Alpha", "Gorillaigle Alpha", 6, FRENZY | HUNTER | TOUGH, 2, "play", "Play: you lose 1 life."),
    ("Hamster Lion", "Hamsterlion", 8, FRENZY, 2, None,
     "The enemy creatures with the lowest power among enemy creatures cannot attack."),
    ("Hungry Hungry Hamster", "Hamster glouton", 2, SNEAKY, 2, "play",
     "Play: your opponent picks a card from their hand and gives it to you; play it at once or keep it in hand."),
    ("Hyenix", "Hyénix", 7, FRENZY, 2, "when",
     "When you lose life while this card is in your discard pile, you may put it into play."),
    ("Majestic Manticore", "Majesté Manticore", 6, POISONOUS, 2, "attack",
     "Attack: every creature in play with the lowest power in play is defeated."),
    ("The Lurker", "Le rôdeur", 4, TOUGH, 2, "attack",
     "Attack: if you have more creatures in play than your opponent, this creature has SNEAKY until the end "
     "of the turn."),
    ("Turf the Surfer", "Aqua Vachette", 8, 0, 2, "attack",
     "Attack: choose an enemy creature; it cannot block this turn."),
)
