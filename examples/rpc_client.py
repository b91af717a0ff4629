"""Play one game through `mb-oracle serve` and print it as an mb-replay/1 log.

    python examples/rpc_client.py [--seed N] [--edition E] [-- SERVE COMMAND...]

The service is started as a child process (default: `mb-oracle serve`)
and spoken to in mb-oracle-rpc/1: one JSON request per line on its
standard input, one JSON response per line on its standard output. The
client deals the game of a seed, then, at every decision, tries each legal
option on a fork of the game and keeps one that costs the opponent the
most life (a one-step lookahead), and writes every decision as a log line,
a state claim at each turn's end, and the end line. Pipe the output into
`mb-oracle verify` to check it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys


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


def best_option(oracle, game, pending, rng):
    """The option after which the opponent has least life (ties at random)."""
    if pending["chance"] or len(pending["options"]) == 1:
        return rng.choice(pending["options"])
    me = pending["player"]
    scored = []
    for option in pending["options"]:
        fork = oracle.call("fork", game=game)["game"]
        reply = oracle.call("apply", game=fork, decision=option)
        state = oracle.call("state", game=fork)["state"]
        oracle.call("close", game=fork)
        won = reply["over"] is not None and reply["over"]["winner"] == me
        scored.append((won, -state["life"][1 - me], rng.random(), option))
    return max(scored, key=lambda s: s[:3])[3]


def main(argv):
    seed, edition, command = 1, "en-revised", ["mb-oracle", "serve"]
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = iter(argv)
    for a in args:
        if a == "--seed":
            seed = int(next(args))
        elif a == "--edition":
            edition = next(args)
    rng = random.Random(seed)
    oracle = Oracle(command)
    hello = oracle.call("hello")
    assert edition in hello["editions"], hello["editions"]
    started = oracle.call("new", edition=edition, seed=seed)
    game, pending = started["game"], started["pending"]
    out = [{"t": "game", "format": "mb-replay/1", "id": f"rpc-client-{edition}-{seed}", "edition": edition,
            "impl": {"name": "examples/rpc_client.py"}}, started["setup"]]
    turn_of = oracle.call("state", game=game)["state"]["turn"]
    while pending is not None:
        decision = best_option(oracle, game, pending, rng)
        reply = oracle.call("apply", game=game, decision=decision)
        assert reply["applied"], reply["refusal"]
        out.append(decision)
        pending = reply["pending"]
        state = oracle.call("state", game=game)["state"]
        if state["turn"] != turn_of or pending is None:
            out.append(state)
            turn_of = state["turn"]
    over = reply["over"]
    out.append({"t": "end", "winner": over["winner"], "reason": over["reason"]})
    oracle.call("close", game=game)
    oracle.close()
    for line in out:
        print(json.dumps(line))
    print(f"player {over['winner']} won ({over['reason']}) after {sum(1 for x in out if 't' in x and x['t'] not in ('game', 'setup', 'state', 'end'))} decisions",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
