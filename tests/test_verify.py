"""mb-oracle verify: verdicts, malformed input, outputs, keep-going, expectations."""

import io
import json
from xml.etree import ElementTree as ET

import pytest
import yaml
from conftest import ROOT, run_cli

from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

EDITIONS = ("en-first", "fr-first", "fr-revised", "en-revised")


def games_of(data: bytes, name="<test>"):
    import io
    return [verify_game(r) for r in split_games(io.BytesIO(data), name)]


def selfplay(n, seed, edition="en-revised", bot="random", claims="turn") -> bytes:
    return b"".join(x + b"\n" for x in selfplay_lines(n, seed, edition, bot, claims))


@pytest.mark.parametrize("edition", EDITIONS)
def test_selfplay_logs_conform_in_every_edition(edition):
    reps = games_of(selfplay(40, 5, edition, claims="every"))
    assert len(reps) == 40
    assert [r.verdict for r in reps] == ["conforms"] * 40, [r.findings for r in reps if r.findings][:1]


def test_greedy_bot_logs_conform():
    reps = games_of(selfplay(10, 2, "fr-revised", bot="greedy"))
    assert all(r.verdict == "conforms" for r in reps)


def test_sample_corpus_matches_its_manifest():
    manifest = yaml.safe_load((ROOT / "replays" / "manifest.yaml").read_text())["games"]
    assert len(manifest) >= 30
    import io
    options = {m["game"]: {k: m[k] for k in ("keep_going", "strict") if k in m} for m in manifest}
    by_game = {}
    for path in sorted((ROOT / "replays").rglob("*.jsonl")):
        for raw in split_games(io.BytesIO(path.read_bytes()), str(path.relative_to(ROOT / "replays"))):
            gid = json.loads(raw.lines[0][1])["id"]
            by_game[gid] = verify_game(raw, **options.get(gid, {}))
    assert set(by_game) == {m["game"] for m in manifest}
    for m in manifest:
        rep = by_game[m["game"]]
        assert rep.verdict == m["verdict"], m
        if m["verdict"] != "conforms":
            f = rep.findings[0]
            assert (f.code, f.clauses[0] if f.clauses else None, f.line) == (m["code"], m["clause"], m["line"]), (m, f)
            assert f.count == m.get("count", 1), (m, f)
            assert f.options or f.code in ("WRONG_RESULT", "LINE_AFTER_END", "BAD_SETUP", "UNKNOWN_FIELD")
            if m["verdict"] == "violates":
                assert f.basis == m.get("basis", "rules"), (m, f)
            if "then" in m:
                assert any((g.code, g.line, g.basis) == (m["then"]["code"], m["then"]["line"], m["then"]["basis"])
                           for g in rep.findings[1:]), (m, rep.findings)


def test_every_violation_kind_of_the_issue_has_a_sample():
    manifest = yaml.safe_load((ROOT / "replays" / "manifest.yaml").read_text())["games"]
    clauses = {m.get("clause") for m in manifest}
    for needed in ("keywords.sneaky", "keywords.tough", "keywords.poisonous", "mindbug.not-in-play",
                   "turns.alternate", "mindbug.extra-action", "drawing.refill", "mindbug.play-effect",
                   "mindbug.defeated-controller", "cards.power-minimum", "winning.life"):
        assert needed in clauses
    for edition in EDITIONS:
        assert any(m["file"] == f"conforming/{edition}.jsonl" for m in manifest)


def test_verify_cli_on_selfplay_and_jobs_give_identical_output(tmp_path):
    data = selfplay(60, 1, "en-first")
    one = run_cli("verify", "-", "--format", "json", input=data)
    two = run_cli("verify", "-", "--format", "json", "-j", "2", input=data)
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    last = json.loads(one.stdout.splitlines()[-1])
    assert last["t"] == "summary" and last["conforms"] == 60 and last["exit"] == 0
    human1 = run_cli("verify", "-", input=data)
    human2 = run_cli("verify", "-", "-j", "2", input=data)
    assert human1.stdout == human2.stdout and b"60 conform" in human1.stdout


def test_verify_replays_folder_exit_1_and_junit(tmp_path):
    r = run_cli("verify", "replays/", "--format", "junit")
    assert r.returncode == 1
    root = ET.fromstring(r.stdout)
    cases = root.findall(".//testcase")
    assert len(cases) >= 30
    failures = root.findall(".//failure")
    assert failures and all(f.get("type") for f in failures)


GOOD = selfplay(1, 3)


