"""The end of a round and the next one (rulebook: Tour de jeu, the last
card; Nouvelle manche): the last card goes straight to the Score cards,
scoring, taking back the scored cards with one draw, the line left in
place, a new Score order, new objectives when they are renewed."""

from __future__ import annotations

from ..cards import COLUMNS, OBJECTIVES, ROUNDS, SCORE_VALUES, player_name
from ..readings import DRAW, ORDER_REPEAT
from .objectives import check_shown
from .scoring import score_round, winners
from .state import Event, RuleError, State
from .turn import place


def round_over(s: State) -> bool:
    """mu.round.last-card: turns go on until each player holds one card."""
    return all(len(h) == 1 for h in s.hands)


def last_cards(s: State, readings: dict) -> list[Event]:
    """mu.round.last-card, then scoring: each player puts the last card on
    the Score cards as if won (it never goes to the line), in seat order;
    then every player scores the round (mu.scoring.*). After the third round
    the game ends (mu.game.rounds, mu.game.winner)."""
    events = []
    before = [[col[:] for col in cols] for cols in s.columns]
    for p in range(s.players):
        card = s.hands[p].pop()
        events.append(place(s, p, card, ["mu.round.last-card"]))
    parts = score_round(s, readings, before)
    for p, part in enumerate(parts):
        s.scores[p].append(part["total"])
        events.append(Event("score", ["mu.scoring.columns", "mu.scoring.bubbles"]
                            + (["mu.scoring.objectives"] if part["objectives"] else []),
                            player=p, amount=part["total"], parts=part, say=_score_text, words=(p, s.round, part)))
    s.waiting_round = True
    if s.round == ROUNDS:
        s.over = True
        w = winners(s)
        events.append(Event("end", ["mu.game.rounds", "mu.game.winner"], amount=max(s.totals()),
                            say=_end_text, words=(w,)))
    return events


def _score_text(p: int, round_: int, part: dict) -> str:
    objs = "".join(f", objective {o} {v:+d}" for o, v in part["objectives"].items())
    return (f"{player_name(p)} scores {part['total']} in round {round_}: columns "
            f"{'+'.join(map(str, part['columns']))}, bubbles {part['bubbles']:+d}{objs}")


def _end_text(w: list[int]) -> str:
    return ("the game ends: " + ("shared victory of " if len(w) > 1 else "the winner is ")
            + ", ".join(player_name(p) for p in w))


def _order(s: State, order, readings: dict) -> tuple[int, ...]:
    """mu.setup.score-order, mu.round.new-order: a Score order is the five
    values 1 to 5 in some order, the same for every player."""
    if (not isinstance(order, (list, tuple)) or len(order) != COLUMNS
            or sorted(v if isinstance(v, int) and not isinstance(v, bool) else 0 for v in order)
            != list(SCORE_VALUES)):
        raise RuleError("mu.setup.score-order", f"{order!r} is not an order of the Score cards 1 to 5",
                        code="ILLEGAL_RANDOM")
    order = tuple(order)
    if s.orders and readings[ORDER_REPEAT] == "must-differ" and order == s.orders[-1]:
        raise RuleError(ORDER_REPEAT, f"round {s.round + 1} draws the Score order {list(order)} again",
                        code="ILLEGAL_RANDOM")
    return order


def _draws(s: State, draws, readings: dict) -> list[int]:
    """mu.round.take-back, mu.round.draw-order: one card from the pile for
    each player."""
    n = s.players
    if s.pile is None:
        if draws is None:
            raise RuleError("mu.round.take-back", f"round {s.round + 1} draws a card for each player, and neither "
                            "the pile nor the cards drawn are given", code="MISSING_INPUT")
        known = {c for h in s.hands for c in h} | set(s.line) | {c for p in range(n) for c in s.scored(p)}
        if (len(draws) != n or len(set(draws)) != n
                or any(isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 60 or c in known
                       for c in draws)):
            raise RuleError("mu.round.take-back", f"the cards drawn {list(draws)} are not {n} cards still in "
                            "the pile", code="ILLEGAL_RANDOM")
        return list(draws)
    top = s.pile[:n]
    if len(top) < n:
        raise RuleError("mu.round.take-back", "the pile holds too few cards to draw one each",
                        code="ILLEGAL_RANDOM")
    if draws is None:
        return top
    draws = list(draws)
    if readings[DRAW] == "seat-order":
        if draws != top:
            raise RuleError(DRAW, f"the pile's top cards {top} go to the players in seat order; the log "
                            f"draws {draws}", code="ILLEGAL_RANDOM")
    elif sorted(draws, key=repr) != sorted(top, key=repr):
        raise RuleError(DRAW, f"the cards drawn {draws} are not the pile's top {n} cards {top}",
                        code="ILLEGAL_RANDOM")
    return draws


def start_round(s: State, order, draws, objectives, readings: dict) -> list[Event]:
    """The chance of a round: its Score order, and for rounds 2 and 3 the
    scored cards taken back with one draw each (the line stays, mu.round.line-stays)."""
    if s.over:
        raise RuleError("mu.game.rounds", "a round after the third: the game is over", code="GAME_OVER")
    if not s.waiting_round:
        raise RuleError("mu.round.new-order", f"round {s.round} is under way: no round starts before it ends",
                        code="ILLEGAL_RANDOM")
    events = []
    order = _order(s, order, readings)
    if s.round > 0:
        held = [len(s.scored(p)) for p in range(s.players)]
        if len(set(held)) > 1:
            # Only a ruling's position can get here: it gave the players unequal Score cards.
            raise RuleError("mu.round.take-back", f"round {s.round + 1} cannot start: the players would take back "
                            f"{', '.join(f'{player_name(p)} {k}' for p, k in enumerate(held))} card(s), and every "
                            "hand of a round holds the same number (the position gave unequal Score cards)",
                            code="ILLEGAL_RANDOM")
        got = _draws(s, draws, readings)
        shown = check_shown(s, objectives, readings)
        if s.pile is not None:
            s.pile = s.pile[s.players:]
        for p in range(s.players):
            back = s.scored(p)
            s.hands[p] = sorted(back + [got[p]])
            s.columns[p] = [[] for _ in range(COLUMNS)]
            events.append(Event("take-back", ["mu.round.take-back"], player=p, card=got[p], cards=back,
                                say=_take_back_text, words=(p, len(back), got[p])))
    else:
        if draws:
            raise RuleError("mu.round.take-back", "the first round draws no card: the hands are dealt",
                            code="ILLEGAL_RANDOM")
        shown = check_shown(s, objectives, readings)
    s.round += 1
    s.turn = 0
    s.order = order
    s.orders.append(order)
    if shown != s.objectives or s.round == 1:
        s.shown.extend(o for o in shown if o not in s.shown)
    s.objectives = shown
    s.waiting_round = False
    events.append(Event("order", ["mu.round.new-order" if s.round > 1 else "mu.setup.score-order"],
                        say=_order_text, words=(s.round, order, shown)))
    return events


def _take_back_text(p: int, back: int, drawn: int) -> str:
    return f"{player_name(p)} takes back {back} scored card(s) and draws {drawn}"


def _order_text(round_: int, order: tuple[int, ...], shown: tuple[int, ...]) -> str:
    return (f"round {round_}: the Score order is {'-'.join(map(str, order))}"
            + (f"; objectives {', '.join(f'{o} ({OBJECTIVES[o][0]})' for o in shown)}" if shown else ""))
