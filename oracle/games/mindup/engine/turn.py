"""A turn (rulebook: Tour de jeu): the hidden choice, the reveal in
ascending order, taking the line card above, placing it on the Score cards,
and the played cards as the next line."""

from __future__ import annotations

from ..cards import ORDINALS, colour, describe, player_name
from ..readings import CHANGE
from .state import Event, RuleError, State


def waiting(s: State) -> frozenset[int]:
    """mu.turn.choose: the players who have not chosen this turn."""
    return frozenset(p for p in range(s.players) if s.chosen[p] is None)


def choose(s: State, p: int, card: int, readings: dict) -> None:
    """mu.turn.choose: player p lays `card` from hand face down. A second
    choice before the reveal is a change of mind or playing twice, as the
    reading mu.turn.change-choice says."""
    if not 0 <= p < s.players:
        raise RuleError("mu.turn.choose", f"there is no player {p} in a {s.players}-player game")
    if s.chosen[p] is not None:
        if readings[CHANGE] == "final":
            raise RuleError(CHANGE, f"{player_name(p)} already chose a card this turn and chooses again",
                            options=[])
        if not waiting(s):      # change-allowed: only until the last player has chosen; the reveal follows at once
            raise RuleError(CHANGE, f"every player has chosen, so the cards are revealed at once: "
                                    f"{player_name(p)} may no longer change their choice", options=[])
    if card not in s.hands[p]:
        raise RuleError("mu.turn.choose", f"{player_name(p)} does not hold card {card}",
                        options=list(s.hands[p]))
    s.chosen[p] = card


def column_for(s: State, p: int, card: int) -> int:
    """mu.score-cards.place: the column of the player's Score cards that
    already holds the card's colour, else the first empty one from the left."""
    col = colour(card)
    first_empty = None
    for i, cards in enumerate(s.columns[p]):
        if cards:
            if colour(cards[0]) == col:
                return i
        elif first_empty is None:
            first_empty = i
    assert first_empty is not None      # 5 colours, 5 columns
    return first_empty


def place(s: State, p: int, card: int, clauses: list[str], played: int = 0, rank: int = 0) -> Event:
    """Put a won card on player p's Score cards (mu.score-cards.place):
    taken by card `played`, the `rank`-th lowest (mu.turn.take), or, with
    `played` 0, the player's last card of the round (mu.round.last-card)."""
    i = column_for(s, p, card)
    cards = s.columns[p][i]
    cards.append(card)
    return Event("place", clauses + ["mu.score-cards.place"], player=p, card=card, column=i,
                 say=_place_text, words=(p, card, i, len(cards) > 1, played, rank))


def _place_text(p: int, card: int, i: int, holds: bool, played: int, rank: int) -> str:
    how = (f"played {played}, the {rank}{_th(rank)} lowest, takes the line card above it:" if played
           else "places the last card of the round,")
    where = "which holds " + colour(card) if holds else "the first empty one"
    return f"{player_name(p)} {how} {describe(card)} and puts it on the {ORDINALS[i]} Score card ({where})"


def reveal(s: State) -> list[Event]:
    """mu.turn.hidden, mu.turn.reveal, mu.turn.take, mu.turn.next-line: the
    choices are shown together once all are made; the k-th lowest played
    card takes the k-th line card; the played cards, in ascending order,
    become the line."""
    chosen = s.chosen
    if None in chosen:
        missing = [p for p in range(s.players) if chosen[p] is None]
        raise RuleError("mu.turn.hidden", "the choices are revealed before every player chose: "
                        + ", ".join(player_name(p) for p in missing) + " had not", options=[])
    played = sorted([(c, p) for p, c in enumerate(chosen) if c is not None])
    line = [c for c, _ in played]
    events = [Event("reveal", ["mu.turn.reveal"], say=_reveal_text, words=(played,), cards=line)]
    hands = s.hands
    for k, (card, p) in enumerate(played):
        hands[p].remove(card)
        events.append(place(s, p, s.line[k], ["mu.turn.take"], card, k + 1))
    s.line = line[:]
    s.chosen = [None] * s.players
    s.turn += 1
    now = line[:]
    events.append(Event("line", ["mu.turn.next-line"], say=_line_text, words=(now,), cards=now))
    return events


def _reveal_text(played: list[tuple[int, int]]) -> str:
    return "revealed: " + ", ".join(f"{player_name(p)} {c}" for c, p in played)


def _line_text(line: list[int]) -> str:
    return "the played cards are the new line: " + " ".join(str(c) for c in line)


def _th(k: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(k if k < 20 else k % 10, "th")
