"""What the abilities of more than one later set share: the discard piles
as one pool, Boost's "boost, or the other mode" choice, the set-aside card
of an evolution line, and whether an Action would change anything.

The abilities of each set stay in that set's one file of abilities
(beyond_eternity_abilities, beyond_evolution_abilities, promo_abilities);
the engine reads the evolution helpers too (engine.evolve, engine.replacement).
"""

from __future__ import annotations

from ..readings import choice


def discard_piles(g) -> list:
    """Both discard piles' cards, player 0's first."""
    s = g.state
    return s.discard[0] + s.discard[1]


def boost_or(fx, g, me, card, others, step, prompt):
    """Goat Dragon, Soul Manipulator and the Mimics: one choice says the
    mode. A card of a discard pile is the boost card of "Boost up to 1 to a
    creature"; one of `others` is the other mode's pick; none boosts nothing."""
    fx.choose(g, me, discard_piles(g) + others, 0, 1, ("ability-chose", step, me, card),
              ("later.boost", "later.boost.mode"), card, prompt)


def line_card(g, card: int):
    """later.evolve: the set-aside card `card` (a stage I creature) would
    take to evolve, or None: not a stage I card, or its line's card is in
    use or not in the game (later.evolve.unavailable)."""
    d = g.table.defs[card]
    if d.stage != 1:
        return None
    defs = g.table.defs
    for c in g.state.set_aside:
        if defs[c].stage == 2 and defs[c].line == d.name:
            return c
    return None


def can_evolve(g, card: int) -> bool:
    for c, _aside, n in g.state.stages:
        if c == card:
            return n == 2
    return line_card(g, card) is not None


def useful_only(g) -> bool:
    """later.action.useful: the team's reading offers only Actions that change
    something; the other offers every Action (one that does nothing ends the turn)."""
    return choice(g.profile, "later.action.useful") == "must-change"


def action_useful(test):
    """An Action's test of later.action.useful: `test` under the team's
    reading, always true under the other."""
    def useful(g, player, card):
        return not useful_only(g) or test(g, player, card)
    return useful
