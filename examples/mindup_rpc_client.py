"""Play one game of Mind Up! through `mb-oracle serve` and print it as a
mu-replay/1 log.

    python examples/mindup_rpc_client.py [--players N] [--seed S] [--objectives K] [-- SERVE COMMAND...]

The service is started as a child process (default: `mb-oracle serve`)
and spoken to in mb-oracle-rpc/1 (spec/rpc.md, "Mind Up!"). The client
deals the game of a seed; at the start of each round it draws the Score
order (and, in the variant, lets the objectives stay or draws new ones);
at every turn each player chooses a card on their own, in a random order,
as the players of a real table do: every choice is hidden until the last
one, and the service reveals the turn then. Player A looks one turn ahead
(on a fork of the game, the card that scores most if the others played
what they will); the others choose at random. Pipe the output into
`mb-oracle verify` to check it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

OBJECTIVES = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C", 7: "D", 8: "D", 9: "E", 10: "E", 11: "F", 12: "F",
              13: "G", 14: "G"}


class Oracle:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     encoding="utf-8")
        self.next_id = 0

    def call(self, op, **fields):
        self.next_id += 1
        request = {"rpc": "mb-oracle-rpc/1", "id": self.next_id, "op": op, **fields}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        assert reply["id"] == self.next_id, reply
        if not reply["ok"]:
            raise RuntimeError(f"{op}: {reply['error']['code']}: {reply['error']['message']}")
        return reply

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def lookahead(oracle, game, cards, me, options):
    """Player `me`'s card that gives the highest total once this turn is revealed."""
    best = None
    for card in options:
        fork = oracle.call("fork", game=game)["game"]
        trial = list(cards)
        trial[me] = card
        oracle.call("apply", game=fork, decision={"t": "turn", "cards": trial})
        state = oracle.call("state", game=fork)["state"]
        oracle.call("close", game=fork)
        mine = sum(len(col) for col in state["columns"][me]) + (state["totals"][me] if state["scores"][me] else 0)
        if best is None or mine > best[0]:
            best = (mine, card)
    return best[1]


def new_objectives(rng, shown, k):
    """k objectives of different letters never shown before."""
    fresh = [o for o in OBJECTIVES if o not in shown]
    rng.shuffle(fresh)
    out = []
    for o in fresh:
        if len(out) < k and OBJECTIVES[o] not in {OBJECTIVES[x] for x in out}:
            out.append(o)
    return out


def main(argv):
    players, seed, objectives, command = 5, 1, 0, ["mb-oracle", "serve"]
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = iter(argv)
    usage = "usage: mindup_rpc_client.py [--players N] [--seed S] [--objectives K] [-- SERVE COMMAND...]"
    try:
        for a in args:
            if a == "--players":
                players = int(next(args))
            elif a == "--seed":
                seed = int(next(args))
            elif a == "--objectives":
                objectives = int(next(args))
            else:
                sys.exit(f"{usage}\nunknown option {a!r}")
    except (StopIteration, ValueError):
        sys.exit(f"{usage}\neach option takes a whole number")
    rng = random.Random(seed)
    try:
        oracle = Oracle(command)
    except OSError as e:
        sys.exit(f"cannot start the service {' '.join(command)!r}: {e.strerror}; give its command after --")
    started = oracle.call("new", game="mind-up", players=players, seed=seed, objectives=objectives)
    game, pending = started["game"], started["pending"]
    out = [{"t": "game", "game": "mind-up", "format": "mu-replay/1", "id": f"mindup-rpc-client-{players}p-{seed}",
            "players": players, "objectives": objectives, "impl": {"name": "examples/mindup_rpc_client.py"}},
           started["setup"]]
    shown: list[int] = []
    while pending["kind"] != "over":
        if pending["kind"] == "round":
            order = [1, 2, 3, 4, 5]
            rng.shuffle(order)
            line = {"t": "round", "round": pending["round"], "order": order}
            if objectives and (pending["round"] == 1 or objectives < 3):
                line["objectives"] = new_objectives(rng, shown, objectives)
                shown += line["objectives"]
            reply = oracle.call("apply", game=game, decision=line)
            assert reply["applied"], reply["refusal"]
            out.append(line)
            pending = reply["pending"]
            continue
        options = pending["options"]
        cards = [rng.choice(options[p]) for p in range(players)]
        cards[0] = lookahead(oracle, game, cards, 0, options[0])
        for p in rng.sample(range(players), players):
            decision = {"t": "choose", "p": p, "card": cards[p]}
            reply = oracle.call("apply", game=game, decision=decision)
            assert reply["applied"], reply["refusal"]
            out.append(decision)
        pending = reply["pending"]
        out.append(oracle.call("state", game=game)["state"])
    over = reply["over"]
    out.append({"t": "end", "scores": over["scores"], "winners": over["winners"]})
    oracle.call("close", game=game)
    oracle.close()
    for line in out:
        print(json.dumps(line))
    print(f"scores {over['scores']}, winners {over['winners']}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