@pytest.mark.parametrize("name,bad,code", [
    ("truncated", b'{"t":"game","format":"mb-replay/1","id":"t1","edition":"en-revised"}\n{"t":"setup","cards":{"1":"Gor',
     "BAD_JSON"),
    ("not-json", b'{"t":"game","format":"mb-replay/1","id":"t2","edition":"en-revised"}\nhello world\n', "BAD_JSON"),
    ("unknown-line-type", b'{"t":"game","format":"mb-replay/1","id":"t3","edition":"en-revised"}\n{"t":"shuffle"}\n',
     "UNKNOWN_LINE_TYPE"),
    # The format version is a constant of the line's schema: another one is refused as it is decoded.
    ("wrong-version", b'{"t":"game","format":"mb-replay/9","id":"t4","edition":"en-revised"}\n', "BAD_VERSION"),
])
def test_malformed_input_is_reported_and_other_games_still_verified(tmp_path, name, bad, code):
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(GOOD + bad + (b"\n" if not bad.endswith(b"\n") and name != "truncated" else b"") +
                     (GOOD if name != "truncated" else b""))
    r = run_cli("verify", str(path), "--format", "json")
    assert r.returncode == 2
    assert b"Traceback" not in r.stderr + r.stdout
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    verdicts = [x.get("verdict") for x in lines if x["t"] == "game"]
    assert "malformed" in verdicts and verdicts.count("conforms") >= 1
    bad_game = next(x for x in lines if x.get("verdict") == "malformed")
    assert bad_game["file"] == str(path)
    assert bad_game["findings"][0]["code"] == code
    assert bad_game["findings"][0]["line"] > 1
    human = run_cli("verify", str(path))
    assert f"{path}:".encode() in human.stdout and code.encode() in human.stdout


def test_unknown_card_names_the_field(tmp_path):
    text = GOOD.decode().replace('"Gorillion"', '"Gorilliom"', 1).encode()
    path = tmp_path / "card.jsonl"
    path.write_bytes(text + GOOD)
    r = run_cli("verify", str(path))
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert b"UNKNOWN_CARD" in r.stdout and b"Gorilliom" in r.stdout and b"field cards." in r.stdout
    assert b"1 conform" in r.stdout


