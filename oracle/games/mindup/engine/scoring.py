"""Scoring (rulebook: Décompte des points, Fin de la partie): column
values, bubbles, objectives, the game score and the winners."""

from __future__ import annotations

from ..cards import OBJECTIVES, bubble
from ..readings import TIMING
from .objectives import counts, meets
from .state import State


def breakdown(columns, order, objectives, everyone, readings: dict) -> dict:
    """One player's round score, part by part: each column's points (the
    Score card's value times the cards on it, mu.scoring.columns), the
    bubbles (mu.scoring.bubbles), the objectives met (mu.scoring.objectives)."""
    cols = [order[i] * len(col) for i, col in enumerate(columns)]
    bubbles = sum(bubble(c) for col in columns for c in col)
    mine = counts(columns)
    met = {o: OBJECTIVES[o][1] for o in objectives if meets(o, columns, order, everyone, mine, readings)}
    return {"columns": cols, "bubbles": bubbles, "objectives": met,
            "total": sum(cols) + bubbles + sum(met.values())}


def score_round(s: State, readings: dict, before_last: list[list[list[int]]] | None = None) -> list[dict]:
    """Every player's round score. Objectives that compare players take the
    counts after every player placed the last card; with the reading
    `placement-order`, player p's check takes the players after p without
    their last card (`before_last`: the columns as they were before it)."""
    now = [counts(s.columns[p]) for p in range(s.players)]
    out = []
    for p in range(s.players):
        everyone = now
        if readings[TIMING] == "placement-order" and before_last is not None:
            everyone = now[:p + 1] + [counts(before_last[q]) for q in range(p + 1, s.players)]
        out.append(breakdown(s.columns[p], s.order, s.objectives, everyone, readings))
    return out


def winners(s: State) -> list[int]:
    """mu.game.winner: the highest game score; a tie goes to the highest
    score of the last round; a tie there shares the victory."""
    totals = s.totals()
    best = max(totals)
    tied = [p for p in range(s.players) if totals[p] == best]
    if len(tied) > 1:
        last = max(s.scores[p][-1] for p in tied)
        tied = [p for p in tied if s.scores[p][-1] == last]
    return tied
