"""The board's API (oracle/board, spec/board.md) through Starlette's
TestClient: the guards (token, Host, body size, unknown fields, paths out of
the scenario folder, the request rate), and for each game a position
checked, played, made a ruling, saved, and the saved file passing the
scenario runner; a file is never written over unless opened as it is."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette", reason="Starlette, the board's web stack, is not installed (pip install -e '.[test]')")
pytest.importorskip("httpx2", reason="httpx2, the HTTP client of Starlette's TestClient, is not installed "
                                     "(pip install -e '.[test]')")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from oracle.board import command, play  # noqa: E402
from oracle.board.server import Settings, build_app  # noqa: E402
from oracle.scenarios.loader import load_file  # noqa: E402
from oracle.scenarios.runner import run_all  # noqa: E402

TOKEN = "s3cret-token"
PORT = 8765
H = {"X-Board-Token": TOKEN}

MINDBUG = {"given": {"players": [{"hand": ["Gorillion"], "play": ["Kangasaurus Rex"]},
                                 {"hand": ["Brain Fly"], "play": ["Elephantopus"]}]}}
MIND_UP = {"game": "mind-up", "given": {"line": [12, 37, 46], "hands": [[27, 3, 9], [18, 7, 11], [5, 10, 17]]}}


def _client(settings: Settings) -> TestClient:
    return TestClient(build_app(settings), base_url=f"http://127.0.0.1:{PORT}")


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "rulings"
    d.mkdir()
    return d


@pytest.fixture
def client(folder):
    return _client(Settings(token=TOKEN, port=PORT, scenario_dirs=(str(folder),)))


# -- the guards ---------------------------------------------------------------------------------------------


def test_a_wrong_or_missing_token_is_refused(client):
    assert client.get("/api/hello").status_code == 403
    r = client.get("/api/hello", headers={"X-Board-Token": "wrong"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "BAD_TOKEN"
    assert client.get(f"/api/hello?token={TOKEN}").status_code == 200
    hello = client.get("/api/hello", headers=H).json()
    assert set(hello["games"]) == {"mindbug", "mind-up"} and hello["scenarios"] is True and hello["log"] is None


def test_another_host_is_refused(client):
    r = client.get("/api/hello", headers={**H, "Host": "evil.example:8765"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "BAD_HOST"
    assert client.get("/api/hello", headers={**H, "Host": f"localhost:{PORT}"}).status_code == 200
    assert client.get("/api/hello", headers={**H, "Host": "127.0.0.1:9999"}).status_code == 400


def test_responses_forbid_inline_scripts_and_sniffing(client):
    r = client.get("/api/hello", headers=H)
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_the_page_is_served_without_a_token_and_its_files_by_plain_name(tmp_path):
    page = tmp_path / "page"
    page.mkdir()
    (page / "board.html").write_text("<!doctype html><title>board</title>")
    (page / "board.js").write_text("// script")
    c = _client(Settings(token=TOKEN, port=PORT, page_dir=page))
    r = c.get(f"/?token={TOKEN}")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"] and "board" in r.text
    assert c.get("/page/board.js").status_code == 200
    assert c.get("/page/..%2Fsecret.js").status_code == 404
    assert c.get("/page/.hidden.js").status_code == 404


def test_an_oversize_body_is_refused(client):
    big = b'{"document": {"x": "' + b"a" * (1 << 20) + b'"}}'
    r = client.post("/api/check", content=big, headers={**H, "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "TOO_LARGE"


def test_an_unknown_field_is_named(client):
    r = client.post("/api/play", headers=H, json={"document": MINDBUG, "decison": []})
    err = r.json()["error"]
    assert r.status_code == 400 and err["field"] == "$.decison" and "did you mean 'decisions'" in err["message"]
    r = client.post("/api/play", headers=H, json={"document": MINDBUG, "decisions": [1]})
    assert r.status_code == 400 and r.json()["error"]["field"] == "$.decisions[0]"


def test_too_many_decisions_or_cards_are_refused(client):
    r = client.post("/api/play", headers=H, json={"document": MINDBUG, "decisions": [{"t": "pass"}] * 2001})
    assert r.status_code == 400 and "2000" in r.json()["error"]["message"]
    huge = {"given": {"players": [{"hand": ["Gorillion"] * 400}, {}]}}
    r = client.post("/api/check", headers=H, json={"document": huge})
    assert r.status_code == 400 and r.json()["error"]["code"] == "TOO_LARGE"
    huge = {"game": "mind-up", "given": {"hands": [list(range(1, 61))] * 3, "line": [1, 2, 3]}}
    r = client.post("/api/check", headers=H, json={"document": huge})
    assert r.status_code == 400 and "the game has 60" in r.json()["error"]["message"]
    deep = b'{"document": {"given": ' + b"[" * 5000 + b"]" * 5000 + b"}}"
    r = client.post("/api/check", content=deep, headers={**H, "Content-Type": "application/json"})
    assert r.status_code == 400 and "MAX_DEPTH" in r.json()["error"]["message"]


def test_an_unknown_route_or_method_is_a_json_error(client):
    r = client.get("/api/nothing", headers=H)
    assert r.status_code == 404 and r.json()["ok"] is False
    r = client.get("/api/play", headers=H)
    assert r.status_code == 405 and r.json()["error"]["code"] == "BAD_METHOD"


def test_many_requests_a_second_are_refused(folder):
    now = [100.0]
    c = _client(Settings(token=TOKEN, port=PORT, rate=3, clock=lambda: now[0]))
    assert [c.get("/api/hello", headers=H).status_code for _ in range(4)] == [200, 200, 200, 429]
    now[0] += 1.5
    assert c.get("/api/hello", headers=H).status_code == 200


def test_a_failure_of_the_server_is_internal_without_a_traceback(client, monkeypatch):
    def broken(card_files):
        raise RuntimeError("boom")

    monkeypatch.setattr(play, "hello", broken)
    r = client.get("/api/hello", headers=H)
    assert r.status_code == 500 and r.json()["error"]["code"] == "INTERNAL"
    assert "GET /api/hello" in r.json()["error"]["message"] and "Traceback" not in r.text


@pytest.mark.parametrize("name", ["../escape.yaml", "/etc/passwd.yaml", "sub/../../x.yaml", "notes.txt", "link.yaml"])
def test_paths_out_of_the_scenario_folder_are_refused(client, folder, tmp_path, name):
    outside = tmp_path / "outside.yaml"
    outside.write_text("format: mb-scenario/1\n")
    os.symlink(outside, folder / "link.yaml")
    r = client.get("/api/scenario", params={"file": name, "id": "x"}, headers=H)
    assert r.status_code in (400, 404) and r.json()["ok"] is False
    body = _ruling_body(MINDBUG, [], ["players[0].life"]) | {"file": name}
    r = client.post("/api/save", headers=H, json=body)
    assert r.status_code == 400 and r.json()["error"]["field"] == "$.file"
    assert outside.read_text() == "format: mb-scenario/1\n"


def test_without_a_scenario_folder_nothing_is_saved(folder):
    c = _client(Settings(token=TOKEN, port=PORT))
    r = c.post("/api/save", headers=H, json=_ruling_body(MINDBUG, [], ["players[0].life"]) | {"file": "a.yaml"})
    assert r.status_code == 400 and "--scenarios" in r.json()["error"]["message"]


def test_board_without_the_extra_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(command, "_web_stack", lambda: None)
    result = CliRunner().invoke(command.board, [])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [command.MISSING]
    assert "pip install 'mb-oracle[board]'" in command.MISSING


# -- each game: check, play, ruling, save -------------------------------------------------------------------


def test_a_bad_mindbug_position_lists_every_problem(client):
    bad = {"given": {"players": [{"hand": ["Gorilion"], "play": ["Spider Owl", "Spider Owl"]}, {"hnd": []}]}}
    r = client.post("/api/check", headers=H, json={"document": bad}).json()
    assert r["ok"] is False
    fields = [p["field"] for p in r["problems"]]
    assert fields == ["$.given.players[0].hand[0]", "$.given.players[0].play[1]", "$.given.players[1].hnd"]
    assert "did you mean Gorillion" in r["problems"][0]["message"]
    assert client.post("/api/check", headers=H, json={"document": MINDBUG}).json() == {"ok": True, "problems": []}


def test_a_bad_mind_up_position_lists_every_problem(client):
    bad = {"game": "mind-up", "given": {"line": [12, 37, 46], "hands": [[27, 3], [27, 7], [5, 12]],
                                        "scored": {"5": [1]}}}
    r = client.post("/api/check", headers=H, json={"document": bad}).json()
    assert r["ok"] is False
    assert sorted(p["field"] for p in r["problems"]) == ["$.given.hands[1][0]", "$.given.line[0]",
                                                         "$.given.scored[5]"]


def test_a_position_the_rules_refuse_is_a_problem_at_given(client):
    # three hands and a line of two cards: Mind Up!'s setup refuses it
    bad = {"game": "mind-up", "given": {"line": [12, 37], "hands": [[27], [18], [5]]}}
    r = client.post("/api/check", headers=H, json={"document": bad}).json()
    assert r["ok"] is False and r["problems"][0]["field"] == "$.given"


def _play(client, document, picks: int, prefer: str) -> list[dict]:
    decisions = []
    for _ in range(picks):
        r = client.post("/api/play", headers=H, json={"document": document, "decisions": decisions}).json()
        assert r["ok"] is True, r
        options = r["pending"]["options"]
        assert options and all(o["words"] for o in options)
        decisions.append(next((o for o in options if o["decision"]["t"] == prefer), options[0])["decision"])
    return decisions


def _ruling_body(document, decisions, ticks, rid="board.test-ruling") -> dict:
    return {"document": document, "decisions": decisions, "ticks": ticks, "id": rid,
            "title": "A ruling made on the board", "clauses": ["turns.action"]}


def test_mindbug_played_three_steps_saved_as_a_ruling_that_passes(client, folder):
    decisions = _play(client, MINDBUG, 3, "attack")
    r = client.post("/api/play", headers=H, json={"document": MINDBUG, "decisions": decisions}).json()
    assert [s["words"] for s in r["steps"]] == ["player 0: attack with Kangasaurus Rex",
                                                "player 1: block with Elephantopus",
                                                "player 1: attack with Elephantopus"]
    assert r["board"]["players"][0]["discard"] == [{"id": 13, "name": "Kangasaurus Rex"}]
    assert r["board"]["players"][1]["play"][0]["exhausted"] is True
    assert r["pending"]["players"] == [0] and r["pending"]["stage"] == "block"
    items = client.post("/api/expectations", headers=H, json={"document": MINDBUG, "decisions": decisions}).json()
    keys = {i["key"]: i for i in items["items"]}
    assert keys["players[0].discard"]["value"] == ["Kangasaurus Rex"]
    ticks = ["players[0].discard", "players[1].play", "exhausted", "pending"] + \
        [k for k, i in keys.items() if k.startswith("events[") and i["value"].get("clause") == "keywords.tough"]
    body = _ruling_body(MINDBUG, decisions, ticks, "board.tough-saves-elephantopus") | {"clauses": ["keywords.tough"]}
    ruling = client.post("/api/ruling", headers=H, json=body).json()
    assert ruling["passes"] is True, ruling["report"]
    assert "- {block: Elephantopus}" in ruling["yaml"]
    saved = client.post("/api/save", headers=H, json=body | {"file": "tough.yaml"})
    assert saved.status_code == 200 and saved.json()["path"] == "tough.yaml"
    sf = load_file(folder / "tough.yaml")
    assert not sf.errors and [sc.id for sc in sf.scenarios] == ["board.tough-saves-elephantopus"]
    results = run_all([sf])
    assert results and all(res.passed for res in results)
    # listed, opened, and never written over unless opened as it is
    (folder / "broken.yaml").write_text("format: [\n")
    listed = client.get("/api/scenarios", headers=H).json()["files"]
    assert [f["file"] for f in listed] == ["broken.yaml", "tough.yaml"] and "problem" in listed[0]
    assert listed[1]["scenarios"] == [{"id": "board.tough-saves-elephantopus", "game": "mindbug",
                                       "title": "A ruling made on the board"}]
    opened = client.get("/api/scenario", params={"file": "tough.yaml", "id": "board.tough-saves-elephantopus"},
                        headers=H).json()
    assert opened["document"]["steps"][1] == {"block": "Elephantopus"}
    again = client.post("/api/save", headers=H, json=body | {"file": "tough.yaml"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "EXISTS"
    stale = client.post("/api/save", headers=H, json=body | {"file": "tough.yaml", "overwrite": True, "base": "0" * 64})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "CHANGED"
    ok = client.post("/api/save", headers=H, json=body | {"file": "tough.yaml", "overwrite": True,
                                                          "base": opened["sha256"]})
    assert ok.status_code == 200


def test_a_refused_last_decision_is_an_illegal_ruling(client):
    r = client.post("/api/play", headers=H, json={"document": MINDBUG, "decisions": [
        {"t": "attack", "p": 0, "card": 37}]}).json()
    assert r["ok"] is False and r["step"] == 0 and r["refusal"]["code"] == "ILLEGAL_DECISION"
    assert "Elephantopus" in r["refusal"]["message"]
    body = _ruling_body(MINDBUG, [{"t": "attack", "p": 0, "card": 37}], [], "board.no-attack-with-theirs")
    ruling = client.post("/api/ruling", headers=H, json=body).json()
    assert ruling["passes"] is True and "illegal: {step: 1, code: ILLEGAL_DECISION" in ruling["yaml"]


def test_a_ruling_that_does_not_pass_is_not_saved(client, folder):
    body = _ruling_body(MINDBUG, [], [])            # nothing expected: the loader refuses it
    r = client.post("/api/ruling", headers=H, json=body).json()
    assert r["passes"] is False and r["report"]
    assert client.post("/api/save", headers=H, json=body | {"file": "none.yaml"}).status_code == 400
    assert not (folder / "none.yaml").exists()


def test_mind_up_played_three_choices_saved_as_a_ruling_that_passes(client, folder):
    decisions = _play(client, MIND_UP, 3, "choose")
    r = client.post("/api/play", headers=H, json={"document": MIND_UP, "decisions": decisions}).json()
    assert [s["events"] for s in r["steps"][:2]] == [[], []]           # hidden choices: nothing shown
    assert r["steps"][2]["events"][0]["kind"] == "reveal"
    assert r["board"]["turn"] == 1 and r["pending"]["kind"] == "choose"
    items = client.post("/api/expectations", headers=H, json={"document": MIND_UP, "decisions": decisions}).json()
    keys = [i["key"] for i in items["items"]]
    assert {"line", "hands.0", "columns.2", "pending"} <= set(keys)
    body = _ruling_body(MIND_UP, decisions, ["line", "hands.0", "columns.0", "columns.2", "turn"],
                        "board.mind-up-first-turn") | {"clauses": ["mu.turn.take"]}
    ruling = client.post("/api/ruling", headers=H, json=body).json()
    assert ruling["passes"] is True, ruling["report"]
    assert "turns:" in ruling["yaml"]
    saved = client.post("/api/save", headers=H, json=body | {"file": "mind-up/first-turn.yaml"})
    assert saved.status_code == 200, saved.json()
    sf = load_file(folder / "mind-up" / "first-turn.yaml")
    assert not sf.errors
    results = run_all([sf])
    assert results and all(res.passed for res in results)


@pytest.mark.parametrize("document", [MINDBUG, MIND_UP], ids=["mindbug", "mind-up"])
@pytest.mark.parametrize("decision", [{"t": "atack", "p": 0}, {}, {"t": ["attack"]}, {"t": "choose", "cards": 7},
                                      {"t": "attack", "p": "0", "card": "x"}, {"t": "round", "order": 3}])
@pytest.mark.parametrize("route", ["play", "expectations", "ruling"])
def test_a_decision_the_service_cannot_read_is_named(client, document, decision, route):
    body = {"document": document, "decisions": [decision]}
    if route == "ruling":
        body.update({"ticks": [], "id": "x.y", "title": "t", "clauses": []})
    r = client.post(f"/api/{route}", headers=H, json=body)
    assert r.status_code == 400 and r.json()["error"]["field"].startswith("$.decisions[0]"), r.text


def test_no_body_of_json_values_fails_the_server():
    """Documents and decisions of any shape, for every route that plays: a
    clear 4xx or an answer, never INTERNAL."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    client = _client(Settings(token=TOKEN, port=PORT, rate=10 ** 9))
    words = ["format", "game", "given", "players", "hand", "play", "discard", "deck", "life", "active", "turn", "steps",
             "expect", "editions", "sets", "readings", "hands", "line", "columns", "order", "round", "objectives", "t",
             "p", "card", "cards", "exhausted", "octonite", "stage", "boosts", "unused", "pile", "scores", "draws"]
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=6), st.sampled_from(["Gorillion", "Sea-Rex", "en-revised", "mind-up", "attack",
                                                           "choose", "round", 0, 1, 2, 60, 61, -1]))
    values = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                        st.dictionaries(st.sampled_from(words), inner, max_size=6)),
                          max_leaves=20)
    documents = st.fixed_dictionaries({"format": st.just("mb-scenario/1")}, optional={
        "game": st.sampled_from(["mindbug", "mind-up", "x"]), "given": values, "editions": values, "sets": values,
        "readings": values, "steps": values, "expect": values})

    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
              database=None)
    @given(route=st.sampled_from(["check", "play", "expectations", "ruling"]),
           document=st.one_of(documents, values), decisions=st.lists(values, max_size=3))
    def check(route, document, decisions):
        body = {"document": document}
        if route != "check":
            body["decisions"] = decisions
        if route == "ruling":
            body.update({"ticks": [], "id": "x.y", "title": "t", "clauses": []})
        r = client.post(f"/api/{route}", headers=H, json=body)
        assert r.status_code < 500, r.text

    check()


