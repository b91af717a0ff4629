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
import msgspec
import pytest
import yaml
from conftest import ROOT

from oracle.games.mindbug.harness import engine_protocol as ep
from oracle.games.mindbug.harness.start import seeded_deal, setup_line
from oracle.games.mindbug.harness.views import line_of
from oracle.harness.engine_protocol import PROTOCOL, message_encoder
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
    # plant, editions, the clause the divergence must be attributed to, the artifact ("log": a replay
    # log verify flags; "scenario": the draft scenario alone, no log being able to show it)
    ("sneaky", ["en-revised", "fr-first"], "keywords.sneaky", "log"),
    ("tough-effects", ["en-first"], "keywords.tough", "log"),
    ("refill-after-steal", ["fr-revised", "en-revised"], "drawing.refill", "log"),
    ("frenzy", ["en-first", "fr-first"], "keywords.frenzy", "scenario"),       # an option the engine lacks
    ("hunt-decline", ["en-revised"], "combat.block", "scenario"),              # only `hunt null` added
]


@pytest.mark.parametrize("plant,editions,clause,artifact", PLANTED, ids=[p[0] for p in PLANTED])
def test_each_planted_bug_is_one_root_cause_shrunk_to_an_artifact_that_fails_on_the_engine(
        tmp_path, plant, editions, clause, artifact):
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
        assert f["diff"] and f["events"]
    # One root cause: reported once, naming every game it showed in; the others point to it.
    roots = [(g, n) for g in bad for n in g["notes"] if n.startswith("root cause ")]
    assert len(roots) == 1, [g["notes"] for g in bad]
    first, note = roots[0]
    assert note.startswith("root cause 1 of 1: ") and f"in {len(bad)} game" in note
    assert all(g["id"] in note for g in bad)
    assert all(any(n.startswith(f"the same root cause as {first['id']}") for n in g["notes"])
               for g in bad if g is not first)
    assert len({(g["findings"][0]["code"], tuple(g["findings"][0]["clauses"])) for g in bad}) == 1
    m = re.search(r"shrunk from (\d+) to (\d+) decisions", note)
    assert m and int(m.group(2)) <= int(m.group(1))
    drafts = sorted(out.glob("*.yaml"))
    logs = sorted(out.glob("*.jsonl"))
    assert len(drafts) == 1
    # The draft scenario states what the rules say there: the oracle passes it.
    sf = load_file(drafts[0])
    assert not sf.errors and sf.scenarios[0].doc.status == "draft"
    sc = sf.scenarios[0]
    assert clause in sc.doc.clauses
    assert run_scenario(sc, sc.editions()[0]).passed
    # Short: a game still long after shrinking is tried from a position just before the divergence.
    assert len(sc.doc.steps) <= 10, note
    if artifact == "log":
        assert len(logs) == 1 and "which mb-oracle verify flags" in note
        # verify flags the log with the code and clauses conform reports.
        rep = [verify_game(x) for x in split_games(io.BytesIO(logs[0].read_bytes()), logs[0].name)][0]
        assert rep.verdict == "violates", logs[0].read_text()
        mine = first["findings"][0]
        assert (rep.findings[0].code, rep.findings[0].clauses) == (mine["code"], mine["clauses"])
    else:
        assert not logs and "artifact: the draft scenario" in note
        # Played against the engine, the draft fails where the engine parts from the rules.
        again = conform("--engine", f"{ADAPTER} --plant {plant}", "--budget", "0", "--scenarios", str(drafts[0]),
                        "--format", "json", "--out", str(tmp_path / "again"))
        assert again.returncode == 1
        [g] = [x for x in reports(again) if x["t"] == "game"]
        assert g["verdict"] == "violates" and g["findings"][0]["clauses"][0] == clause


