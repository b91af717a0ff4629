"""Beyond Eternity, a stand-alone set of the later series: 32 designs, 48 cards.

Facts (names, powers, printed keywords, copy counts) follow the card scans;
no French card names are known, so each card's French name is its English
one. Every ability text here is written in the project's own words. The
set brings Boost (cards from a discard pile put face down under a
creature, +1 power each) and the Blessed and Cursed cards, whose ability
works only while the card lies in a discard pile (trigger "in-discard").
"""

from __future__ import annotations

from .first_contact import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH

SET_ID = "beyond-eternity"
NAME = "Beyond Eternity"
FRENCH = "Éternité Suprême"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Agile Rooster", "Agile Rooster", 6, FRENZY, 1, None,
     "Only a creature whose power differs from this creature's by at most 1 may block it."),
    ("Ant Zombie Horde", "Ant Zombie Horde", 7, TOUGH, 2, "attack",
     "Attack: boost this creature with up to 2 cards."),
    ("Berserker Rabbit", "Berserker Rabbit", 6, FRENZY | TOUGH, 2, None,
     "While its controller's discard pile is empty, this creature gets +4 power."),
    ("Blessed Killer Bee", "Blessed Killer Bee", 5, HUNTER, 1, "in-discard",
     "In a discard pile: whenever the pile owner's opponent loses life, that player loses 2 more."),
    ("Blessed Shield Bugs", "Blessed Shield Bugs", 6, TOUGH, 1, "in-discard",
     "In a discard pile: the pile owner's creatures in play get +1 power."),
    ("Blessed Tiger Squirrel", "Blessed Tiger Squirrel", 3, SNEAKY, 1, "in-discard",
     "In a discard pile: the pile owner's enemy creatures of power 7 or more can neither attack nor block."),
    ("Catalisk", "Catalisk", 2, POISONOUS, 1, "attack",
     "Attack: your opponent moves their whole draw pile into their discard pile."),
    ("Cave Lizard", "Cave Lizard", 10, TOUGH | SNEAKY, 1, None, "This creature never attacks; it may block."),
    ("Cursed Gorillion", "Cursed Gorillion", 10, FRENZY | TOUGH, 1, "in-discard",
     "In a discard pile: the pile owner's creatures in play get -2 power."),
    ("Duckdra", "Duckdra", 5, HUNTER, 2, "attack",
     "Attack: you may defeat a creature in play that has POISONOUS."),
    ("Fire Antler", "Fire Antler", 8, 0, 2, "defeated",
     "Defeated: your opponent loses 1 life; then boost a creature in play with up to 1 card."),
    ("Ghostly Underdog", "Ghostly Underdog", 4, 0, 1, "attack",
     "Attack: every enemy creature with less power than this creature is defeated."),
    ("Goat Dragon", "Goat Dragon", 7, 0, 2, ("play", "attack"),
     "Play and Attack: either boost a creature in play with up to 1 card, or defeat a boosted creature."),
    ("Hiss Holiness", "Hiss Holiness", 5, FRENZY | POISONOUS, 2, "play",
     "Play: boost creatures in play with up to 4 cards, shared among them as you wish."),
    ("Hypnotic Mouse", "Hypnotic Mouse", 1, SNEAKY, 1, None,
     "A creature in play whose power is the same as another creature's cannot attack."),
    ("Koibra", "Koibra", 2, POISONOUS, 2, ("play", "attack"),
     "Play and Attack: reveal a random card of your opponent's hand and put it into the discard pile of the "
     "player you choose."),
    ("Madam Mystique", "Madam Mystique", 2, 0, 2, "defeated",
     "Defeated: name a keyword; every enemy creature that has it is defeated."),
    ("Peacasus", "Peacasus", 3, SNEAKY, 2, "to-discard",
     "Whenever this card arrives in its owner's discard pile, from wherever, that player gains 1 life."),
    ("Porcupine Teacher", "Porcupine Teacher", 5, 0, 1, None, "Your other creatures have POISONOUS."),
    ("Pyro Salamancer", "Pyro Salamancer", 6, 0, 2, "play",
     "Play: boost a creature in play with up to 1 card; then, if two creatures in play have the same power, "
     "defeat two such creatures."),
    ("Radioactive Pest", "Radioactive Pest", 1, POISONOUS, 2, "attack",
     "Attack: defeat an enemy creature with power 7 or more."),
    ("Rockyphant", "Rockyphant", 8, TOUGH, 1, "to-discard",
     "Whenever this card arrives in its owner's discard pile, from wherever, that player's opponent discards "
     "a card of their choice."),
    ("Sea-Rex", "Sea-Rex", 5, HUNTER, 2, "attack", "Attack: boost this creature with up to 1 card."),
    ("Soul Manipulator", "Soul Manipulator", 5, TOUGH, 2, ("play", "attack"),
     "Play and Attack: either boost a creature in play with up to 1 card, or take a boost card from under a "
     "creature into your hand."),
    ("Spirit Cheetah", "Spirit Cheetah", 5, HUNTER, 1, "defeated",
     "Defeated: take control of a creature in play with power 2 or less."),
    ("Spirit Maki", "Spirit Maki", 3, SNEAKY, 1, "defeated",
     "Defeated: take control of a creature in play with power 9 or more."),
    ("Squirtoise Scout", "Squirtoise Scout", 2, TOUGH, 2, None,
     "While two of your creatures have the same power, your opponent cannot block."),
    ("Tiger Wasp", "Tiger Wasp", 3, FRENZY | SNEAKY, 1, "play", "Play: discard a random card of your own hand."),
    ("Tornado Dragon", "Tornado Dragon", 8, 0, 2, "play",
     "Play: discard up to 2 cards; defeat one creature in play for each card discarded."),
    ("Trash Diver", "Trash Diver", 2, SNEAKY, 1, "attack",
     "Attack: put 2 cards of your choice from your opponent's discard pile into your hand."),
    ("Trash Flier", "Trash Flier", 2, SNEAKY, 1, "defeated",
     "Defeated: put a card from your opponent's discard pile into play on your side."),
    ("Water Antler", "Water Antler", 8, 0, 2, "play",
     "Play: gain 1 life; then boost a creature in play with up to 1 card."),
)

FACES: tuple[tuple, ...] = ()
LINES: dict[str, tuple[str, str]] = {}
OTHER_NAMES: dict[str, tuple[str, ...]] = {}
