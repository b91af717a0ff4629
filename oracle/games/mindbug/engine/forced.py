"""Forced attacks (Beyond Evolution): Cake Trickster and Captain Hippo.

- later.forced.cake: the enemy creature Cake Trickster's controller picks
  attacks at once, during that player's turn: its controller is the
  attacker (its Attack effect happens for them, its HUNTER is theirs to
  use) and Cake Trickster's controller defends. FRENZY gives it no second
  attack; the turn ends after it (the Action was the turn action).
- later.forced.cake.unable: a creature that cannot attack (an enemy ban,
  or come into play this turn without FAST) is not made to.
- later.forced.hippo: on the turns of Captain Hippo's controller's
  opponent, while a HUNTER of theirs can attack, the turn action must be
  such an attack (the team's reading), and an attacking HUNTER names a
  Captain Hippo as its blocker (the hunt rule, oracle.games.mindbug.engine.combat).
"""

from __future__ import annotations

from ..cards import HUNTER
from ..cards.abilities import HUNT_RULES
from ..readings import choice
from .combat import declare_attack
from .registry import resume
from .restrictions import attack_barred, fresh


@resume("force-attack")
def _force_attack(g, kind, arg, player, source) -> None:
    """later.forced.cake: the picked creature of `player`'s opponent attacks now."""
    s = g.state
    c = arg[0]
    opp = 1 - player
    if c not in s.play[opp] or c in attack_barred(g, opp):
        g.emit("no-effect", ("later.forced.cake", "later.forced.cake.unable"), player=opp, card=c, source=source)
        return
    declare_attack(g, c, forced=("later.forced.cake", "later.forced.cake.attack"))


def hippos(g, player: int) -> list:
    """The enemy creatures of `player` whose constant ability directs HUNTER (Captain Hippo)."""
    return [c for c in g.state.play[1 - player] if g.design(c).name in HUNT_RULES]


def must_attack(g, player: int, options: list) -> list:
    """later.forced.hippo: the turn action options of `player` while an enemy
    Captain Hippo is in play: under the team's reading, only the attacks of
    HUNTER creatures when there is one; otherwise unchanged."""
    if not HUNT_RULES or not hippos(g, player) or choice(g.profile, "later.forced.hippo") != "must-attack":
        return options
    hunters = [o for o in options if o[0] == "attack" and g.has(o[1], HUNTER)]
    return hunters or options


def refusal_reason(g, pending, d):
    """(clause, message, card) for a turn action or a HUNTER choice refused by
    a Beyond Evolution rule, or None (oracle.games.mindbug.engine.explain)."""
    s = g.state
    me = pending.player
    arg = d.arg
    if pending.stage == "hunt":
        if arg is not None and pending.clauses[-1] == "later.forced.hippo" and arg in s.play[1 - me]:
            return ("later.forced.hippo", f"{g.name(pending.source)} attacks on its controller's turn while "
                    "Captain Hippo is in play: HUNTER must name a Captain Hippo",
                    next(iter(hippos(g, me)), None))
        return None
    if d.kind in ("attack", "activate") and s.arrived and arg in fresh(g, me):
        return ("later.action.fresh", f"{g.name(arg)} ({arg}) came into play this turn and has no FAST: it may "
                "neither attack nor use its Action this turn", arg)
    legal = {(k, a) for k, a in pending.options}
    held = [a for k, a in legal if k == "attack" and g.has(a, HUNTER)]
    if (hippos(g, me) and held and len(held) == len(legal) and choice(g.profile, "later.forced.hippo") == "must-attack"
            and (d.kind == "play" and arg in s.hand[me] or d.kind in ("attack", "activate") and arg in s.play[me])):
        return ("later.forced.hippo", "a HUNTER creature can attack Captain Hippo, so the turn action must be "
                "that attack", hippos(g, me)[0])
    if d.kind == "activate" and arg in s.play[me] and "action" in g.design(arg).triggers:
        return ("later.action.useful", f"{g.name(arg)} ({arg})'s Action would change nothing now", arg)
    return None