@pytest.mark.parametrize("log, game", [("en-revised.jsonl", "mindbug"), ("mind-up.jsonl", "mind-up")])
def test_a_game_of_a_log_is_a_position_to_start_from(log, game):
    path = os.path.join(os.path.dirname(__file__), "..", "replays", "conforming", log)
    c = _client(Settings(token=TOKEN, port=PORT, log_file=path))
    hello = c.get("/api/hello", headers=H).json()
    assert hello["log"]["file"] == log and hello["log"]["games"] and hello["log"]["start"] is None
    gid = hello["log"]["games"][0]
    r = c.get("/api/log", params={"game": gid, "step": 7}, headers=H).json()
    assert r["game"] == game and 0 < r["step"] <= 7
    played = c.post("/api/play", headers=H, json={"document": r["document"]}).json()
    assert played["ok"] is True and played["pending"]["options"]
    assert c.get("/api/log", params={"game": "no-such-game"}, headers=H).status_code == 404


def test_file_names_that_are_not_utf8_are_sent_escaped_not_a_server_failure(tmp_path, folder):
    log = tmp_path / os.fsdecode(b"\xff-log.jsonl")
    log.write_bytes(open(os.path.join(os.path.dirname(__file__), "..", "replays", "conforming", "en-revised.jsonl"),
                         "rb").read())
    sub = folder / os.fsdecode(b"\xfe-sub")
    sub.mkdir()
    (sub / os.fsdecode(b"\xfd.yaml")).write_bytes(b"format: mb-scenario/1\nid: [\n")
    c = _client(Settings(token=TOKEN, port=PORT, scenario_dirs=(str(folder),), log_file=str(log)))
    hello = c.get("/api/hello", headers=H)
    assert hello.status_code == 200 and hello.json()["log"]["file"] == "\\udcff-log.jsonl", hello.text
    listed = c.get("/api/scenarios", headers=H)
    assert listed.status_code == 200, listed.text
    assert [f["file"] for f in listed.json()["files"]] == ["\\udcfe-sub/\\udcfd.yaml"]


