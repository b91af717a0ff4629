"""The clause catalogue of a game: every rule the oracle applies, in the
project's words, read from the game's YAML file (Mindbug's is
oracle.games.mindbug.clauses, Mind Up!'s oracle.games.mindup.clauses).

Each clause has a stable dotted id (``keywords.tough.poisonous``), a
plain-English statement of the rule, the rulebook sections it comes from,
and its status in each of the game's editions: ``states``, ``varies`` (with
the edition's ``variant``), ``implied`` (not said in words but led to by the
text; ``reading`` says how), ``silent`` (with the ``reading`` the engine
takes) or ``absent`` (a later-set mechanic). A game's Markdown document is
generated from its YAML (`render_markdown` with the game's `Book`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

import yaml

__all__ = [
    "STATUSES",
    "Book",
    "Clause",
    "EditionStatus",
    "clause_to_json",
    "load_catalogue",
    "load_edition_books",
    "render_markdown",
]

Status = Literal["states", "varies", "implied", "silent", "absent"]
STATUSES: tuple[Status, ...] = ("states", "varies", "implied", "silent", "absent")

_Fail = Callable[[str], ValueError]

_ID = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$")
_CLAUSE_KEYS = frozenset({"id", "title", "section", "text", "source", "editions", "notes"})
_REQUIRED_KEYS = ("id", "title", "section", "text", "source", "editions")
# The text each status carries, if any.
_STATUS_TEXT: Mapping[str, str | None] = MappingProxyType(
    {"states": None, "varies": "variant", "implied": "reading", "silent": "reading", "absent": None}
)


@dataclass(frozen=True)
class EditionStatus:
    """How one edition treats a clause; ``text`` is the variant or the reading."""

    status: Status
    text: str | None = None

    @property
    def variant(self) -> str | None:
        return self.text if self.status == "varies" else None

    @property
    def reading(self) -> str | None:
        return self.text if self.status in ("silent", "implied") else None


@dataclass(frozen=True)
class Clause:
    """One rule of the game, as the oracle applies it."""

    id: str
    title: str
    section: str
    text: str
    source: tuple[tuple[str, str], ...]  # (edition id, rulebook section heading)
    editions: Mapping[str, EditionStatus] = field(hash=False)
    notes: str | None = None

    def status(self, edition: str) -> EditionStatus:
        return self.editions[edition]

    @property
    def is_reading(self) -> bool:
        """True when no edition settles the rule and the engine takes a reading."""
        return all(s.status == "silent" for s in self.editions.values())


def load_catalogue(path: Path, *, editions: tuple[str, ...], sections: tuple[str, ...]) -> dict[str, Clause]:
    """All clauses of the catalogue at `path` by id, in file order, for a
    game of those `editions` and `sections`. Raises ValueError on a
    malformed file."""
    return dict(_load(path, editions, sections)[1])


def load_edition_books(path: Path, *, editions: tuple[str, ...], sections: tuple[str, ...]) -> dict[str, str]:
    """Edition id -> rulebook file name, as declared in the catalogue."""
    return dict(_load(path, editions, sections)[0])


@cache
def _load(path: Path, editions: tuple[str, ...], sections: tuple[str, ...]
          ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, Clause], ...]]:
    EDITIONS = editions     # noqa: N806 - the editions of this catalogue
    with path.open(encoding="utf-8") as f:
        data = yaml.safe_load(f)
    where = path.name
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping at the top level")
    if data.get("version") != 1:
        raise ValueError(f"{where}: expected 'version: 1', found {data.get('version')!r}")
    books = data.get("editions")
    if not isinstance(books, dict) or set(books) != set(EDITIONS):
        raise ValueError(f"{where}: 'editions' must map exactly {', '.join(EDITIONS)} to rulebook files")
    for edition, book in books.items():
        if not isinstance(book, str) or not book.strip():
            raise ValueError(f"{where}: edition {edition!r} needs a rulebook file name")
    raw = data.get("clauses")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{where}: 'clauses' must be a non-empty list")
    others = data.get("sources", {})
    if not isinstance(others, dict) or not all(_is_text(v) for v in others.values()):
        raise ValueError(f"{where}: 'sources' must map a source id to what it is")
    books_ok = tuple(EDITIONS) + tuple(others)

    clauses: dict[str, Clause] = {}
    parts = [(where, raw)]
    include = data.get("include", [])
    if not isinstance(include, list) or not all(isinstance(i, str) for i in include):
        raise ValueError(f"{where}: 'include' must be a list of file names beside it")
    for name in include:
        part = path.parent / name
        with part.open(encoding="utf-8") as f:
            more = yaml.safe_load(f)
        if not isinstance(more, dict) or not isinstance(more.get("clauses"), list) or set(more) != {"clauses"}:
            raise ValueError(f"{name}: expected a mapping with only 'clauses', a list")
        parts.append((name, more["clauses"]))
    for part_name, entries in parts:
        for index, entry in enumerate(entries, start=1):
            clause = _parse_clause(entry, part_name, index, editions, sections, books_ok)
            if clause.id in clauses:
                raise ValueError(f"{part_name}: clause {clause.id!r}: duplicate id")
            clauses[clause.id] = clause
    return tuple((e, books[e]) for e in EDITIONS), tuple(clauses.items())


def _parse_clause(entry: Any, filename: str, index: int, editions: tuple[str, ...],
                  sections: tuple[str, ...], books: tuple[str, ...] | None = None) -> Clause:
    if not isinstance(entry, dict):
        raise ValueError(f"{filename}: clause #{index}: expected a mapping")
    cid = entry.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise ValueError(
            f"{filename}: clause #{index}: id {cid!r} is not a dotted lowercase id such as 'keywords.tough'"
        )

    def fail(problem: str) -> ValueError:
        return ValueError(f"{filename}: clause {cid!r}: {problem}")

    missing = [k for k in _REQUIRED_KEYS if k not in entry]
    if missing:
        raise fail(f"missing field(s): {', '.join(missing)}")
    unknown = sorted(set(entry) - _CLAUSE_KEYS)
    if unknown:
        raise fail(f"unknown field(s): {', '.join(unknown)}")
    for key in ("title", "text"):
        if not _is_text(entry[key]):
            raise fail(f"'{key}' must be non-empty text")
    if entry["section"] not in sections:
        raise fail(f"section {entry['section']!r} is not one of {', '.join(sections)}")
    notes = entry.get("notes")
    if notes is not None and not _is_text(notes):
        raise fail("'notes' must be non-empty text when present")

    return Clause(
        id=cid,
        title=entry["title"].strip(),
        section=entry["section"],
        text=entry["text"].strip(),
        source=_parse_source(entry["source"], fail, books or editions),
        editions=_parse_editions(entry["editions"], fail, editions),
        notes=notes.strip() if notes is not None else None,
    )


def _parse_source(raw: Any, fail: _Fail, editions: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    EDITIONS = editions     # noqa: N806
    if not isinstance(raw, list):
        raise fail("'source' must be a list (possibly empty) of {book, section}")
    refs: list[tuple[str, str]] = []
    for ref in raw:
        if not isinstance(ref, dict) or set(ref) != {"book", "section"}:
            raise fail(f"source entry {ref!r} must have exactly 'book' and 'section'")
        if ref["book"] not in EDITIONS:
            raise fail(f"source book {ref['book']!r} is not an edition id nor a source the catalogue names")
        if not _is_text(ref["section"]):
            raise fail(f"source entry for {ref['book']} needs a section heading")
        refs.append((ref["book"], ref["section"].strip()))
    return tuple(refs)


def _parse_editions(raw: Any, fail: _Fail, editions: tuple[str, ...]) -> Mapping[str, EditionStatus]:
    EDITIONS = editions     # noqa: N806
    if not isinstance(raw, dict):
        raise fail("'editions' must be a mapping of edition id to {status: ...}")
    if set(raw) != set(EDITIONS):
        missing = [e for e in EDITIONS if e not in raw]
        extra = sorted(set(raw) - set(EDITIONS))
        count = _WORDS.get(len(EDITIONS), len(EDITIONS))
        raise fail(f"'editions' must list exactly the {count} editions (missing: {missing}, unknown: {extra})")
    statuses: dict[str, EditionStatus] = {}
    for edition in EDITIONS:
        value = raw[edition]
        if not isinstance(value, dict):
            raise fail(f"edition {edition}: expected a mapping such as {{status: states}}")
        status = value.get("status")
        if status not in STATUSES:
            raise fail(f"edition {edition}: status {status!r} is not one of {', '.join(STATUSES)}")
        text_key = _STATUS_TEXT[status]
        allowed = {"status"} | ({text_key} if text_key else set())
        extra = sorted(set(value) - allowed)
        if extra:
            raise fail(f"edition {edition}: '{extra[0]}' does not go with status {status!r}")
        text = value.get(text_key) if text_key else None
        if text_key and not _is_text(text):
            raise fail(f"edition {edition}: status {status!r} needs a '{text_key}' text")
        statuses[edition] = EditionStatus(cast(Status, status), text.strip() if text else None)
    return MappingProxyType(statuses)


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


# ---------------------------------------------------------------- output


def clause_to_json(c: Clause) -> dict[str, Any]:
    """A clause as plain JSON data (``mb-oracle clauses --json``)."""
    editions: dict[str, dict[str, str]] = {}
    for edition, st in c.editions.items():
        entry = {"status": st.status}
        text_key = _STATUS_TEXT[st.status]
        if text_key and st.text is not None:
            entry[text_key] = st.text
        editions[edition] = entry
    return {
        "id": c.id,
        "title": c.title,
        "section": c.section,
        "text": c.text,
        "source": [{"book": book, "section": section} for book, section in c.source],
        "editions": editions,
        "notes": c.notes,
    }


@dataclass(frozen=True)
class Book:
    """What the Markdown catalogue of one game is made from: its catalogue,
    its editions and their labels, its sections, its title and where it is
    generated from."""

    path: Path
    editions: tuple[str, ...]
    labels: Mapping[str, str]
    sections: Mapping[str, str]
    title: str
    source: str
    command: str


def render_markdown(only: Iterable[str] | None, book: Book) -> str:
    """The human-readable catalogue of a game, grouped by section in
    rulebook order (only the clauses whose ids are in `only`, when given)."""
    EDITIONS, EDITION_LABELS, SECTIONS = book.editions, book.labels, book.sections  # noqa: N806
    clauses = load_catalogue(book.path, editions=EDITIONS, sections=tuple(SECTIONS))
    if only is not None:
        keep = set(only)
        clauses = {cid: c for cid, c in clauses.items() if cid in keep}
    books = load_edition_books(book.path, editions=EDITIONS, sections=tuple(SECTIONS))
    by_section: dict[str, list[Clause]] = {s: [] for s in SECTIONS}
    for c in clauses.values():
        by_section[c.section].append(c)

    out: list[str] = [
        f"# {book.title}",
        "",
        f"<!-- Generated from {book.source} by `{book.command}`."
        " Do not edit by hand. -->",
        "",
        "Every rule the oracle applies, in the project's own words. Each clause has a",
        "stable id (cited by the engine, the scenarios and the findings), the rulebook",
        "sections it comes from, and its status in each edition of the rules.",
        "",
        "## Editions",
        "",
        "| edition | rulebook | file |",
        "|---|---|---|",
    ]
    out += [f"| `{e}` | {EDITION_LABELS[e]} | `{books[e]}` |" for e in EDITIONS]
    out += [
        "",
        "Statuses: **states**: the edition gives the rule as written here;"
        " **varies**: it gives another version (the variant is shown);"
        " **implied**: it does not say the rule in words, but its text leads to it (how is shown);"
        " **silent**: it does not address the rule (the reading the engine takes is shown);"
        " **absent**: the mechanic does not exist in that edition.",
        "",
        f"{len(clauses)} clause{'s' * (len(clauses) != 1)}.",
        "",
        "## Contents",
        "",
    ]
    out += [
        f"- [{SECTIONS[s]}](#{_slug(SECTIONS[s])}) ({len(cs)})" for s, cs in by_section.items() if cs
    ]
    for section, cs in by_section.items():
        if not cs:
            continue
        out += ["", f"## {SECTIONS[section]}"]
        for c in cs:
            out += _render_clause(c, EDITIONS)
    return "\n".join(out) + "\n"


def _render_clause(c: Clause, editions: tuple[str, ...]) -> list[str]:
    EDITIONS = editions     # noqa: N806
    lines = ["", f"### `{c.id}`: {c.title}", "", c.text, ""]
    if c.source:
        lines.append("Sources:")
        lines.append("")
        for edition in EDITIONS:
            sections = [s for b, s in c.source if b == edition]
            if sections:
                lines.append(f"- {edition}: {'; '.join(sections)}")
        lines.append("")
    lines += ["| edition | status | variant or reading |", "|---|---|---|"]
    for edition in EDITIONS:
        st = c.editions[edition]
        lines.append(f"| {edition} | {st.status} | {_cell(st.text or '')} |")
    if c.notes:
        lines += ["", f"Notes: {c.notes}"]
    return lines


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to dashes."""
    kept = re.sub(r"[^\w\- ]", "", heading.lower())
    return kept.replace(" ", "-")
