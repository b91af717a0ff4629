"""`mb-oracle perft`: how many distinct decision sequences of length N lead
on from a position.

Every pending decision is one step, whoever takes it: a turn action, a
Mindbug or pass, a block, a choice for an effect, a forced answer with one
option, and a chance outcome (each possible outcome of a random effect is
its own branch). A game that ends before depth N adds nothing (as in chess
perft, a sequence must have exactly N steps). An engine author compares
these counts, and the per-first-decision split (`--divide`), with their
own engine's to find where its move generation differs.
"""

from __future__ import annotations

from ..engine import Decision, Game


def count(g: Game, depth: int) -> int:
    """The number of decision sequences of exactly `depth` steps from `g`."""
    p = g.state.pending
    if depth <= 0:
        return 1
    if p is None:
        return 0
    if depth == 1:
        return len(p.options)
    total = 0
    for kind, arg in p.options:
        nxt = g.copy()
        nxt.apply_unchecked(kind, arg)
        total += count(nxt, depth - 1)
    return total


def divide(g: Game, depth: int) -> list[tuple[Decision, int]]:
    """(first decision, sequences under it) for every legal first decision."""
    p = g.state.pending
    if p is None or depth <= 0:
        return []
    out = []
    for kind, arg in p.options:
        nxt = g.copy()
        nxt.apply_unchecked(kind, arg)
        out.append((Decision(kind, None if p.is_chance else p.player, arg), count(nxt, depth - 1)))
    return out


def decision_text(g: Game, d: Decision) -> str:
    """A first decision for people: `play 12 Gorillion`, `block none`."""
    args = d.arg if isinstance(d.arg, tuple) else (() if d.arg is None else (d.arg,))
    names = " ".join(f"{c} {g.name(c)}" for c in args)
    who = "" if d.player is None else f"p{d.player} "
    if d.kind in ("hunt", "block") and d.arg is None:
        names = "none"
    return f"{who}{d.kind} {names}".rstrip()
