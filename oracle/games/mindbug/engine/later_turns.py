"""The later sets' mechanics that shape a turn (English revised edition):
FAST and Harvest with Octonite counters. Only declared cards use them
(spec/card-format.md); a game deals such cards only where the edition has
the mechanics (setup: later.octonite).

- keywords.fast: a FAST creature played from hand may attack at once, after
  its Play effect; its player attacks with it or passes, and the turn goes
  on from there (the attack takes the place of nothing: the turn action was
  the play).
- later.octonite: a creature with Octonite comes into play with its counters
  on it, before its Play effect.
- triggers.harvest: at the start of its controller's turn, before the turn
  action, one counter is removed from each of their Harvest creatures; the
  one whose last counter goes activates its Harvest effect. Waiting effects
  are ordered by the active player (effects.simultaneous).
"""

from __future__ import annotations

from ..cards.abilities import ACTION_USEFUL
from .combat import declare_attack
from .octonite import counters, set_counters as _set
from .registry import resume, task
from .restrictions import attack_barred, fresh


def harvest(g, player: int) -> None:
    """triggers.harvest, at the start of `player`'s turn."""
    s = g.state
    queued = False
    for c in s.play[player]:
        n = counters(s, c)
        if not n or "harvest" not in g.design(c).triggers:
            continue
        _set(s, c, n - 1)
        g.emit("octonite-removed", ("triggers.harvest", "later.octonite"), player=player, card=c, amount=n - 1)
        if n == 1:
            s.triggers.append((c, player, "harvest"))
            queued = True
    if queued:
        g.push_next(("resolve-triggers",))


def actions(g, player: int) -> list:
    """triggers.action: the Action effects `player` may activate as the turn
    action; one that would do nothing may not be activated."""
    s = g.state
    out = []
    new = fresh(g, player) if s.arrived else ()                 # later.action.fresh
    for c in s.play[player]:
        d = g.design(c)
        if "action" in d.triggers and c not in new and ACTION_USEFUL.get(d.name, _always)(g, player, c):
            out.append(("activate", c))
    return out


def _always(g, player, card) -> bool:
    return True


def activate(g, card: int) -> None:
    """triggers.action: the effect resolves for the creature's controller,
    then the turn ends (the activation was the turn action; it is no attack:
    later.action.not-attack, so FRENZY gives no second one)."""
    p = g.state.active
    g.emit("activate", ("triggers.action",), player=p, card=card)
    g.state.triggers.append((card, p, "action"))
    g.push_next(("resolve-triggers",), ("end-turn",))


@task("fast")
def fast_offer(g, card: int) -> None:
    """keywords.fast: attack at once with the FAST creature just played (or
    activate its Action effect, triggers.action), or pass."""
    s = g.state
    p = s.active
    if card not in s.play[p]:
        g.push_next(("end-turn",))
        return
    # An enemy constant ability that bars it from attacking (Hamster Lion's,
    # abilities.cannot-attack) bars the FAST attack too.
    attack = [] if card in attack_barred(g, p) else [("attack", card)]
    options = attack + [o for o in actions(g, p) if o[1] == card] + [("pass", None)]
    g.ask("fast", p, options, ("fast", card), ("keywords.fast",), source=card,
          prompt="attack at once with this FAST creature (or activate its Action effect), or pass")


@resume("fast")
def _fast(g, kind, arg, card) -> None:
    if kind == "attack":
        declare_attack(g, card)
    elif kind == "activate":
        activate(g, card)
    else:
        g.push_next(("end-turn",))
