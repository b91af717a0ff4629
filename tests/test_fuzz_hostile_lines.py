"""The fuzz targets of hostile names and lines (`names`, `big-claims`,
`blank-lines`, `boms`): a fixed-seed run finds nothing, and each finds the
fault it is there for when that fault is planted."""

import pytest

from oracle.fuzz import run_fuzz

SEED = 20261126
TARGETS = ("undecodable-names", "big-claims", "blank-lines", "boms")


def problems(tally) -> str:
    return "\n\n".join(f"{p.key} ({p.seen}x)\n{p.message}" for p in tally.problems.values())


def test_a_fixed_seed_run_of_the_hostile_line_targets_finds_nothing(tmp_path):
    tally = run_fuzz(48, SEED, out=tmp_path, cli_every=6, targets=TARGETS)
    assert not tally.problems, problems(tally)
    assert all(tally.inputs[t] == 12 for t in TARGETS) and tally.cli_runs >= 8
    assert tally.games_in > 0 and tally.verdicts_out == tally.games_in


def _planted(monkeypatch, target):
    """Undo, in process, what the target guards."""
    from oracle.games.mindbug.replay import diff
    from oracle.replay import reader, report
    from oracle.term import json_visible_bytes

    if target == "undecodable-names":
        monkeypatch.setattr(report, "json_encode_visible", lambda encode, obj: json_visible_bytes(encode(obj)))
    elif target == "big-claims":
        monkeypatch.setattr(diff, "listed", lambda entries: entries)
    else:
        monkeypatch.setattr(reader, "without_boms", lambda block: block)


@pytest.mark.parametrize("target,found", [("undecodable-names", "traceback"), ("big-claims", "count"), ("boms", "count")])
def test_each_target_finds_its_planted_fault(tmp_path, monkeypatch, target, found):
    _planted(monkeypatch, target)
    tally = run_fuzz(40, SEED, out=tmp_path, cli_every=0, targets=(target,))
    assert tally.by_kind(found), problems(tally) or "nothing found"
