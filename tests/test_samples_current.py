"""The sample corpus in replays/ is what its generator writes: the README and
oracle.replay.samples say `python -m oracle.replay.samples replays/`
rewrites it deterministically, so the committed files must be that output."""

from conftest import ROOT

from oracle.replay.samples import build


def test_the_committed_samples_are_what_the_generator_writes(tmp_path):
    build(tmp_path)
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written and all((ROOT / "replays" / p).is_file() for p in written)
    stale = [str(p) for p in written if (tmp_path / p).read_bytes() != (ROOT / "replays" / p).read_bytes()]
    assert not stale, f"run `python -m oracle.replay.samples replays/`: {stale} differ"
    kept = sorted(p.relative_to(ROOT / "replays") for p in (ROOT / "replays").rglob("*") if p.is_file())
    assert kept == written          # no sample the generator no longer writes