def test_conform_takes_a_reading_and_says_a_divergence_stands_only_under_it_as_verify_does(tmp_path):
    # The example engine plays the team reading; the rules play HUNTER first: each divergence is a
    # matter of that reading (basis `reading`), in conform's report and in verify's on the shrunk log.
    out = tmp_path / "found"
    r = conform("--engine", ADAPTER, "--budget", "8", "--seed", "1", "--edition", "en-revised",
                "--reading", "effects.hunter-order=hunter-first", "--format", "json", "--out", str(out))
    assert r.returncode == 1, r.stderr
    lines = reports(r)
    bad = [g for g in lines if g["t"] == "game" and g["verdict"] == "violates"]
    assert bad and all(g["readings"] == {"effects.hunter-order": "hunter-first"} for g in bad)
    for g in bad:
        f = g["findings"][0]
        assert f["basis"] == "reading" and f["reading"] == {"clause": "effects.hunter-order",
                                                            "choice": "hunter-first"}, f
        assert "attack-effect-first" in f["alternatives"]
    assert lines[-1]["reading_only"] == len(bad)
    [log] = out.glob("*.jsonl")
    rep = [verify_game(x) for x in split_games(io.BytesIO(log.read_bytes()), log.name)][0]
    first = [g for g in bad if any(n.startswith("root cause") for n in g["notes"])][0]["findings"][0]
    v = rep.findings[0]
    assert (v.code, v.clauses, v.basis, v.reading) == (first["code"], first["clauses"], "reading", first["reading"])


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
        "            time.sleep(60)\n"
        "    print(json.dumps(a.handle(msg)), flush=True)\n")
    # 2 s: what a loaded machine may take to start the adapter stays within it (0.5 s did not, at
    # times, and the deal's reply was taken for the hang); the hang itself (60 s) never does.
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "3", "--edition", "en-revised",
                "--timeout", "2", "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stdout + r.stderr
    games = [g for g in reports(r) if g["t"] == "game"]
    assert len(games) == 3 and all(g["verdict"] == "malformed" for g in games)
    messages = [g["findings"][0]["message"] for g in games]
    assert all(g["findings"][0]["code"] == "ENGINE_FAULT" for g in games)
    assert any("exited with status 9" in m and "out of cheese" in m for m in messages) or \
        any("within 2 s" in m for m in messages), messages
    # Where: after the two decisions both sides applied, not at the deal.
    mid = [g for g in games if g["findings"][0]["message"].startswith("no reply to apply")]
    assert mid and all(g["findings"][0]["line"] == 2 and g["decisions"] == 2 for g in mid), games


def test_engine_messages_and_the_example_adapters_replies_follow_the_printed_schemas():
    from click.testing import CliRunner

    from oracle.replay.command import schema as schema_command

    schemas = {n: json.loads(CliRunner().invoke(schema_command, [n]).output) for n in ("engine", "engine-reply")}
    setup = seeded_deal(4, "en-first")
    from oracle.games.mindbug.harness.start import game_from_setup
    g = game_from_setup("en-first", setup)
    messages = [ep.Hello(), ep.Deal(edition="en-first", setup=setup_line(setup))]
    for _ in range(6):
        d = g.legal_decisions()[0]
        g.apply(d)
        messages.append(ep.Apply(decision=line_of(d)))
    encoded = [json.loads(message_encoder.encode(m)) for m in messages]
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


def wrapped_adapter(script, body: str, plants: tuple[str, ...] = ()):
    """An adapter around the example one (with the rules `plants` switched
    off) that runs `body` (Python lines, with `msg`, `reply`, `a` the example
    adapter and `ea` its module) before each reply."""
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "import engine_adapter as ea\n"
        + "".join(f"ea.plant({p!r})\n" for p in plants) +
        f"a = ea.Adapter({plants!r})\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'quit':\n"
        "        break\n"
        "    reply = a.handle(msg)\n"
        + body +
        "    print(json.dumps(reply), flush=True)\n")
    return script


EAGER = ("    g = a.game\n"      # the engine applies every decision with one legal option on its own
         "    while g is not None and g.pending is not None and len(g.pending.options) == 1:\n"
         "        g.apply(g.legal_decisions()[0])\n"
         "        reply = ea.view(g, a.planted)\n")


def test_an_engine_that_takes_forced_decisions_itself_still_conforms(tmp_path):
    """An adapter that applies every decision with one legal option on its
    own (and never lists it) agrees with the rules."""
    script = wrapped_adapter(tmp_path / "eager.py", EAGER)
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


