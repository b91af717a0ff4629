"""mb-oracle serve: the rpc protocol, its errors, its schema, and the example
clients in Python and Node playing whole games through it."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import ROOT

from oracle.harness.protocol import rpc_response_schema, rpc_schema
from oracle.harness.serve import Service, serve
from oracle.replay.command import schema as schema_command
from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game
from oracle.scenarios.loader import card_id

SERVE = [sys.executable, "-m", "oracle", "serve"]
SNEAKY = {"path": str(ROOT / "scenarios" / "keywords-sneaky.yaml"), "id": "sneaky.only-sneaky-blocks"}


class Session:
    """A Service spoken to in JSON, keeping the transcript for the schema checks."""

    def __init__(self):
        self.svc = Service()
        self.transcript: list[tuple[object, dict]] = []

    def raw(self, line: bytes) -> dict:
        reply = json.loads(self.svc.handle(line))
        self.transcript.append((None, reply))
        return reply

    def __call__(self, op, **fields) -> dict:
        request = {"op": op, "id": len(self.transcript) + 1, **fields}
        reply = json.loads(self.svc.handle(json.dumps(request).encode()))
        self.transcript.append((request, reply))
        assert reply["id"] == request["id"]
        return reply


@pytest.fixture
def rpc():
    return Session()


def _conforms(log: bytes) -> list:
    reps = [verify_game(r) for r in split_games(io.BytesIO(log), "client.jsonl")]
    assert [r.verdict for r in reps] == ["conforms"], [f.message for r in reps for f in r.findings]
    return reps


def test_node_example_plays_a_full_game_through_serve():
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (no `node` on PATH): the JavaScript client needs it")
    r = subprocess.run([node, str(ROOT / "examples" / "rpc_client.js"), "--seed", "4", "--", *SERVE],
                       capture_output=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr.decode()
    rep = _conforms(r.stdout)[0]
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[-1]["t"] == "end" and lines[-1]["reason"] in ("life", "no-action")
    assert rep.result["winner"] == lines[-1]["winner"] and rep.decisions > 10
    assert "won" in r.stderr.decode()


def test_python_example_plays_a_full_game_with_forks_through_serve():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "rpc_client.py"), "--seed", "5", "--edition",
                        "fr-first", "--", *SERVE], capture_output=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr.decode()
    rep = _conforms(r.stdout)[0]
    assert rep.edition == "fr-first" and rep.result is not None


def test_a_refusal_carries_code_clause_and_options_and_leaves_the_game_unchanged(rpc):
    g = rpc("new", edition="en-revised", scenario=SNEAKY)["game"]
    owl, gorillion = card_id("Spider Owl"), card_id("Gorillion")
    r = rpc("apply", game=g, decision={"t": "attack", "p": 0, "card": owl})
    assert r["applied"] and r["pending"]["stage"] == "block" and r["pending"]["player"] == 1
    assert any("combat.attack" in e["clauses"] for e in r["events"])
    before = rpc("state", game=g)["state"]
    r = rpc("apply", game=g, decision={"t": "block", "p": 1, "card": gorillion})
    assert r["ok"] and not r["applied"]
    assert r["refusal"]["code"] == "ILLEGAL_DECISION" and r["refusal"]["clause"] == "keywords.sneaky"
    assert {"t": "block", "p": 1, "card": None} in r["refusal"]["options"]
    assert rpc("state", game=g)["state"] == before


def test_fork_explores_without_touching_the_original_and_events_carry_clauses(rpc):
    new = rpc("new", edition="en-first", seed=3)
    g = new["game"]
    assert new["setup"]["t"] == "setup" and len(new["setup"]["cards"]) == 48
    f = rpc("fork", game=g)["game"]
    option = rpc("pending", game=f)["pending"]["options"][0]
    assert rpc("apply", game=f, decision=option)["applied"]
    assert rpc("state", game=g)["state"] != rpc("state", game=f)["state"]
    assert rpc("pending", game=g)["pending"]["stage"] == "action"
    evs = rpc("events", game=f)
    assert evs["next"] == len(evs["events"]) and all(e["clauses"] for e in evs["events"])
    assert rpc("events", game=f, since=evs["next"])["events"] == []
    assert rpc("close", game=f)["ok"]
    err = rpc("state", game=f)
    assert not err["ok"] and err["error"] == {"code": "UNKNOWN_GAME", "field": "$.game",
                                              "message": f"no open game '{f}' (closed, or never opened)"}


def test_state_is_a_full_claim_that_verify_accepts(rpc):
    new = rpc("new", edition="fr-revised", seed=9)
    g = new["game"]
    lines = [{"t": "game", "format": "mb-replay/1", "id": "s", "edition": "fr-revised"}, new["setup"]]
    for _ in range(12):
        p = rpc("pending", game=g)["pending"]
        d = p["options"][-1]
        rpc("apply", game=g, decision=d)
        lines += [d, rpc("state", game=g)["state"]]
    lines.append({"t": "end", "winner": None, "reason": "aborted"})
    _conforms(b"".join(json.dumps(x).encode() + b"\n" for x in lines))


@pytest.mark.parametrize("request_line,code,field", [
    (b"{not json", "BAD_JSON", None),
    (b"[1, 2]", "BAD_REQUEST", "$"),
    (b'{"id": 4}', "BAD_REQUEST", "$.op"),
    (b'{"op": "shuffle"}', "UNKNOWN_OP", "$.op"),
    (b'{"op": "hello", "rpc": "mb-oracle-rpc/9"}', "BAD_VERSION", "$.rpc"),
    (b'{"op": "new", "edition": "en-second", "seed": 1}', "BAD_REQUEST", "$.edition"),
    (b'{"op": "new", "edition": "en-first"}', "BAD_REQUEST", "$"),
    (b'{"op": "new", "edition": "en-first", "seed": 1, "colour": 2}', "BAD_REQUEST", "$.colour"),
    (b'{"op": "new", "edition": "en-first", "seed": 1, "readings": {"combat.attacker-gone": "maybe"}}',
     "BAD_REQUEST", "$.readings"),
    (b'{"op": "new", "edition": "en-first", "setup": {"cards": {"1": "Gorillion"}, "decks": [[1]], "unused": []}}',
     "BAD_REQUEST", "$.setup"),
    (b'{"op": "new", "edition": "en-first", "position": {"cards": {"1": "Gorillion"}, "hand": [[2], []]}}',
     "BAD_POSITION", "$.position"),
    (b'{"op": "new", "edition": "en-first", "position": {"cards": {"1": "Dragonfly"}}}', "UNKNOWN_CARD",
     "$.position"),
    (b'{"op": "new", "edition": "en-first", "scenario": {"path": "/nonexistent.yaml", "id": "x"}}',
     "BAD_REQUEST", "$.scenario"),
    (b'{"op": "apply", "game": "g1", "decision": {"t": "block", "p": 3, "card": 1}}', "BAD_REQUEST",
     "$.decision.p"),
    (b'{"op": "apply", "game": "g1", "decision": {"t": "teleport", "p": 0}}', "BAD_REQUEST", "$.decision.t"),
    (b'{"op": "pending", "game": "g77"}', "UNKNOWN_GAME", "$.game"),
    # Found by `mb-oracle fuzz --target rpc`: these were INTERNAL errors.
    (b'{"op": "hello\xc8", "id": 1}', "BAD_JSON", None),
    (b'{"op": "state", "game": "g1", "x": ' + b"[" * 1000 + b"]" * 1000 + b"}", "TOO_LARGE", None),
])
def test_bad_requests_get_an_error_naming_the_field(rpc, request_line, code, field):
    rpc("new", edition="en-revised", seed=1)
    r = rpc.raw(request_line)
    assert r["ok"] is False and r["op"] == "error", r
    assert r["error"]["code"] == code, r
    assert r["error"].get("field") == field, r
    assert "Traceback" not in r["error"]["message"]


def test_the_service_survives_every_bad_line_and_answers_each_in_order():
    lines = [b'{"op":"hello","id":"a"}', b"\xff\xfe garbage", b'{"op":"new","id":"b","edition":"en-revised","seed":2}',
             b'{"op":"apply","id":"c","game":"g1","decision":{"t":"play","p":9,"card":1}}', b"",
             b"x" * (2 << 20), b'{"op":"pending","id":"d","game":"g1"}']
    out = io.BytesIO()
    serve(io.BytesIO(b"\n".join(lines) + b"\n"), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [True, False, True, False, False, True]
    assert [r["id"] for r in replies] == ["a", None, "b", "c", None, "d"]
    assert replies[4]["error"]["code"] == "TOO_LARGE"


def test_an_engine_failure_is_an_internal_error_not_the_end_of_the_service(rpc, monkeypatch):
    g = rpc("new", edition="en-revised", seed=1)["game"]
    monkeypatch.setattr("oracle.harness.serve.state_line", lambda g: 1 / 0)
    r = rpc("state", game=g)
    assert r["error"]["code"] == "INTERNAL" and "ZeroDivisionError" in r["error"]["message"]
    monkeypatch.undo()
    assert rpc("state", game=g)["ok"]


def test_every_request_and_response_validates_against_the_printed_schemas(rpc):
    g = rpc("new", edition="en-revised", scenario=SNEAKY)["game"]
    rpc("hello")
    rpc("apply", game=g, decision={"t": "attack", "p": 0, "card": card_id("Spider Owl")})
    rpc("apply", game=g, decision={"t": "block", "p": 1, "card": card_id("Gorillion")})
    rpc("events", game=g)
    rpc("state", game=g)
    rpc("fork", game=g)
    rpc("close", game=g)
    rpc("new", edition="fr-first", seed=1)
    rpc("pending", game="nope")
    printed = {}
    for name in ("rpc", "rpc-response"):
        r = CliRunner().invoke(schema_command, [name])
        assert r.exit_code == 0
        printed[name] = json.loads(r.output)
    assert printed["rpc"] == rpc_schema() and printed["rpc-response"] == rpc_response_schema()
    for name in printed:
        jsonschema.Draft202012Validator.check_schema(printed[name])
    requests = jsonschema.Draft202012Validator(printed["rpc"])
    responses = jsonschema.Draft202012Validator(printed["rpc-response"])
    for request, reply in rpc.transcript:
        requests.validate(request)
        responses.validate(reply)
    assert not requests.is_valid({"op": "apply", "game": "g1", "decision": {"t": "block", "p": 2, "card": 1}})
    assert not requests.is_valid({"op": "new", "edition": "en-first", "seed": 1, "colour": 2})


def test_spec_rpc_documents_every_op_and_error_code():
    import re

    from oracle.harness import protocol

    spec = (ROOT / "spec" / "rpc.md").read_text(encoding="utf-8")
    for op in protocol.OPS:
        assert f"| `{op}` |" in spec, op
    source = (ROOT / "oracle" / "harness" / "serve.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'RequestError\(\s*"([A-Z_]+)"', source)) | {"INTERNAL"}
    assert len(codes) >= 8
    for code in codes:
        assert f"`{code}`" in spec, code


def test_a_chance_event_lists_every_outcome_and_takes_one_without_a_player(rpc):
    barrel = {"path": str(ROOT / "scenarios" / "cards.yaml"), "id": "cards.strange-barrel-steal-resolves"}
    g = rpc("new", edition="en-revised", scenario=barrel)["game"]
    rpc("apply", game=g, decision={"t": "attack", "p": 0, "card": card_id("Gorillion")})
    r = rpc("apply", game=g, decision={"t": "block", "p": 1, "card": card_id("Strange Barrel")})
    pend = r["pending"]
    assert (pend["stage"], pend["player"], pend["chance"]) == ("random", None, True)
    assert len(pend["options"]) == 3 and all(set(o) == {"t", "cards"} for o in pend["options"])
    r = rpc("apply", game=g, decision={"t": "random", "cards": [card_id("Spider Owl"), card_id("Luchataur")]})
    assert r["applied"] and r["events"][0]["kind"] == "steal" and r["events"][0]["clauses"] == ["terms.steal"]
    hands = rpc("state", game=g)["state"]["hand"]
    assert sorted(hands[1]) == sorted([card_id("Brain Fly"), card_id("Luchataur"), card_id("Spider Owl")])