def test_a_folder_the_listing_cannot_read_is_named_not_skipped(folder, monkeypatch):
    (folder / "locked").mkdir()
    (folder / "locked" / "r.yaml").write_text("format: mb-scenario/1\nid: x\n")
    (folder / "ok.yaml").write_text("format: mb-scenario/1\nid: y\n")
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)
    monkeypatch.setattr(os, "scandir", scandir)
    c = _client(Settings(token=TOKEN, port=PORT, scenario_dirs=(str(folder),)))
    files = c.get("/api/scenarios", headers=H).json()["files"]
    assert [f["file"] for f in files] == ["ok.yaml", "locked"]
    assert files[1]["problem"] == "cannot read the folder: Permission denied"


def test_a_library_scenario_opens_as_its_position_and_decisions():
    root = os.path.join(os.path.dirname(__file__), "..", "scenarios")
    c = _client(Settings(token=TOKEN, port=PORT, scenario_dirs=(root,)))
    listed = {f["file"]: f for f in c.get("/api/scenarios", headers=H).json()["files"]}
    taken = 0
    for name in ("keywords-tough.yaml", "mind-up/examples.yaml"):
        for sc in listed[name]["scenarios"]:
            r = c.get("/api/scenario", params={"file": name, "id": sc["id"]}, headers=H).json()
            assert r["sha256"] == listed[name]["sha256"], sc["id"]
            taken += len(r["decisions"])
            played = c.post("/api/play", headers=H, json={"document": r["document"], "decisions": r["decisions"],
                                                          "edition": r["edition"]}).json()
            assert played["ok"] is ("illegal" not in r["document"]), sc["id"]
    assert taken > 10


