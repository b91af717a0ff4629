"""The reference engine: a Mindbug game as a small decision protocol.

    game = Game.deal("en-revised", cards, decks, unused, first=0)
    game.pending              # who decides what, or a chance event, or None
    game.legal_decisions()    # every legal answer
    events = game.apply(decision)
    game.is_over, game.winner, game.reason
"""

from . import combat, drawing, effects, life, play, power, setup, triggers, turns  # noqa: F401  (register the rules)
from .errors import EngineError, Refusal, Refused, SetupError
from .board import Table
from .game import Decision, Game, QuietGame
from .state import Event, Pending, State

__all__ = ["Decision", "Game", "QuietGame", "Table", "State", "Pending", "Event", "Refusal", "Refused",
           "SetupError", "EngineError", "step", "position"]

position = Game.position


def step(game: Game, decision: Decision) -> tuple[Game, list[Event]]:
    """The functional form: the next game and the events; `game` is unchanged."""
    nxt = game.copy()
    events = nxt.apply(decision)
    return nxt, events