def test_an_adapter_that_answers_twice_is_an_engine_fault_not_a_shifted_state(tmp_path):
    """The second copy of a reply waits when the next message is to go out:
    taken for its reply, it would shift every later reply, into the next games."""
    script = tmp_path / "twice.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "import engine_adapter as ea\n"
        "a = ea.Adapter(None)\n"
        "count = 0\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['op'] == 'quit':\n"
        "        break\n"
        "    count += 1\n"
        "    reply = json.dumps(a.handle(msg)) + '\\n'\n"
        "    sys.stdout.write(reply * (2 if count == 3 else 1)); sys.stdout.flush()\n")
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "2", "--edition", "en-revised",
                "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stdout + r.stderr
    games = [g for g in reports(r) if g["t"] == "game"]
    assert len(games) == 2 and all(g["verdict"] == "malformed" for g in games), games
    for g in games:
        assert g["findings"][0]["code"] == "ENGINE_FAULT" and g["findings"][0]["line"] == 1, g
        assert g["findings"][0]["message"].startswith("the engine wrote a line before apply was sent"), g


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
    from oracle.harness import lockstep

    spec = (ROOT / "spec" / "engine-protocol.md").read_text(encoding="utf-8")
    codes = [lockstep.OPTIONS_DIFFER, lockstep.STATE_MISMATCH, lockstep.WRONG_RESULT, lockstep.ENGINE_REFUSED,
             conform_module.ENGINE_FAULT]
    for code in codes:
        assert f"`{code}`" in spec, code
    for op in ("hello", "deal", "position", "apply", "quit"):
        assert f'{{"op": "{op}"' in spec, op
    assert PROTOCOL in spec
    # Every field of a reply, and each question an engine author would otherwise guess at.
    for name in ep.Reply.__struct_fields__:
        assert f"`{name}`" in spec or f"\"{name}\"" in spec, name
    for heading in ("**Who starts.**", "**Chance inside one call.**", "**Two decisions in one call.**",
                    "**`played` and `active` in a claim.**", "## Capabilities in hello"):
        assert heading in spec, heading


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
    from oracle.games.mindbug.engine import SetupError
    from oracle.games.mindbug.scenarios.runner import build, given_args

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
    from oracle.games.mindbug.harness.scenario_run import _start_message

    scenarios = {sc.id: sc for sc in load_file(LATER).scenarios}
    msg = _start_message(scenarios["later.harvest-last-counter-at-the-next-turn"], "en-revised")
    data = json.loads(message_encoder.encode(msg))
    monarch = [k for k, v in data["position"]["cards"].items() if v == "Lychee Monarch"]
    assert data["position"]["octonite"] == {k: 1 for k in monarch if int(k) in data["position"]["play"][0]}
    assert len(data["position"]["octonite"]) == 1
    # 0 counters: nothing to send, and the message is as it was before counters could be sent.
    msg = _start_message(scenarios["later.harvest-with-no-counter-left-does-nothing"], "en-revised")
    assert b"octonite" not in message_encoder.encode(msg)
    tough = load_file(ROOT / "scenarios" / "keywords-tough.yaml").scenarios[0]
    assert b"octonite" not in message_encoder.encode(_start_message(tough, "en-revised"))


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
    assert "the log " not in harvest["message"] and all("the log " not in d["text"] for d in harvest["diff"])
    assert bad["scenario later.octonite-action-paid-with-the-last-counter [en-revised]"]["code"] == "OPTIONS_DIFFER"


