"""An mb-engine/1 adapter around the oracle's own engine: the template for
connecting your engine to `mb-oracle conform`.

    mb-oracle conform --engine "python examples/engine_adapter.py"
    mb-oracle conform --engine "python examples/engine_adapter.py --plant sneaky"
    mb-oracle conform --engine "python examples/engine_adapter.py --cards examples/later-sets.yaml" \
        --scenarios scenarios/later-sets.yaml

An adapter reads one JSON message per line on standard input and writes
one JSON reply per line on standard output (spec/engine-protocol.md):

    {"op": "hello"}                          -> {"protocol", "name", "editions", "positions", "sets",
                                                 "chance", "claims", "deviations"}
    {"op": "deal", "edition", "setup"}       -> the game as the engine sees it
    {"op": "position", "edition", "position"} -> the same, from a position
                                                (with `octonite`: counters by card id)
    {"op": "apply", "decision"}              -> the same, after the decision
    {"op": "quit"}                           -> (no reply; exit)

"The game as the engine sees it" is `{"options": [...], "state": {...},
"over": null}`: every legal decision as an mb-replay/1 decision line, the
state as a replay state claim, and the result once the game is over. A
message the engine cannot carry out gets `{"error": "why"}`.

Replace the calls into `oracle.games.mindbug.engine` below with calls into your engine.
`--plant RULE` switches one rule off, to show what conform reports:
`sneaky` (any creature may block a SNEAKY attacker), `tough-effects` (card
effects defeat TOUGH creatures outright), `refill-after-steal` (a robbed
hand is not refilled at once in the revised editions), `frenzy` (a FRENZY
creature is never offered its second attack: an option the engine lacks),
`hunt-decline` (every attacker is asked about HUNTER, its only answer
`hunt null`: an option verify accepts as changing nothing), `draw-late`
(the hand is refilled at the end of the turn), `empty-hand-loses` (a player
with no card in hand loses at their turn action, creatures to attack or
not: a divergence found late in a game). `--plant` is repeatable.
`--cards FILE`
(repeatable) loads cards declared in an mb-cards/1 file; the adapter then
says it deals their set too.

Capabilities, said in the reply to hello: `claims` (the state fields this
adapter gives: all of them); `--draw` makes the engine draw chance outcomes
itself (`chance: "reports"`; each reply lists the outcomes drawn in
`drawn`, and the options never hold a chance event); `--declare` names the
planted rule's clause among the known `deviations`, which conform counts as
expected divergences, apart from new ones.
"""

from __future__ import annotations

import json
import random
import sys

import msgspec

from oracle.games.mindbug.cards import SETS
from oracle.games.mindbug.engine import Decision, Game, Refused, SetupError
from oracle.games.mindbug.engine import combat, drawing
from oracle.games.mindbug.engine.registry import TASKS
from oracle.games.mindbug.engine.deck import resolve_cards

EDITIONS = ["en-first", "fr-first", "fr-revised", "en-revised"]
PLANTS = ("sneaky", "tough-effects", "refill-after-steal", "frenzy", "hunt-decline", "draw-late", "empty-hand-loses")
# The clause each planted rule breaks: with --declare, hello names it among the known deviations.
PLANT_CLAUSES = {"sneaky": "keywords.sneaky", "tough-effects": "keywords.tough", "refill-after-steal": "drawing.refill",
                 "frenzy": "keywords.frenzy", "hunt-decline": "combat.block", "draw-late": "drawing.refill",
                 "empty-hand-loses": "turns.no-action"}
CLAIMS = ["life", "mindbugs", "hand", "play", "discard", "deck", "unused", "played", "active", "turn"]


