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

from oracle.games.mindbug.harness.schemas import harness_schema
from oracle.harness.serve import Service, serve
from oracle.replay.command import schema as schema_command
from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game
from oracle.games.mindbug.scenarios.cards import card_id

SERVE = [sys.executable, "-m", "oracle", "serve"]
SNEAKY = {"path": str(ROOT / "scenarios" / "keywords-sneaky.yaml"), "id": "sneaky.only-sneaky-blocks"}


class Session:
    """A Service spoken to in JSON, keeping the transcript for the schema checks."""

    def __init__(self):
        # Scenario starts read under scenarios/, and the card file its later-sets scenarios name.
        self.svc = Service(scenario_folders=(ROOT / "scenarios",), card_files=(LATER_CARDS,))
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
    # A ruling of Mind Up!: the service plays Mindbug, and says so.
    (b'{"op": "new", "edition": "en-first", "scenario": {"path": "scenarios/mind-up/turns.yaml", '
     b'"id": "mind-up.turn.line-position-not-number"}}', "BAD_REQUEST", "$.scenario"),
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


def test_a_lone_surrogate_escape_in_a_request_is_named_not_called_truncated(rpc):
    r = rpc.raw(b'{"op": "state", "game": "\\ud800"}')
    assert r["error"]["code"] == "BAD_JSON", r
    assert "surrogate" in r["error"]["message"] and "truncated" not in r["error"]["message"], r


@pytest.mark.parametrize("request_line, words", [
    # A fault msgspec meets before the lone surrogate escape of the id: the
    # error reply once carried that id, which cannot be written, and the service died.
    (b'{"op": "pending", "game": 5, "id": "\\ud800"}', "surrogate"),
    (b'{"op": "new", "edition": "en-revised", "seed": 1e400, "id": "\\udc00"}', "surrogate"),
    (b'{"op": "teleport", "id": "\\ud800"}', "surrogate"),
    (b'{"op": "new", "game": "mind-up", "players": 4, "seed": 1e400, "id": "\\ud83d"}', "surrogate"),
    # Not JSON past such a fault: once BAD_REQUEST, "a request is a JSON object with an `op`".
    (b'{"op": "pending", "game": 5,,}', "malformed"),
    (b'{"op": "pending", "game": 5} x', "trailing characters"),
])
def test_a_request_that_is_not_json_past_a_bad_value_is_bad_json(rpc, request_line, words):
    rpc("new", game="mind-up", players=4, seed=1)
    r = rpc.raw(request_line)
    assert r["error"]["code"] == "BAD_JSON" and r["id"] is None, r
    assert words in r["error"]["message"], r
    assert rpc("pending", game="g1")["ok"] is True


@pytest.mark.parametrize("request_line, field, words", [
    (b'{"op": "new", "edition": "en-revsed", "seed": 1}', "$.edition",
     "unknown edition 'en-revsed' (did you mean 'en-revised'?); editions: en-first, fr-first, fr-revised, "
     "en-revised"),
    (b'{"op": "new", "edtion": "en-revised", "seed": 1}', "$.edtion",
     "unknown field 'edtion' for op 'new' (did you mean 'edition'?); fields: edition, sets,"),
    (b'{"op": "new", "seed": 1}', "$.edition",
     "op 'new' needs the field 'edition' (the edition: en-first, fr-first, fr-revised, en-revised)"),
    (b'{"op": "new", "edition": "en-first", "position": {"cards": {}, "hnd": [[], []]}}', "$.position.hnd",
     "unknown field 'hnd' for op 'new' (did you mean 'hand'?); fields: cards, hand, play,"),
    (b'{"op": "apply", "game": "g1", "decison": {"t": "play", "p": 0, "card": 1}}', "$.decison",
     "unknown field 'decison' for op 'apply' (did you mean 'decision'?)"),
    (b'{"op": "apply", "game": "g1", "decision": {"t": "atack", "p": 0, "card": 1}}', "$.decision.t",
     "unknown decision type 'atack' (did you mean 'attack'?); decision types: play, attack, activate, mindbug, "
     "pass, hunt, block, choose, random"),
    (b'{"op": "apply", "game": "g1", "decision": {"t": "play", "p": 0}}', "$.decision.card",
     "the decision needs the field 'card'"),
    # A request's unknown fields are errors, in its decision too (a log's decision line may carry them).
    (b'{"op": "apply", "game": "g1", "decision": {"t": "play", "p": 1, "card": 11, "crad": 1}}',
     "$.decision.crad", "unknown field 'crad' for op 'apply' (did you mean 'card'?); fields: p, card, x"),
])
def test_bad_requests_are_worded_with_the_valid_values_and_the_nearest(rpc, request_line, field, words):
    """msgspec's words ("Invalid enum value 'en-revsed'") become the
    service's: what is unknown, the nearest valid value, the list of them."""
    rpc("new", edition="en-revised", seed=1)
    r = rpc.raw(request_line)
    assert r["error"]["code"] == "BAD_REQUEST" and r["error"]["field"] == field, r
    assert r["error"]["message"].startswith(words), r["error"]["message"]


