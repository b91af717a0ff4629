"""`mb-oracle hunt`: search for contradictions, ambiguities, edition
differences and engine bugs, and write each finding as a draft scenario."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..editions import EDITIONS

CELL = {"contradiction": "CONTRADICTION", "ambiguity": "AMBIGUOUS"}


def _cell(entry: dict, groups: list) -> str:
    if not entry:
        return "-"
    if "group" in entry:
        return "outcome " + "ABCD"[groups.index(entry["group"])]
    v = entry.get("verdict")
    if v in CELL:
        eng = entry.get("engine")
        return CELL[v] + (f" ({eng})" if eng else "")
    answer = ",".join(entry.get("admitted", [])) or "?"
    return answer


def render(rep, out_dir: Path | None) -> str:
    lines = [
        (f"mb-oracle hunt: {len(rep.findings)} findings in {rep.seconds:.1f} s "
         f"(budget {rep.budget}, seed {rep.seed}, {rep.examined} situations, "
         f"editions: {', '.join(rep.editions)})"),
        "",
    ]
    head = ["#", "category", "clauses in tension"] + list(EDITIONS) + ["cards"]
    rows = []
    for i, f in enumerate(rep.findings, 1):
        groups = []
        for e in EDITIONS:
            g = f.editions.get(e, {}).get("group")
            if g is not None and g not in groups:
                groups.append(g)
        rows.append([str(i), f.category, " + ".join(f.clauses)]
                    + [_cell(f.editions.get(e, {}), groups) for e in EDITIONS]
                    + ["first contact" if f.reachable else "changed cards"])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines.append(fmt.format(*head).rstrip())
    lines.append(fmt.format(*("-" * w for w in widths)).rstrip())
    for r in rows:
        lines.append(fmt.format(*r).rstrip())
    lines.append("")
    lines.append("Per edition: the answer the edition settles on, CONTRADICTION or AMBIGUOUS (with the engine's")
    lines.append("reading), or which outcome the edition's game reaches. cards: whether First Contact cards reach it.")
    lines.append("")
    for i, f in enumerate(rep.findings, 1):
        lines.append(f"{i}. {f.summary}")
        if f.scenario:
            lines.append(f"   scenario: {f.scenario}")
    if out_dir is not None:
        lines.append("")
        lines.append(f"draft scenarios in {out_dir}: mb-oracle scenarios {out_dir}")
    return "\n".join(lines)


@click.command()
@click.option("--edition", "edition", type=click.Choice(EDITIONS), help="Hunt in this edition only.")
@click.option("--all", "all_editions", is_flag=True, help="Hunt in every edition (the default).")
@click.option("--budget", type=click.IntRange(min=1), default=320, show_default=True,
              help="Situations generated per search phase, shared between the card designs.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search (same seed, same hunt).")
@click.option("--out", "out", type=click.Path(file_okay=False), help="Write each finding as a draft scenario here.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--no-abstract", is_flag=True, help="Only real First Contact cards (no changed powers or keywords).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to share the card designs between (another count gives another search).")
def hunt(edition, all_editions, budget, seed, out, fmt, no_abstract, jobs):
    """Hunt for rules contradictions, ambiguities and edition differences.

    Hypothesis searches situations (attackers, blockers, cards to play) and
    checks the engine against the rules read a second time as constraints.
    Each finding is shrunk to a minimal position; with --out it is written
    as a draft scenario. Exit status 1 when the engine gives an outcome the
    constraints forbid.
    """
    from .drafts import write
    from .search import Hunt

    if edition and all_editions:
        raise click.UsageError("--edition and --all exclude each other")
    editions = (edition,) if edition else EDITIONS
    rep = Hunt(editions, budget=budget, seed=seed, abstract=not no_abstract, jobs=jobs).run()
    out_dir = Path(out) if out else None
    if out_dir is not None:
        for f in rep.findings:
            write(f, out_dir, budget, seed)
    if fmt == "json":
        click.echo(json.dumps(rep.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(render(rep, out_dir))
    sys.exit(1 if any(f.category == "engine-bug" for f in rep.findings) else 0)
