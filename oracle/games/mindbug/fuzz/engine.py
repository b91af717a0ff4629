"""An engine adapter in this process for fuzzing `conform`: it answers as
the reference engine does (mb-engine/1), except the replies a fuzz case
breaks. Every game must still get a report, an ENGINE_FAULT when a reply
is not one, and no exception may escape."""

from __future__ import annotations

import json
import sys

from ....harness import engine_protocol as ep
from ....harness.engine_client import Engine
from ....harness.start import StartError
from ..editions import EDITIONS
from ..engine import Decision, Refused, SetupError
from ..harness.start import check_setup, game_from_setup
from ..harness.views import full_claim

# How a reply is broken: applied to the reply line, with a number drawn for it.
BREAKS = ("truncate", "junk", "not-utf8", "deep", "empty", "too-long", "drop-options", "drop-state",
          "options-junk", "options-extra", "state-wrong", "state-type", "over-wrong", "error", "hello-wrong")


def broken(kind: str, k: int, raw: bytes) -> bytes:
    if kind == "truncate":
        return raw[:k % max(1, len(raw))]
    if kind == "junk":
        return b"hello there"
    if kind == "not-utf8":
        i = k % max(1, len(raw))
        return raw[:i] + b"\xff\xfe" + raw[i:]
    if kind == "deep":
        n = 60 + k % 5000
        return b'{"options": [], "x": ' + b"[" * n + b"]" * n + b"}"
    if kind == "empty":
        return b"{}"
    if kind == "too-long":
        return b'{"x": "' + b"a" * (ep.MAX_REPLY_BYTES + 1) + b'"}'
    reply = json.loads(raw)
    if kind == "drop-options":
        reply.pop("options", None)
    elif kind == "drop-state":
        reply.pop("state", None)
    elif kind == "options-junk":
        reply["options"] = [[1], "pass", None, {"t": "teleport"}, {"t": "play", "p": k % 4, "card": k}][k % 5:]
    elif kind == "options-extra":
        reply.setdefault("options", []).append({"t": "attack", "p": k % 2, "card": k % 60})
    elif kind == "state-wrong":
        state = reply.setdefault("state", {"t": "state"})
        field = ("life", "mindbugs", "hand", "play", "deck", "turn", "active")[k % 7]
        state[field] = [[k % 9, -1], [k, {"card": k}]][k % 2] if field != "turn" else -k
    elif kind == "state-type":
        reply["state"] = [None, "state", 7, {"t": "end"}][k % 4]
    elif kind == "over-wrong":
        reply["over"] = [{"winner": k % 3, "reason": "boom"}, {"winner": 0}, "over", {"winner": 1, "reason": "life"}][k % 4]
    elif kind == "error":
        reply = {"error": "the engine refuses" * (1 + k % 3)}
    elif kind == "hello-wrong":
        reply = {"protocol": ["mb-engine/1", "mb-engine/2", None][k % 3], "editions": ["en-revised", 5][k % 2:]}
    return json.dumps(reply).encode()


class FuzzEngine(Engine):
    """The reference engine behind mb-engine/1, in this process; `breaks`
    maps the number of a reply (1 for the hello) to how it is broken."""

    def __init__(self, breaks: dict[int, tuple[str, int]]):
        super().__init__("fuzz-engine")
        self.breaks = breaks
        self.replies = 0
        self.game = None

    def _spawn(self) -> None:
        self.proc = self           # running: nothing to start
        self.game = None

    def stop(self) -> None:
        self.proc = None

    def _exchange(self, op: str, data: bytes) -> bytes:
        self.replies += 1
        raw = json.dumps(self._answer(json.loads(data))).encode()
        how = self.breaks.get(self.replies)
        return broken(how[0], how[1], raw) if how else raw

    def _answer(self, msg: dict) -> dict:
        op = msg["op"]
        if op == "hello":
            return {"protocol": ep.PROTOCOL, "name": "fuzz-engine", "editions": list(EDITIONS)}
        try:
            if op == "deal":
                self.game = game_from_setup(msg["edition"], check_setup(msg["setup"]))
            elif op == "apply" and self.game is not None:
                line = msg["decision"]
                arg = line.get("cards", line.get("card"))
                self.game.apply(Decision.make(line["t"], line.get("p"), arg))
            else:
                return {"error": f"cannot {op} here"}
        except (StartError, SetupError, Refused) as e:
            return {"error": str(e)}
        g = self.game
        return {"options": [d.to_json() for d in g.legal_decisions()], "state": full_claim(g),
                "over": {"winner": g.winner, "reason": g.reason} if g.is_over else None}


def main(argv: list[str]) -> None:
    """`python -m oracle.games.mindbug.fuzz.engine BREAKS`: the same adapter as a process
    (BREAKS: a JSON object, reply number -> [kind, number]), for a fuzz
    case through `mb-oracle conform` on the command line."""
    answers = FuzzEngine({int(n): (kind, k) for n, (kind, k) in json.loads(argv[0]).items()})
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        if msg.get("op") == "quit":
            break
        sys.stdout.buffer.write(answers._exchange(msg.get("op", "?"), line.strip()) + b"\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
