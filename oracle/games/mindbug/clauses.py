"""Mindbug's clause catalogue: spec/clauses.yaml, read by the shared loader
(oracle.clauses) with the game's four editions and its sections.

``spec/clauses.md`` is generated from the YAML::

    python -m oracle.games.mindbug.clauses --markdown > spec/clauses.md
    python -m oracle.games.mindbug.clauses --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from ...clauses import Book, Clause, clause_to_json, load_catalogue as _load, load_edition_books as _books, \
    render_markdown as _render
from .editions import EDITIONS

# A clause shown in full (`mb-oracle clauses ID`) says where it is cited, and
# the clauses under it follow; `--coverage` checks the ids asked first.
FULL_VIEW_CITED = True

EDITION_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "en-first": "English, first edition (rules sheet)",
        "fr-first": "French, first edition",
        "fr-revised": "French, revised edition",
        "en-revised": "English, revised edition (all card sets)",
    }
)

# Sections in the order the rulebooks present them (Key Concepts come before
# setup in every edition); the Markdown document follows this order.
SECTIONS: Mapping[str, str] = MappingProxyType(
    {
        "setup": "Setup",
        "effects": "Key concepts: resolving effects",
        "winning": "Goal of the game",
        "life": "Life",
        "cards": "Creature cards",
        "drawing": "Drawing cards",
        "turns": "Taking turns",
        "play": "Playing a card",
        "mindbug": "Mindbugs",
        "combat": "Attacking and combat",
        "keywords": "Keywords",
        "triggers": "Triggers",
        "abilities": "Other abilities",
        "terms": "Game terms",
        "later-sets": "Later card sets",
        "beyond": "Beyond sets and promos",
        "readings": "Team readings",
    }
)


def catalogue_path() -> Path:
    """The YAML file: inside an installed wheel, else in the source checkout."""
    installed = Path(__file__).resolve().parents[2] / "_spec" / "clauses.yaml"
    if installed.exists():
        return installed
    return Path(__file__).resolve().parents[3] / "spec" / "clauses.yaml"


def load_catalogue(path: Path | None = None) -> dict[str, Clause]:
    """All clauses by id, in file order (of `path`, a catalogue of Mindbug's
    editions and sections, in place of spec/clauses.yaml). Raises ValueError
    on a malformed file."""
    return _load(path or catalogue_path(), editions=EDITIONS, sections=tuple(SECTIONS))


def load_edition_books(path: Path | None = None) -> dict[str, str]:
    """Edition id -> rulebook file name, as declared in the catalogue."""
    return _books(path or catalogue_path(), editions=EDITIONS, sections=tuple(SECTIONS))


def render_markdown(only: Iterable[str] | None = None) -> str:
    """spec/clauses.md (only the clauses whose ids are in `only`, when given)."""
    return _render(only, Book(catalogue_path(), EDITIONS, EDITION_LABELS, SECTIONS, "Mindbug clause catalogue",
                              "spec/clauses.yaml", "python -m oracle.games.mindbug.clauses --markdown"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m oracle.games.mindbug.clauses", description="Print the Mindbug clause catalogue."
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="the Markdown document (default)")
    form.add_argument("--json", action="store_true", help="a JSON list of clauses")
    args = parser.parse_args(argv)
    if args.json:
        payload = [clause_to_json(c) for c in load_catalogue().values()]
        text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    else:
        text = render_markdown()
    # Write UTF-8 bytes whatever the locale, so a redirect gives the same file everywhere.
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
