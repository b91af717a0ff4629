"""Game ids in a run: a game whose id an earlier game has is said (a note;
a DUPLICATE_GAME finding under --strict), the same with -j and --cluster;
self-played games name what was dealt in their ids."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from oracle.games.mindbug.replay.selfplay import selfplay_lines


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("ids") / "games.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in selfplay_lines(3, 4, "en-revised")))
    return path


def test_the_same_file_twice_notes_every_game_of_the_second_reading(log):
    r = run_cli("verify", str(log), str(log), "--color", "never")
    out = r.stdout.decode()
    assert r.returncode == 0 and "summary: 6 games: 6 conform" in out
    notes = [x for x in out.splitlines() if "another game of this run has this id" in x]
    assert len(notes) == 3 and f"({log}:1)" in notes[0]
    once = run_cli("verify", str(log), "--color", "never").stdout.decode()
    assert "another game of this run" not in once


def test_strict_makes_a_duplicate_id_a_malformed_game(log):
    r = run_cli("verify", str(log), str(log), "--strict", "--format", "json")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 2
    assert [x["verdict"] for x in lines[:-1]] == ["conforms"] * 3 + ["malformed"] * 3
    assert {x["findings"][0]["code"] for x in lines[3:6]} == {"DUPLICATE_GAME"}
    assert lines[-1]["malformed"] == 3


@pytest.mark.parametrize("how", [["-j", "2"], ["--cluster", "local:1"]])
def test_duplicates_are_found_in_input_order_whatever_the_workers(log, how):
    if how[0] == "--cluster":
        pytest.importorskip("distributed", reason="dask.distributed is missing: pip install 'mb-oracle[cluster]'")
    args = ("verify", str(log), str(log), "--strict", "--format", "json")
    one = run_cli(*args)
    many = run_cli(*args, *how)
    assert many.stdout == one.stdout and one.returncode == many.returncode == 2


def test_self_played_ids_name_what_was_dealt():
    def ids(**kw):
        return [json.loads(x)["id"] for x in selfplay_lines(2, 7, "fr-first", **kw) if x.startswith(b'{"t":"game"')]

    assert ids() == ["selfplay-fr-first-s7-00000", "selfplay-fr-first-s7-00001"]
    assert ids(sets=("first-contact",)) == ids()
    mixed = ids(sets=("new-servants", "first-contact"))
    assert mixed == ["selfplay-fr-first-first-contact+new-servants-s7-00000",
                     "selfplay-fr-first-first-contact+new-servants-s7-00001"]


def test_selfplay_with_a_card_file_writes_other_ids(tmp_path):
    from conftest import ROOT
    plain = run_cli("selfplay", "--games", "1", "--seed", "2").stdout
    cards = run_cli("selfplay", "--games", "1", "--seed", "2", "--cards", str(ROOT / "examples/designed-cards.yaml"))
    assert json.loads(plain.splitlines()[0])["id"] == "selfplay-en-revised-s2-00000"
    assert json.loads(cards.stdout.splitlines()[0])["id"] == "selfplay-en-revised-first-contact+design-lab-s2-00000"