def plant(rule: str) -> None:
    """Switch one rule off in this process's engine. A rule is switched off
    by replacing an engine function, which compiled engine modules would not
    call: planting needs the interpreted engine."""
    from oracle.native import compiled_modules

    compiled = compiled_modules()
    if compiled:
        raise SystemExit("--plant needs the interpreted engine, and this installation runs compiled modules "
                         f"({', '.join(compiled)}): install it with MB_ORACLE_PURE=1, or run from a checkout")
    if rule == "sneaky":
        allowed = combat.block_forbidden

        def ignore_sneaky(g, attacker, blocker):
            why = allowed(g, attacker, blocker)
            return None if why is not None and why[0] == "keywords.sneaky" else why

        combat.block_forbidden = ignore_sneaky
    elif rule == "refill-after-steal":
        drawing.after_loss = lambda g, player: None
    elif rule == "draw-late":
        # The hand is refilled when the turn ends, not as soon as a card leaves it.
        drawing.after_removal = lambda g, player: None
        end_turn = TASKS["end-turn"]

        def refill_then_end(g, *args):
            drawing.refill(g, g.state.active)
            return end_turn(g, *args)

        TASKS["end-turn"] = refill_then_end
    elif rule == "empty-hand-loses":
        # A player with no card in hand loses at their turn action, even with creatures to attack.
        turn_action = TASKS["action"]

        def lose_without_cards(g, *args):
            s = g.state
            if not s.hand[s.active]:
                g.end_game(1 - s.active, "no-action", ("turns.no-action",))
                return None
            return turn_action(g, *args)

        TASKS["action"] = lose_without_cards
    elif rule not in ("tough-effects", "frenzy", "hunt-decline"):      # applied to each game (below)
        raise SystemExit(f"unknown --plant {rule!r}; choose from {', '.join(PLANTS)}")


def decision_line(d: Decision) -> dict:
    return d.to_json()


def decision_of(line: dict) -> Decision:
    kind = line["t"]
    if kind in ("choose", "random"):
        arg = tuple(sorted(line["cards"]))
    elif kind in ("mindbug", "pass"):
        arg = None
    else:
        arg = line["card"]
    return Decision(kind, line.get("p"), arg)


def state_claim(g: Game) -> dict:
    s = g.state
    return {
        "t": "state",
        "life": list(s.life),
        "mindbugs": list(s.mindbugs),
        "hand": [list(s.hand[0]), list(s.hand[1])],
        "play": [[{"card": c, "exhausted": c in s.exhausted} for c in s.play[p]] for p in (0, 1)],
        "discard": [list(s.discard[0]), list(s.discard[1])],
        "deck": [list(s.deck[0]), list(s.deck[1])],
        "unused": list(s.unused),
        "played": s.played,
        "active": s.active,
        "turn": s.turn,
    }


def view(g: Game, planted: tuple[str, ...] = ()) -> dict:
    over = {"winner": g.winner, "reason": g.reason} if g.is_over else None
    options = [decision_line(d) for d in g.legal_decisions()]
    p = g.pending
    if "frenzy" in planted and p is not None and p.stage == "frenzy":
        options = [o for o in options if o["t"] != "attack"]
    if "hunt-decline" in planted and p is not None and p.stage == "block":
        options.append({"t": "hunt", "p": g.state.active, "card": None})
    return {"options": options, "state": state_claim(g), "over": over}