def test_a_refusal_says_an_action_decision(rpc):
    g = rpc("new", edition="en-revised", seed=1)["game"]
    p = rpc("pending", game=g)["pending"]["player"]
    r = rpc("apply", game=g, decision={"t": "block", "p": p, "card": 1})
    assert r["refusal"]["message"].startswith(f"the game waits for an action decision by player {p} ("), r


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
    monkeypatch.setattr("oracle.games.mindbug.harness.serve.state_line", lambda g: 1 / 0)
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
    assert printed["rpc"] == harness_schema("rpc") and printed["rpc-response"] == harness_schema("rpc-response")
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
    source = "".join((ROOT / "oracle" / where / "serve.py").read_text(encoding="utf-8")
                     for where in ("harness", "games/mindbug/harness"))
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


# -- Octonite counters in a position (later.octonite) ----------------------------------------

LATER_CARDS = ROOT / "examples" / "later-sets.yaml"
MONARCH, OWL, BEE, FLY = 1, 2, 3, 4       # Lychee Monarch: Harvest, your opponent loses 1 life


def harvest_position(counters: dict | None = None, **fields) -> dict:
    """Player 1 to act; player 0's Lychee Monarch in play (with `counters`)."""
    pos = {"cards": {str(MONARCH): "Lychee Monarch", str(OWL): "Spider Owl", str(BEE): "Bee Bear",
                     str(FLY): "Brain Fly"},
           "play": [[MONARCH], []], "hand": [[BEE], [OWL, FLY]], "active": 1, **fields}
    if counters is not None:
        pos["octonite"] = counters
    return pos


@pytest.fixture
def later_cards():
    from oracle.games.mindbug.cards.compiled import load_file

    load_file(LATER_CARDS)


def test_a_position_with_counters_shows_them_and_harvest_resolves_at_its_controllers_next_turn(rpc, later_cards):
    new = rpc("new", edition="en-revised", position=harvest_position({str(MONARCH): 1}))
    assert new["ok"], new
    g = new["game"]
    # Player 1 acts first: the counter waits for player 0's turn.
    assert [e["kind"] for e in new["events"]] == ["turn"]
    state = rpc("state", game=g)
    assert state["octonite"] == {str(MONARCH): 1}
    assert state["state"]["play"][0] == [{"card": MONARCH, "exhausted": False}]
    assert rpc("apply", game=g, decision={"t": "play", "p": 1, "card": OWL})["applied"]
    r = rpc("apply", game=g, decision={"t": "pass", "p": 0})
    kinds = [(e["kind"], e.get("card"), e.get("amount")) for e in r["events"]]
    turn = kinds.index(("turn", None, 2))
    assert kinds[turn + 1:turn + 4] == [("octonite-removed", MONARCH, 0), ("trigger", MONARCH, None),
                                        ("lose-life", None, 1)], kinds
    assert "triggers.harvest" in r["events"][turn + 2]["clauses"]
    assert r["pending"]["stage"] == "action" and r["pending"]["player"] == 0
    after = rpc("state", game=g)
    assert after["state"]["life"] == [3, 2] and after["state"]["turn"] == 2
    assert "octonite" not in after      # the last counter is gone: nothing to show
    # Without the counter the same turn passes with no Harvest: the counter made the difference.
    g2 = rpc("new", edition="en-revised", position=harvest_position())["game"]
    rpc("apply", game=g2, decision={"t": "play", "p": 1, "card": OWL})
    r2 = rpc("apply", game=g2, decision={"t": "pass", "p": 0})
    assert not any(e["kind"] in ("trigger", "lose-life") for e in r2["events"])
    assert rpc("state", game=g2)["state"]["life"] == [3, 3]


