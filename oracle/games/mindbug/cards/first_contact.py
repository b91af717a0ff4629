"""The First Contact set: 32 designs, 48 cards.

Facts (names, powers, keywords, copy counts) follow the public card lists;
every ability text here is written in the project's own words.
"""

from __future__ import annotations

from typing import Final

# Keywords as bit flags: cheap to combine, test and copy.
# Final: the compiled build writes their values where they are read.
FRENZY: Final = 1
HUNTER: Final = 2
POISONOUS: Final = 4
SNEAKY: Final = 8
TOUGH: Final = 16
FAST: Final = 32   # a later-set keyword (English revised edition); no First Contact card has it

KEYWORD_NAMES = {FRENZY: "FRENZY", HUNTER: "HUNTER", POISONOUS: "POISONOUS", SNEAKY: "SNEAKY", TOUGH: "TOUGH",
                 FAST: "FAST"}
# FAST has no French rulebook: "RAPIDE" is the project's rendering.
KEYWORD_FRENCH = {FRENZY: "FURIE", HUNTER: "CHASSEUR", POISONOUS: "VENIMEUX", SNEAKY: "FURTIF", TOUGH: "CORIACE",
                  FAST: "RAPIDE"}

# name, French name, power, keywords, copies, trigger, ability text (our words)
DESIGNS: tuple[tuple[str, str, int, int, int, str | None, str], ...] = (
    ("Axolotl Healer", "Dr Axolotl", 4, POISONOUS, 2, "play", "Play: you gain 2 life."),
    ("Compost Dragon", "Dracompost", 3, HUNTER, 2, "play", "Play: put a card of your choice from your discard pile into play."),
    ("Explosive Toad", "Crapaud bombe", 5, FRENZY, 2, "defeated", "Defeated: choose a creature in play and defeat it."),
    ("Ferret Bomber", "Furet saboteur", 2, SNEAKY, 2, "play", "Play: your opponent discards two cards of their choice."),
    ("Goblin Werewolf", "Goblin-Garou", 2, HUNTER, 2, None, "During your own turns this creature gets +6 power."),
    ("Grave Robber", "Pilleur de tombes", 7, TOUGH, 2, "play", "Play: put a card of your choice from your opponent's discard pile into play on your side."),
    ("Kangasaurus Rex", "Kangousaurus Rex", 7, 0, 2, "play", "Play: every enemy creature whose power is 4 or lower is defeated."),
    ("Killer Bee", "Abeille tueuse", 5, HUNTER, 2, "play", "Play: your opponent loses 1 life."),
    ("Luchataur", "Gladiataure", 9, FRENZY, 2, None, ""),
    ("Plated Scorpion", "Scorpion blindé", 2, TOUGH | POISONOUS, 2, None, ""),
    ("Rhino Turtle", "Rhino Tortue", 8, FRENZY | TOUGH, 2, None, ""),
    ("Shield Bugs", "Scarabouclier", 4, TOUGH, 2, None, "Each of your other creatures gets +1 power."),
    ("Snail Hydra", "Hydrescargot", 9, 0, 2, "attack", "Attack: when you have fewer creatures in play than your opponent, choose a creature in play and defeat it."),
    ("Spider Owl", "Arachnhibou", 3, SNEAKY | POISONOUS, 2, None, ""),
    ("Tiger Squirrel", "Tigrécureuil", 3, SNEAKY, 2, "play", "Play: choose an enemy creature with power 7 or more and defeat it."),
    ("Tusked Extorter", "Huissiéléphant", 8, 0, 2, "attack", "Attack: your opponent discards one card of their choice."),
    ("Bee Bear", "Oursabeille", 8, 0, 1, None, "Creatures with power 6 or lower cannot block this creature."),
    ("Brain Fly", "Neuromouche", 4, 0, 1, "play", "Play: choose an enemy creature with power 6 or more; it comes under your control."),
    ("Chameleon Sniper", "Reptireur d'élite", 1, SNEAKY, 1, "attack", "Attack: your opponent loses 1 life."),
    ("Deathweaver", "Veuve noire", 2, POISONOUS, 1, None, "Your opponent's Play effects do not happen."),
    ("Elephantopus", "Pachypoulpe", 7, TOUGH, 1, None, "Your opponent cannot block with a creature whose power is 4 or lower."),
    ("Giraffodile", "Giraffodile", 7, 0, 1, "play", "Play: every card of your discard pile goes into your hand."),
    ("Gorillion", "Gorillion", 10, 0, 1, None, ""),
    ("Harpy Mother", "Mamie Harpie", 5, 0, 1, "defeated", "Defeated: choose at most two enemy creatures with power 5 or lower; they come under your control."),
    ("Lone Yeti", "Yéti solitaire", 5, TOUGH, 1, None, "As long as no other creature of yours is in play, this creature gets +5 power and has FRENZY."),
    ("Mysterious Mermaid", "Sirène mystérieuse", 7, 0, 1, "play", "Play: set your life to your opponent's current life."),
    ("Shark Dog", "Requin Toutou", 4, HUNTER, 1, "attack", "Attack: choose an enemy creature with power 6 or more and defeat it."),
    ("Sharky Crab-Dog-Mummypus", "Requin Crabe Chien Momie Pieuvre", 5, 0, 1, None, "For each of HUNTER, SNEAKY, FRENZY and POISONOUS: this creature has it as long as some enemy creature has it."),
    ("Snail Thrower", "Lanceur d'escargots", 1, POISONOUS, 1, None, "Your other creatures with power 4 or lower have HUNTER and POISONOUS."),
    ("Strange Barrel", "Baril étrange", 6, 0, 1, "defeated", "Defeated: take two cards at random from your opponent's hand into yours."),
    ("Turbo Bug", "Turboustique", 4, 0, 1, "attack", "Attack: your opponent's life drops to 1."),
    ("Urchin Hurler", "Oursins hurleurs", 5, HUNTER, 1, None, "During your own turns your other creatures get +2 power."),
)