class Adapter:
    def __init__(self, planted: tuple[str, ...] | str | None = (), sets: tuple[str, ...] = (), declare: bool = False,
                 draw: bool = False):
        self.planted = (planted,) if isinstance(planted, str) else tuple(planted or ())
        self.sets = list(SETS) + [x for x in sets if x not in SETS]     # every set the oracle's engine deals
        self.game: Game | None = None
        self.declare = declare      # name the planted rule among the known deviations
        self.draw = draw            # draw chance outcomes here and report them (`chance: reports`)
        self.rng = random.Random(0)

    def rules(self, g: Game) -> Game:
        if "tough-effects" in self.planted:
            g.profile = msgspec.structs.replace(g.profile, tough_effects=False)   # a Profile is a frozen record
        return g

    def reply(self) -> dict:
        """The view, after drawing the chance outcomes the game waits for
        when this engine draws them itself."""
        drawn = []
        g = self.game
        while self.draw and g.pending is not None and g.pending.is_chance:
            kind, arg = self.rng.choice(g.pending.options)
            g.apply(Decision(kind, None, arg))
            drawn.append({"t": "random", "cards": list(arg)})
        out = view(g, self.planted)
        if drawn:
            out["drawn"] = drawn
        return out

    def handle(self, msg: dict) -> dict | None:
        op = msg.get("op")
        if op == "hello":
            hello = {"protocol": "mb-engine/1", "name": "oracle-engine-adapter",
                     "version": f"plant={'+'.join(self.planted)}" if self.planted else "", "editions": EDITIONS,
                     "positions": True, "sets": self.sets, "chance": "reports" if self.draw else "lists",
                     "claims": CLAIMS}
            if self.declare and self.planted:
                hello["deviations"] = [PLANT_CLAUSES[p] for p in self.planted]
            return hello
        if op == "deal":
            s = msg["setup"]
            cards = {int(k): v for k, v in s["cards"].items()}
            # The draws of a game follow from its deal: the same deal and decisions, the same outcomes.
            self.rng = random.Random(json.dumps(s, sort_keys=True))
            self.game = Game.deal(msg["edition"], cards, s["decks"], s["unused"], s.get("first"),
                                  s.get("reveals") or (), s.get("life_cards"),
                                  sets=tuple(msg.get("sets", ["first-contact"])))
            # The rules run on from the deal: the planted rule applies from the first decision on.
            self.rules(self.game)
            return self.reply()
        if op == "position":
            p = msg["position"]
            defs = resolve_cards({int(k): v for k, v in p["cards"].items()})
            zones = {(z, side): p.get(z, [[], []])[side] for z in ("deck", "hand", "play", "discard")
                     for side in (0, 1)}
            kw = {"unused": p["unused"]} if "unused" in p else {}
            if "octonite" in p:     # Octonite counters by card id, on creatures in play (en-revised)
                kw["octonite"] = tuple((int(k), n) for k, n in sorted(p["octonite"].items(), key=lambda e: int(e[0])))
            self.game = self.rules(Game.position(
                msg["edition"], zones, defs, active=p.get("active", 0), life=tuple(p.get("life", (3, 3))),
                mindbugs=tuple(p.get("mindbugs", (2, 2))), exhausted=p.get("exhausted", []),
                out=p.get("out", []), turn=p.get("turn", 1), **kw))
            self.rng = random.Random(json.dumps(p, sort_keys=True))
            return self.reply()
        if op == "apply":
            if self.game is None:
                return {"error": "no game: send deal or position first"}
            self.game.apply(decision_of(msg["decision"]))
            return self.reply()
        return {"error": f"unknown op {op!r}"}


def load_cards(path: str) -> str:
    """Load an mb-cards/1 file into this process's card database; its set id."""
    from oracle.games.mindbug.cards.compiled import load_file
    from oracle.games.mindbug.cards.declared import CardFileError

    try:
        return load_file(path).set.id
    except CardFileError as e:
        raise SystemExit(f"engine_adapter.py: {e}") from None


def main(argv: list[str]) -> None:
    usage = ("usage: engine_adapter.py [--plant " + "|".join(PLANTS) + "] [--declare] [--draw] "
             "[--cards FILE]...")
    planted, sets, declare, draw = [], [], False, False
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag in ("--declare", "--draw"):
            declare, draw = declare or flag == "--declare", draw or flag == "--draw"
            continue
        if flag not in ("--plant", "--cards") or not args:
            raise SystemExit(usage)
        value = args.pop(0)
        if flag == "--plant":
            planted.append(value)
            plant(value)
        else:
            sets.append(load_cards(value))
    adapter = Adapter(planted, tuple(sets), declare, draw)
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg.get("op") == "quit":
            break
        try:
            reply = adapter.handle(msg)
        except Refused as e:
            reply = {"error": str(e)}
        except (SetupError, KeyError, TypeError, ValueError) as e:
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
