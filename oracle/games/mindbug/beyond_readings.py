"""Team readings of the Beyond sets and the promos: the open questions of
their card sheet (numbered Q) and the points where public engines read the
cards differently, each a switch with its alternatives.

These readings have no attribute of their own on a rules profile: the
engine asks `oracle.games.mindbug.readings.choice(profile, clause)`. Each part of the
sets keeps its own tuple below.
"""

from __future__ import annotations

from ...reading_type import Reading

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
EVOLUTION: tuple[Reading, ...] = (
    Reading("later.action.useful", "", "must-change", (
        ("must-change", "an Action is offered only when resolving it would change something: Dragon Inn "
                        "without fewer creatures, Infernostrich without a target, Cake Trickster with no enemy "
                        "creature able to attack are not; an Action that can still evolve is"),
        ("always-offered", "every Action of a creature that may act is offered; one that changes nothing "
                           "resolves with no effect and the turn ends"),
    ), "one public engine offers Dragon Inn and Infernostrich with nothing to do and ends the turn"),
    Reading("later.evolve.tough", "", "keeps", (
        ("keeps", "an evolving creature keeps its exhaustion: exhausted, it stays exhausted at its new stage"),
        ("both-tough", "an exhausted creature stays exhausted only when both its old and its new face print "
                       "TOUGH; otherwise it evolves ready"),
        ("clears", "evolving always readies the creature: its new stage's TOUGH is unused"),
    ), "the other two are the readings of two public engines"),
    Reading("later.forced.hippo", "", "must-attack", (
        ("must-attack", "while a HUNTER of Captain Hippo's controller's opponent can attack on that "
                        "opponent's turn, their turn action must be such an attack, and the HUNTER names a "
                        "Captain Hippo to block"),
        ("when-attacking", "playing a card, using an Action or attacking with another creature stays "
                           "allowed; a HUNTER that attacks names a Captain Hippo to block"),
        ("non-hunters-barred", "the opponent's creatures without HUNTER cannot attack at all on their turns; "
                               "a HUNTER that attacks names a Captain Hippo; cards and Actions stay allowed"),
    ), "one public engine takes the team's reading; another bars every non-HUNTER attacker"),
    Reading("later.give-control.experiment", "", "may-take-back", (
        ("may-take-back", "The Experiment, given away first, is by then an enemy creature and may be the "
                          "one taken back"),
        ("not-itself", "the creature taken is another enemy creature, never The Experiment itself"),
    )),
)

# -- the promos: the other new effect kinds ------------------------------------
PROMOS: tuple[Reading, ...] = (
    Reading("promo.side-markers", "", "side-on-tough", (
        ("side-on-tough", "once Sluggernaut's TOUGH is used, its controller picks a side marker: power 5 with "
                          "HUNTER or power 8 with FRENZY until it leaves play"),
        ("printed-only", "the side markers do nothing: a plain power 6 TOUGH creature"),
        ("all-keywords", "HUNTER and FRENZY are always on, with TOUGH, at power 6 (a data file's reading)"),
    ), "no rules text explains the side markers"),
    Reading("promo.gift-loser", "", "controller", (
        ("controller", "Suspicious Gift's Defeated effect makes the player who controlled it as it was "
                       "defeated lose 2 life"),
        ("owner", "the player who owns the card (whose deck it was dealt into) loses the 2 life"),
    )),
    Reading("promo.set-aside.return", "", "same-controller", (
        ("same-controller", "each creature Alpacoodle set aside comes back under the player who controlled it "
                            "when it was set aside"),
        ("holder-controller", "they all come back under the control of the player who controlled Alpacoodle "
                              "as it was defeated"),
        ("owner", "each comes back under its owner's control"),
    ), "the card does not say under whose control"),
    Reading("promo.if-you-did", "", "left-play", (
        ("left-play", "Slugapult defeats an enemy creature only if the allied creature it picked left play "
                      "(a TOUGH one that is exhausted instead was not defeated)"),
        ("tried", "picking an allied creature is enough: the enemy creature is defeated even if the allied "
                  "one stayed (TOUGH)"),
    )),
    Reading("promo.hand-closed.returned", "", "stays-in-play", (
        ("stays-in-play", "a creature that would return to a hand Alien Brain closes (Dr. Orange U. Tan) stays "
                          "in play"),
        ("to-discard", "it goes to its controller's discard pile instead, without being defeated"),
    ), "what becomes of such a creature is not said"),
    Reading("promo.future-eric", "", "unused-pile", (
        ("unused-pile", "Future Eric plays as the printing that moves the top 2 cards of the unused pile under "
                        "its controller's draw pile"),
    ), "no alternative: the other printing takes cards from outside the game, which a game record cannot hold"),
    Reading("promo.felix-defeated", "", "any-turn", (
        ("any-turn", "\"One-Eye\" Felix evolves at the end of any turn, either player's, in which it defeated "
                     "the enemy creature it fought"),
        ("own-turn", "only at the end of its controller's own turns"),
    ), "the card says \"a turn\" without saying whose"),
    Reading("promo.life-as-mindbugs", "", "life-for-mindbug", (
        ("life-for-mindbug", "Ivybug's controller, with no Mindbug left, may use one by losing 1 life"),
    ), "no alternative the oracle can show: no card scan confirms Ivybug's ability, and only its own set "
       "(promo-unconfirmed) deals it"),
)

# -- the English revised rulebook's FAST, which only declared cards carry ------
FAST: tuple[Reading, ...] = (
    Reading("keywords.fast.mindbugged", "", "no-action", (
        ("no-action", "the player who took a FAST creature with a Mindbug gets no attack and no Action with it "
                      "in the other player's turn; the player who played it goes on with the extra turn action"),
        ("before-extra-action", "once its Play effect is done, and before the extra turn action, the taker may "
                                "attack with it (the player whose turn it is may block; no FRENZY second "
                                "attack) or activate its Action effect, or pass"),
    ), "the rulebook gives the taker the attack or the Action 'this turn' without placing it; the alternative "
       "places it at once, as for the player who plays a FAST creature"),
)

READINGS: tuple[Reading, ...] = SETUP + ETERNITY + EVOLUTION + PROMOS + FAST
