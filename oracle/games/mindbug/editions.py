"""Rulebook editions as rules profiles.

Each edition of the rulebook is a profile: a set of switches, each naming the
clause it comes from. Where an edition says nothing on a question another
edition settles, the switch records that the edition is silent and which
reading the engine takes there.
"""

from __future__ import annotations

from msgspec import Struct

EDITIONS = ("en-first", "fr-first", "fr-revised", "en-revised")
DEFAULT_EDITION = "en-revised"


class Switch(Struct, frozen=True):
    """One rules question on which editions may differ."""

    name: str
    clause: str
    value: object
    stated: bool  # False: the edition is silent and `value` is the engine's reading
    note: str = ""
    implied: bool = False  # not in words, but the edition's text leads to `value` (clause status `implied`)

    @property
    def how(self) -> str:
        """"states", "implied" or "silent": the clause's status in the edition."""
        return "states" if self.stated else "implied" if self.implied else "silent"

    def to_json(self) -> dict:
        return {"name": self.name, "clause": self.clause, "value": self.value,
                "stated": self.stated, "implied": self.implied, "note": self.note}


class Profile(Struct, frozen=True):
    edition: str
    title: str
    rulebook: str
    # The switches the engine reads, as plain attributes for speed.
    mindbug_extra: str        # "action": another turn action; "turn": the turn ends, another turn follows
    refill: str               # "on-remove" | "below-five"
    frenzy: str               # "survives" | "in-play" (same outcome with First Contact cards)
    hunter_override: bool     # HUNTER may force a creature that could not normally block
    tough_effects: bool       # TOUGH also replaces defeats by card effects
    tough_poisonous: bool     # a TOUGH creature hit by POISONOUS is exhausted, not defeated
    power_floor: int          # lowest power a creature can have (0: no floor)
    no_action_loses: bool
    defeated_to_controller: bool
    life_cards: bool          # life tracked with cards from the unused pile
    reveals_out: bool         # cards revealed for the first player leave the game
    later_sets: bool          # FAST, Action, Harvest, Octonite... exist in this edition
    switches: tuple[Switch, ...] = ()
    # Team readings (oracle/games/mindbug/readings.py): questions no edition settles. The
    # defaults are the team's; `readings` lists the (clause, choice) pairs
    # that differ from them.
    hunter_order: str = "attack-effect-first"   # effects.hunter-order
    attacker_gone: str = "attack-ends"          # combat.attacker-gone
    leave_play: str = "resets"                  # terms.leave-play
    frenzy_timing: str = "at-once"              # keywords.frenzy.same-creature
    any_creature: str = "either-side"           # cards.any-creature (New Servants)
    extreme_scope: str = "among-enemies"        # cards.extreme-power (New Servants)
    set_life_loss: str = "counts"               # life.lose.set-lower (Hyenix)
    this_turn: str = "ends-with-turn"           # effects.this-turn
    from_discard: str = "pile-holder"           # triggers.from-discard
    hand_over: str = "giver-picks"              # cards.hand-over
    readings: tuple[tuple[str, str], ...] = ()

    def switch(self, name: str) -> Switch:
        for s in self.switches:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_json(self) -> dict:
        d = {"edition": self.edition, "title": self.title, "rulebook": self.rulebook,
             "switches": [s.to_json() for s in self.switches]}
        if self.readings:
            d["readings"] = dict(self.readings)
        return d