def test_counters_on_the_active_players_harvest_creature_go_before_the_first_turn_action(rpc, later_cards):
    new = rpc("new", edition="en-revised", position=harvest_position({str(MONARCH): 2}, active=0))
    assert [(e["kind"], e.get("amount")) for e in new["events"]][:2] == [("turn", 1), ("octonite-removed", 1)]
    assert rpc("state", game=new["game"])["octonite"] == {str(MONARCH): 1}
    # A fork keeps the counters.
    f = rpc("fork", game=new["game"])["game"]
    assert rpc("state", game=f)["octonite"] == {str(MONARCH): 1}


def test_the_state_shows_no_counters_of_a_creature_that_left_play(later_cards):
    from oracle.games.mindbug.engine import Game
    from oracle.games.mindbug.engine.deck import resolve_cards
    from oracle.games.mindbug.harness.views import octonite_view

    defs = resolve_cards({MONARCH: "Lychee Monarch", OWL: "Spider Owl", BEE: "Bee Bear", FLY: "Brain Fly"})
    g = Game.position("en-revised", {("play", 0): [MONARCH, OWL], ("hand", 1): [BEE, FLY]}, defs, active=1,
                      octonite=((MONARCH, 2), (OWL, 1)))
    assert octonite_view(g) == {MONARCH: 2, OWL: 1}
    g.state.play[0].remove(OWL)             # defeated: its counter stays behind in the state
    g.state.discard[0].append(OWL)
    assert octonite_view(g) == {MONARCH: 2}


def test_a_position_without_counters_answers_as_before_with_no_octonite_field(rpc):
    pos = {"cards": {"1": "Spider Owl", "2": "Gorillion"}, "play": [[1], [2]]}
    svc = rpc.svc
    svc.handle(json.dumps({"op": "new", "edition": "fr-revised", "position": pos}).encode())
    plain = svc.handle(b'{"op": "state", "game": "g1"}')
    assert b"octonite" not in plain
    # 0 places nothing, in any edition: the same bytes.
    svc.handle(json.dumps({"op": "new", "edition": "fr-revised", "position": {**pos, "octonite": {"1": 0}}}).encode())
    assert svc.handle(b'{"op": "state", "game": "g2"}') == plain.replace(b'"g1"', b'"g2"')


SIX_MORE = {str(i): name for i, name in enumerate(["Kangasaurus Rex", "Tiger Squirrel", "Killer Bee", "Deathweaver",
                                                   "Shark Dog", "Urchin Hurler"], start=3)}


@pytest.mark.parametrize("counters,code,field,clause,words", [
    ({"1": 100}, "BAD_REQUEST", "$.position.octonite.1", None, "<= 99"),
    ({"2": 1, "1": -1}, "BAD_REQUEST", "$.position.octonite.1", None, ">= 0"),
    ({"1": True}, "BAD_REQUEST", "$.position.octonite.1", None, "got `bool`"),
    ({"1": "2"}, "BAD_REQUEST", "$.position.octonite.1", None, "got `str`"),
    ({"x": 1}, "BAD_REQUEST", "$.position.octonite", None, "as a key (a card id)"),
    ([1], "BAD_REQUEST", "$.position.octonite", None, "Expected `object`"),
    ({"2": 1}, "BAD_POSITION", "$.position.octonite.2", "later.octonite", "not in play"),
    ({"9": 1}, "BAD_POSITION", "$.position.octonite.9", "later.octonite", "not in play"),
])
def test_bad_counters_get_an_error_naming_the_field(rpc, counters, code, field, clause, words):
    pos = {"cards": {"1": "Spider Owl", "2": "Gorillion"}, "play": [[1], []], "hand": [[], [2]],
           "octonite": counters}
    r = rpc("new", edition="en-revised", position=pos)
    assert r["ok"] is False and r["error"]["code"] == code, r
    assert r["error"]["field"] == field and r["error"].get("clause") == clause, r
    assert words in r["error"]["message"], r
    if code == "BAD_REQUEST":
        assert "Octonite counters" in r["error"]["message"] and "0 to 99" in r["error"]["message"]


