"""Mind Up!'s readings: where the rulebook is silent or its text was lost,
the team's choice and the alternatives another engine may take, as switches
(`verify --reading CLAUSE=CHOICE`, the game line's `readings`).

Each reading is a clause of spec/mind-up/clauses.yaml whose status is
`silent`. The engine reads the choices as a plain mapping clause -> choice
(`choices(readings)`), the team's where a game names none. The Board Game
Arena implementation's choice is one of the choices wherever it differs from
the team's (the notes say so).
"""

from __future__ import annotations

from ...reading_type import Reading, check_choices

PLAYERS = "mu.setup.players"
DRAW = "mu.round.draw-order"
ORDER_REPEAT = "mu.round.order-repeat"
CHANGE = "mu.turn.change-choice"
LETTERS_LATER = "mu.objectives.letters-later"
ZERO = "mu.objectives.all-zero"
TIMING = "mu.objectives.relative-timing"
NO_GREEN = "mu.objectives.no-green"
LOST = "mu.objectives.lost-passage"

READINGS: tuple[Reading, ...] = (
    Reading(PLAYERS, "players", "three-to-six", (
        ("three-to-six", "a game has 3 to 6 players"),
        ("two-to-six", "a game has 2 to 6 players (6 sets of Score cards set the upper bound)"),
    ), "the rulebook's copy states no player count; public descriptions and Board Game Arena say 3 to 6"),
    Reading(DRAW, "draw_order", "seat-order", (
        ("seat-order", "between rounds the top card of the pile goes to the first player, the next to the "
                       "second, and so on"),
        ("top-cards-any", "the drawn cards are the top cards of the pile, one per player, in any assignment"),
    ), "which pile card goes to whom changes nothing in the rules; the choice only says which logs agree "
       "with the pile they wrote"),
    Reading(ORDER_REPEAT, "order_repeat", "allowed", (
        ("allowed", "each round's Score order is a fresh random draw and may repeat the last round's"),
        ("must-differ", "a new round's Score order must differ from the last round's"),
    ), "Board Game Arena draws each order independently, as the team does"),
    Reading(CHANGE, "change_choice", "final", (
        ("final", "a card laid face down is the player's choice for the turn: choosing again is playing twice"),
        ("change-allowed", "until the last player has chosen, a player may take a choice back and choose "
                           "again; the last choice counts"),
    ), "Board Game Arena allows a change of mind until everyone has chosen"),
    Reading(LETTERS_LATER, "letters_later", "sister-allowed", (
        ("sister-allowed", "an objective shown in a later round may have the letter of an objective "
                           "discarded earlier"),
        ("letter-retired", "a letter shown once is retired for the rest of the game"),
    ), "Board Game Arena retires a letter once shown"),
    Reading(ZERO, "all_zero", "qualifies", (
        ("qualifies", "when every player has no card of the colour, every player meets the objectives "
                      "that compare players' counts (ties count)"),
        ("nobody", "when every player has no card of the colour, no player meets them"),
    ), "Board Game Arena counts a tie at zero as a tie, as the team does"),
    Reading(TIMING, "relative_timing", "after-all-placed", (
        ("after-all-placed", "objectives that compare players are checked once every player has placed "
                             "the round's last card"),
        ("placement-order", "each player's objectives are checked as that player places the last card, in "
                            "seat order: later players' last cards are not yet counted"),
    ), "placement-order is what Board Game Arena credits (a defect of its recount)"),
    Reading(NO_GREEN, "no_green", "no-bonus", (
        ("no-bonus", "a player without green cards does not meet 'no colour to the right of green'"),
        ("bonus", "a player without green cards meets it: no colour sits to the right of a green that "
                  "is not there"),
    ), "Board Game Arena gives no bonus without green"),
    Reading(LOST, "lost_passage", "text-as-kept", (
        ("text-as-kept", "the rules are the kept text with the printed cards' values and letters; the "
                         "missing passage at the end adds nothing the engine applies"),
    ), "no alternative: the lost passage cannot be reconstructed"),
)

BY_CLAUSE: dict[str, Reading] = {r.clause: r for r in READINGS}
TEAM: dict[str, str] = {r.clause: r.team for r in READINGS}


def check(readings: dict) -> dict[str, str]:
    """Validate a clause -> choice mapping; raise UnknownReading naming the bad entry."""
    return check_choices(readings, BY_CLAUSE, {}, "Mind Up! reading")


def parse(spec: str) -> tuple[str, str]:
    """`CLAUSE=CHOICE` as given on the command line."""
    clause, _, choice = (x.strip() for x in spec.partition("="))
    check({clause: choice})
    return clause, choice


def differing(readings: dict) -> dict[str, str]:
    """The entries that are not the team's reading, in catalogue order."""
    return {r.clause: readings[r.clause] for r in READINGS if readings.get(r.clause, r.team) != r.team}


def choices(readings: dict | None = None) -> dict[str, str]:
    """Every reading's choice: the given ones, the team's for the others."""
    readings = readings or {}
    return {r.clause: readings.get(r.clause, r.team) for r in READINGS}
