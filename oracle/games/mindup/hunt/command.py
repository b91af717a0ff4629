"""`mb-oracle hunt --game mind-up`: the report for people or as JSON, the
drafts written (never over one someone edited, unless forced), the exit
status (1: an invariant broke; 2: a draft was not written)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

from ....draftfile import DraftRefused, unusable_out
from ....safefile import OutputError
from ....term import json_document, visible
from . import drafts
from .search import POINTS, run

WIDTH = 100
JOBS = 1            # the most processes of `hunt -j`: this hunt runs in one


def render(rep, out_dir: Path | None) -> str:
    lines = [f"mb-oracle hunt --game mind-up: {rep.games} games ({rep.steps} steps) checked against the invariants, "
             f"{len(rep.broken)} broken; {len(rep.findings)} reading points in {rep.seconds:.1f} s "
             f"(budget {rep.budget}, seed {rep.seed})", ""]
    for problem in rep.broken:
        lines.append(f"INVARIANT BROKEN: {problem}")
    for i, f in enumerate(rep.findings, 1):
        r = f.reading
        lines.append(f"{i}. reading {r.clause}: {f.point.what}")
        lines += textwrap.wrap(f"the team reads {r.team}; {f.point.alternative} gives another outcome "
                               f"({f.situation.players} players, round {f.situation.given['round']}, "
                               f"{len(f.situation.turns)} turn(s)). How Board Game Arena reads it: {r.note}.",
                               WIDTH, initial_indent="   ", subsequent_indent="   ")
        if f.scenario:
            lines.append(f"   scenario: {f.scenario}")
    for clause in rep.missed:
        lines.append(f"not reached within the budget: {clause}")
    if out_dir is not None and rep.findings:
        lines += ["", f"draft scenarios in {out_dir}: mb-oracle scenarios {out_dir}"]
    return "\n".join(lines)


def hunt_game(budget: int | None, seed: int, out: str | None, force: bool, fmt: str, *, edition=None,
              no_abstract=False, jobs=1, progress=True, cards_file=None, sets_spec=None) -> int:
    """`mb-oracle hunt --game mind-up`: random games against the invariants,
    then the reading points; --edition, --cards, --sets and --no-abstract
    are Mindbug's (-j and --progress do not change this hunt)."""
    mindbug = [name for name, value in (("--edition", edition), ("--cards", cards_file), ("--sets", sets_spec),
                                        ("--no-abstract", no_abstract)) if value]
    if mindbug:
        raise click.UsageError(f"{', '.join(mindbug)} {'is' if len(mindbug) == 1 else 'are'} Mindbug's; the "
                               "mind-up hunt takes --budget, --seed, --out")
    budget = budget or 200
    out_dir = Path(out) if out else None
    if out_dir is not None and (why := unusable_out(out_dir)):
        raise click.UsageError(why)
    if out_dir is not None and not force:
        # The drafts' names are the reading points' (drafts.draft_path): a draft
        # someone edited is found before the hunt runs.
        refused = [p for p in (out_dir / f"{drafts.POINT_ID.format(c.removeprefix('mu.'))}.yaml" for c in POINTS)
                   if drafts.edited(p)]
        if refused:
            click.echo(visible(f"mb-oracle hunt: wrote no draft: {', '.join(p.name for p in refused)} in {out_dir} "
                               "changed since the hunt wrote them (or not written by the hunt); use --force to "
                               "overwrite, or another --out"), err=True)
            return 2
    rep = run(budget, seed)
    if out_dir is not None:
        try:
            for f in rep.findings:
                drafts.write(f, out_dir, budget, seed, force)
        except (DraftRefused, OutputError) as e:
            click.echo(f"mb-oracle hunt: {visible(str(e))}", err=True)
            return 2
    if fmt == "json":
        click.echo(json_document(rep.to_json()))
    else:
        click.echo(visible(render(rep, out_dir), lines=True))     # the --out folder's name as given
    return 1 if rep.broken else 0
