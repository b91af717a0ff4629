"""perft: the reference counts of spec/perft.md, the divide split, the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from oracle.cli import main
from oracle.games.mindbug.editions import EDITIONS
from oracle.games.mindbug.engine import Game
from oracle.games.mindbug.harness.perft import count, divide
from oracle.games.mindbug.harness.start import game_from_setup, scenario_game, seeded_deal

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| (seed (\d+)|(scenarios/[\w.-]+\.yaml)#([\w.-]+)) \| ([a-z-]+) \| ([\d |]+)\|$")


def _rows():
    out = []
    for line in (ROOT / "spec" / "perft.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            counts = [int(x) for x in m.group(6).split("|") if x.strip()]
            out.append((m.group(2), m.group(3), m.group(4), m.group(5), counts))
    return out


def test_spec_lists_reference_counts_for_every_edition():
    rows = _rows()
    seeds = {(seed, ed) for seed, _, _, ed, _ in rows if seed}
    assert {ed for _, ed in seeds} == set(EDITIONS)
    assert len({s for s, _ in seeds}) >= 3
    assert any(path for _, path, _, _, _ in rows)


def test_reference_counts_of_spec_perft_match_the_engine():
    for seed, path, sid, edition, counts in _rows():
        g = game_from_setup(edition, seeded_deal(int(seed), edition)) if seed else \
            scenario_game(str(ROOT / path), sid, edition)
        got = [count(g, d) for d in range(1, len(counts) + 1)]
        assert got == counts, f"{seed or path} {edition}"


def _brute(g: Game, depth: int) -> int:
    """Sequences counted the slow way, through the checked API."""
    if depth == 0:
        return 1
    total = 0
    for d in g.legal_decisions():
        nxt = g.copy()
        nxt.apply(d)
        total += _brute(nxt, depth - 1)
    return total


def test_count_agrees_with_walking_the_checked_api():
    g = game_from_setup("fr-first", seeded_deal(2, "fr-first"))
    assert count(g, 5) == _brute(g, 5) == 667


def test_divide_sums_to_the_count_and_names_each_first_decision():
    g = game_from_setup("en-revised", seeded_deal(1, "en-revised"))
    split = divide(g, 5)
    assert sum(n for _, n in split) == count(g, 5)
    assert [d for d, _ in split] == g.legal_decisions()


def test_a_finished_game_counts_nothing_below_its_end():
    g = game_from_setup("en-revised", seeded_deal(1, "en-revised"))
    g.state.winner, g.state.pending = 0, None
    assert count(g, 0) == 1 and count(g, 3) == 0


def test_cli_json_divide_and_show_deal():
    r = CliRunner().invoke(main, ["perft", "--seed", "3", "--edition", "en-first", "--depth", "4",
                                  "--divide", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["count"] == 100 and sum(x["count"] for x in out["divide"]) == 100
    assert out["divide"][0]["decision"]["t"] == "play"
    r = CliRunner().invoke(main, ["perft", "--seed", "3", "--depth", "1", "--show-deal"])
    assert json.loads(r.stdout)["t"] == "setup"


def test_cli_show_deal_needs_no_depth_and_a_count_needs_one():
    r = CliRunner().invoke(main, ["perft", "--seed", "1", "--edition", "en-revised", "--show-deal"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == json.loads(json.dumps({"t": "setup", **seeded_deal(1, "en-revised")}))
    r = CliRunner().invoke(main, ["perft", "--seed", "1"])
    assert r.exit_code == 2 and "--depth N" in r.output and "--show-deal" in r.output


def test_cli_perft_from_a_log_uses_its_deal(tmp_path):
    setup = seeded_deal(2, "fr-revised")
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps({"t": "game", "format": "mb-replay/1", "id": "g", "edition": "fr-revised"}) + "\n"
                   + json.dumps({"t": "setup", **setup}) + "\n")
    r = CliRunner().invoke(main, ["perft", "--log", str(log), "--depth", "6", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["count"] == 2287


def test_cli_perft_reads_a_log_in_every_form_verify_reads(tmp_path):
    """A byte order mark, CRLF line ends and gzip data: the deal is read as verify reads it."""
    import gzip

    setup = seeded_deal(2, "fr-revised")
    text = (json.dumps({"t": "game", "format": "mb-replay/1", "id": "g", "edition": "fr-revised"}) + "\n"
            + json.dumps({"t": "setup", **setup}) + "\n").encode()
    forms = {"bom.jsonl": b"\xef\xbb\xbf" + text, "crlf.jsonl": text.replace(b"\n", b"\r\n"),
             "log.jsonl.gz": gzip.compress(text)}
    for name, data in forms.items():
        (tmp_path / name).write_bytes(data)
        r = CliRunner().invoke(main, ["perft", "--log", str(tmp_path / name), "--depth", "6", "--format", "json"])
        assert r.exit_code == 0, (name, r.output)
        assert json.loads(r.stdout)["count"] == 2287, name
    (tmp_path / "cut.jsonl.gz").write_bytes(gzip.compress(text)[:40])
    r = CliRunner().invoke(main, ["perft", "--log", str(tmp_path / "cut.jsonl.gz"), "--depth", "2"])
    assert r.exit_code == 2 and "cut.jsonl.gz" in r.output and "Traceback" not in r.output


def test_cli_bad_starts_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t":"game","format":"mb-replay/1","id":"g"}\n{"t":"setup","cards":{"1":"Gorillion"},'
                   '"decks":[[1]],"unused":[]}\n')
    r = CliRunner().invoke(main, ["perft", "--log", str(bad), "--depth", "2"])
    assert r.exit_code == 2 and "bad.jsonl:2" in r.output and "decks" in r.output
    bad.write_text('{"t":"game","format":"mb-replay/1","id":"g"}\n{"t":"setup","cards":{"1":"Gorilion"},'
                   '"decks":[[],[]],"unused":[1]}\n')
    r = CliRunner().invoke(main, ["perft", "--log", str(bad), "--depth", "2"])
    assert r.exit_code == 2 and "bad.jsonl:2: UNKNOWN_CARD" in r.output, r.output
    r = CliRunner().invoke(main, ["perft", "--depth", "2"])
    assert r.exit_code == 2 and "exactly one start" in r.output
    r = CliRunner().invoke(main, ["perft", "--scenario", str(ROOT / "scenarios/editions.yaml"), "--id", "nope",
                                  "--depth", "2"])
    assert r.exit_code == 2 and "no scenario with id 'nope'" in r.output