def test_a_position_message_with_counters_and_activate_options_follow_the_printed_schemas():
    from click.testing import CliRunner

    from oracle.games.mindbug.harness.scenario_run import _start_message
    from oracle.replay.command import schema as schema_command

    schemas = {n: json.loads(CliRunner().invoke(schema_command, [n]).output) for n in ("engine", "engine-reply")}
    check = {n: jsonschema.Draft202012Validator(s) for n, s in schemas.items()}
    scenarios = {sc.id: sc for sc in load_file(LATER).scenarios}
    msg = json.loads(message_encoder.encode(
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


def test_scenarios_an_engine_cannot_play_are_counted_and_listed_with_why(tmp_path):
    # An engine that plays English revised alone and sets up no position.
    script = wrapped_adapter(tmp_path / "no_positions.py",
                             "    if msg['op'] == 'hello':\n"
                             "        reply.update(positions=False, editions=['en-revised'])\n")
    path = ROOT / "scenarios" / "interactions.yaml"
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "0", "--scenarios", str(path),
                "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    played = {x["id"] for x in reports(r) if x["t"] == "game"}
    sf = load_file(path)
    positions = {f"scenario {sc.id} [en-revised]" for sc in sf.scenarios
                 if sc.doc.given.deal is msgspec.UNSET and "en-revised" in sc.editions()
                 and sc.doc.readings is msgspec.UNSET}
    readings = {f"scenario {sc.id} [en-revised]" for sc in sf.scenarios if sc.doc.readings is not msgspec.UNSET}
    assert positions and readings and not (positions | readings) & played
    err = r.stderr.splitlines()
    total = int(re.match(r"conform: (\d+) scenario runs skipped:", err[0]).group(1))
    assert total == sum(len(sc.editions()) for sc in sf.scenarios) - len(played)
    listed = {line.strip().split("  ")[0] for line in err if line.startswith("    scenario ")}
    assert positions | readings <= listed
    assert any("the engine cannot set up positions" in line for line in err)
    assert any("under the reading" in line and "team's readings" in line for line in err)
    assert any(line.strip().endswith("the engine does not play en-first") for line in err)


def test_an_engine_that_draws_late_with_that_deviation_expected_still_gets_its_other_deviations_found(tmp_path):
    expect = tmp_path / "known.yaml"
    expect.write_text("format: mb-expect/1\nexpected:\n  - code: STATE_MISMATCH\n    clause: drawing.refill\n"
                      "    note: the engine draws at the end of the turn\n")
    out = tmp_path / "found"
    r = conform("--engine", f"{ADAPTER} --plant draw-late --plant sneaky", "--budget", "8", "--seed", "1",
                "--edition", "en-revised", "--edition", "fr-first", "--expect", str(expect), "--format", "json",
                "--out", str(out))
    assert r.returncode == 1, r.stderr
    lines = reports(r)
    games = [g for g in lines if g["t"] == "game"]
    # Every game meets the late draw at once; past it, SNEAKY's deviation is found, once as a root cause.
    assert all(g["findings"] and g["findings"][0]["expected"] and g["findings"][0]["line"] <= 3 for g in games)
    new = [g for g in games if g["outcome"] == "fail"]
    assert new and all(not g["findings"][-1].get("expected") and g["findings"][-1]["clauses"][0] == "keywords.sneaky"
                       and all(f["expected"] for f in g["findings"][:-1]) for g in new)
    assert all(any(n.startswith("followed past") for n in g["notes"]) for g in games)
    assert lines[-1]["xfail"] == len(games) - len(new) and lines[-1]["failed"] == len(new)
    roots = [n for g in new for n in g["notes"] if n.startswith("root cause ")]
    assert len(roots) == 1 and "artifact: the draft scenario" in roots[0]
    [draft] = out.glob("*.yaml")
    sc = load_file(draft).scenarios[0]
    assert "players" in yaml.safe_load(draft.read_text())["given"] and run_scenario(sc, sc.editions()[0]).passed
    again = conform("--engine", f"{ADAPTER} --plant draw-late --plant sneaky", "--budget", "0", "--scenarios",
                    str(draft), "--format", "json", "--out", str(tmp_path / "again"))
    [g] = [x for x in reports(again) if x["t"] == "game"]
    assert g["verdict"] == "violates" and g["findings"][0]["clauses"][0] == "keywords.sneaky"


def test_deviations_the_engine_declares_in_hello_are_expected_failures(tmp_path):
    r = conform("--engine", f"{ADAPTER} --plant draw-late --declare", "--budget", "4", "--seed", "2",
                "--edition", "en-revised", "--format", "json", "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout[-3000:]
    summary = reports(r)[-1]
    assert summary["xfail"] == summary["violates"] == 4 and summary["failed"] == 0


def test_a_divergence_found_late_gets_a_short_draft_from_a_position_and_the_median_is_said(tmp_path):
    # An engine that ends the game when a hand runs out: no game shows it before
    # the draw piles are spent, dozens of decisions in.
    out = tmp_path / "found"
    r = conform("--engine", f"{ADAPTER} --plant empty-hand-loses", "--budget", "4", "--seed", "1",
                "--edition", "en-revised", "--format", "json", "--out", str(out))
    assert r.returncode == 1, r.stderr
    [note] = [n for g in reports(r) if g["t"] == "game" for n in g["notes"] if n.startswith("root cause ")]
    found, small = map(int, re.search(r"shrunk from (\d+) to (\d+) decisions", note).groups())
    assert found >= 30, note
    m = re.search(r"just before it, (\d+) decisions? \(the draft scenario\), with (\d+) of its (\d+) cards", note)
    draft_len, kept, before = map(int, m.groups())
    assert draft_len <= 3 and kept <= 4 < before, note
    m = re.search(r"conform: 1 root cause shrunk from a median of (\d+) to (\d+) decisions \(the shortest "
                  r"artifact of each: median (\d+), longest (\d+)\)", r.stderr)
    assert m and tuple(map(int, m.groups())) == (found, small, draft_len, draft_len), r.stderr
    [draft] = sorted(out.glob("*.yaml"))
    sc = load_file(draft).scenarios[0]
    assert run_scenario(sc, sc.editions()[0]).passed
    given = yaml.safe_load(draft.read_text())["given"]
    assert sum(len(p[z]) for p in given["players"] for z in ("hand", "play", "discard", "deck")) == kept
    again = conform("--engine", f"{ADAPTER} --plant empty-hand-loses", "--budget", "0", "--scenarios", str(draft),
                    "--format", "json", "--out", str(tmp_path / "again"))
    [g] = [x for x in reports(again) if x["t"] == "game"]
    assert again.returncode == 1 and g["verdict"] == "violates"


def test_several_root_causes_are_shrunk_to_a_median_of_a_few_decisions(tmp_path):
    r = conform("--engine", f"{ADAPTER} --plant sneaky --plant tough-effects --plant frenzy --plant hunt-decline",
                "--budget", "16", "--seed", "1", "--edition", "en-revised", "--edition", "en-first",
                "--format", "json", "--out", str(tmp_path / "found"))
    assert r.returncode == 1, r.stderr
    roots = [n for g in reports(r) if g["t"] == "game" for n in g["notes"] if n.startswith("root cause ")]
    m = re.search(r"conform: (\d+) root causes shrunk from a median of (\d+) to (\d+) decisions \(the shortest "
                  r"artifact of each: median (\d+)", r.stderr)
    assert m and int(m.group(1)) == len(roots) >= 3, r.stderr
    assert int(m.group(4)) <= 6 and int(m.group(3)) <= int(m.group(2)), r.stderr


def test_played_cards_are_moved_into_their_players_draw_piles_and_the_reveals_stay():
    from oracle.games.mindbug.engine import Decision
    from oracle.games.mindbug.harness.lockstep import Divergence
    from oracle.games.mindbug.harness.shrink import _regrouped
    from oracle.replay.findings import Finding

    setup = {"cards": {i: "Spider Owl" for i in range(10)}, "decks": [[0, 1, 2], [3, 4, 5]], "unused": [6, 7, 8, 9],
             "reveals": [[8, 9]], "first": 0}
    ds = [Decision("play", 0, 4), Decision("pass", 1), Decision("play", 1, 7), Decision("play", 0, 8)]
    div = Divergence(ds, Finding("STATE_MISMATCH", ["combat.block"], 4, ""), None, [], 0)
    got = _regrouped(setup, div, [4, 7, 8])
    assert 4 in got["decks"][0] and 7 in got["decks"][1]
    assert 8 in got["unused"] and 9 in got["unused"]                       # revealed: left where they are
    everything = sorted(got["decks"][0] + got["decks"][1] + got["unused"])
    assert everything == list(range(10)) and [len(d) for d in got["decks"]] == [3, 3]
    assert _regrouped(setup, Divergence(ds[1:2], div.finding, None, [], 0), []) is None


def test_the_human_report_names_the_engine_where_verify_names_the_log(tmp_path):
    r = conform("--engine", f"{ADAPTER} --plant draw-late", "--budget", "1", "--seed", "1", "--color", "never",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 1, r.stderr
    assert "    engine says: {" in r.stdout and "since engine and rules last agreed" in r.stdout
    assert "log says" not in r.stdout and "since log and" not in r.stdout


FORCED_PASS = """format: mb-scenario/1
id: forced.pass-then-sneaky
title: A pass forced on a player with no Mindbug left, then a creature without SNEAKY may not block a SNEAKY one
clauses: [keywords.sneaky]
editions: [en-revised]
source: {kind: rulebook, ref: "Keywords: SNEAKY"}
given:
  players:
    - hand: [Bee Bear, Axolotl Healer]
      play: [Spider Owl]
      deck: [Shark Dog, Rhino Turtle]
    - mindbugs: 0
      hand: [Brain Fly, Compost Dragon]
      play: [Gorillion]
      deck: [Luchataur, Tusked Extorter]
steps:
  - play: Bee Bear
  - pass
  - play: Brain Fly
  - %s
  - attack: Spider Owl
  - block: Gorillion
settle: false
illegal: {step: 6, code: ILLEGAL_DECISION, clause: keywords.sneaky}
"""


def test_a_draft_that_writes_a_forced_step_the_engine_took_itself_plays_to_its_end(tmp_path):
    """As conform writes a draft, its steps hold the forced decisions an
    engine took on its own (a `pass` where no Mindbug is left). Played
    against that engine, such a step is one the run has already taken: it
    is passed over, and the scenario plays on to SNEAKY's block, which the
    engine allows. (It stopped at the `pass` and reported "conforms" after
    two decisions.)"""
    path = tmp_path / "draft.yaml"
    path.write_text(FORCED_PASS % "pass")
    sc = load_file(path).scenarios[0]
    assert run_scenario(sc, "en-revised").passed
    script = wrapped_adapter(tmp_path / "eager.py", EAGER, plants=("sneaky",))
    r = conform("--engine", f"{sys.executable} {script}", "--budget", "0", "--scenarios", str(path),
                "--format", "json", "--out", str(tmp_path / "o"))
    assert r.returncode == 1, r.stdout + r.stderr
    [g] = [x for x in reports(r) if x["t"] == "game"]
    assert g["verdict"] == "violates" and g["decisions"] == 6, g
    assert g["findings"][0]["clauses"] == ["keywords.sneaky"] and g["findings"][0]["line"] == sc.line_of("step", 5)


def test_a_scenario_whose_run_stops_short_with_no_difference_is_a_skipped_run_that_says_why(tmp_path):
    """A step the rules refuse where the run reaches it, and not the refusal
    the scenario expects: the run is skipped, counted and listed with the
    step and the refusal, not reported as conforming."""
    path = tmp_path / "wrong.yaml"
    path.write_text(FORCED_PASS % "mindbug")         # the Brain Fly is taken: the next turn is not player 0's
    r = conform("--engine", ADAPTER, "--budget", "0", "--scenarios", str(path), "--format", "json",
                "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert not [x for x in reports(r) if x["t"] == "game"]
    err = r.stderr.splitlines()
    assert err[0] == "conform: 1 scenario run skipped:", r.stderr
    assert err[1].startswith("  1: it stops short of its end against the engine, with no difference found: the "
                             "rules refuse its step 5 (attack: Spider Owl) where the run reaches it: "
                             "ILLEGAL_DECISION [combat.attack]"), err[1]
    assert err[2].split() == ["scenario", "forced.pass-then-sneaky", "[en-revised]", f"{path}:1"]
