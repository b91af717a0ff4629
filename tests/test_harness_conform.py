"""mb-oracle conform: lockstep play against an engine adapter. The proof is
the example adapter around the oracle's own engine with one rule switched
off per run: each planted bug is found, attributed to its clause, shrunk to
a game of a few decisions, and the shrunk replay is flagged by verify."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import jsonschema
import pytest
from conftest import ROOT

from oracle.harness import engine_protocol as ep
from oracle.harness.start import seeded_deal, setup_line
from oracle.harness.views import line_of
from oracle.replay.reader import split_games
from oracle.replay.verify import verify_game
from oracle.scenarios.loader import load_file
from oracle.scenarios.runner import run as run_scenario

ADAPTER = f"{sys.executable} {ROOT / 'examples' / 'engine_adapter.py'}"


def conform(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oracle", "conform", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def reports(r) -> list[dict]:
    return [json.loads(x) for x in r.stdout.splitlines()]


PLANTED = [
    # plant, editions, the clause the divergence must be attributed to
    ("sneaky", ["en-revised", "fr-first"], "keywords.sneaky"),
    ("tough-effects", ["en-first"], "keywords.tough"),
    ("refill-after-steal", ["fr-revised", "en-revised"], "drawing.refill"),
]


@pytest.mark.parametrize("plant,editions,clause", PLANTED, ids=[p[0] for p in PLANTED])
def test_each_planted_bug_is_found_attributed_and_shrunk_to_a_replay_verify_flags(tmp_path, plant, editions,
                                                                                   clause):
    out = tmp_path / "found"
    args = ["--engine", f"{ADAPTER} --plant {plant}", "--budget", "8", "--seed", "1", "--format", "json",
            "--out", str(out)] + [a for e in editions for a in ("--edition", e)]
    r = conform(*args)
    assert r.returncode == 1, r.stderr
    games = [x for x in reports(r) if x["t"] == "game"]
    bad = [g for g in games if g["verdict"] == "violates"]
    assert bad and all(g["verdict"] in ("conforms", "violates") for g in games)
    for g in bad:
        f = g["findings"][0]
        assert f["clauses"][0] == clause, f
        assert f["code"] in ("OPTIONS_DIFFER", "STATE_MISMATCH")
        assert f["diff"] and f["events"]
    shrunk = [n for g in bad for n in g["notes"] if n.startswith("shrunk from")]
    assert shrunk
    sizes = [int(m.group(2)) for m in (re.match(r"shrunk from (\d+) to (\d+) decisions", n) for n in shrunk)]
    assert min(sizes) <= 10, shrunk
    logs = sorted(out.glob("*.jsonl"))
    assert len(logs) == len(shrunk)
    for log in logs:
        rep = [verify_game(x) for x in split_games(io.BytesIO(log.read_bytes()), log.name)][0]
        assert rep.verdict == "violates", log.read_text()
        assert clause in rep.findings[0].clauses
        decisions = [x for x in map(json.loads, log.read_text().splitlines()) if x["t"] not in
                     ("game", "setup", "state", "end", "note")]
        assert len(decisions) <= max(sizes) + 1
        # The draft scenario states what the rules say there: the oracle passes it.
        sf = load_file(log.with_suffix(".yaml"))
        assert not sf.errors and sf.scenarios[0].doc.status == "draft"
        sc = sf.scenarios[0]
        assert clause in sc.doc.clauses
        assert run_scenario(sc, sc.editions()[0]).passed


def test_the_same_run_gives_the_same_report_bytes(tmp_path):
    args = ["--engine", f"{ADAPTER} --plant sneaky", "--budget", "4", "--seed", "3", "--edition", "en-revised",
            "--format", "json", "--out", str(tmp_path / "a")]
    first = conform(*args)
    second = conform(*args[:-1], str(tmp_path / "b"))
    assert first.returncode == second.returncode == 1
    assert first.stdout.replace("/a/", "/b/") == second.stdout


def test_a_faithful_adapter_conforms_in_games_and_scenarios_with_junit(tmp_path):
    r = conform("--engine", ADAPTER, "--budget", "4", "--seed", "2", "--scenarios",
                str(ROOT / "scenarios" / "keywords-tough.yaml"), "--format", "junit", "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    suite = ET.fromstring(r.stdout)
    assert suite.get("name") == "mb-oracle conform" and int(suite.get("tests")) > 4
    assert suite.get("failures") == "0" and suite.get("errors") == "0"
    names = [c.get("name") for c in suite.iter("testcase")]
    assert any(n.startswith("scenario tough.") for n in names) and any("-random-s" in n for n in names)
    assert not list(tmp_path.iterdir())     # nothing to write when nothing differs


def test_scenarios_find_the_planted_bug_at_the_scenario_line(tmp_path):
    path = ROOT / "scenarios" / "keywords-sneaky.yaml"
    r = conform("--engine", f"{ADAPTER} --plant sneaky", "--budget", "0", "--scenarios", str(path),
                "--edition", "en-revised", "--format", "json", "--out", str(tmp_path))
    assert r.returncode == 1
    bad = [g for g in reports(r) if g["t"] == "game" and g["verdict"] == "violates"]
    assert bad and all(g["findings"][0]["clauses"] == ["keywords.sneaky"] for g in bad)
    text = path.read_text().splitlines()
    for g in bad:
        line = g["findings"][0]["line"]
        assert text[line - 1].strip().startswith("- attack:"), (line, text[line - 1])


FAULTY = {
    "exits at once": "import sys; sys.exit(3)",
    "answers nonsense": "import sys\nfor line in sys.stdin:\n    print('hello there', flush=True)",
    "wrong protocol": "import sys, json\nfor line in sys.stdin:\n    print(json.dumps({'protocol': 'uci'}), flush=True)",
}


@pytest.mark.parametrize("name", FAULTY)
def test_an_adapter_that_cannot_start_is_one_error_line(tmp_path, name):
    script = tmp_path / "adapter.py"
    script.write_text(FAULTY[name])
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "1", "--out", str(tmp_path / "o"))
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_an_adapter_that_crashes_or_hangs_mid_game_is_a_malformed_game_and_the_run_goes_on(tmp_path):
    script = tmp_path / "flaky.py"
    script.write_text(
        "import json, os, sys, time\n"
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "import engine_adapter as ea\n"
        "a = ea.Adapter(None)\n"
        "count = 0\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'quit':\n"
        "        break\n"
        "    if msg['op'] == 'apply':\n"
        "        count += 1\n"
        "        if count == 3 and msg['decision'].get('p') == 0:\n"
        "            sys.stderr.write('adapter: out of cheese\\n'); sys.stderr.flush(); os._exit(9)\n"
        "        if count == 3:\n"
        "            time.sleep(5)\n"
        "    print(json.dumps(a.handle(msg)), flush=True)\n")
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "3", "--edition", "en-revised",
                "--timeout", "0.5", "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stdout + r.stderr
    games = [g for g in reports(r) if g["t"] == "game"]
    assert len(games) == 3 and all(g["verdict"] == "malformed" for g in games)
    messages = [g["findings"][0]["message"] for g in games]
    assert all(g["findings"][0]["code"] == "ENGINE_FAULT" for g in games)
    assert any("exited with status 9" in m and "out of cheese" in m for m in messages) or \
        any("within 0.5 s" in m for m in messages), messages


def test_engine_messages_and_the_example_adapters_replies_follow_the_printed_schemas():
    from click.testing import CliRunner

    from oracle.replay.command import schema as schema_command

    schemas = {n: json.loads(CliRunner().invoke(schema_command, [n]).output) for n in ("engine", "engine-reply")}
    setup = seeded_deal(4, "en-first")
    from oracle.harness.start import game_from_setup
    g = game_from_setup("en-first", setup)
    messages = [ep.Hello(), ep.Deal(edition="en-first", setup=setup_line(setup))]
    for _ in range(6):
        d = g.legal_decisions()[0]
        g.apply(d)
        messages.append(ep.Apply(decision=line_of(d)))
    encoded = [json.loads(ep.message_encoder.encode(m)) for m in messages]
    check = {n: jsonschema.Draft202012Validator(s) for n, s in schemas.items()}
    for m in encoded:
        check["engine"].validate(m)
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "engine_adapter.py")], capture_output=True,
                       text=True, input="".join(json.dumps(m) + "\n" for m in encoded + [{"op": "quit"}]),
                       timeout=30)
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(replies) == len(messages)
    for reply in replies:
        check["engine-reply"].validate(reply)
    assert replies[0]["protocol"] == "mb-engine/1" and replies[-1]["options"]
    assert not check["engine"].is_valid({"op": "deal", "edition": "en-third"})
    assert not check["engine-reply"].is_valid({"options": [{"t": "block", "p": 5, "card": 1}]})


def test_an_engine_that_takes_forced_decisions_itself_still_conforms(tmp_path):
    """An adapter that applies every decision with one legal option on its
    own (and never lists it) agrees with the rules."""
    script = tmp_path / "eager.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "import engine_adapter as ea\n"
        "a = ea.Adapter(None)\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'quit':\n"
        "        break\n"
        "    reply = a.handle(msg)\n"
        "    g = a.game\n"
        "    while g is not None and g.pending is not None and len(g.pending.options) == 1:\n"
        "        g.apply(g.legal_decisions()[0])\n"
        "        reply = ea.view(g)\n"
        "    print(json.dumps(reply), flush=True)\n")
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "4", "--seed", "5", "--format", "json",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stdout[-2000:]
    games = [g for g in reports(r) if g["t"] == "game"]
    assert len(games) == 4 and all(g["verdict"] == "conforms" and g["result"] for g in games)


def one_reply_adapter(tmp_path, name: str, editions: list, reply: dict):
    """An adapter that says hello (mb-engine/1, `editions`) and then gives
    `reply` to every message until it is told to quit."""
    script = tmp_path / f"{name}.py"
    hello = {"protocol": "mb-engine/1", "name": name, "editions": editions}
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'quit':\n"
        "        break\n"
        f"    print(json.dumps({hello!r} if msg['op'] == 'hello' else {reply!r}), flush=True)\n")
    return script


def test_an_engine_that_echoes_its_input_is_told_the_reply_is_not_mb_engine_1(tmp_path):
    """`cat` sends hello back: a message, not a reply. The handshake names
    what it expected, not "the engine plays no edition"."""
    r = conform("--engine", f"{sys.executable} -c \"import sys; [print(x, end='', flush=True) for x in sys.stdin]\"",
                "--budget", "1", "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: the reply to hello is not mb-engine/1: it is a message (op 'hello'), "
                               "not a reply"), r.stderr
    assert '"editions": [...]' in r.stderr and "no edition" not in r.stderr
    script = one_reply_adapter(tmp_path, "quiet", ["en-revised"], {})
    script.write_text(script.read_text().replace("'editions'", "'editons'"))
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "1", "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "the reply to hello is not mb-engine/1: it lists no editions" in r.stderr, r.stderr


def test_a_reply_without_options_is_an_engine_fault(tmp_path):
    script = one_reply_adapter(tmp_path, "mute", ["en-revised"], {"state": {"t": "state"}})
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "1", "--format", "json",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 2
    game = reports(r)[0]
    assert game["verdict"] == "malformed" and game["findings"][0]["code"] == "ENGINE_FAULT"
    assert "no `options`" in game["findings"][0]["message"]


def test_spec_engine_protocol_documents_every_finding_code_and_message():
    from oracle.harness import conform as conform_module
    from oracle.harness import engine_protocol, lockstep

    spec = (ROOT / "spec" / "engine-protocol.md").read_text(encoding="utf-8")
    codes = [lockstep.OPTIONS_DIFFER, lockstep.STATE_MISMATCH, lockstep.WRONG_RESULT, lockstep.ENGINE_REFUSED,
             conform_module.ENGINE_FAULT]
    for code in codes:
        assert f"`{code}`" in spec, code
    for op in ("hello", "deal", "position", "apply", "quit"):
        assert f'{{"op": "{op}"' in spec, op
    assert engine_protocol.PROTOCOL in spec


def test_an_engine_that_refuses_a_legal_deal_violates_setup_deal_and_unknown_editions_are_ignored(tmp_path):
    script = one_reply_adapter(tmp_path, "picky", ["en-revised", "xx-future"],
                               {"error": "I only play my own shuffles"})
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "2", "--format", "json",
                "--out", str(tmp_path / "o"), "--no-shrink")
    assert r.returncode == 1, r.stderr
    games = [g for g in reports(r) if g["t"] == "game"]
    assert [g["edition"] for g in games] == ["en-revised", "en-revised"]
    f = games[0]["findings"][0]
    assert (f["code"], f["clauses"], f["line"]) == ("ENGINE_REFUSED", ["setup.deal"], 0)
    assert "my own shuffles" in f["message"]


def test_new_servants_scenarios_reach_only_an_engine_that_deals_that_set(tmp_path):
    path = str(ROOT / "scenarios" / "new-servants.yaml")
    r = conform("--engine", ADAPTER, "--budget", "0", "--scenarios", path, "--format", "json", "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    played = [x for x in reports(r) if x.get("t") == "game"]
    assert len(played) > 30 and all(x["verdict"] == "conforms" for x in played)
    # An adapter that says nothing of sets deals First Contact alone: no New Servants scenario is sent to it.
    quiet = tmp_path / "first_contact_only.py"
    quiet.write_text(
        "import sys, runpy\n"
        f"sys.argv = [{str(ROOT / 'examples' / 'engine_adapter.py')!r}]\n"
        "mod = runpy.run_path(sys.argv[0], run_name='adapter')\n"
        "Adapter = mod['Adapter']\n"
        "class FirstContactOnly(Adapter):\n"
        "    def handle(self, msg):\n"
        "        reply = super().handle(msg)\n"
        "        if msg.get('op') == 'hello':\n"
        "            reply.pop('sets')\n"
        "        return reply\n"
        "mod['main'].__globals__['Adapter'] = FirstContactOnly\n"
        "mod['main']([])\n")
    r = conform("--engine", f"{sys.executable} {quiet}", "--budget", "0", "--scenarios", path, "--format", "json")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert [x for x in reports(r) if x.get("t") == "game"] == []


def test_an_adapter_that_floods_its_output_is_read_no_further_ahead_than_a_few_lines(tmp_path):
    from oracle.harness import engine_client
    from oracle.harness.engine_client import Engine

    script = tmp_path / "flood.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['op'] == 'hello':\n"
        "        print(json.dumps({'protocol': 'mb-engine/1', 'editions': ['en-revised']}), flush=True)\n"
        "    else:\n"
        "        while True:\n"
        "            sys.stdout.write('{\"x\": 1}\\n' * 1000)\n")
    engine = Engine(f"{sys.executable} {script}", timeout=2)
    engine.start()
    engine.send(ep.Deal(edition="en-revised", setup=setup_line(seeded_deal(1, "en-revised"))))
    time.sleep(0.3)     # the adapter writes on; the oracle reads only so far ahead
    assert engine._replies.qsize() <= engine_client.READ_AHEAD
    engine.stop()
    assert not engine._pump.is_alive()


def test_an_engine_command_with_an_unbalanced_quote_is_named_in_the_error(tmp_path):
    r = conform("--engine", "'unbalanced", "--budget", "1", "--out", str(tmp_path / "o"))
    assert r.returncode == 2
    assert r.stderr.strip() == "error: cannot read the engine command \"'unbalanced\": No closing quotation"


# -- Octonite counters in positions (later.octonite) ---------------------------------------

LATER = ROOT / "scenarios" / "later-sets.yaml"
LATER_ADAPTER = f"{ADAPTER} --cards {ROOT / 'examples' / 'later-sets.yaml'}"


def counter_scenarios() -> set[str]:
    """The ids of the runs of scenarios/later-sets.yaml whose position places
    counters (those whose position the rules refuse have nothing to play)."""
    from oracle.engine import SetupError
    from oracle.scenarios.runner import build, given_args

    ids = set()
    for sc in load_file(LATER).scenarios:
        for edition in sc.editions():
            if any(n for _, n in given_args(sc, edition)[1].get("octonite", ())):
                try:
                    build(sc, edition)
                except SetupError:
                    continue
                ids.add(f"scenario {sc.id} [{edition}]")
    return ids


def test_the_position_message_carries_the_scenarios_counters_and_nothing_when_there_are_none():
    from oracle.harness.scenario_run import _start_message

    scenarios = {sc.id: sc for sc in load_file(LATER).scenarios}
    msg = _start_message(scenarios["later.harvest-last-counter-at-the-next-turn"], "en-revised")
    data = json.loads(ep.message_encoder.encode(msg))
    monarch = [k for k, v in data["position"]["cards"].items() if v == "Lychee Monarch"]
    assert data["position"]["octonite"] == {k: 1 for k in monarch if int(k) in data["position"]["play"][0]}
    assert len(data["position"]["octonite"]) == 1
    # 0 counters: nothing to send, and the message is as it was before counters could be sent.
    msg = _start_message(scenarios["later.harvest-with-no-counter-left-does-nothing"], "en-revised")
    assert b"octonite" not in ep.message_encoder.encode(msg)
    tough = load_file(ROOT / "scenarios" / "keywords-tough.yaml").scenarios[0]
    assert b"octonite" not in ep.message_encoder.encode(_start_message(tough, "en-revised"))


def test_octonite_scenarios_are_played_against_the_example_engine_and_conform(tmp_path):
    wanted = counter_scenarios()
    assert len(wanted) >= 4
    r = conform("--engine", LATER_ADAPTER, "--budget", "0", "--scenarios", str(LATER), "--format", "json",
                "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    played = {x["id"]: x for x in reports(r) if x.get("t") == "game"}
    assert wanted <= set(played), sorted(wanted - set(played))
    assert all(x["verdict"] == "conforms" for x in played.values()), \
        [(k, x["findings"]) for k, x in played.items() if x["verdict"] != "conforms"]


def test_an_engine_that_drops_the_counters_parts_from_the_rules_where_they_matter(tmp_path):
    """What conform would see of the example engine if the counters were
    not sent: the Harvest effects and the paid Action go missing."""
    forgetful = tmp_path / "forgetful.py"
    forgetful.write_text(
        "import sys, runpy\n"
        f"sys.argv = [{str(ROOT / 'examples' / 'engine_adapter.py')!r}]\n"
        "mod = runpy.run_path(sys.argv[0], run_name='adapter')\n"
        "Adapter = mod['Adapter']\n"
        "class Forgetful(Adapter):\n"
        "    def handle(self, msg):\n"
        "        if msg.get('op') == 'position':\n"
        "            msg['position'].pop('octonite', None)\n"
        "        return super().handle(msg)\n"
        "mod['main'].__globals__['Adapter'] = Forgetful\n"
        f"mod['main'](['--cards', {str(ROOT / 'examples' / 'later-sets.yaml')!r}])\n")
    r = conform("--engine", f"{sys.executable} {forgetful}", "--budget", "0", "--scenarios", str(LATER),
                "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr
    bad = {x["id"]: x["findings"][0] for x in reports(r) if x.get("t") == "game" and x["verdict"] == "violates"}
    assert set(bad) <= counter_scenarios()
    harvest = bad["scenario later.harvest-last-counter-at-the-next-turn [en-revised]"]
    assert harvest["code"] == "STATE_MISMATCH" and harvest["clauses"][0] == "triggers.harvest"
    assert bad["scenario later.octonite-action-paid-with-the-last-counter [en-revised]"]["code"] == "OPTIONS_DIFFER"


def test_a_position_message_with_counters_and_activate_options_follow_the_printed_schemas():
    from click.testing import CliRunner

    from oracle.harness.scenario_run import _start_message
    from oracle.replay.command import schema as schema_command

    schemas = {n: json.loads(CliRunner().invoke(schema_command, [n]).output) for n in ("engine", "engine-reply")}
    check = {n: jsonschema.Draft202012Validator(s) for n, s in schemas.items()}
    scenarios = {sc.id: sc for sc in load_file(LATER).scenarios}
    msg = json.loads(ep.message_encoder.encode(
        _start_message(scenarios["later.octonite-action-paid-with-the-last-counter"], "en-revised")))
    assert msg["position"]["octonite"]
    check["engine"].validate(msg)
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "engine_adapter.py"), "--cards",
                        str(ROOT / "examples" / "later-sets.yaml")], capture_output=True, text=True, timeout=30,
                       input=json.dumps(msg) + "\n" + json.dumps({"op": "quit"}) + "\n")
    reply = json.loads(r.stdout)
    check["engine-reply"].validate(reply)
    assert any(o["t"] == "activate" for o in reply["options"]), reply
    check["engine"].validate({"op": "apply", "decision": next(o for o in reply["options"] if o["t"] == "activate")})
    for bad in ({"1": 100}, {"1": -1}, {"x": 1}, [1]):
        assert not check["engine"].is_valid({**msg, "position": {**msg["position"], "octonite": bad}})
