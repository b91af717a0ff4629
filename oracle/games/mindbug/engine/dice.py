"""Die rolls (promo.die-roll; Chuck).

A roll is a chance event like any random effect: the game waits for its
outcome, one of the six faces, written in a log as a `random` line whose
`cards` holds the face rolled (spec/replay-format.md). No player chooses it.
"""

from __future__ import annotations

FACES = (1, 2, 3, 4, 5, 6)


def roll(g, then: tuple, clauses: tuple, source=None, prompt: str = "the face a six-sided die shows") -> None:
    """Roll one six-sided die; `then` gets the face as a one-element tuple."""
    g.ask_chance([("random", (f,)) for f in FACES], then, clauses + ("promo.die-roll",), source, prompt)
