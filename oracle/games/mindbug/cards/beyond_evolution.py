"""Beyond Evolution, a stand-alone set of the later series: 30 deck designs,
44 cards, and 4 double-sided cards set aside at set-up (8 stage faces).

Facts (names, powers, printed keywords, copy counts) follow the card scans;
French names follow the one public French card list. Every ability text
here is written in the project's own words. The set brings Action
abilities and evolution lines: a stage I card is a deck card; its stage II
and III are the two faces of one double-sided card kept aside (setup.set-aside)
until an evolve effect brings it onto the stage I creature.

Traps the scans settle: Earwig Assassin is SNEAKY, The Experiment is
POISONOUS, Infernostrich has 1 copy, Steelhorn makes the opponent discard
3 cards, Kitsunsei's grant is constant, Dragon Inn works only while its
controller has fewer creatures, and Cheery Chimpborg is not Cheeky
Chimpborg.
"""

from __future__ import annotations

from .first_contact import FRENZY, HUNTER, POISONOUS, SNEAKY, TOUGH

SET_ID = "beyond-evolution"
NAME = "Beyond Evolution"
FRENCH = "Évolution Suprême"

# name, French name, power, keywords, copies, trigger(s), ability text (our words)
DESIGNS: tuple[tuple, ...] = (
    ("Blastfish", "Déflagardon", 1, POISONOUS, 1, "attack",
     "Attack: this creature cannot be defeated until the end of the turn."),
    ("Bullet Train", "Taureau à grande vitesse", 9, 0, 2, "attack",
     "Attack: defeat an enemy creature with power 3 or less."),
    ("Cake Trickster", "Toxicake", 6, POISONOUS, 2, "action",
     "Action: pick an enemy creature; your opponent attacks with it at once if it can."),
    ("Captain Hippo", "Hippopoman", 7, FRENZY, 1, None,
     "On your opponent's turns, a HUNTER creature of theirs that can attack this creature must do so."),
    ("Cheeky Chimpborg", "Bono-Bot méchant", 5, HUNTER, 1, "play",
     "Play: your opponent discards one card of their choice for each creature they have in play."),
    ("Cheery Chimpborg", "Bono-Bot éméché", 5, HUNTER, 1, None,
     "While your opponent has 3 or more creatures in play, this creature gets +5 power."),
    ("Chuckling Chimpborg", "Bono-Bot très méchant", 5, HUNTER, 1, "play",
     "Play: your opponent loses 1 life for each Mindbug they have not used."),
    ("Cloud Lady", "Dame Nuage", 4, 0, 1, "action",
     "Action: defeat an enemy creature with power 4 or less, then evolve into Typhoon Princess."),
    ("Coach Panda", "Coach Panda", 6, 0, 2, None,
     "While you have exactly one other creature in play, that creature gets +3 power and FRENZY."),
    ("Curious Tadpole", "Têtard curieux", 1, POISONOUS, 1, "action",
     "Action: gain 1 life, then evolve into Frog Prophet."),
    ("Dr. Orange U. Tan", "Dr Orange U. Tan", 6, 0, 1, "play",
     "Play: you may lose 1 life; if you do, your opponent takes every creature of theirs back into their hand."),
    ("Dragon Inn", "Dragauberge", 3, TOUGH, 2, "action",
     "Action: if you have fewer creatures in play than your opponent, your opponent loses 1 life."),
    ("Earwig Assassin", "Assassin perce-oreille", 1, SNEAKY, 2, "play",
     "Play: you may discard a card; if you do, defeat a creature in play."),
    ("Infernostrich", "Infernautruche", 6, 0, 1, "action", "Action: defeat an enemy creature with power 7 or more."),
    ("Kitsunsei", "Kitsunsei", 4, 0, 1, None, "Your other creatures have SNEAKY."),
    ("Mole Machine", "Terminataupe", 5, TOUGH, 2, None, "Enemy creatures with power 7 or more cannot block."),
    ("Octocopter", "Hélicopoulpe", 5, 0, 1, "action",
     "Action: defeat this creature, then take control of an enemy creature."),
    ("Puffermech", "Poisson-mine", 2, POISONOUS, 2, "defeated",
     "Defeated: every enemy creature with power 8 or more is defeated."),
    ("Radioactive Rabbit", "Lièvre radioactif", 3, FRENZY, 1, ("play", "defeated"),
     "Play: your opponent takes control of this creature. Defeated: every other creature of the player who "
     "controlled it is defeated."),
    ("Robopup", "Robochiot", 1, SNEAKY | TOUGH, 2, None, ""),
    ("Sawn", "Scigne", 5, TOUGH, 2, None,
     "When this creature fights, the creature with more power is defeated instead of the one with less."),
    ("Spiky Shinobi", "Shinopik", 3, SNEAKY, 2, None,
     "While you have no Mindbug left to use, this creature gets +5 power."),
    ("Steelhorn", "Cornes d'acier", 7, 0, 1, "defeated", "Defeated: your opponent discards 3 cards of their choice."),
    ("Sweet Fighter", "Sweet Fighter", 9, 0, 2, "defeated", "Defeated: you gain 2 life."),
    ("The Experiment", "L'expérience", 6, POISONOUS, 1, "play",
     "Play: your opponent takes control of this creature; then take control of an enemy creature."),
    ("Turtle Toaster", "Tortue Toaster", 4, TOUGH, 2, "play",
     "Play: defeat up to 2 enemy creatures whose power is 4, 5 or 6."),
    ("Utility Bug", "Scaratoufer", 4, HUNTER | TOUGH, 2, "play",
     "Play: you may carry out the Play effect of another creature in play as if it were this creature's."),
    ("Waddling Recruit", "Recrue manchot", 3, 0, 1, "action",
     "Action: your opponent discards a card, then evolve into Veteran Penguin."),
    ("Westside Monster", "Requin-balaise", 8, FRENZY, 2, None,
     "Enemy creatures with SNEAKY can neither attack nor block."),
    ("Wildsprout", "Jeune pousse", 1, 0, 1, "action",
     "Action: put a card of your discard pile into play, then evolve into Bigroot."),
)

