"""The game object: a State, the readings in force, and the steps the rules
allow, each checked before it changes anything."""

from __future__ import annotations

from .. import readings as rd
from . import rounds, setup, turn
from .scoring import winners
from .state import Event, Pending, RuleError, State


class Game:
    def __init__(self, state: State, readings: dict | None = None):
        self.state = state
        self.readings = rd.choices(readings)
        # The position after a round's last turn, before the last cards are
        # placed (mu.round.last-card): set by the reveal that ends a round.
        self.before_last: State | None = None

    @classmethod
    def deal(cls, players: int, hands, line, pile=None, objectives: int = 0,
             readings: dict | None = None) -> "Game":
        """A game after the deal; raises SetupError (with its clause)."""
        chosen = rd.choices(readings)
        return cls(setup.deal(players, hands, line, pile, objectives, chosen), chosen)

    def copy(self) -> "Game":
        return Game(self.state.copy(), self.readings)

    def __reduce__(self) -> tuple:
        # pickle and copy make it again from its parts: a compiled class has no __dict__ to fill
        return (_again, (self.state, self.readings, self.before_last))

    # -- what the game waits for ------------------------------------------------
    @property
    def pending(self) -> Pending:
        s = self.state
        if s.over:
            return Pending("over")
        if s.waiting_round:
            return Pending("round")
        return Pending("choose", turn.waiting(s))

    @property
    def is_over(self) -> bool:
        return self.state.over

    def _choosing(self) -> bool:
        """Whether the game waits for choices (pending kind 'choose'), without making the Pending."""
        s = self.state
        return not s.over and not s.waiting_round

    def legal(self, p: int) -> list[int]:
        """The cards player p may choose now (none when p need not choose)."""
        pend = self.pending
        if pend.kind != "choose" or not pend.players or (p not in pend.players and self.readings[rd.CHANGE] == "final"):
            return []
        return list(self.state.hands[p])

    # -- steps ------------------------------------------------------------------
    def start_round(self, order, draws=None, objectives=None) -> list[Event]:
        """The chance of the next round (mu.setup.score-order / mu.round.*)."""
        s = self.state
        work = s.copy()
        events = rounds.start_round(work, order, draws, objectives, self.readings)
        self.state = work
        return events

    def choose(self, p: int, card: int) -> None:
        """Player p's hidden choice (mu.turn.choose)."""
        if not self._choosing():
            raise self._not_now(f"player {p} chooses a card")
        turn.choose(self.state, p, card, self.readings)

    def reveal(self) -> list[Event]:
        """Reveal every choice and apply the turn; when each player holds one
        card, the last cards, scoring and, after round 3, the end follow."""
        if not self._choosing():
            raise self._not_now("a reveal")
        events = turn.reveal(self.state)
        if rounds.round_over(self.state):
            self.before_last = self.state.copy()
            events += rounds.last_cards(self.state, self.readings)
        return events

    def place_last_cards(self) -> list[Event]:
        """mu.round.last-card on a position whose hands hold one card each
        (position(..., last_card=True)): each player's last card goes to the
        Score cards, then the round is scored, as after a round's last turn."""
        s = self.state
        if not self._choosing() or not rounds.round_over(s) or any(c is not None for c in s.chosen):
            raise RuleError("mu.round.last-card", "the last cards are placed when every hand holds one card, "
                            "before anyone chooses", options=[])
        self.before_last = s.copy()
        return rounds.last_cards(s, self.readings)

    def play_turn(self, cards: list[int]) -> list[Event]:
        """Every player's card at once (cards[p] for player p), then the reveal.
        All-or-nothing: a refused card leaves the game unchanged."""
        s = self.state
        if not self._choosing():
            raise self._not_now("a turn")
        if any(c is not None for c in s.chosen):
            raise RuleError("mu.turn.choose", "a whole turn is given while some players already chose this turn")
        if len(cards) != s.players:
            raise RuleError("mu.turn.choose", f"the turn gives {len(cards)} card(s) for {s.players} players")
        try:
            for p, c in enumerate(cards):
                turn.choose(s, p, c, self.readings)
        except RuleError:
            s.chosen = [None] * s.players       # no one had chosen: the game is as it was
            raise
        return self.reveal()

    def _not_now(self, what: str) -> RuleError:
        s = self.state
        if s.over:
            return RuleError("mu.game.rounds", f"{what} after the end of the third round", code="GAME_OVER")
        if s.round and not any(s.hands):
            return RuleError("mu.round.last-card", f"{what} after round {s.round} ended: each player's last "
                             "card went straight to the Score cards, and round "
                             f"{s.round + 1} has not started (its Score order is not given)")
        return RuleError("mu.round.new-order", f"{what} before round {s.round + 1} starts "
                         "(its Score order is not given)")

    # -- results ----------------------------------------------------------------
    def winners(self) -> list[int]:
        return winners(self.state) if self.state.over else []

    def totals(self) -> list[int]:
        return self.state.totals()


def _again(state: State, readings: dict, before_last: State | None) -> Game:
    """A game made again from its parts (Game.__reduce__)."""
    g = Game(state, readings)
    g.before_last = before_last
    return g
