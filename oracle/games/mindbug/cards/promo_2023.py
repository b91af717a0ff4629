"""The 2023 promo cards: 12 deck designs, one copy each (P1/2023 to
P12/2023), and 2 double-sided cards set aside at set-up (4 stage faces).

Facts (names, powers, printed keywords) follow the card scans; no French
names are known, so each card's French name is its English one. Every
ability text here is written in the project's own words.

Future Eric has two printings, both numbered P2/2023. The row below is the
one this oracle plays: it takes the top 2 cards of the unused pile, so it
stays inside the game's cards. The other printing puts 2 random cards from
outside the game at the bottom of its controller's draw pile instead.
"""

from __future__ import annotations

from .first_contact import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH

SET_ID = "promo-2023"
NAME = "Promo 2023"
FRENCH = "Promo 2023"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Suspicious Gift", "Suspicious Gift", 1, 0, 1, ("play", "defeated"),
     "Play: your opponent takes control of this creature. Defeated: the player who controls it loses 2 life."),
    ("Future Eric", "Future Eric", 3, SNEAKY, 1, "play",
     "Play (the unused-pile printing): put the top 2 cards of the unused pile at the bottom of your draw pile "
     "without looking at them."),
    ("Alien Brain", "Alien Brain", 3, POISONOUS, 1, None, "Your opponent cannot put cards into their hand."),
    ("Watts Dog", "Watts Dog", 5, FRENZY, 1, None, "Creatures that have any keyword cannot block this creature."),
    ("Blessed Axolotl Healer", "Blessed Axolotl Healer", 6, POISONOUS, 1, "in-discard",
     "In a discard pile: the pile owner's creatures have \"Attack: gain 1 life\"."),
    ("Bug Catcher", "Bug Catcher", 9, FRENZY | TOUGH, 1, None, "Nobody can use a Mindbug."),
    ("Cursed Goblin Werewolf", "Cursed Goblin Werewolf", 8, FRENZY | HUNTER, 1, "in-discard",
     "In a discard pile: the pile owner's creatures with FRENZY or HUNTER cannot attack."),
    ("Ghost Hand", "Ghost Hand", 2, SNEAKY, 1, ("play",),
     "Play: boost a creature in play with up to 1 card. Boosted creatures cannot block."),
    ("Jean-Claw Pandamme", "Jean-Claw Pandamme", 5, 0, 1, None,
     "Every enemy creature has \"Attack: discard a card\"."),
    ("Kitten Crewmate", "Kitten Crewmate", 2, SNEAKY, 1, "replacement",
     "If this creature would be defeated, it evolves into \"One-Eye\" Felix instead."),
    ("Solar Bear", "Solar Bear", 5, TOUGH, 1, "attack",
     "Attack: either boost a creature in play with up to 1 card, or take control of a boosted creature."),
    ("Tuckbox Mimic", "Tuckbox Mimic", 2, 0, 1, "action",
     "Action: boost this creature with up to 1 card, then evolve into Deckbox Mimic."),
)

# The stage faces: name, French name, power, keywords, stage, trigger(s), ability text (our words).
FACES: tuple[tuple, ...] = (
    ("\"One-Eye\" Felix", "\"One-Eye\" Felix", 7, HUNTER, 2, "end-of-turn",
     "At the end of a turn in which it defeated an enemy creature, it evolves into Silver Whiskers."),
    ("Silver Whiskers", "Silver Whiskers", 6, TOUGH, 3, "attack",
     "Attack: take control of a creature in play with power 5 or less."),
    ("Deckbox Mimic", "Deckbox Mimic", 5, 0, 2, "action",
     "Action: boost this creature with up to 1 card; then you may evolve it into Big Box Mimic."),
    ("Big Box Mimic", "Big Box Mimic", 6, FRENZY, 3, "defeated",
     "Defeated: put any number of the cards that boosted it into play; their Play effects do not happen."),
)

# stage I deck card -> (stage II face, stage III face)
LINES: dict[str, tuple[str, str]] = {
    "Kitten Crewmate": ("\"One-Eye\" Felix", "Silver Whiskers"),
    "Tuckbox Mimic": ("Deckbox Mimic", "Big Box Mimic"),
}

OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "Jean-Claw Pandamme": ("Jean-Claw_Pandamme",),
    "\"One-Eye\" Felix": ("One-Eye Felix",),
}
