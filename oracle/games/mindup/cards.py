"""The cards of Mind Up!: the 60 main cards (number, colour, bubble), the
Score cards (values 1 to 5) and the 14 bonus objectives (letter, value).

The colours and bubbles are data read from the printed cards, not a rule
(the deck happens to be mirror-symmetric: card n and card 61 - n share
colour and bubble). The objectives' letters and values were icons the
rulebook's text lost; they come from the printed cards too. The conditions
themselves are rules and live in the engine (oracle.games.mindup.engine.objectives).
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("orange", "pink", "blue", "green", "purple")
CARD_COUNT = 60
SCORE_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5)
COLUMNS = 5
MIN_PLAYERS, MAX_PLAYERS = 3, 6     # the team's reading (mu.setup.players); 2 with the alternative
HAND_SIZE = 7
ROUNDS = 3
MAX_OBJECTIVES = 5

# Cards 1-30, by number: colour initial and bubble. Cards 31-60 mirror them (n <-> 61 - n).
_FIRST_HALF = (
    "o-1 p0 b1 g2 g1 p0 u-1 o0 u1 p2 u1 g0 b-1 g0 o1 o2 g1 b0 p-1 u0 "
    "b1 u2 o1 b0 g-1 u0 p1 b2 p1 o0"
)
_INITIALS = {"o": "orange", "p": "pink", "b": "blue", "g": "green", "u": "purple"}


def _table() -> dict[int, tuple[str, int]]:
    out = {}
    for n, word in enumerate(_FIRST_HALF.split(), start=1):
        colour, bubble = _INITIALS[word[0]], int(word[1:])
        out[n] = (colour, bubble)
        out[61 - n] = (colour, bubble)
    return dict(sorted(out.items()))


CARDS: dict[int, tuple[str, int]] = _table()     # number -> (colour, bubble)


def colour(card: int) -> str:
    return CARDS[card][0]


def bubble(card: int) -> int:
    return CARDS[card][1]


def describe(card: int) -> str:
    """'card 46 (orange, +1)' for people."""
    c, b = CARDS[card]
    return f"card {card} ({c}{'' if not b else f', {b:+d}'})"


# id -> (letter, value, the condition in the project's words)
OBJECTIVES: dict[int, tuple[str, int, str]] = {
    1: ("A", 2, "you hold exactly 1 or exactly 3 orange cards"),
    2: ("A", -2, "your orange cards sit on the Score card of value 1 or 2"),
    3: ("B", 2, "you hold exactly 2 or exactly 4 blue cards"),
    4: ("B", 2, "no colour of yours has more cards than blue, and you have blue"),
    5: ("C", -2, "no player has fewer pink cards than you"),
    6: ("C", 2, "no player has more pink cards than you"),
    7: ("D", 2, "no colour of yours sits to the right of green"),
    8: ("D", 2, "your green cards sit on the Score card of value 4 or 5"),
    9: ("E", 2, "you have at least as many purple cards as orange cards"),
    10: ("E", -2, "no player has more purple cards than you"),
    11: ("F", 2, "you have cards of all 5 colours"),
    12: ("F", 2, "you have cards of exactly 3 colours"),
    13: ("G", -2, "at least one of your colours has exactly 3 cards"),
    14: ("G", 2, "at least one of your colours has exactly 4 cards"),
}


def is_objective(o) -> bool:
    """Whether `o` is the id of an objective (mu.objectives.cards)."""
    return not isinstance(o, bool) and o in OBJECTIVES


def letter(objective: int) -> str:
    return OBJECTIVES[objective][0]


def seat_letter(p: int) -> str:
    """Players are numbered from 0 in logs and lettered from A for people."""
    return chr(ord('A') + p)


def player_name(p: int) -> str:
    return f"player {seat_letter(p)}"


ORDINALS = ("first", "second", "third", "fourth", "fifth")
