"""The later sets' mechanics that shape a turn (English revised edition):
FAST and Harvest with Octonite counters. Only declared cards use them
(spec/card-format.md); a game deals such cards only where the edition has
the mechanics (setup: later.octonite).

- keywords.fast: a FAST creature played from hand may attack at once, after
  its Play effect; its player attacks with it or passes, and the turn goes
  on from there (the attack takes the place of nothing: the turn action was
  the play).
- keywords.fast.mindbugged: under the reading `before-extra-action`, the
  player who took a FAST creature with a Mindbug attacks with it (an attack
  of the player whose turn it is not, as a forced one is: no second attack
  follows) or activates its Action, or passes, once its Play effect is done
  and before the extra turn action; under the team's reading, neither.
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
from ..readings import choice


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


def activate(g, card: int, player: int | None = None) -> None:
    """triggers.action: the effect resolves for the creature's controller,
    then the turn ends (the activation was the turn action; it is no attack:
    later.action.not-attack, so FRENZY gives no second one). `player`: the
    player whose turn it is not, activating a creature taken with a Mindbug
    (keywords.fast.mindbugged): that is no turn action, and the turn goes on."""
    p = g.state.active if player is None else player
    g.emit("activate", ("triggers.action",) if player is None else ("triggers.action", "keywords.fast.mindbugged"),
           player=p, card=card)
    g.state.triggers.append((card, p, "action"))
    if player is None:
        g.push_next(("resolve-triggers",), ("end-turn",))
    else:
        g.push_next(("resolve-triggers",))


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


def fast_for_taker(g) -> bool:
    """keywords.fast.mindbugged: whether the player who took a FAST creature
    with a Mindbug may act with it before the extra turn action."""
    return choice(g.profile, "keywords.fast.mindbugged") == "before-extra-action"


@task("fast-taken")
def fast_taken_offer(g, card: int) -> None:
    """keywords.fast.mindbugged (reading `before-extra-action`): the taker
    attacks with the FAST creature, activates its Action effect, or passes."""
    s = g.state
    taker = 1 - s.active
    if card not in s.play[taker]:
        return                                  # gone with its Play effect: the extra turn action follows
    attack = [] if card in attack_barred(g, taker) else [("attack", card)]
    act = [o for o in actions(g, taker) if o[1] == card]       # as fast_offer's: a FAST creature is never fresh
    g.ask("fast", taker, attack + act + [("pass", None)], ("fast-taken", card),
          ("keywords.fast.mindbugged", "keywords.fast"), source=card,
          prompt="attack at once with the FAST creature taken with a Mindbug (or activate its Action effect), "
                 "or pass; the extra turn action follows")


@resume("fast-taken")
def _fast_taken(g, kind, arg, card) -> None:
    if kind == "attack":
        declare_attack(g, card, ("keywords.fast.mindbugged",))
    elif kind == "activate":
        activate(g, card, 1 - g.state.active)
