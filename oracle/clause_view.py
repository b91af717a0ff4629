"""One clause in full, for `mb-oracle clauses ID`: its text, its sources,
its status in each edition (with the variant or the engine's reading), its
notes, and where it is cited: the code, the scenarios and the tests."""

from __future__ import annotations

import difflib
import textwrap

from .clauses import Clause

WIDTH = 100
SHOWN = 12   # citations listed per kind before "... and N more"


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _listed(items: list[str], indent: str) -> list[str]:
    shown = items[:SHOWN]
    out = _wrap(", ".join(shown), indent)
    if len(items) > SHOWN:
        out.append(f"{indent}... and {len(items) - SHOWN} more")
    return out


def describe(c: Clause, cov, editions: tuple[str, ...], readings: dict) -> str:
    """The clause as text, in its game's `editions`, with its team reading
    if `readings` (clause id -> Reading) has one; `cov` (a
    `coverage.ClauseCoverage`, or None) adds where it is cited."""
    EDITIONS = editions  # noqa: N806
    lines = [f"{c.id}: {c.title}  [{c.section}]", ""]
    lines += _wrap(c.text, "  ")
    if c.source:
        lines += ["", "sources:"]
        for book, section in c.source:
            lines.append(f"  {book}: {section}")
    lines += ["", "editions:"]
    for e in EDITIONS:
        st = c.editions[e]
        lines.append(f"  {e:<11} {st.status}")
        if st.text:
            label = "variant" if st.status == "varies" else "reading" if st.status == "silent" else "note"
            lines += _wrap(f"{label}: {st.text}", " " * 14)
    reading = readings.get(c.id)
    if reading is not None:
        lines += ["", "team reading (a switch: `verify --reading`, the game line's `readings`):"]
        for choice, what in reading.choices:
            mark = " (the team's)" if choice == reading.team else ""
            lines += _wrap(f"{choice}{mark}: {what}", "  ")
    if c.notes:
        lines += ["", "notes:"]
        lines += _wrap(c.notes, "  ")
    if cov is not None:
        lines += ["", "cited by:"]
        for kind, items in (("code", cov.code), ("scenarios", cov.scenarios), ("tests", cov.tests)):
            if items:
                lines.append(f"  {kind} ({len(items)}):")
                lines += _listed(items, "    ")
            else:
                lines.append(f"  {kind}: none")
    return "\n".join(lines)


def select(catalogue: dict[str, Clause], ids) -> tuple[list[Clause], list[str]]:
    """The clauses whose id is one of `ids` or starts with one of them and a
    dot (all when `ids` is empty), and the ids that match nothing."""
    if not ids:
        return list(catalogue.values()), []
    chosen = [c for c in catalogue.values() if any(c.id == i or c.id.startswith(i + ".") for i in ids)]
    missing = [i for i in ids if not any(c.id == i or c.id.startswith(i + ".") for c in chosen)]
    return chosen, missing


def unknown_message(catalogue: dict[str, Clause], ids: list[str]) -> str:
    bits = []
    for i in ids:
        close = difflib.get_close_matches(i, list(catalogue), n=2, cutoff=0.6)
        bits.append(f"{i!r}" + (f" (did you mean {' or '.join(close)}?)" if close else ""))
    return f"no clause id is or starts with {', '.join(bits)} (see mb-oracle clauses)"
