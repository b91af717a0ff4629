"""`mb-oracle serve` reads what its client may read: a `scenario` start opens
only a regular file within the size limit under a folder the service was
started with (`serve --scenarios DIR`), and its `card_file` likewise (or a
`--cards` file); another path, missing or not, gets one message that says
nothing of it. Nothing a request names can block the service. Position
counts and the seed are bounded, and named when out of range."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

from oracle import safeyaml
from oracle.harness.serve import Service

SNEAKY = ROOT / "scenarios" / "keywords-sneaky.yaml"
SNEAKY_ID = "sneaky.only-sneaky-blocks"


def _new(svc: Service, path, sid: str = SNEAKY_ID) -> dict:
    req = {"op": "new", "id": 1, "edition": "en-revised", "scenario": {"path": str(path), "id": sid}}
    return json.loads(svc.handle(json.dumps(req).encode()))


def _refused(reply: dict) -> str:
    assert reply["ok"] is False and reply["error"]["code"] == "BAD_REQUEST", reply
    assert reply["error"]["field"] == "$.scenario", reply
    return reply["error"]["message"]


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "scen"
    d.mkdir()
    (d / "sneaky.yaml").write_bytes(SNEAKY.read_bytes())
    return d


def test_without_scenario_folders_no_scenario_start(folder):
    message = _refused(_new(Service(), folder / "sneaky.yaml"))
    assert "--scenarios DIR" in message
    assert _new(Service(scenario_folders=(folder,)), folder / "sneaky.yaml")["ok"] is True


def test_a_path_outside_the_folders_says_nothing_of_it(tmp_path, folder):
    svc = Service(scenario_folders=(folder,))
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(SNEAKY.read_bytes())
    (folder / "link.yaml").symlink_to(outside)
    messages = {str(p): _refused(_new(svc, p)) for p in
                (outside, tmp_path / "missing.yaml", folder / "missing.yaml", folder / "link.yaml",
                 folder / ".." / "outside.yaml", "/etc/passwd", "/dev/stdin", "/dev/zero", "bad\0path")}
    # One message, the path aside: whether a file is there, readable or not, is not told.
    assert len({m.replace(repr(p), "PATH") for p, m in messages.items()}) == 1, messages
    assert all("no such file in the folders this service reads" in m for m in messages.values())


def test_fifos_devices_and_large_files_under_the_folders_are_refused_at_once(folder):
    svc = Service(scenario_folders=(folder,))
    os.mkfifo(folder / "fifo.yaml")                  # opening it to read would wait for a writer forever
    assert "not a regular file" in _refused(_new(svc, folder / "fifo.yaml"))
    assert "not a regular file" in _refused(_new(svc, folder))
    big = folder / "big.yaml"
    big.write_bytes(b"# " + b"x" * safeyaml.MAX_BYTES + b"\n")
    assert "larger than" in _refused(_new(svc, big))
    # A scenario's card file: under the folders too (or a --cards file), never a FIFO.
    text = SNEAKY.read_text(encoding="utf-8").replace("format: mb-scenario/1\n", "format: mb-scenario/1\n"
                                                      "card_file: CARD_FILE\n", 1)
    for i, card_file in enumerate(("fifo.yaml", "/dev/stdin", "../elsewhere.yaml")):
        (folder / f"with-cards-{i}.yaml").write_text(text.replace("CARD_FILE", card_file), encoding="utf-8")
        message = _refused(_new(svc, folder / f"with-cards-{i}.yaml"))
        assert "card_file" in message and ("not a regular file" in message or "no such file" in message), message


def test_the_service_goes_on_after_a_fifo_or_stdin_start(folder):
    """Through the command line: the request after the start is answered,
    not swallowed by a read of /dev/stdin, and a FIFO blocks nothing."""
    os.mkfifo(folder / "fifo.yaml")
    lines = [{"op": "new", "id": n, "edition": "en-revised", "scenario": {"path": p, "id": SNEAKY_ID}}
             for n, p in enumerate((str(folder / "fifo.yaml"), "/dev/stdin", str(folder / "sneaky.yaml")), 1)]
    lines.append({"op": "hello", "id": 4})
    r = subprocess.run([sys.executable, "-m", "oracle", "serve", "--scenarios", str(folder)], cwd=ROOT,
                       input="".join(json.dumps(x) + "\n" for x in lines).encode(), capture_output=True, timeout=60)
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["id"] for x in replies] == [1, 2, 3, 4], r.stderr
    assert [x["ok"] for x in replies] == [False, False, True, True]


@pytest.mark.parametrize("position, field", [
    ({"mindbugs": [99999999, -3]}, "$.position.mindbugs[0]"),
    ({"mindbugs": [1, -3]}, "$.position.mindbugs[1]"),
    ({"life": [1e20, 1]}, "$.position.life[0]"),
    ({"life": [10 ** 20, 1]}, "$.position.life[0]"),
    ({"life": [3, -1]}, "$.position.life[1]"),
    ({"turn": 10 ** 12}, "$.position.turn"),
])
def test_position_counts_out_of_range_are_refused(position, field):
    req = {"op": "new", "edition": "en-revised",
           "position": {"cards": {"1": "Gorillion"}, "play": [[1], []], **position}}
    reply = json.loads(Service().handle(json.dumps(req).encode()))
    assert reply["ok"] is False and reply["error"]["code"] == "BAD_REQUEST", reply
    assert reply["error"]["field"] == field, reply


def test_a_seed_out_of_range_is_named():
    reply = json.loads(Service().handle(b'{"op": "new", "id": 9, "edition": "en-revised", "seed": 1e400}'))
    assert reply["ok"] is False and reply["id"] == 9 and reply["error"]["field"] == "$.seed", reply
    assert "seed" in reply["error"]["message"]
