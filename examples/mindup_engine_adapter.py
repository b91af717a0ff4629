"""An mb-engine/1 adapter for Mind Up! around the oracle's own Mind Up!
engine: the template for connecting a Mind Up! engine to `mb-oracle
conform --game mind-up`.

    mb-oracle conform --game mind-up --engine "python examples/mindup_engine_adapter.py"
    mb-oracle conform --game mind-up --engine "python examples/mindup_engine_adapter.py --plant first-empty"

One JSON message per line in, one reply per line out (spec/engine-protocol.md, "Mind Up!"):

    {"op": "hello"}                                   -> {"protocol", "name", "games": ["mind-up"], "editions": ["fr"], "positions"}
    {"op": "deal", "game": "mind-up", "players", "objectives", "readings", "setup"}  -> the view
    {"op": "position", "game": "mind-up", "readings", "position"}                    -> the view
    {"op": "apply", "decision": {"t": "round", "order": [...], "draws"?, "objectives"?}}  -> the view
    {"op": "apply", "decision": {"t": "turn", "cards": [...]}}   (every player's hidden choice, by seat)
    {"op": "quit"}                                    -> (no reply; exit)

The view is `{"pending": "choose"|"round"|"over", "options": [[cards player 0
may choose], ...], "state": {a mu-replay/1 state claim}, "over": null or
{"scores", "winners"}}`; a message the engine cannot carry out gets
`{"error": "why"}`.

`--plant RULE` switches one rule off, to show what conform reports:
`first-empty` (a won card goes on the first empty Score card even when its
colour is already on another), `column-position` (a column scores its
position, 1 to 5 from the left, instead of its Score card's value),
`last-card-kept` (the last card of a round stays in hand instead of going
to the Score cards), `no-bubbles` (a round score leaves out the cards'
bonus and malus bubbles), `no-lowest` (a player's options leave out the
lowest card in hand).
"""

from __future__ import annotations

import json
import sys

from oracle.games.mindup.cards import bubble
from oracle.games.mindup.engine import Event, Game, RuleError, rounds, scoring, turn
from oracle.games.mindup.engine.position import position as from_position

PLANTS = ("first-empty", "column-position", "last-card-kept", "no-bubbles", "no-lowest")


def plant(rule: str) -> None:
    """Switch one rule off in this process's engine. A rule is switched off
    by replacing an engine function, which compiled engine modules would not
    call: planting needs the interpreted engine."""
    from oracle.native import compiled_modules

    compiled = compiled_modules()
    if compiled:
        raise SystemExit("--plant needs the interpreted engine, and this installation runs compiled modules "
                         f"({', '.join(compiled)}): install it with MB_ORACLE_PURE=1, or run from a checkout")
    if rule == "first-empty":
        real = turn.column_for

        def first_empty(s, p, card):
            empty = [i for i, col in enumerate(s.columns[p]) if not col]
            return empty[0] if empty else real(s, p, card)
        turn.column_for = first_empty
    elif rule == "column-position":
        real_breakdown = scoring.breakdown

        def by_position(columns, order, objectives, everyone, readings):
            part = real_breakdown(columns, order, objectives, everyone, readings)
            part["columns"] = [(i + 1) * len(col) for i, col in enumerate(columns)]
            part["total"] = sum(part["columns"]) + sum(bubble(c) for col in columns for c in col) \
                + sum(part["objectives"].values())
            return part
        scoring.breakdown = by_position
    elif rule == "no-bubbles":
        real_parts = scoring.breakdown

        def without_bubbles(columns, order, objectives, everyone, readings):
            part = real_parts(columns, order, objectives, everyone, readings)
            part["total"] -= part["bubbles"]
            part["bubbles"] = 0
            return part
        scoring.breakdown = without_bubbles
    elif rule == "no-lowest":
        real_legal = Game.legal

        def without_lowest(self, p):
            return sorted(real_legal(self, p))[1:]
        Game.legal = without_lowest
    elif rule == "last-card-kept":
        real_place = rounds.place

        def keep_last(s, p, card, clauses, *taken):
            if "mu.round.last-card" in clauses:
                s.hands[p].append(card)
                return Event("kept", clauses, f"player {p} keeps card {card}", player=p, card=card)
            return real_place(s, p, card, clauses, *taken)
        rounds.place = keep_last
    else:
        raise SystemExit(f"unknown --plant {rule!r}; choose from {', '.join(PLANTS)}")


def state_claim(g: Game) -> dict:
    s = g.state
    claim = {"t": "state", "round": s.round, "turn": s.turn, "hands": [list(h) for h in s.hands],
             "line": list(s.line), "columns": [[list(c) for c in cols] for cols in s.columns],
             "scores": [list(x) for x in s.scores], "totals": g.totals(), "pile": len(s.pile or ())}
    if s.order:                         # (none before the first round's is drawn)
        claim["order"] = list(s.order)
    return claim


def view(g: Game) -> dict:
    kind = g.pending.kind
    return {"pending": kind, "options": [g.legal(p) for p in range(g.state.players)] if kind == "choose" else [],
            "state": state_claim(g), "over": {"scores": g.totals(), "winners": g.winners()} if g.is_over else None}


class Adapter:
    def __init__(self, planted: str | None):
        self.planted = planted
        self.game: Game | None = None

    def handle(self, msg: dict) -> dict:
        op = msg.get("op")
        if op == "hello":
            return {"protocol": "mb-engine/1", "name": "oracle-mindup-adapter",
                    "version": f"plant={self.planted}" if self.planted else "", "games": ["mind-up"],
                    "editions": ["fr"], "positions": True}
        if op == "deal":
            n, s = msg["players"], msg["setup"]
            if "deck" in s:
                deck = s["deck"]
                hands, line, pile = [deck[7 * p:7 * p + 7] for p in range(n)], deck[7 * n:8 * n], deck[8 * n:]
            else:
                hands, line, pile = s["hands"], s["line"], s.get("pile")
            self.game = Game.deal(n, hands, line, pile, msg.get("objectives", 0), msg.get("readings") or None)
            return view(self.game)
        if op == "position":
            p = msg["position"]
            self.game = from_position(p["hands"], p["line"], p.get("columns", []), p["order"],
                                      round=p.get("round", 1), pile=p.get("pile", []), scores=p.get("scores", []),
                                      objectives=p.get("objectives", []), shown_before=p.get("shown_before", []),
                                      readings=msg.get("readings") or None)
            return view(self.game)
        if op == "apply":
            if self.game is None:
                return {"error": "no game: send deal or position first"}
            d = msg["decision"]
            if d["t"] == "round":
                self.game.start_round(d["order"], d.get("draws"), d.get("objectives"))
            elif d["t"] == "turn":
                self.game.play_turn(d["cards"])
            else:
                return {"error": f"unknown step {d['t']!r}"}
            return view(self.game)
        return {"error": f"unknown op {op!r}"}


def main(argv: list[str]) -> None:
    planted = None
    if argv:
        if len(argv) != 2 or argv[0] != "--plant":
            raise SystemExit("usage: mindup_engine_adapter.py [--plant " + "|".join(PLANTS) + "]")
        planted = argv[1]
        plant(planted)
    adapter = Adapter(planted)
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg.get("op") == "quit":
            break
        try:
            reply = adapter.handle(msg)
        except RuleError as e:          # SetupError too
            reply = {"error": f"{e.code} [{e.clause}] {e.message}"}
        except (KeyError, TypeError, ValueError, AssertionError) as e:
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
