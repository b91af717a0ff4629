"""The rules engine of Mind Up!, one module per part of the rulebook, in
its order: setup (components, the deal, the line), turn (the hidden choice,
the reveal, taking the card above, placing it on the Score cards, the next
line), rounds (the last card, taking back and the extra draw, the new Score
order), objectives (the variant's 14 cards), scoring (columns, bubbles,
objectives, the winner).

API (every rule function names its clause id; a refusal is a RuleError with
`clause`, `message`, `options`, `code`):

    g = Game.deal(players, hands, line, pile=None, objectives=0, readings=None)
        players: 3-6 (2-6 with mu.setup.players=two-to-six); hands: a list of
        7 cards per player; line: n cards (sorted by the rules); pile: the rest,
        top first, or None when the log gives each round's draws itself;
        objectives: how many objectives are shown at a time (0: no variant);
        readings: clause -> choice (oracle.games.mindup.readings; the team's
        for the others). Raises SetupError.
    g.pending        Pending(kind, players): kind 'round' (the chance of the
                     next round is awaited), 'choose' (players: the set of
                     players who have not chosen this turn), 'over'
    g.start_round(order, draws=None, objectives=None) -> [Event]
                     order: the Score values of the 5 columns left to right;
                     draws (rounds 2-3): the card each player draws, default
                     the pile's top cards in seat order; objectives: the ids
                     shown (default: kept when 3 or more stay all game)
    g.choose(p, card)    player p's hidden choice
    g.reveal() -> [Event]   every choice shown, cards taken and placed, the
                     next line; when each player holds one card the round's
                     last cards are placed and scored, and after round 3 the
                     game ends
    g.play_turn(cards) -> [Event]   cards[p] for every p, then the reveal
    g.legal(p)       the cards p may choose now
    g.state          State: players, round, turn, hands, line, pile, order,
                     columns[p][i] (the cards on p's i-th Score card), chosen,
                     scores[p] (each round's score), objectives, shown, over
    g.winners(), g.totals(), g.copy()

Helpers: turn.column_for(state, p, card) (where a won card goes),
scoring.breakdown(...) and scoring.score_round(state, readings) (a round's
score part by part), objectives.meets(...), objectives.counts(columns).
"""

from .game import Game
from .state import Event, Pending, RuleError, SetupError, State

__all__ = ["Event", "Game", "Pending", "RuleError", "SetupError", "State"]
