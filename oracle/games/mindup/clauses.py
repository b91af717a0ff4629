"""Mind Up!'s clause catalogue: spec/mind-up/clauses.yaml, read by the
shared loader (oracle.clauses) with the game's own edition and sections.

    python -m oracle.games.mindup.clauses --markdown > spec/mind-up/clauses.md
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import MappingProxyType

from ...clauses import Book, Clause, clause_to_json, load_catalogue as _load, render_markdown as _render

EDITIONS: tuple[str, ...] = ("fr",)
# A clause shown in full (`mb-oracle clauses ID`) is shown alone, without
# where it is cited; `--coverage` lists that, for whatever ids are asked.
FULL_VIEW_CITED = False
EDITION_LABELS = MappingProxyType({"fr": "French rulebook (Catch Up Games, 2023)"})
# Sections in the rulebook's order.
SECTIONS = MappingProxyType({
    "components": "Components",
    "setup": "Set-up",
    "turn": "A turn",
    "score-cards": "The Score cards",
    "round": "The end of a round and the next",
    "scoring": "Scoring",
    "end": "The end of the game",
    "objectives": "Bonus objectives (optional rule)",
})


def catalogue_path() -> Path:
    """The YAML file: inside an installed wheel, else in the source checkout."""
    installed = Path(__file__).resolve().parents[2] / "_spec" / "mind-up" / "clauses.yaml"
    if installed.exists():
        return installed
    return Path(__file__).resolve().parents[3] / "spec" / "mind-up" / "clauses.yaml"


BOOK = Book(None, EDITIONS, EDITION_LABELS, SECTIONS, "Mind Up! clause catalogue",
            "spec/mind-up/clauses.yaml", "python -m oracle.games.mindup.clauses --markdown")


def load_catalogue() -> dict[str, Clause]:
    return _load(catalogue_path(), editions=EDITIONS, sections=tuple(SECTIONS))


def render_markdown(only=None) -> str:
    from dataclasses import replace
    return _render(only, replace(BOOK, path=catalogue_path()))


def main(argv=None) -> int:
    import json
    argv = sys.argv[1:] if argv is None else argv
    text = (json.dumps([clause_to_json(c) for c in load_catalogue().values()], ensure_ascii=False, indent=2) + "\n"
            if "--json" in argv else render_markdown())
    sys.stdout.buffer.write(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
