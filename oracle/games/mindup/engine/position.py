"""A game set up in the middle of a round, as a ruling describes it: the
hands, the line, every player's Score cards, the Score order, the pile, the
objectives shown, the scores of the rounds already played.

    g = position(hands, line, columns, order, round=1, pile=(), scores=(),
                 objectives=(), objectives_count=None, shown_before=(), readings=None,
                 last_card=False)

The game waits for the players' choices of the next turn. Every card is
somewhere: the cards placed nowhere are in the pile, after the ones `pile`
lists (top first), in number order. A ruling may give the players fewer
cards than a round has (a few in hand, a few on the Score cards). A
position the rules cannot reach is refused with a SetupError naming its
clause: a card twice or not a main card (mu.setup.components), a player
count (mu.setup.players), hands of different sizes (mu.turn.choose), a
player holding more than the round's cards (7, 8, 9: mu.setup.deal,
mu.round.take-back), hands of one card or none (the last card is already placed:
mu.round.last-card; with `last_card`, hands of one card are the moment
before it is placed, and Game.place_last_cards places it), a line without one card per player (mu.setup.line), a
Score card holding two colours, a colour on two Score cards or an empty
Score card left of a used one (mu.score-cards.place), an order that is not
the values 1 to 5 (mu.setup.score-order), objectives (mu.objectives.*;
objectives shown before only in rounds 2 and 3 of a game showing one or two
at a time, none of them shown again, nor under letter-retired their letters).
The turns revealed this round are the most cards any player has on the
Score cards (every turn gives each player one; a ruling may leave some out).
"""

from __future__ import annotations

from .. import readings as rd
from ..cards import CARD_COUNT, COLUMNS, HAND_SIZE, MAX_OBJECTIVES, OBJECTIVES, ROUNDS, SCORE_VALUES, colour, letter
from .game import Game
from .setup import check_players
from .state import SetupError, State


def position(hands, line, columns, order, round: int = 1, pile=(), scores=(), objectives=(),
             objectives_count: int | None = None, shown_before=(), readings: dict | None = None,
             last_card: bool = False) -> Game:
    """The game at the start of a turn of round `round` (see the module)."""
    chosen = rd.choices(readings)
    n = len(hands)
    check_players(n, chosen)
    if not 1 <= round <= ROUNDS:
        raise SetupError("mu.game.rounds", f"round {round}: a game has rounds 1 to {ROUNDS}")
    columns = [list(map(list, cols)) + [[] for _ in range(COLUMNS - len(cols))] for cols in columns]
    columns += [[[] for _ in range(COLUMNS)] for _ in range(n - len(columns))]
    if len(columns) != n or any(len(cols) != COLUMNS for cols in columns):
        raise SetupError("mu.score-cards.place", f"Score cards for {len(columns)} players, each with at most "
                                                 f"{COLUMNS}, in a {n}-player game")
    seen: dict[int, str] = {}

    def take(c, where: str) -> int:
        if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= CARD_COUNT:
            raise SetupError("mu.setup.components", f"{where}: {c!r} is not a main card (1 to {CARD_COUNT})")
        if c in seen:
            raise SetupError("mu.setup.components", f"card {c} is placed twice ({seen[c]} and {where})")
        seen[c] = where
        return c

    s = State.empty(n, 0)
    cards = HAND_SIZE + round - 1           # the most a player holds, in hand and on the Score cards
    for p in range(n):
        s.hands[p] = sorted(take(c, f"player {p}'s hand") for c in hands[p])
        s.columns[p] = [[take(c, f"player {p}'s Score card {i + 1}") for c in col]
                        for i, col in enumerate(columns[p])]
        _check_columns(p, s.columns[p])
        held = len(s.hands[p]) + len(s.scored(p))
        if held > cards:
            raise SetupError("mu.round.take-back" if round > 1 else "mu.setup.deal",
                             f"player {p} has {held} cards in hand and on the Score cards; in round {round} "
                             f"each player has {cards}")
    sizes = {len(h) for h in s.hands}
    if len(sizes) != 1:
        raise SetupError("mu.turn.choose", f"hands of {sorted(sizes)} cards: every turn takes one card "
                                           "from each hand, so all hands hold the same number")
    if sizes == {0}:
        raise SetupError("mu.round.last-card", "every hand is empty: the round's last cards are already on the "
                                               "Score cards, and a position is the start of a turn")
    if sizes == {1} and not last_card:
        raise SetupError("mu.round.last-card", "every hand holds one card: that last card is already on the "
                                               "Score cards, so no turn is played with it")
    if len(line) != n:
        raise SetupError("mu.setup.line", f"the line has {len(line)} cards; it has one per player ({n})")
    s.line = sorted(take(c, "the line") for c in line)
    listed = [take(c, "the pile") for c in pile]
    s.pile = listed + [c for c in range(1, CARD_COUNT + 1) if c not in seen]
    if (not isinstance(order, (list, tuple)) or sorted(order) != list(SCORE_VALUES)
            or any(isinstance(v, bool) for v in order)):
        raise SetupError("mu.setup.score-order", f"{order!r} is not an order of the Score cards 1 to 5")
    s.order = tuple(order)
    s.orders = [s.order]
    s.round = round
    # Turns revealed this round: each gave every player one card. A ruling may
    # leave some of them out, so the player with the most tells (whatever the seat).
    s.turn = max(len(s.scored(p)) for p in range(n))
    rounds = [list(r) for r in (scores or ())]
    if len(rounds) != round - 1 or any(len(r) != n for r in rounds):
        raise SetupError("mu.game.rounds", f"round {round} follows {round - 1} scored round(s): give a score "
                                           "for each player in each")
    scores = [[r[p] for r in rounds] for p in range(n)]
    s.scores = scores
    _objectives(s, tuple(objectives), objectives_count, tuple(shown_before), chosen)
    s.waiting_round = False
    return Game(s, chosen)


