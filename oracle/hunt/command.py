"""`mb-oracle hunt`: search for contradictions, ambiguities, edition
differences and engine bugs, and write each finding as a draft scenario."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import click

from ..editions import EDITIONS
from ..term import error, visible
from .budget import DEFAULT, SHARES

CELL = {"contradiction": "CONTRADICTION", "ambiguity": "AMBIGUOUS"}
WIDTH = 100   # the summary fits in this many columns


def _cell(entry: dict, groups: list, shown: tuple) -> str:
    if not entry:
        return "-"
    if "group" in entry:
        if len(shown) == 1:
            others = [e for e in EDITIONS if e not in entry["group"]]
            return "differs from " + ", ".join(others) if others else "same in every edition"
        return "outcome " + "ABCD"[groups.index(entry["group"])]
    v = entry.get("verdict")
    if v in CELL:
        eng = entry.get("engine")
        return CELL[v] + (f" (engine: {eng})" if eng else "")
    return ",".join(entry.get("admitted", [])) or "?"


def _fit(text: str, indent: str = "", first: str | None = None) -> list[str]:
    """`text` wrapped to WIDTH columns (long words broken, so nothing is wider)."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_long_words=True, break_on_hyphens=False) or [indent]


def render(rep, out_dir: Path | None) -> str:
    """The findings for people: one block per finding, no line wider than WIDTH."""
    shown = tuple(e for e in EDITIONS if e in rep.editions)
    n = len(rep.findings)
    lines = _fit(f"mb-oracle hunt: {n} finding{'s' * (n != 1)} in {rep.seconds:.1f} s ({rep.examined:,} "
                 f"situations examined of a budget of {rep.budget:,}, seed {rep.seed}; editions: {', '.join(shown)})")
    lines.append("")
    for i, f in enumerate(rep.findings, 1):
        groups = []
        for e in EDITIONS:
            g = f.editions.get(e, {}).get("group")
            if g is not None and g not in groups:
                groups.append(g)
        cards = "First Contact cards reach it" if f.reachable else "needs changed cards"
        lines += _fit(f"{i}. {f.category}: {' + '.join(f.clauses)} ({cards})", "   ")
        cells = "; ".join(f"{e} {_cell(f.editions.get(e, {}), groups, shown)}" for e in shown)
        lines += _fit(cells, "   ")
        lines += _fit(f.summary, "   ")
        if f.scenario:
            lines += _fit(f"scenario: {f.scenario}", "   ")
        lines.append("")
    lines += _fit("Per edition: the answer the edition settles on, CONTRADICTION or AMBIGUOUS (with the "
                  "engine's reading), or which outcome the edition's game reaches.")
    if out_dir is not None:
        lines.append("")
        lines += _fit(f"draft scenarios in {out_dir}: mb-oracle scenarios {out_dir}")
    return "\n".join(map(visible, lines))   # card names, ids and paths from the input


def _hunt_cards(cards_file, out, budget, seed, fmt) -> int:
    from ..cards.declared import CardFileError
    from .card_hunt import hunt_cards, render, write
    out_dir = Path(out) if out else None
    try:
        found = hunt_cards(cards_file, out_dir, budget=budget, seed=seed)
    except CardFileError as e:
        for line in str(e).splitlines():           # every problem of the file, one a line
            error(line)
        return 2
    if out_dir is not None:
        for f in found:
            write(f, out_dir)
    if fmt == "json":
        click.echo(json.dumps({"findings": [f.to_json() for f in found]}, ensure_ascii=False, indent=2))
    else:
        click.echo(render(found, out_dir))
    return 0


def _only(doc: dict, editions: tuple) -> dict:
    """The JSON report with each finding's per-edition entries cut to `editions`."""
    for f in doc["findings"]:
        f["editions"] = {e: v for e, v in f["editions"].items() if e in editions}
    return doc


@click.command()
@click.option("--edition", "edition", type=click.Choice(EDITIONS), help="Hunt in this edition only.")
@click.option("--all", "all_editions", is_flag=True, help="Hunt in every edition (the default).")
@click.option("--budget", type=click.IntRange(min=1), default=None, metavar="SITUATIONS",
              help="The most situations the hunt examines, shrinking included (default 2500): half with real "
                   "cards, half with changed ones. With --cards: boards per declared card (default 8).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search (same seed, same hunt).")
@click.option("--out", "out", type=click.Path(file_okay=False),
              help="Write each finding as a draft scenario here (never over a draft someone edited).")
@click.option("--force", is_flag=True, help="With --out: overwrite drafts even where someone edited them.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--no-abstract", is_flag=True, help="Only real First Contact cards (no changed powers or keywords).")
@click.option("-j", "--jobs", type=click.IntRange(1, SHARES), default=1, show_default=True,
              help=f"Processes to share the card designs between (1 to {SHARES}, the shares of the designs; the "
                   "findings do not depend on it).")
@click.option("--progress/--no-progress", default=True, help="Progress on standard error (terminals only).")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Hunt the cards declared in FILE (mb-cards/1) instead: positions around each card in every "
                   "edition; --budget boards per card.")
def hunt(edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file):
    """Hunt for rules contradictions, ambiguities and edition differences.

    Hypothesis searches situations (attackers, blockers, cards to play) and
    checks the engine against the rules read a second time as constraints.
    Each finding is shrunk to a minimal position; with --out it is written
    as a draft scenario; a draft someone has edited since the hunt wrote it
    is not overwritten (the run then writes no draft and exits 2) unless
    --force. Exit status 1 when the engine gives an outcome the constraints
    forbid.
    """
    from .drafts import draft_path, edited, write
    from .search import Hunt

    if edition and all_editions:
        raise click.UsageError("--edition and --all exclude each other")
    if cards_file:
        sys.exit(_hunt_cards(cards_file, out, budget or 8, seed, fmt))
    budget = budget or DEFAULT
    editions = (edition,) if edition else EDITIONS
    out_dir = Path(out) if out else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise click.UsageError(f"--out {out_dir}: not a folder")
    from ..term import Progress
    with Progress("hunt", total=budget, unit="situation", enabled=progress) as bar:
        rep = Hunt(editions, budget=budget, seed=seed, abstract=not no_abstract, jobs=jobs, progress=bar.update).run()
    refused = []
    if out_dir is not None:
        refused = [] if force else [draft_path(f, out_dir) for f in rep.findings if edited(draft_path(f, out_dir))]
        if not refused:
            for f in rep.findings:
                write(f, out_dir, budget, seed, force=True)
    if fmt == "json":
        click.echo(json.dumps(_only(rep.to_json(), editions), ensure_ascii=False, indent=2))
    else:
        click.echo(render(rep, None if refused else out_dir))
    if refused:
        click.echo(visible(f"mb-oracle hunt: wrote no draft: {len(refused)} file{'s' * (len(refused) != 1)} in "
                           f"{out_dir} changed since the hunt wrote {'them' if len(refused) != 1 else 'it'} (or not "
                           f"written by the hunt): {', '.join(p.name for p in refused)}; use --force to overwrite, "
                           "or another --out"), err=True)
        sys.exit(2)
    sys.exit(1 if any(f.category == "engine-bug" for f in rep.findings) else 0)
