"""The reference engine's game as protocol data: decisions to and from their
mb-replay/1 line form, the pending decision, the events, the state claim."""

from __future__ import annotations

import msgspec

from ..engine import Decision, Game
from ..replay import format as fmt
from ..replay.narrate import event_text, faces, names_by_event
from ..replay.selfplay import claim
from . import protocol as pr

_LINE = {"play": fmt.PlayLine, "attack": fmt.AttackLine, "activate": fmt.ActivateLine, "mindbug": fmt.MindbugLine,
         "pass": fmt.PassLine, "hunt": fmt.HuntLine, "block": fmt.BlockLine, "choose": fmt.ChooseLine,
         "random": fmt.RandomLine}


def decision_of(line) -> Decision:
    """The engine's decision for a decision line."""
    return Decision(line.__struct_config__.tag, getattr(line, "p", None), fmt.decision_arg(line))


def line_of(d: Decision):
    """The decision line of an engine decision."""
    if d.kind in ("choose", "random"):
        args = {"cards": list(d.arg or ())}
    elif d.kind in ("mindbug", "pass"):
        args = {}
    else:
        args = {"card": d.arg}
    if d.kind != "random":
        args["p"] = d.player
    return _LINE[d.kind](**args)


def option_key(d: dict) -> tuple:
    """A decision in JSON form as a comparable key (a choice is a set of cards)."""
    cards = d.get("cards")
    return (d.get("t"), d.get("p"), d.get("card"), None if cards is None else tuple(sorted(cards)))


def pending_view(g: Game) -> pr.PendingView | None:
    p = g.pending
    if p is None:
        return None
    return pr.PendingView(p.stage, None if p.is_chance else p.player, p.is_chance, p.prompt, list(p.clauses),
                          p.source, [line_of(d) for d in g.legal_decisions()])


def over_view(g: Game) -> pr.Over | None:
    return pr.Over(g.winner, g.reason) if g.is_over else None


def event_views(g: Game, events, before: dict | None = None, since: int = 0) -> list[pr.EventView]:
    """`events` from the `since`-th on, each with its text. `before`: the
    evolved creatures' faces before the first event (narrate.faces; default:
    those of `g` now), by which each event names them as they were."""
    each = names_by_event(g, events, faces(g) if before is None else before)[0]
    return [pr.EventView(e.kind, list(e.clauses), event_text(e, each[i]), e.player, e.card,
                         None if e.cards is None else list(e.cards), e.amount, e.source)
            for i, e in enumerate(events) if i >= since]


_state_decoder = msgspec.json.Decoder(fmt.StateLine)


def full_claim(g: Game) -> dict:
    """The whole state as a claim: every zone by card id, draw piles and the
    unused pile in order."""
    c = claim(g)
    s = g.state
    c["deck"] = [list(s.deck[0]), list(s.deck[1])]
    c["unused"] = list(s.unused)
    return c


def octonite_view(g: Game) -> dict[int, int]:
    """The Octonite counters on creatures in play, by card id (later.octonite);
    empty when no creature holds any. The state keeps a creature's counters
    after it leaves play (they stay behind, and are set anew when it comes
    back): those are not on a creature in play, and not shown."""
    return {c: n for c, n in sorted(g.state.octonite) if g.controller(c) is not None}


def state_line(g: Game) -> fmt.StateLine:
    return _state_decoder.decode(msgspec.json.encode(full_claim(g)))


def position_of(g: Game) -> pr.Position:
    """The game at a turn action as a protocol position: every card, each
    zone, the exhausted creatures, the unused pile and the cards out of the
    game, the counters on creatures in play."""
    s = g.state
    counters = octonite_view(g)
    return pr.Position(cards=dict(g.table.names), hand=[list(s.hand[0]), list(s.hand[1])],
                       play=[list(s.play[0]), list(s.play[1])], discard=[list(s.discard[0]), list(s.discard[1])],
                       deck=[list(s.deck[0]), list(s.deck[1])], exhausted=sorted(s.exhausted),
                       unused=list(s.unused), out=list(s.out) + [c for pile in s.life_pile for c in pile],
                       active=s.active, life=list(s.life), mindbugs=list(s.mindbugs), turn=s.turn,
                       **({"octonite": counters} if counters else {}))
