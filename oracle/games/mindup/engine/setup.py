"""Components and set-up (rulebook: Matériel, Mise en place): the 60 main
cards, the players, the dealt hands and the central line."""

from __future__ import annotations

from ..cards import CARD_COUNT, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ..readings import PLAYERS
from .state import SetupError, State


def player_range(readings: dict) -> tuple[int, int]:
    """mu.setup.players: the player counts the reading allows."""
    low = 2 if readings[PLAYERS] == "two-to-six" else MIN_PLAYERS
    return low, MAX_PLAYERS


def check_players(n: int, readings: dict) -> None:
    low, high = player_range(readings)
    if not low <= n <= high:
        raise SetupError(PLAYERS, f"{n} players: a game has {low} to {high} players")


def _card(c, where: str) -> int:
    if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= CARD_COUNT:
        raise SetupError("mu.setup.components", f"{where}: {c!r} is not a main card (1 to {CARD_COUNT})")
    return c


def deal(n: int, hands: list[list[int]], line: list[int], pile: list[int] | None, objectives: int,
         readings: dict) -> State:
    """The state after the deal: each player's 7 secret cards (mu.setup.deal),
    the line of n cards sorted by number (mu.setup.line), the rest in the
    pile (when the log gives it)."""
    check_players(n, readings)
    if not 0 <= objectives <= 5:
        raise SetupError("mu.objectives.count", f"{objectives} objectives: the variant shows 0 to 5 at a time")
    if len(hands) != n:
        raise SetupError("mu.setup.deal", f"{len(hands)} hands dealt for {n} players")
    seen: dict[int, str] = {}

    def take(c, where):
        c = _card(c, where)
        if c in seen:
            raise SetupError("mu.setup.components", f"card {c} is dealt twice ({seen[c]} and {where})")
        seen[c] = where
        return c

    s = State.empty(n, objectives)
    for p, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise SetupError("mu.setup.deal", f"player {p} is dealt {len(hand)} cards; each player gets {HAND_SIZE}")
        s.hands[p] = sorted(take(c, f"player {p}'s hand") for c in hand)
    if len(line) != n:
        raise SetupError("mu.setup.line", f"the line has {len(line)} cards; it has one per player ({n})")
    s.line = sorted(take(c, "the line") for c in line)
    if pile is not None:
        s.pile = [take(c, "the pile") for c in pile]
        if len(seen) != CARD_COUNT:
            missing = sorted(set(range(1, CARD_COUNT + 1)) - set(seen))
            raise SetupError("mu.setup.components", f"the hands, the line and the pile leave out "
                                                    f"{len(missing)} card(s): {missing[:10]}")
    return s