def _check_columns(p: int, cols: list[list[int]]) -> None:
    """mu.score-cards.place: one colour per Score card, a colour on one Score
    card only, the Score cards filled from the left."""
    used: dict[str, int] = {}
    for i, col in enumerate(cols):
        if not col:
            if any(cols[i + 1:]):
                raise SetupError("mu.score-cards.place", f"player {p}'s Score card {i + 1} is empty and a "
                                                         "Score card to its right holds cards")
            continue
        names = {colour(c) for c in col}
        if len(names) > 1:
            raise SetupError("mu.score-cards.place", f"player {p}'s Score card {i + 1} holds "
                                                     f"{' and '.join(sorted(names))} cards")
        name = names.pop()
        if name in used:
            raise SetupError("mu.score-cards.place", f"player {p} has {name} on Score cards {used[name] + 1} "
                                                     f"and {i + 1}")
        used[name] = i


def _objectives(s: State, shown: tuple, count: int | None, before: tuple, readings: dict) -> None:
    """mu.objectives.count, mu.objectives.cards: the objectives shown this
    round (count: how many the game shows at a time, default as many);
    mu.objectives.renew: those shown before were discarded, in an earlier
    round of a game that renews its objectives."""
    count = len(shown) if count is None else count
    if not 0 <= count <= MAX_OBJECTIVES or len(shown) != count:
        raise SetupError("mu.objectives.count", f"{len(shown)} objective(s) shown, {count} at a time: the "
                                                f"variant shows 0 to {MAX_OBJECTIVES}, all at once")
    for o in shown + before:
        if isinstance(o, bool) or o not in OBJECTIVES:
            raise SetupError("mu.objectives.cards", f"{o!r} is not an objective (1 to {len(OBJECTIVES)})")
    letters = [letter(o) for o in shown]
    if len(set(letters)) != len(letters):
        raise SetupError("mu.objectives.count", "objectives shown together must have different letters: "
                                                + ", ".join(f"{o} ({letter(o)})" for o in shown))
    if before:
        again = [o for o in shown if o in before]
        if s.round == 1 or not 1 <= count <= 2 or again:
            why = ("in round 1 no objective was discarded yet" if s.round == 1 else
                   f"objective(s) {again} are shown again after being discarded" if again else
                   f"with {count} objective(s) at a time none is discarded"
                   + (": the same stay all game" if count else ": the variant is not played"))
            raise SetupError("mu.objectives.renew", f"objectives shown before {list(before)}: {why}")
        if readings[rd.LETTERS_LATER] == "letter-retired":
            back = sorted({letter(o) for o in shown} & {letter(o) for o in before})
            if back:
                raise SetupError(rd.LETTERS_LATER, f"letter(s) {', '.join(back)} shown this round were shown in "
                                                   "an earlier round and are retired")
    s.objectives_count = count
    s.objectives = shown
    s.shown = list(dict.fromkeys(before + shown))