def test_empty_file_and_missing_file(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    r = run_cli("verify", str(empty))
    assert r.returncode == 2
    assert b"EMPTY_INPUT" in r.stdout and b"Traceback" not in r.stderr
    # A misspelt path is a usage error naming the path, before any game is verified.
    r = run_cli("verify", str(empty), str(tmp_path / "nope.jsonl"))
    assert r.returncode == 2 and r.stdout == b""
    assert b"nope.jsonl" in r.stderr and b"Traceback" not in r.stderr


def test_usage_error_exits_2():
    r = run_cli("verify", "--edition", "xx-nope", "replays/")
    assert r.returncode == 2 and b"Traceback" not in r.stderr


def test_missing_end_and_lines_outside_a_game():
    reps = games_of(b'{"t":"play","p":0,"card":1}\n' + GOOD.rsplit(b"\n", 2)[0] + b"\n")
    assert reps[0].findings[0].code == "LINE_OUTSIDE_GAME"
    assert reps[1].findings[0].code == "MISSING_END"


def _lines(data: bytes):
    return [json.loads(x) for x in data.splitlines()]


def _dump(lines) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


def test_forced_decisions_may_be_left_out():
    from oracle.games.mindbug.engine import Game
    lines = _lines(selfplay(5, 8, claims="every"))
    kept = []
    game = None
    for x in lines:
        if x["t"] == "setup":
            s = x
            game = Game.deal("en-revised", {int(k): v for k, v in s["cards"].items()}, s["decks"], s["unused"],
                             None, s["reveals"])
        elif x["t"] in ("play", "attack", "mindbug", "pass", "hunt", "block", "choose", "random") and game:
            forced = len(game.legal_decisions()) == 1
            from oracle.games.mindbug.engine import Decision
            dd = Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards")))
            game.apply(dd)
            if forced:
                continue  # leave it out: the oracle must take it
        elif x["t"] == "game":
            game = None
        kept.append(x)
    assert len(kept) < len(lines)
    assert all(r.verdict == "conforms" for r in games_of(_dump(kept)))


def test_claims_may_name_cards_instead_of_ids():
    lines = _lines(selfplay(1, 4, claims="turn"))
    names = {int(k): v for k, v in lines[1]["cards"].items()}
    for x in lines:
        if x["t"] == "state":
            x["hand"] = [[names[c] for c in h] for h in x["hand"]]
            x["play"] = [[{"card": names[c["card"]], "exhausted": c["exhausted"]} for c in side] for side in x["play"]]
    rep = games_of(_dump(lines))[0]
    assert rep.verdict == "conforms", rep.findings


def test_keep_going_reports_every_divergence():
    lines = _lines(selfplay(1, 9, claims="every"))
    states = [i for i, x in enumerate(lines) if x["t"] == "state"]
    first, second = states[3], states[-4]
    lines[first]["life"] = [9, 9]
    lines[second]["mindbugs"] = [7, 7]
    plain = games_of(_dump(lines))[0]
    assert len(plain.findings) == 1
    import io
    raw = list(split_games(io.BytesIO(_dump(lines)), "<k>"))[0]
    rep = verify_game(raw, keep_going=True)
    assert [f.code for f in rep.findings] == ["STATE_MISMATCH", "STATE_MISMATCH"]
    assert rep.findings[1].line == second + 1
    assert any("resumed" in n for n in rep.notes)


def test_expectations_turn_known_divergences_into_expected_failures(tmp_path):
    exp = tmp_path / "expect.yaml"
    exp.write_text("format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    clause: keywords.sneaky\n")
    r = run_cli("verify", "replays/violations/sneaky-block.jsonl", "--expect", str(exp))
    assert r.returncode == 0, r.stdout
    assert b"xfail" in r.stdout
    exp.write_text("format: mb-expect/1\nexpected:\n  - code: ILLEGAL_DECISION\n    clause: keywords.sneaky\n"
                   "  - code: STATE_MISMATCH\n    clause: keywords.tough\n")
    r = run_cli("verify", "replays/violations/sneaky-block.jsonl", "--expect", str(exp))
    assert r.returncode == 0 and b"stale expectation STATE_MISMATCH [keywords.tough]" in r.stderr  # a warning
    assert b"1 stale expectation" in r.stdout                                                      # counted
    r = run_cli("verify", "replays/violations/sneaky-block.jsonl", "--expect", str(exp), "--strict-expect")
    assert r.returncode == 1 and b"stale expectation" in r.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("expected:\n  - cod: X\n")
    r = run_cli("verify", "replays/", "--expect", str(bad))
    assert r.returncode == 2 and str(bad).encode() in r.stderr


def test_schema_validates_every_shipped_log():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency (pip install -e .[test])")
    validators = {game: jsonschema.Draft202012Validator(json.loads(run_cli("schema", "replay", "--game", game).stdout))
                  for game in ("mindbug", "mind-up")}
    validator = validators["mindbug"]
    n = 0
    games = set()
    for path in sorted((ROOT / "replays").rglob("*.jsonl")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            data = json.loads(line)
            if data["t"] == "game":     # each game's lines against its own game's schema
                game = data.get("game", "mindbug")
                games.add(game)
            errors = list(validators[game].iter_errors(data))
            assert not errors, (path, i, errors[0].message)
            n += 1
    assert n > 1000 and games == {"mindbug", "mind-up"}
    assert list(validators["mind-up"].iter_errors({"t": "turn", "cards": [61]}))
    assert list(validator.iter_errors({"t": "game", "format": "mb-replay/1", "id": "x", "game": "mind-up"}))
    bad = {"t": "play", "p": 0}
    assert list(validator.iter_errors(bad))


def test_annotate_writes_the_canonical_log():
    lines = _lines(selfplay(2, 6, claims="none"))
    r = run_cli("annotate", "-", input=_dump(lines))
    assert r.returncode == 0, r.stderr
    out = _lines(r.stdout)
    assert sum(x["t"] == "state" for x in out) >= sum(x["t"] in ("play", "attack", "pass", "block") for x in out)
    again = run_cli("verify", "-", input=r.stdout)
    assert again.returncode == 0 and b"2 conform" in again.stdout
    bad = run_cli("annotate", "replays/violations/sneaky-block.jsonl")
    assert bad.returncode == 1 and b"keywords.sneaky" in bad.stdout


def _foreign_logs():
    for up in ROOT.parents:
        path = up / "shared" / "design" / "foreign-logs" / "games.jsonl"
        if path.exists():
            return path
    pytest.skip("needs the foreign logs of the project's sources (../shared/design/foreign-logs/games.jsonl, "
                "beside the project): games recorded by another engine, not shipped in the repository")


def test_foreign_logs_get_a_verdict_each():
    reps = games_of(_foreign_logs().read_bytes())
    assert len(reps) == 12
    assert all(r.verdict in ("conforms", "violates") for r in reps)
    codes = {(f.code, f.clauses[0]) for r in reps for f in r.findings}
    assert ("MISSING_DECISION", "effects.hunter-order") in codes


def test_foreign_logs_hunter_order_findings_are_reading_based():
    """That engine names the HUNTER target before the Attack effect: those
    games conform under hunter-first; the others keep their rules findings."""
    path = _foreign_logs()
    reps = games_of(path.read_bytes())
    hunter = [r for r in reps if any("effects.hunter-order" in f.clauses for f in r.findings)]
    assert hunter
    for r in hunter:
        assert all(f.basis == "reading" and f.alternatives == ["hunter-first"] for f in r.findings), r.findings
    under = {r.id: r for r in (verify_game(x, readings={"effects.hunter-order": "hunter-first"})
                               for x in split_games(io.BytesIO(path.read_bytes()), str(path)))}
    assert all(under[r.id].verdict == "conforms" for r in hunter)
    others = [r for r in reps if r.verdict == "violates" and r not in hunter]
    assert all(f.basis == "rules" for r in others for f in r.findings)


def test_bench_prints_rates_and_ratio():
    r = run_cli("bench", "--games", "20", "--repeat", "1", "--no-instructions")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "decisions/s" in out and "ratio verify/decode" in out


def test_harmless_declines_are_accepted_with_a_note():
    from oracle.games.mindbug.engine import Game
    lines = _lines(selfplay(3, 21, claims="turn"))
    out, g, added = [], None, 0
    for x in lines:
        out.append(x)
        if x["t"] == "setup":
            g = Game.deal("en-revised", {int(k): v for k, v in x["cards"].items()}, x["decks"], x["unused"],
                          None, x["reveals"])
        elif x["t"] in ("play", "attack", "mindbug", "pass", "hunt", "block", "choose", "random") and g:
            from oracle.games.mindbug.engine import Decision
            combat_attacker = x["t"] == "attack"
            g.apply(Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards"))))
            if combat_attacker and g.pending and g.pending.stage == "block" and not added:
                out.append({"t": "hunt", "p": x["p"], "card": None})   # the attacker has no HUNTER
                added += 1
        elif x["t"] == "game":
            g = None
    assert added
    rep = games_of(_dump(out))[0]
    assert rep.verdict == "conforms", rep.findings
    assert any("changes nothing" in n for n in rep.notes)


def test_which_editions_a_game_conforms_to():
    r = run_cli("verify", "replays/conforming/en-revised.jsonl", "--which-editions", "--format", "json")
    games = [json.loads(x) for x in r.stdout.splitlines()][:-1]
    assert all("en-revised" in g["conforms_to"] for g in games)
    # A turn-numbered log of the revised English edition shows its extra turn
    # action after a Mindbug, which the other editions count as another turn.
    assert any(g["conforms_to"] == ["en-revised"] for g in games)


def test_unknown_fields_are_ignored_with_a_note():
    lines = _lines(selfplay(1, 31, claims="turn"))
    for x in lines:
        if x["t"] == "state":
            x["phase"] = "main"          # an exporter's own field
            x["play"] = [[dict(e, tapped=False) for e in side] for side in x["play"]]
        if x["t"] == "pass":
            x["why"] = "bot"
    rep = games_of(_dump(lines))[0]
    assert rep.verdict == "conforms", rep.findings
    assert any("phase" in n and "play[].tapped" in n for n in rep.notes)


def test_the_order_of_waiting_effects_may_be_given_at_once():
    """Two Defeated effects at once: one card per choose, or the whole order."""
    from oracle.games.mindbug.engine import Game
    for seed in range(400):
        lines = _lines(selfplay(1, seed, claims="every"))
        setup = lines[1]
        g = Game.deal("en-revised", {int(k): v for k, v in setup["cards"].items()}, setup["decks"],
                      setup["unused"], None, setup["reveals"])
        from oracle.games.mindbug.engine import Decision
        found = None
        for i, x in enumerate(lines[2:], 2):
            if x["t"] in ("state", "end"):
                continue
            if g.pending.stage == "order" and len(g.pending.options) == 2:
                found = i
                break
            g.apply(Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards"))))
        if found:
            break
    assert found, "no self-played game with two waiting effects"
    first = lines[found]["cards"][0]
    other = next(a[0] for _, a in g.pending.options if a[0] != first)
    # Replace the one-card choice with the full order.
    lines[found] = {"t": "choose", "p": lines[found]["p"], "cards": [first, other]}
    rep = games_of(_dump(lines))[0]
    assert rep.verdict == "conforms", rep.findings[:1]