def test_the_command_binds_a_free_port_on_127_0_0_1_and_prints_its_url(tmp_path):
    import subprocess
    import sys

    import httpx2 as httpx

    proc = subprocess.Popen([sys.executable, "-m", "oracle", "board", "--port", "0", "--scenarios", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("the board: http://127.0.0.1:"), line + proc.stderr.read()
        url = line.split(": ", 1)[1].strip()
        port = int(url.split(":")[2].split("/")[0])
        token = url.split("token=")[1]
        assert port > 0 and len(token) >= 32
        hello = httpx.get(f"http://127.0.0.1:{port}/api/hello", headers={"X-Board-Token": token})
        assert hello.status_code == 200 and hello.json()["scenarios"] is True
        assert httpx.get(f"http://127.0.0.1:{port}/api/hello").status_code == 403
    finally:
        proc.terminate()
        proc.wait()


@pytest.mark.parametrize("missing", ["starlette", "uvicorn"])
def test_board_in_an_install_without_the_extra_is_one_line_of_advice(missing):
    import subprocess
    import sys

    code = (f"import sys; sys.modules[{missing!r}] = None; sys.argv = ['mb-oracle', 'board']; "
            "from oracle.cli import main; main()")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [command.MISSING]


@pytest.mark.parametrize("name", ["keywords-tough.yaml", "play-and-mindbug.yaml", "mind-up/examples.yaml",
                                  "mind-up/readings.yaml"])
def test_library_rulings_made_again_on_the_board_pass(name):
    """Each scenario of a library file opened, replayed, every expectation
    ticked and made a ruling again: the ruling passes (the steps by name,
    `by` for a step of the other player, a refused last step as `illegal`,
    Mind Up!'s changes of mind and refused reveals)."""
    root = os.path.join(os.path.dirname(__file__), "..", "scenarios")
    c = _client(Settings(token=TOKEN, port=PORT, scenario_dirs=(root,)))
    listed = {f["file"]: f for f in c.get("/api/scenarios", headers=H).json()["files"]}
    # under change-allowed, the board starts a second turn where the scenario changes a choice after the reveal
    apart = {"mind-up.turn.no-change-once-everyone-has-chosen"}
    failed = []
    for sc in listed[name]["scenarios"]:
        r = c.get("/api/scenario", params={"file": name, "id": sc["id"]}, headers=H).json()
        if "problems" in r or sc["id"] in apart:
            continue
        body = {"document": r["document"], "decisions": r["decisions"], "edition": r["edition"]}
        items = c.post("/api/expectations", headers=H, json=body).json()["items"]
        body |= {"ticks": [i["key"] for i in items], "id": "board.again", "title": "again",
                 "clauses": r["document"]["clauses"]}
        ruling = c.post("/api/ruling", headers=H, json=body).json()
        if not ruling["passes"]:
            failed.append((sc["id"], ruling["report"]))
    assert not failed


def test_a_card_the_position_does_not_place_is_expected_by_its_zone_s_count(client):
    doc = {"given": {"players": [{"hand": ["Gorillion"], "play": ["Kangasaurus Rex"]},
                                 {"hand": ["Brain Fly"], "play": ["Elephantopus"]}]}}
    session, problems = play.start(Settings(token=TOKEN), doc, "en-revised")
    from oracle.games.mindbug.board import edit_ruling

    placed = edit_ruling._placed(session)
    assert placed(13) and not placed(1)               # Kangasaurus Rex is placed, Axolotl Healer is unused
    assert edit_ruling._zone_value([13, 1], placed) == 2
    assert edit_ruling._zone_value([13], placed) == ["Kangasaurus Rex"]


def test_another_edition_or_reading_plays_the_position_by_its_rules(client):
    doc = {"given": {"players": [{"hand": ["Gorillion"], "deck": ["Spider Owl", "Bee Bear", "Turbo Bug", "Luchataur",
                                                                  "Lone Yeti"]}, {}]}}
    hands = {}
    for edition in ("en-first", "en-revised"):
        r = client.post("/api/play", headers=H, json={"document": doc, "edition": edition}).json()
        assert r["edition"] == edition
        hands[edition] = len(r["board"]["players"][0]["hand"])
    assert hands == {"en-first": 1, "en-revised": 5}        # the revised rules refill a hand under 5 at once
    r = client.post("/api/play", headers=H, json={"document": doc, "edition": "en-second"})
    assert r.status_code == 400 and r.json()["error"]["field"] == "$.edition"
    bad = client.post("/api/check", headers=H, json={"document": {**doc, "readings": {"effects.hunter-ordr": "x"}}})
    assert bad.json()["problems"][0]["field"] == "$.readings"


def test_the_log_s_game_to_open_first_is_checked_and_told_to_the_page(tmp_path, monkeypatch):
    log = os.path.join(os.path.dirname(__file__), "..", "replays", "conforming", "mind-up.jsonl")
    result = CliRunner().invoke(command.board, ["--log", log, "--game", "no-such-game"])
    assert result.exit_code == 2 and "has no game 'no-such-game'" in result.output
    result = CliRunner().invoke(command.board, ["--game", "mind-up-3p"])
    assert result.exit_code == 2 and "--log" in result.output
    c = _client(Settings(token=TOKEN, port=PORT, log_file=log, log_start={"game": "mind-up-3p", "step": 4}))
    assert c.get("/api/hello", headers=H).json()["log"]["start"] == {"game": "mind-up-3p", "step": 4}
