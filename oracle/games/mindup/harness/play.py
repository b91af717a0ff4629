"""A Mind Up! game for the harness: started from a seed, a deal or a
position; its pending step, state claim and events as protocol data; a step
line applied, or refused with its clause.

    seeded_deal(seed, players) -> dict          the setup line selfplay deals
    game_from_deal(players, setup, objectives, readings) -> Game   (SetupError)
    game_from_position(position, readings) -> Game                 (SetupError)
    apply_step(g, line) -> [Event]              (RuleError)
"""

from __future__ import annotations

import random

import msgspec

from .. import readings as rd
from ..cards import CARD_COUNT, HAND_SIZE
from ..engine import Event, Game, RuleError, SetupError
from ..engine.position import position as from_position
from ..replay import format as fmt
from ..replay.selfplay import claim
from . import protocol as pr

U = msgspec.UNSET


def seeded_deal(seed: int, players: int) -> dict:
    """The deal of a seed: the 60 cards shuffled as `selfplay --game mind-up` shuffles them."""
    rng = random.Random(seed)
    deck = list(range(1, CARD_COUNT + 1))
    rng.shuffle(deck)
    return {"t": "setup", "deck": deck}


def split_deal(players: int, setup: dict) -> tuple[list, list, list | None]:
    """Hands, line and pile of a setup line (its `deck`, or `hands`, `line`, `pile`)."""
    n = players
    if setup.get("deck") is not None:
        deck = list(setup["deck"])
        return [deck[HAND_SIZE * p:HAND_SIZE * (p + 1)] for p in range(n)], deck[HAND_SIZE * n:(HAND_SIZE + 1) * n], \
            deck[(HAND_SIZE + 1) * n:]
    if setup.get("hands") is None or setup.get("line") is None:
        raise SetupError("mu.setup.deal", "a deal gives `deck`, or `hands` and `line`")
    hands, line = [list(h) for h in setup["hands"]], list(setup["line"])
    pile = setup.get("pile")
    if pile is not None:
        named = {c for h in hands for c in h} | set(line) | set(pile)
        pile = list(pile) + [c for c in range(1, CARD_COUNT + 1) if c not in named]
    return hands, line, pile


def game_from_deal(players: int, setup: dict, objectives: int = 0, readings: dict | None = None) -> Game:
    hands, line, pile = split_deal(players, setup)
    if len(hands) != players:
        raise SetupError("mu.setup.deal", f"{len(hands)} hands dealt for {players} players")
    return Game.deal(players, hands, line, pile, objectives, readings)


def game_from_position(pos: dict, readings: dict | None = None) -> Game:
    """A game from a position (a scenario's `given` as a mapping)."""
    return from_position([list(h) for h in pos["hands"]], list(pos["line"]),
                         [[list(c) for c in cols] for cols in pos.get("columns", [])], list(pos["order"]),
                         round=pos.get("round", 1), pile=list(pos.get("pile", [])),
                         scores=[list(r) for r in pos.get("scores", [])], objectives=list(pos.get("objectives", [])),
                         shown_before=list(pos.get("shown_before", [])), readings=readings)


def check_readings(readings: dict) -> dict:
    """The readings named (UnknownReading for a bad one), the team's left out."""
    return rd.differing(rd.check(readings))


def apply_step(g: Game, line) -> list[Event]:
    """A mu-replay/1 round, turn, choose or reveal line applied to `g`;
    RuleError (the game unchanged) when the rules refuse it. A `choose`
    line reveals the turn once every player has chosen; a `reveal` line is
    then the reveal written out (the caller knows it), before that a choice
    shown early (mu.turn.hidden)."""
    if isinstance(line, fmt.RevealLine):
        return g.reveal()
    if isinstance(line, fmt.RoundLine):
        if line.round is not U and line.round != g.state.round + 1:
            raise RuleError("mu.game.rounds", f"round {line.round} is not the next round ({g.state.round + 1})",
                            code="ILLEGAL_RANDOM")
        return g.start_round(list(line.order), None if line.draws is U else list(line.draws),
                             None if line.objectives is U else list(line.objectives))
    if isinstance(line, fmt.TurnLine):
        return g.play_turn(list(line.cards))
    if g.pending.kind != "choose":
        return g.play_turn([line.card])      # refused with the engine's words (not now)
    before = g.state.copy()
    try:
        g.choose(line.p, line.card)
        if not g.pending.players:
            return g.reveal()
    except RuleError:
        g.state = before
        raise
    return []


def pending_view(g: Game) -> pr.PendingView:
    p = g.pending
    s = g.state
    if p.kind == "choose":
        return pr.PendingView("choose", ["mu.turn.choose"], sorted(p.players), [g.legal(q) for q in range(s.players)])
    if p.kind == "round":
        draws = None if s.round == 0 or s.pile is None else list(s.pile[:s.players])
        return pr.PendingView("round", ["mu.setup.score-order" if s.round == 0 else "mu.round.new-order"],
                              round=s.round + 1, draws=draws)
    return pr.PendingView("over", ["mu.game.rounds"])


def over_view(g: Game) -> pr.Over | None:
    return pr.Over(g.totals(), g.winners()) if g.is_over else None


def state_claim(g: Game) -> dict:
    """The full state as a mu-replay/1 state claim."""
    out = claim(g)
    out["totals"] = g.totals()
    if not g.state.order:                # no Score order before the first round's is drawn
        del out["order"]
    if g.state.objectives:
        out["objectives"] = list(g.state.objectives)
    return out
