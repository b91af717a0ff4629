"""Hypothesis strategies for Mind Up!: legal positions (any player count,
round, line, hands, Score cards, Score order, objectives shown, scores of
the rounds played) and what happens from them (joint choices, the chance
of the next rounds).

A position is drawn as the `given` of a Mind Up! scenario (mb-scenario/1,
`game: mind-up`), so whatever the hunt finds is written as a draft that
builds the very same game. Every card is placed by the rules' own logic:
each player's scored cards go on the Score cards as won cards do
(mu.score-cards.place), the line is sorted, the pile is the cards left over
(its top cards drawn, the others in number order as a scenario has them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

from ..cards import CARD_COUNT, COLUMNS, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, OBJECTIVES, ROUNDS, colour, letter

LETTERS = sorted({letter(o) for o in OBJECTIVES})


@dataclass
class Situation:
    """A position (a scenario's `given`), the readings in force, the turns
    played (each a card per player) and the chance of each round reached
    (`next_rounds`, as a scenario writes it)."""

    given: dict
    readings: dict = field(default_factory=dict)
    turns: list[dict] = field(default_factory=list)
    next_rounds: list[dict] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.given["hands"])


def place_all(cards: list[int]) -> list[list[int]]:
    """Won cards placed in order by mu.score-cards.place: onto the Score card
    holding their colour, else the leftmost empty one."""
    cols: list[list[int]] = [[] for _ in range(COLUMNS)]
    for c in cards:
        for col in cols:
            if col and colour(col[0]) == colour(c):
                col.append(c)
                break
        else:
            next(col for col in cols if not col).append(c)
    return [col for col in cols if col]


@st.composite
def objective_sets(draw, k: int | None = None) -> list[int]:
    """k objectives with different letters (mu.objectives.count)."""
    if k is None:
        k = draw(st.integers(0, 5))
    letters = draw(st.permutations(LETTERS))[:k]
    return [draw(st.sampled_from([o for o in OBJECTIVES if letter(o) == a])) for a in letters]


@st.composite
def positions(draw, players=None, rounds=None, hand_sizes=None, objectives=None, scarce=None) -> dict:
    """A legal position at the start of a turn, as a scenario's `given`.
    `players`, `rounds`, `hand_sizes`: strategies (or None for any);
    `objectives`: a strategy of the objectives shown (or None for any);
    `scarce`: a strategy of a colour (or None) whose cards are all left in
    the pile, so that no player holds it (the deck is still a legal deal)."""
    n = draw(players if players is not None else st.integers(MIN_PLAYERS, MAX_PLAYERS))
    rnd = draw(rounds if rounds is not None else st.integers(1, ROUNDS))
    held = HAND_SIZE + rnd - 1                       # hand and Score cards, per player
    h = draw(hand_sizes if hand_sizes is not None else st.integers(2, held))
    h = max(2, min(h, held))
    deck = list(draw(st.permutations(range(1, CARD_COUNT + 1))))
    rare = draw(scarce) if scarce is not None else None
    if rare is not None:
        deck.sort(key=lambda c: colour(c) == rare)
    at = 0
    hands, columns = [], []
    for _ in range(n):
        mine = list(deck[at:at + held])
        at += held
        hands.append(sorted(mine[:h]))
        columns.append(place_all(mine[h:]))
    line = sorted(deck[at:at + n])
    at += n
    # the pile's top: enough to draw for every round still to come
    pile = list(deck[at:at + n * (ROUNDS - rnd)])
    order = list(draw(st.permutations([1, 2, 3, 4, 5])))
    shown = draw(objectives if objectives is not None else objective_sets())
    scores = [[draw(st.integers(-10, 60)) for _ in range(n)] for _ in range(rnd - 1)]
    given = {"round": rnd, "order": order, "hands": hands, "line": line, "columns": columns}
    if pile:
        given["pile"] = pile
    if scores:
        given["scores"] = scores
    if shown:
        given["objectives"] = shown
    return given


def turns_left(given: dict) -> int:
    """The turns the round has left from a position: one per card in hand but the last."""
    return len(given["hands"][0]) - 1


@st.composite
def joint_choice(draw, hands: list[list[int]]) -> dict:
    """One turn: a card from each hand (mu.turn.choose), as a scenario writes it."""
    return {p: draw(st.sampled_from(hand)) for p, hand in enumerate(hands)}


@st.composite
def next_round(draw, given: dict, last_order: list[int], same_order=None, permute_draws=None) -> dict:
    """The chance of the round after the position's: a Score order (the
    last one again, or any), the draws (default, or the pile's top cards
    given to other players), new objectives when the variant renews them."""
    same = draw(same_order if same_order is not None else st.booleans())
    order = list(last_order) if same else list(draw(st.permutations([1, 2, 3, 4, 5])))
    out: dict = {"order": order}
    n = len(given["hands"])
    top = given.get("pile", [])[:n]
    if len(top) == n and draw(permute_draws if permute_draws is not None else st.booleans()):
        out["draws"] = list(draw(st.permutations(top)))
    shown = given.get("objectives", [])
    if shown and len(shown) < 3:
        fresh = [o for o in OBJECTIVES if o not in shown]
        letters = sorted({letter(o) for o in fresh})
        picked = draw(st.permutations(letters))[:len(shown)]
        out["objectives"] = [min(o for o in fresh if letter(o) == a) for a in picked]
    return out


@st.composite
def situations(draw, readings=None, **position_kw) -> Situation:
    """A position and the turns to the end of its round (and the start of the
    next, when there is one); `readings`: a strategy of the readings in force."""
    given = draw(positions(**position_kw))
    sit = Situation(given, draw(readings) if readings is not None else {})
    hands = [list(h) for h in given["hands"]]
    for _ in range(turns_left(given)):
        turn = draw(joint_choice(hands))
        for p, c in turn.items():
            hands[p].remove(c)
        sit.turns.append(turn)
    if given["round"] < ROUNDS:
        sit.next_rounds.append(draw(next_round(given, given["order"])))
    return sit
