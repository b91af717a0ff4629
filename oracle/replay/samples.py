"""The sample corpus in replays/: each game's samples (its entry's SAMPLES:
conforming games, and games with one planted mistake each) and the
manifest of them all, with each game's expected verdict and, for a
violation, its finding.

    python -m oracle.replay.samples replays/

rewrites the corpus and its manifest deterministically.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from .. import games
from ..safefile import Replacement


def build(out_dir: Path) -> list[dict]:
    """Write every game's samples and the manifest under out_dir; the manifest's entries."""
    out_dir = Path(out_dir)
    manifest = []
    for name in games.GAMES:
        manifest += games.attribute(name, "SAMPLES")(out_dir)
    with Replacement(out_dir / "manifest.yaml") as f:
        f.write("# The sample corpus: each game's expected verdict and, for violations, the\n"
                "# finding (code, clause, line). Regenerate with: python -m oracle.replay.samples replays/\n")
        yaml.safe_dump({"format": "mb-samples/1", "games": manifest}, f, sort_keys=False, allow_unicode=True)
    return manifest


if __name__ == "__main__":
    build(Path(sys.argv[1] if len(sys.argv) > 1 else "replays"))