# The stage faces: name, French name, power, keywords, stage, trigger(s), ability text (our words).
# Stage II is the front of the line's double-sided card, stage III its back.
FACES: tuple[tuple, ...] = (
    ("Typhoon Princess", "Princesse Tempête", 6, 0, 2, "action",
     "Action: defeat an enemy creature with power 6 or less, then evolve into Thunder Queen."),
    ("Thunder Queen", "Reine Tonnerre", 9, 0, 3, "attack", "Attack: defeat an enemy creature."),
    ("Frog Prophet", "Craporacle", 3, POISONOUS | TOUGH, 2, "action",
     "Action: gain 1 life, then evolve into World Eater."),
    ("World Eater", "Ogre-Grenouille", 8, POISONOUS | TOUGH, 3, "attack", "Attack: your opponent loses 1 life."),
    ("Veteran Penguin", "Vétéran Empereur", 5, TOUGH, 2, "action",
     "Action: your opponent discards a card, then evolve into Frosty Fortress."),
    ("Frosty Fortress", "Panzer Pingouin", 10, TOUGH, 3, "attack",
     "Attack: your opponent moves their whole hand and their whole draw pile into their discard pile."),
    ("Bigroot", "Bigroot", 4, 0, 2, "action",
     "Action: put a card of your discard pile into play, then evolve into Oakenmaster."),
    ("Oakenmaster", "Maître Chêne", 7, 0, 3, None, "Your other creatures get +5 power."),
)

# stage I deck card -> (stage II face, stage III face)
LINES: dict[str, tuple[str, str]] = {
    "Cloud Lady": ("Typhoon Princess", "Thunder Queen"),
    "Curious Tadpole": ("Frog Prophet", "World Eater"),
    "Waddling Recruit": ("Veteran Penguin", "Frosty Fortress"),
    "Wildsprout": ("Bigroot", "Oakenmaster"),
}

# Names other sources give these cards (any case and spacing), each finding no other card.
OTHER_NAMES: dict[str, tuple[str, ...]] = {
    "Dr. Orange U. Tan": ("Dr Orange U Tan",),
    "Thunder Queen": ("Thunder Queeen",),
    "Frosty Fortress": ("War Machine",),
}
