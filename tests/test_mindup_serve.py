"""`mb-oracle serve` plays Mind Up!: a whole 5-player game through the
example client conforms; every request on a Mind Up! game is answered in
its terms (simultaneous hidden choices, refusals with their clause, forks);
Mindbug's requests are answered as before beside it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.harness.serve import Service, serve

ROOT = Path(__file__).resolve().parents[1]
SERVE = [sys.executable, "-m", "oracle", "serve"]


def _session(*requests) -> list[dict]:
    out = io.BytesIO()
    serve(io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


@pytest.mark.parametrize("args,said", [(["--", "no-such-serve-command"], "cannot start the service"),
                                       (["--players"], "each option takes a whole number"),
                                       (["--colour", "red"], "unknown option '--colour'")])
def test_the_python_client_says_what_is_wrong_without_a_traceback(args, said):
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "mindup_rpc_client.py"), *args],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 1 and said in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_python_client_plays_a_whole_five_player_game_and_its_log_conforms(tmp_path):
    log = tmp_path / "game.jsonl"
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "mindup_rpc_client.py"), "--players", "5", "--seed",
                        "4", "--", *SERVE], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    log.write_text(r.stdout)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["players"] == 5 and sum(x["t"] == "choose" for x in lines) == 5 * (6 + 7 + 8)   # rounds of 7, 8 and 9 cards: all but the last played
    assert sum(x["t"] == "round" for x in lines) == 3 and lines[-1]["t"] == "end"
    v = subprocess.run([sys.executable, "-m", "oracle", "verify", str(log), "--format", "json"], capture_output=True,
                       text=True, cwd=ROOT)
    assert v.returncode == 0, v.stdout
    assert json.loads(v.stdout.splitlines()[0])["verdict"] == "conforms"


def test_choices_are_hidden_until_the_last_player_chooses():
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1, "id": 1}
    replies = _session(new, {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}})
    hands = replies[1]["pending"]["options"]
    assert replies[0]["pending"]["kind"] == "round" and len(replies[0]["setup"]["deck"]) == 60
    steps = [{"op": "apply", "game": "g1", "decision": {"t": "choose", "p": p, "card": hands[p][0]}} for p in (2, 0, 1)]
    replies = _session(new, {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}},
                       *steps, {"op": "state", "game": "g1"})
    first, second, last = replies[2:5]
    assert first["applied"] and first["events"] == [] and first["pending"]["players"] == [0, 1]
    assert second["pending"]["players"] == [1]
    assert [e["kind"] for e in last["events"]][0] == "reveal" and last["pending"]["players"] == [0, 1, 2]
    state = replies[5]["state"]
    assert state["turn"] == 1 and all(len(h) == 6 for h in state["hands"])


def test_refusals_and_errors_name_the_clause_or_the_field():
    replies = _session(
        {"op": "new", "game": "mind-up", "players": 3, "seed": 1},
        {"op": "apply", "game": "g1", "decision": {"t": "turn", "cards": [1, 2, 3]}},
        {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 1, 3, 5, 4]}},
        {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 2, 3, 5, 4]}},
        {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 0, "card": 60, "x": 1}},
        {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 0, "card": 61}},
        {"op": "new", "game": "mind-uq", "id": "x"},
        {"op": "new", "game": "mind-up", "seed": 1},
        {"op": "new", "game": "mind-up", "players": 3, "position": {"order": [1, 2, 3, 4, 5], "hands": [[1], [2], [3]],
                                                                    "line": [4, 5, 6]}},
        {"op": "attack", "game": "g1"},
        {"op": "new", "edition": "en-revised", "seed": 1},
        {"op": "state", "game": "g2"},
        {"op": "apply", "game": "g1", "decision": {"t": "pass", "p": 0}},
    )
    assert replies[1]["refusal"]["clause"] == "mu.round.new-order"
    assert replies[2]["refusal"]["code"] == "ILLEGAL_RANDOM" and replies[2]["refusal"]["clause"] == "mu.setup.score-order"
    assert replies[3]["applied"]
    hand = replies[3]["pending"]["options"][0]
    refused = replies[4]
    if 60 in hand:
        assert refused["applied"]
    else:
        assert refused["refusal"]["clause"] == "mu.turn.choose" and refused["refusal"]["options"] == hand
    assert replies[5]["error"]["field"] == "$.decision.card"
    assert replies[6]["error"]["field"] == "$.game" and "mind-up" in replies[6]["error"]["message"] and replies[6]["id"] == "x"
    assert replies[7]["error"]["field"] == "$.players"
    assert replies[8]["error"]["code"] == "BAD_SETUP" and replies[8]["error"]["field"] == "$.position"
    assert replies[8]["error"]["clause"] == "mu.round.last-card"      # hands of one card: already placed
    assert replies[9]["error"]["code"] == "UNKNOWN_OP"
    assert replies[10]["pending"]["stage"] == "action"         # a Mindbug game beside it, as ever
    assert "life" in replies[11]["state"]
    assert replies[12]["error"]["field"] == "$.decision.t"
    assert all(r.get("error", {}).get("code") != "INTERNAL" for r in replies)


def test_games_of_the_two_games_keep_apart():
    svc = Service()
    mb = json.loads(svc.handle(b'{"op":"new","edition":"en-revised","seed":1}'))["game"]
    mu = json.loads(svc.handle(b'{"op":"new","game":"mind-up","players":4,"seed":1}'))["game"]
    wrong = json.loads(svc.handle(json.dumps({"op": "apply", "game": mu, "decision": {"t": "pass", "p": 0}}).encode()))
    assert wrong["error"]["field"] == "$.decision.t"
    as_mb = json.loads(svc.handle(json.dumps({"op": "events", "game": mb}).encode()))
    assert as_mb["ok"] and as_mb["events"]
    fork = json.loads(svc.handle(json.dumps({"op": "fork", "game": mu}).encode()))
    assert fork["parent"] == mu and svc.others == 2
    json.loads(svc.handle(json.dumps({"op": "close", "game": fork["game"]}).encode()))
    assert svc.others == 1


def test_a_mind_up_request_s_error_is_worded_in_mind_up_s_fields_and_editions():
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1}
    bad_edition, misspelt, bad_position = (r["error"] for r in _session(
        {**new, "edition": "en-revised"}, {**new, "playrs": 3},
        {"op": "new", "game": "mind-up", "position": {"roundd": 1}}))
    out = io.BytesIO()
    serve(io.BytesIO(b'{"op": "new", "game": "mind-up", "players": 3, "seed": 1e400}\n'), out)
    big_seed = json.loads(out.getvalue())["error"]
    assert bad_edition["field"] == "$.edition" and bad_edition["message"].endswith("editions: fr")
    assert "did you mean 'players'" in misspelt["message"] and "objectives" in misspelt["message"]
    assert "scenario" not in misspelt["message"] and "op," not in misspelt["message"]
    assert "did you mean 'round'" in bad_position["message"] and "hands" in bad_position["message"]
    assert big_seed["field"] == "$.seed" and "whole number" in big_seed["message"]    # was: unknown field 'game'


def test_a_field_of_another_op_or_unknown_to_a_step_is_an_error():
    """spec/rpc.md: unknown fields are errors; `since` is events', `decision` apply's."""
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1}
    since, decision, step, events = _session(
        new, {"op": "pending", "game": "g1", "since": 2}, {"op": "state", "game": "g1", "decision": {}},
        {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 2, 3, 4, 5], "ordre": 1}},
        {"op": "events", "game": "g1", "since": 0})[1:]
    assert since["error"]["field"] == "$.since" and "for op 'pending'" in since["error"]["message"]
    assert decision["error"]["field"] == "$.decision" and "for op 'state'" in decision["error"]["message"]
    assert step["error"]["field"] == "$.decision.ordre"
    assert events["ok"] is True and events["events"] == []


def test_a_misspelt_step_type_or_field_is_named_with_the_one_meant():
    """spec/rpc.md: an unknown field or decision type is named with the
    nearest valid one and the list of them, in a Mind Up! game too."""
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1}
    kind, field = _session(new, {"op": "apply", "game": "g1", "decision": {"t": "chose", "p": 0, "card": 1}},
                           {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 0, "crad": 1}})[1:]
    assert kind["error"]["field"] == "$.decision.t"
    assert "unknown step type 'chose' (did you mean 'choose'?); step types: round, turn, choose, reveal" in \
        kind["error"]["message"]
    assert field["error"]["field"] == "$.decision.crad"
    assert "unknown field 'crad' of a 'choose' step (did you mean 'card'?)" in field["error"]["message"]


def test_a_new_naming_mindbug_starts_a_game_of_mindbug_as_the_error_for_an_unknown_game_says():
    named, unknown = _session({"op": "new", "game": "mindbug", "edition": "en-revised", "seed": 1},
                              {"op": "new", "game": "mindbugg", "edition": "en-revised", "seed": 1})
    assert unknown["error"]["field"] == "$.game" and "known: mindbug, mind-up" in unknown["error"]["message"]
    assert named["ok"] and named["pending"]["stage"] == "action"     # was: unknown field 'game' for op 'new'


def test_a_position_that_disagrees_with_players_or_objectives_and_a_round_after_the_third():
    """A `new` whose `players` or `objectives` differ from its position is
    refused at that field; after round 3 a round start is GAME_OVER
    [mu.game.rounds]."""
    position = {"round": 3, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37],
                "scores": [[10, 10, 10], [10, 10, 10]]}
    replies = _session(
        {"op": "new", "game": "mind-up", "players": 4, "position": position},
        {"op": "new", "game": "mind-up", "objectives": 2, "position": position},
        {"op": "new", "game": "mind-up", "players": 3, "position": position},
        {"op": "apply", "game": "g1", "decision": {"t": "turn", "cards": [1, 60, 3]}},
        {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [1, 2, 3, 4, 5]}},
    )
    assert replies[0]["error"]["code"] == "BAD_REQUEST" and replies[0]["error"]["field"] == "$.players"
    assert replies[1]["error"]["code"] == "BAD_REQUEST" and replies[1]["error"]["field"] == "$.objectives"
    assert replies[3]["applied"] and replies[3]["pending"]["kind"] == "over"
    refusal = replies[4]["refusal"]
    assert (refusal["code"], refusal["clause"]) == ("GAME_OVER", "mu.game.rounds")


def _printed(which: str) -> dict:
    from click.testing import CliRunner

    from oracle.replay.command import schema

    r = CliRunner().invoke(schema, [which, "--game", "mind-up"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_every_request_and_response_of_a_mind_up_session_validates_against_the_printed_schemas():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency (pip install -e .[test])")
    new = {"op": "new", "game": "mind-up", "players": 3, "seed": 1, "id": 1}
    first = _session(new, {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}})
    hands = first[1]["pending"]["options"]
    position = {"round": 1, "order": [1, 2, 3, 4, 5], "hands": [[1, 5], [60, 56], [3, 10]], "line": [18, 24, 37]}
    requests = [
        {"op": "hello", "id": "h"}, new,
        {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}},
        {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 2, "card": hands[2][0]}},
        {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 0, "card": hands[0][0]}},
        {"op": "pending", "game": "g1"},
        {"op": "apply", "game": "g1", "decision": {"t": "choose", "p": 1, "card": hands[1][0]}},
        {"op": "events", "game": "g1", "since": 1}, {"op": "state", "game": "g1"}, {"op": "fork", "game": "g1"},
        {"op": "apply", "game": "g2", "decision": {"t": "turn", "cards": [hands[0][1], hands[1][1], hands[2][1]]}},
        {"op": "close", "game": "g2"},
        {"op": "new", "game": "mind-up", "players": 4, "objectives": 2, "setup": {"deck": list(range(1, 61))}},
        {"op": "new", "game": "mind-up", "position": position},
        {"op": "apply", "game": "g4", "decision": {"t": "turn", "cards": [1, 60, 3]}},
        {"op": "state", "game": "nope"},
    ]
    replies = _session(*requests)
    assert [r["op"] for r in replies][-1] == "error" and all(r["ok"] for r in replies[:-1]), replies
    assert replies[-2]["applied"] and replies[10]["applied"]
    req, resp = _printed("rpc"), _printed("rpc-response")
    for schema in (req, resp):
        jsonschema.Draft202012Validator.check_schema(schema)
    requests_ok, replies_ok = jsonschema.Draft202012Validator(req), jsonschema.Draft202012Validator(resp)
    for request, reply in zip(requests, replies):
        assert not list(requests_ok.iter_errors(request)), request
        assert not list(replies_ok.iter_errors(reply)), reply
    # What the service refuses, the schema refuses: a seventh player, a card 61, a field of another op, a Mindbug step.
    for bad in ({**new, "players": 7}, {"op": "apply", "game": "g1", "decision": {"t": "turn", "cards": [61, 2, 3]}},
                {"op": "pending", "game": "g1", "since": 2}, {"op": "new", "game": "mind-up", "seed": 1, "sets": []},
                {"op": "apply", "game": "g1", "decision": {"t": "pass", "p": 0}}):
        assert list(requests_ok.iter_errors(bad)), bad
        assert _session(bad)[0]["ok"] is False, bad


def test_the_engine_messages_and_replies_of_mind_up_validate_against_the_printed_schemas():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency (pip install -e .[test])")
    import msgspec

    from oracle.games.mindup.harness import protocol as pr
    from oracle.harness import engine_protocol as ep

    messages = jsonschema.Draft202012Validator(_printed("engine"))
    replies = jsonschema.Draft202012Validator(_printed("engine-reply"))
    sent = [ep.Hello(), pr.EngineDeal(players=4, objectives=2, setup={"t": "setup", "deck": list(range(1, 61))}),
            pr.EnginePosition(position={"order": [1, 2, 3, 4, 5], "hands": [[1], [2], [3]], "line": [4, 5, 6]}),
            pr.EngineApply(decision={"t": "round", "order": [2, 1, 3, 5, 4]}),
            pr.EngineApply(decision={"t": "turn", "cards": [1, 2, 3]}), ep.Quit()]
    for m in sent:
        doc = json.loads(msgspec.json.encode(m))
        assert not list(messages.iter_errors(doc)), doc
    assert list(messages.iter_errors({"op": "apply", "decision": {"t": "choose", "p": 0, "card": 3}}))   # whole turns only
    claim = _session({"op": "new", "game": "mind-up", "players": 3, "seed": 2},
                     {"op": "apply", "game": "g1", "decision": {"t": "round", "order": [2, 1, 3, 5, 4]}},
                     {"op": "state", "game": "g1"})[2]["state"]     # the state claim an engine's reply carries
    said = [{"protocol": "mb-engine/1", "name": "an engine", "games": ["mind-up"], "positions": True},
            {"pending": "round"}, {"pending": "choose", "options": [[1, 5], [60, 56], [3, 10]], "state": claim},
            {"pending": "over", "over": {"scores": [12, 30, 7], "winners": [2]}}, {"error": "no such card"}]
    for reply in said:
        assert not list(replies.iter_errors(reply)), reply
    assert list(replies.iter_errors({"pending": "block"})) and list(replies.iter_errors({"options": [[61]]}))