@pytest.mark.parametrize("edition", ["en-first", "fr-first", "fr-revised"])
def test_counters_in_an_edition_without_the_later_sets_are_refused_as_the_engine_refuses_them(rpc, edition):
    pos = {"cards": {"1": "Spider Owl", "2": "Gorillion", **SIX_MORE}, "play": [[1], [2]], "octonite": {"2": 1}}
    r = rpc("new", edition=edition, position=pos)
    assert r["error"] == {"code": "BAD_SETUP", "clause": "later.octonite", "field": "$.position.octonite.2",
                          "message": f"card 2 holds 1 Octonite counter, which the {edition} rules do not have "
                                     "(only en-revised)"}, r
    assert rpc("new", edition=edition, position={**pos, "octonite": {"2": 0}})["ok"]


def test_octonite_requests_and_replies_validate_against_the_printed_schemas(rpc, later_cards):
    g = rpc("new", edition="en-revised", position=harvest_position({str(MONARCH): 2}))["game"]
    rpc("state", game=g)
    rpc("new", edition="en-revised", position=harvest_position({str(MONARCH): 100}))
    action = {"path": str(ROOT / "scenarios" / "later-sets.yaml"),
              "id": "later.octonite-action-paid-with-the-last-counter"}
    a = rpc("new", edition="en-revised", scenario=action)
    activate = [o for o in a["pending"]["options"] if o["t"] == "activate"]
    assert activate, a["pending"]
    r = rpc("apply", game=a["game"], decision=activate[0])
    assert r["applied"] and any(e["kind"] == "octonite-spent" for e in r["events"]), r
    requests = jsonschema.Draft202012Validator(harness_schema("rpc"))
    responses = jsonschema.Draft202012Validator(harness_schema("rpc-response"))
    for request, reply in rpc.transcript:
        if reply["ok"]:         # the schema refuses what the service refuses (below)
            requests.validate(request)
        responses.validate(reply)
    assert not requests.is_valid({"op": "new", "edition": "en-revised", "position": harvest_position({"1": 100})})
    assert not requests.is_valid({"op": "new", "edition": "en-revised", "position": harvest_position({"1": -1})})
    assert not requests.is_valid({"op": "new", "edition": "en-revised", "position": harvest_position({"x": 1})})


def test_serve_cards_makes_declared_cards_known_to_positions(tmp_path):
    request = {"op": "new", "id": 1, "edition": "en-revised", "position": harvest_position({str(MONARCH): 1})}
    line = (json.dumps(request) + "\n" + json.dumps({"op": "state", "game": "g1"}) + "\n").encode()
    without = subprocess.run(SERVE, input=line, capture_output=True, timeout=60, cwd=ROOT)
    assert json.loads(without.stdout.splitlines()[0])["error"]["code"] == "UNKNOWN_CARD"
    r = subprocess.run(SERVE + ["--cards", str(LATER_CARDS)], input=line, capture_output=True, timeout=60, cwd=ROOT)
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert replies[0]["ok"] and replies[1]["octonite"] == {str(MONARCH): 1}, replies
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: mb-cards/1\nset: {id: x}\ncards: 7\n")
    r = subprocess.run(SERVE + ["--cards", str(bad)], input=b"", capture_output=True, timeout=60, cwd=ROOT)
    assert r.returncode == 2 and r.stderr.decode().startswith("error: ") and str(bad) in r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()
