"""The JSON Schemas that `mb-oracle schema ...` prints, checked in Ajv (the
JavaScript validator engine authors use) in strict mode and in Python's
jsonschema: every schema compiles; every shipped log line, scenario and
report line validates; and the values that verify and the scenario loader
refuse (a player other than 0 or 1, another format version, an unknown
edition, a pair that is not a pair, a huge claim) are refused by the
schemas too.

Ajv runs in one Node process for everything (tests/js/validate.js). It is
installed from tests/js/package-lock.json (`npm ci --prefix tests/js`,
which .ci/run does); without Node the Ajv tests are skipped with the reason.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import shutil
import subprocess

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT, run_cli

from oracle.games.mindbug.replay import format as replay_format
from oracle.replay.command import schema as schema_command
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game
from oracle.scenarios.loader import load_text
from oracle.schemas import DIALECT

JS = ROOT / "tests" / "js"
# Every schema `mb-oracle schema` prints; `mind-up-X` is `schema X --game mind-up` (replay and the harness formats).
MIND_UP_SCHEMAS = ("replay", "rpc", "rpc-response", "engine", "engine-reply")
SCHEMA_NAMES = tuple(schema_command.params[0].type.choices) + tuple("mind-up-" + n for n in MIND_UP_SCHEMAS)


def printed_schema(name: str) -> dict:
    args = [name.removeprefix("mind-up-"), "--game", "mind-up"] if name.startswith("mind-up-") else [name]
    result = CliRunner().invoke(schema_command, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# -- the documents ---------------------------------------------------------------------

@functools.cache
def _base_game_text() -> str:
    lines = [json.loads(x) for x in selfplay_lines(1, 5, "en-first", "random", "every")]
    setup = lines[1]
    setup["life_cards"] = [setup["unused"][:3], setup["unused"][3:6]]
    return json.dumps(lines)


def base_game() -> list[dict]:
    """A conforming English first edition game with a claim after every
    decision, and a setup naming its life cards (a fresh copy)."""
    return json.loads(_base_game_text())


def _first(lines, t):
    return next(i for i, x in enumerate(lines) if x["t"] == t)


def _set(field, value):
    def change(line):
        line[field] = value(line) if callable(value) else value
    return change


def _replace(new_line):
    def change(line):
        line.clear()
        line.update(new_line)
    return change


# (name, line type to change, change, the field verify and Ajv must name)
BAD_LINES = [
    ("a play by player 2", "play", _set("p", 2), "p"),
    ("a play by player -1", "play", _set("p", -1), "p"),
    ("a block by player 7", "play", _replace({"t": "block", "p": 7, "card": None}), "p"),
    ("another format version", "game", _set("format", "mb-replay/2"), "format"),
    ("an unknown edition", "game", _set("edition", "en-second"), "edition"),
    ("a starting player 2", "setup", _set("first", 2), "first"),
    ("one draw pile", "setup", _set("decks", lambda x: x["decks"][:1]), "decks"),
    ("three draw piles", "setup", _set("decks", lambda x: x["decks"] + [[]]), "decks"),
    ("a reveal of one card", "setup", _set("reveals", [[1]]), "reveals[0]"),
    ("one pile of life cards", "setup", _set("life_cards", lambda x: x["life_cards"][:1]), "life_cards"),
    ("a card id that is not an integer", "setup", _set("cards", lambda x: {**x["cards"], "01": "Gorillion"}),
     "cards"),
    ("1,001 cards in the setup", "setup",
     _set("cards", lambda x: {**x["cards"], **{str(1000 + i): "Gorillion" for i in range(1001)}}), "cards"),
    ("an unused pile of 1,001 cards", "setup", _set("unused", list(range(1001))), "unused"),
    ("the life of one player", "state", _set("life", [3]), "life"),
    ("three Mindbug counts", "state", _set("mindbugs", [2, 2, 2]), "mindbugs"),
    ("one hand", "state", _set("hand", lambda x: x["hand"][:1]), "hand"),
    ("one play area", "state", _set("play", lambda x: x["play"][:1]), "play"),
    ("three discard piles", "state", _set("discard", [[], [], []]), "discard"),
    ("one draw pile claimed", "state", _set("deck", [5]), "deck"),
    ("active player 2", "state", _set("active", 2), "active"),
    ("a 40,000-card hand", "state", _set("hand", [list(range(40000)), []]), "hand[0]"),
    ("a claimed unused pile of 1,001 cards", "state", _set("unused", list(range(1001))), "unused"),
    ("a creature with 101 keywords", "state",
     _set("play", [[{"card": 1, "keywords": ["HUNTER"] * 101}], []]), "play[0][0].keywords"),
    ("a creature at stage 4", "state", _set("play", [[{"card": 1, "stage": 4}], []]), "play[0][0].stage"),
    ("a creature at stage 0", "state", _set("play", [[{"card": 1, "stage": 0}], []]), "play[0][0].stage"),
    ("a face that is not a name", "state", _set("play", [[{"card": 1, "face": 3}], []]), "play[0][0].face"),
    ("boost cards that are not a list", "state", _set("play", [[{"card": 1, "boosts": 7}], []]),
     "play[0][0].boosts"),
    ("1,001 boost cards under a creature", "state",
     _set("play", [[{"card": 1, "boosts": list(range(1001))}], []]), "play[0][0].boosts"),
    ("1,001 cards chosen", "play", _replace({"t": "choose", "p": 0, "cards": list(range(1001))}), "cards"),
    ("1,001 cards taken at random", "play", _replace({"t": "random", "cards": list(range(1001))}), "cards"),
    ("winner 2", "end", _set("winner", 2), "winner"),
]


def bad_game(kind: str, change) -> tuple[list[dict], int]:
    lines = base_game()
    idx = _first(lines, kind)
    change(lines[idx])
    return lines, idx + 1


def jsonl(lines) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


BASE_SCENARIO = {
    "format": "mb-scenario/1",
    "id": "schema.sneaky-block",
    "title": "A creature without SNEAKY cannot block a SNEAKY attacker",
    "clauses": ["keywords.sneaky"],
    "source": {"kind": "rulebook", "ref": "Keywords: SNEAKY"},
    "given": {"players": [{"play": ["Spider Owl"]}, {"play": ["Gorillion"]}]},
    "steps": [{"attack": "Spider Owl"}, {"block": "Gorillion"}],
    "illegal": {"step": 2, "code": "ILLEGAL_DECISION", "clause": "keywords.sneaky"},
}
DEAL_SCENARIO = {
    "format": "mb-scenario/1",
    "id": "schema.deal",
    "title": "The cards not dealt form the unused pile",
    "clauses": ["setup.deal"],
    "source": {"kind": "rulebook", "ref": "Game Setup"},
    "given": {"deal": {"decks": [
        ["Axolotl Healer", "Compost Dragon", "Explosive Toad", "Ferret Bomber", "Goblin Werewolf",
         "Grave Robber", "Kangasaurus Rex", "Killer Bee", "Luchataur", "Plated Scorpion"],
        ["Axolotl Healer#2", "Compost Dragon#2", "Explosive Toad#2", "Ferret Bomber#2", "Goblin Werewolf#2",
         "Grave Robber#2", "Kangasaurus Rex#2", "Killer Bee#2", "Luchataur#2", "Plated Scorpion#2"]],
        "first": 0}},
    "editions": ["en-revised"],
    "expect": {"unused": 28},
}


def _at(doc, path, value):
    node = doc
    for step in path[:-1]:
        node = node[step]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value(node[path[-1]]) if callable(value) else value


_DELETE = object()

# (name, base, [(path, value)], the field the loader and Ajv must name)
BAD_SCENARIOS = [
    ("active player 2", BASE_SCENARIO, [(["given", "active"], 2)], "given.active"),
    ("another format version", BASE_SCENARIO, [(["format"], "mb-scenario/2")], "format"),
    ("an unknown edition", BASE_SCENARIO, [(["editions"], ["en-second"])], "editions"),
    ("an override for an unknown edition", BASE_SCENARIO,
     [(["expect_by_edition"], {"en-second": {"illegal": None}})], "expect_by_edition"),
    ("three players", BASE_SCENARIO, [(["given", "players"], lambda p: p + [{}])], "given.players"),
    ("one player", BASE_SCENARIO, [(["given", "players"], lambda p: p[:1])], "given.players"),
    ("a step by player 2", BASE_SCENARIO, [(["steps", 0], {"attack": "Spider Owl", "by": 2})], "steps[0].by"),
    ("an expected winner 2", BASE_SCENARIO, [(["illegal"], _DELETE), (["expect"], {"winner": 2})],
     "expect.winner"),
    ("one draw pile in the deal", DEAL_SCENARIO, [(["given", "deal", "decks"], lambda d: d[:1])],
     "given.deal.decks"),
    ("a reveal of three cards", DEAL_SCENARIO,
     [(["given", "deal", "reveals"], [["Gorillion", "Spider Owl", "Brain Fly"]])], "given.deal.reveals"),
    ("a deal with starting player 2", DEAL_SCENARIO, [(["given", "deal", "first"], 2)], "given.deal.first"),
    ("a negative Octonite count", BASE_SCENARIO,
     [(["given", "players", 0, "play", 0], {"card": "Spider Owl", "octonite": -1})],
     "given.players[0].play[0].octonite"),
    ("a fraction of an Octonite counter", BASE_SCENARIO,
     [(["given", "players", 0, "play", 0], {"card": "Spider Owl", "octonite": 1.5})],
     "given.players[0].play[0].octonite"),
    ("Octonite counters written true", BASE_SCENARIO,
     [(["given", "players", 0, "play", 0], {"card": "Spider Owl", "octonite": True})],
     "given.players[0].play[0].octonite"),
    ("100 Octonite counters", BASE_SCENARIO,
     [(["given", "players", 0, "play", 0], {"card": "Spider Owl", "octonite": 100})],
     "given.players[0].play[0].octonite"),
    ("an expected count of 100 Octonite counters", BASE_SCENARIO,
     [(["illegal"], _DELETE), (["expect"], {"octonite": {"Spider Owl": 100}})], "expect.octonite"),
]


def bad_scenario(base, changes) -> dict:
    doc = copy.deepcopy(base)
    for path, value in changes:
        _at(doc, path, value)
    return doc


def _pointer(field: str) -> str:
    """`play[0][0].keywords` as Ajv writes it: `/play/0/0/keywords`."""
    return "/" + field.replace("[", "/").replace("]", "").replace(".", "/")


def valid_documents(tmp_path_factory) -> list[tuple[str, object, str]]:
    docs: list[tuple[str, object, str]] = []
    for path in sorted((ROOT / "replays").rglob("*.jsonl")):
        schema = "replay"
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                doc = json.loads(line)
                if doc["t"] == "game":      # each game's lines against its own game's schema
                    schema = "mind-up-replay" if doc.get("game") == "mind-up" else "replay"
                docs.append((schema, doc, f"{path.relative_to(ROOT)}:{i}"))
    for i, line in enumerate(base_game(), 1):
        docs.append(("replay", line, f"self-play game line {i}"))
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is not None:
                docs.append(("scenario", json.loads(json.dumps(doc)), f"{path.name}: {doc.get('id')}"))
    docs.append(("scenario", BASE_SCENARIO, "base scenario"))
    docs.append(("scenario", DEAL_SCENARIO, "deal scenario"))
    expect = tmp_path_factory.mktemp("expect") / "expect.yaml"
    expect.write_text("format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    clause: keywords.sneaky\n"
                      "  - code: STATE_MISMATCH\n    clause: keywords.frenzy\n")
    r = run_cli("verify", "replays/", "--format", "json", "--which-editions", "--keep-going", "--expect", str(expect))
    assert r.returncode in (0, 1), r.stderr
    for i, line in enumerate(r.stdout.splitlines(), 1):
        docs.append(("report", json.loads(line), f"verify report line {i}"))
    return docs


MIND_UP_GAME = {"t": "game", "game": "mind-up", "format": "mu-replay/1", "id": "g", "players": 4}
MIND_UP_BAD_LINES = [
    ({**MIND_UP_GAME, "format": "mu-replay/2"}, "a Mind Up! log of another version", "/format"),
    ({**MIND_UP_GAME, "players": 7}, "seven Mind Up! players", "/players"),
    ({**MIND_UP_GAME, "objectives": 6}, "six objectives at once", "/objectives"),
    ({"t": "turn", "cards": [12, 61, 3, 4]}, "a Mind Up! card 61", "/cards/1"),
    ({"t": "round", "order": [1, 2, 3, 4]}, "a Score order of four cards", "/order"),
    ({"t": "choose", "p": 6, "card": 3}, "a seventh Mind Up! player", "/p"),
]


def invalid_documents() -> list[tuple[str, object, str, str]]:
    docs = []
    for name, kind, change, field in BAD_LINES:
        lines, lineno = bad_game(kind, change)
        docs.append(("replay", lines[lineno - 1], name, field))
    for name, base, changes, field in BAD_SCENARIOS:
        docs.append(("scenario", bad_scenario(base, changes), name, field))
    for doc, label, field in MIND_UP_BAD_LINES:
        docs.append(("mind-up-replay", doc, label, field))
    docs.append(("report", {"t": "summary"}, "a summary without its counts", "/"))
    docs.append(("report", {"t": "verdicts"}, "an unknown report line type", "/t"))
    docs.append(("report", {"t": "game", "file": "a.jsonl", "line": "one", "id": "g"}, "a line number in words",
                 "/line"))
    return docs


# -- Ajv -------------------------------------------------------------------------------


def _node_with_ajv() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (no `node` on PATH): the Ajv check of the schemas needs it")
    if not (JS / "node_modules" / "ajv" / "package.json").exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("Ajv is not installed in tests/js/node_modules and there is no `npm` to install it")
        try:
            r = subprocess.run([npm, "ci", "--prefix", str(JS), "--no-audit", "--no-fund", "--loglevel=error"],
                               capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            pytest.skip("Ajv is not installed: `npm ci --prefix tests/js` took more than 180 s")
        if r.returncode != 0:
            pytest.skip(f"Ajv is not installed: `npm ci --prefix tests/js` failed: {r.stderr.strip()[-300:]}")
    return node


@pytest.fixture(scope="module")
def ajv(tmp_path_factory):
    """Every schema compiled in Ajv strict mode and every document validated,
    in one Node process: (compile errors by schema, {label: error or None})."""
    node = _node_with_ajv()
    schemas = {name: printed_schema(name) for name in SCHEMA_NAMES}
    valid = valid_documents(tmp_path_factory)
    invalid = invalid_documents()
    docs = [[name, doc] for name, doc, _ in valid] + [[name, doc] for name, doc, _, _ in invalid]
    r = subprocess.run([node, str(JS / "validate.js")], input=json.dumps({"schemas": schemas, "documents": docs}),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    results = out["results"]
    return {
        "compile": out["compile"],
        "valid": [(label, name, err) for (name, _, label), err in zip(valid, results)],
        "invalid": {label: err for (_, _, label, _), err in zip(invalid, results[len(valid):])},
    }


def test_every_schema_compiles_in_ajv_strict_mode(ajv):
    assert set(ajv["compile"]) == set(SCHEMA_NAMES) >= {"replay", "scenario", "report"}
    assert ajv["compile"] == {name: None for name in SCHEMA_NAMES}


def test_ajv_accepts_every_shipped_log_line_scenario_and_report_line(ajv):
    rejected = [(label, err) for label, _, err in ajv["valid"] if err is not None]
    assert not rejected, rejected[:5]
    counts = {}
    for _, name, _ in ajv["valid"]:
        counts[name] = counts.get(name, 0) + 1
    assert counts["replay"] > 1000 and counts["scenario"] >= 150 and counts["report"] >= 30, counts
    assert counts["mind-up-replay"] > 100, counts


@pytest.mark.parametrize("doc,label,field", MIND_UP_BAD_LINES, ids=[x[1] for x in MIND_UP_BAD_LINES])
def test_ajv_refuses_each_bad_mind_up_line_naming_the_field(ajv, doc, label, field):
    err = ajv["invalid"][label]
    assert err is not None and field in err, (label, err)


@pytest.mark.parametrize("name,kind,change,field", BAD_LINES, ids=[x[0] for x in BAD_LINES])
def test_ajv_refuses_each_bad_log_line_naming_the_field(ajv, name, kind, change, field):
    err = ajv["invalid"][name]
    assert err is not None, f"Ajv accepted {name}"
    assert _pointer(field) in err, err


@pytest.mark.parametrize("name,kind,change,field", BAD_LINES, ids=[x[0] for x in BAD_LINES])
def test_verify_refuses_each_bad_log_line_as_malformed_naming_field_and_line(name, kind, change, field):
    lines, lineno = bad_game(kind, change)
    reps = [verify_game(r) for r in split_games(io.BytesIO(jsonl(lines) + jsonl(base_game())), "bad.jsonl")]
    assert [r.verdict for r in reps] == ["malformed", "conforms"]
    finding = reps[0].findings[0]
    # A game line of another version or edition keeps its own code, named in the message.
    code = {"format": "BAD_VERSION", "edition": "UNKNOWN_EDITION"}.get(field, "BAD_LINE")
    assert (finding.code, finding.line) == (code, lineno)
    if code == "BAD_LINE":
        # The message names the field (msgspec's path, `$.hand[0]`), never a traceback.
        assert f"$.{field}" in finding.message, finding.message
    else:
        assert field in finding.message, finding.message


@pytest.mark.parametrize("name,base,changes,field", BAD_SCENARIOS, ids=[x[0] for x in BAD_SCENARIOS])
def test_ajv_refuses_each_bad_scenario_naming_the_field(ajv, name, base, changes, field):
    err = ajv["invalid"][name]
    assert err is not None, f"Ajv accepted {name}"
    assert _pointer(field) in err, err


@pytest.mark.parametrize("name,base,changes,field", BAD_SCENARIOS, ids=[x[0] for x in BAD_SCENARIOS])
def test_the_scenario_loader_refuses_each_bad_scenario_naming_the_field(name, base, changes, field):
    loaded = load_text(yaml.safe_dump(bad_scenario(base, changes), sort_keys=False), "bad.yaml")
    assert not loaded.scenarios and loaded.errors
    assert f": {field}" in str(loaded.errors[0]), str(loaded.errors[0])


def test_the_unchanged_documents_are_valid():
    """The bad documents above are bad for the one change made to them."""
    reps = [verify_game(r) for r in split_games(io.BytesIO(jsonl(base_game())), "base.jsonl")]
    assert [r.verdict for r in reps] == ["conforms"], reps[0].findings
    for base in (BASE_SCENARIO, DEAL_SCENARIO):
        loaded = load_text(yaml.safe_dump(base, sort_keys=False), "base.yaml")
        assert not loaded.errors and len(loaded.scenarios) == 1, [str(e) for e in loaded.errors]


def test_ajv_refuses_malformed_report_lines(ajv):
    for _, _, label, pointer in [d for d in invalid_documents() if d[0] == "report"]:
        err = ajv["invalid"][label]
        assert err is not None and pointer in err, (label, err)


# -- the same checks without Node ------------------------------------------------------


def test_every_schema_names_the_2020_12_dialect_and_an_id():
    for name in SCHEMA_NAMES:
        schema = printed_schema(name)
        assert schema["$schema"] == DIALECT == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].startswith("https://") and schema["title"] and schema["description"]
        assert "discriminator" not in json.dumps(schema)


def test_python_jsonschema_refuses_what_ajv_refuses():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency (pip install -e .[test])")
    validators = {name: jsonschema.Draft202012Validator(printed_schema(name)) for name in SCHEMA_NAMES}
    for name in SCHEMA_NAMES:
        jsonschema.Draft202012Validator.check_schema(printed_schema(name))
    for schema, doc, label, _ in invalid_documents():
        assert list(validators[schema].iter_errors(doc)), f"jsonschema accepted {label}"
    for line in base_game():
        assert not list(validators["replay"].iter_errors(line)), line


def test_the_size_caps_of_the_schema_are_the_decoders():
    schema = printed_schema("replay")
    defs = schema["$defs"]
    assert defs["SetupLine"]["properties"]["cards"]["maxProperties"] == replay_format.MAX_CARDS
    assert defs["SetupLine"]["properties"]["unused"]["maxItems"] == replay_format.MAX_ZONE
    assert defs["SetupLine"]["properties"]["reveals"]["maxItems"] == replay_format.MAX_REVEALS
    assert defs["StateLine"]["properties"]["hand"]["items"]["maxItems"] == replay_format.MAX_ZONE
    assert defs["ChooseLine"]["properties"]["cards"]["maxItems"] == replay_format.MAX_ZONE
    assert defs["Creature"]["properties"]["keywords"]["maxItems"] == replay_format.MAX_NAMES
    assert defs["GameLine"]["properties"]["format"] == {"const": replay_format.FORMAT}
    # A full legal game stays far below every cap.
    assert 48 * 10 < min(replay_format.MAX_CARDS, replay_format.MAX_ZONE, replay_format.MAX_REVEALS)