# (switch name, clause, {edition: (value, stated, note)})
_TABLE: tuple[tuple[str, str, dict[str, tuple[object, bool, str]]], ...] = (
    ("mindbug_extra", "mindbug.extra-action", {
        "en-first": ("turn", True, "the turn ends and the same player takes another turn"),
        "fr-first": ("turn", True, "the turn ends and the same player takes another turn"),
        "fr-revised": ("turn", True, "the turn ends and the same player takes another turn"),
        "en-revised": ("action", True, "another turn action within the same turn"),
    }),
    ("refill", "drawing.refill", {
        "en-first": ("on-remove", True, "draw to 5 after removing a card from your own hand"),
        "fr-first": ("on-remove", True, "draw to 5 after removing a card from your own hand"),
        "fr-revised": ("below-five", True, "draw to 5 whenever the hand holds fewer than 5"),
        "en-revised": ("below-five", True, "draw to 5 whenever the hand holds fewer than 5"),
    }),
    ("frenzy", "keywords.frenzy", {
        "en-first": ("survives", True, "second attack if it survived the first"),
        "fr-first": ("in-play", True, "main text: still in play; its quick reference says 'survives'"),
        "fr-revised": ("in-play", True, ""),
        "en-revised": ("in-play", True, ""),
    }),
    ("hunter_override", "keywords.hunter.override", {
        "en-first": (True, False, "silent; reading: HUNTER may force any enemy creature, as later editions state"),
        "fr-first": (True, True, ""),
        "fr-revised": (True, True, ""),
        "en-revised": (True, True, ""),
    }),
    ("tough_effects", "keywords.tough.effects", {
        "en-first": (True, False, "implied: TOUGH replaces any defeat, and the Defeated trigger names card effects",
                     True),
        "fr-first": (True, True, ""),
        "fr-revised": (True, True, ""),
        "en-revised": (True, True, ""),
    }),
    ("tough_poisonous", "keywords.tough.poisonous", {
        "en-first": (True, False, "silent; reading: exhausted, not defeated"),
        "fr-first": (True, False, "silent; reading: exhausted, not defeated"),
        "fr-revised": (True, True, ""),
        "en-revised": (True, True, ""),
    }),
    ("power_floor", "cards.power-minimum", {
        "en-first": (0, False, "silent; no First Contact card lowers power, so no floor is applied"),
        "fr-first": (0, False, "silent; no First Contact card lowers power, so no floor is applied"),
        "fr-revised": (1, True, ""),
        "en-revised": (1, True, ""),
    }),
    ("no_action_loses", "turns.no-action", {
        "en-first": (True, False, "silent; reading: the player loses, or the game could not go on"),
        "fr-first": (True, True, ""),
        "fr-revised": (True, True, ""),
        "en-revised": (True, True, ""),
    }),
    ("defeated_to_controller", "mindbug.defeated-controller", {
        "en-first": (True, False, "silent; reading: the controller's discard pile, as for any defeated creature"),
        "fr-first": (True, False, "silent; reading: the controller's discard pile, as for any defeated creature"),
        "fr-revised": (True, True, ""),
        "en-revised": (True, True, ""),
    }),
    ("life_cards", "life.cards", {
        "en-first": (True, True, "life is a pile of cards from the unused pile (no gain once it is empty: a reading)"),
        "fr-first": (False, True, "a counter with no limit"),
        "fr-revised": (False, True, "a counter with no limit"),
        "en-revised": (False, True, "a counter with no limit"),
    }),
    ("reveals_out", "setup.reveal-out", {
        "en-first": (True, False, "silent; reading: revealed cards stay out of the game"),
        "fr-first": (True, False, "silent; reading: revealed cards stay out of the game"),
        "fr-revised": (True, False, "silent; reading: revealed cards stay out of the game"),
        "en-revised": (True, True, ""),
    }),
    # FAST (keywords.fast), Action (triggers.action), Harvest (triggers.harvest),
    # "when" triggers (triggers.when), Octonite (later.octonite,
    # later.octonite.distribute, later.octonite.spend), steal life
    # (later.steal-life), refresh (later.refresh) and draws from the unused pile
    # (later.unused-draw) belong to later sets: catalogued, present only in the
    # English revised edition, used by no shipped card. Declared cards
    # (spec/card-format.md) play FAST, Action, Harvest with Octonite, "at the
    # end of turn" effects, four "when ..." events (triggers.when.events),
    # steal life, refresh and unused-pile draws there, and hand out and
    # spend counters.
    ("later_sets", "later.octonite", {
        "en-first": (False, True, ""),
        "fr-first": (False, True, ""),
        "fr-revised": (False, True, ""),
        "en-revised": (True, True, "FAST, Action, Harvest, \"when\" events, Octonite (handed out, spent), "
                                   "steal life, refresh, unused-pile draws"),
    }),
)

_TITLES = {
    "en-first": ("English first edition", "mindbug-rules-en-first-edition.txt"),
    "fr-first": ("French first edition", "mindbug-rules-fr-first-edition.txt"),
    "fr-revised": ("French revised edition", "mindbug-rules-fr-revised.txt"),
    "en-revised": ("English revised edition", "mindbug-rules-en-revised.txt"),
}


def _build(edition: str) -> Profile:
    switches = tuple(Switch(name, clause, *table[edition]) for name, clause, table in _TABLE)
    values = {s.name: s.value for s in switches}
    title, book = _TITLES[edition]
    return Profile(edition=edition, title=title, rulebook=book, switches=switches, **values)


PROFILES: dict[str, Profile] = {e: _build(e) for e in EDITIONS}


class UnknownEdition(LookupError):
    pass


def profile(edition: "str | Profile | None") -> Profile:
    """The profile of an edition id; a Profile is returned as it is (tests
    and the hunt try modified profiles)."""
    if isinstance(edition, Profile):
        return edition
    if edition is None:
        edition = DEFAULT_EDITION
    try:
        return PROFILES[edition]
    except KeyError:
        raise UnknownEdition(edition) from None
