"""`mb-oracle hunt` for Mindbug (the registry entry's HUNT): the report of
the search for people or as JSON, the hunts of declared cards (--cards) and
of the later sets (--sets), the drafts written (never over one someone
edited, unless forced), the exit status (1: an engine bug; 2: a draft was
not written)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

from ....draftfile import unusable_out
from ....term import error, json_document, visible
from ..editions import EDITIONS
from .budget import DEFAULT

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


def _hunt_cards(cards_file, out, budget, seed, fmt, force) -> int:
    from ..cards.declared import CardFileError
    from .card_hunt import draft_path, hunt_cards, render, write
    out_dir = Path(out) if out else None
    if out_dir is not None and (why := unusable_out(out_dir)):
        raise click.UsageError(why)
    try:
        found = hunt_cards(cards_file, out_dir, budget=budget, seed=seed)
    except CardFileError as e:
        for line in str(e).splitlines():           # every problem of the file, one a line
            error(line)
        return 2
    refused = []
    if out_dir is not None:
        refused = _refused([draft_path(f, out_dir) for f in found], out_dir, force, cards_file)
        if not refused:
            refused = _write_all(lambda f: write(f, out_dir, force=True), found)
    if fmt == "json":
        click.echo(json_document({"findings": [f.to_json() for f in found]}))
    else:
        click.echo(render(found, None if refused else out_dir))
    return _say_refused(refused, out_dir) if refused else 0


def _hunt_sets(sets_spec: str, edition, out, fmt) -> int:
    """The hunt of the later sets (later_hunt); exit 1 on an engine bug."""
    from ..cards import UnknownSet, check_sets
    from .later_hunt import PROBES, hunt_later, render

    if out:
        raise click.UsageError("--out is not written by the hunt of --sets: its findings name the readings to settle")
    if edition not in (None, "en-revised"):
        raise click.UsageError(f"--sets: only en-revised deals the later sets, not {edition} (setup.sets.later)")
    try:
        sets = check_sets(s.strip() for s in sets_spec.split(",") if s.strip())
    except UnknownSet as e:
        raise click.BadParameter(str(e), param_hint="--sets") from None
    covered = sorted({s for p in PROBES for s in p.sets})
    if not set(covered) & set(sets):
        raise click.BadParameter(f"no probe deals {', '.join(sets)}; the probes deal {', '.join(covered)}",
                                 param_hint="--sets")
    found = hunt_later(sets)
    if fmt == "json":
        click.echo(json_document({"findings": [f.to_json() for f in found]}))
    else:
        click.echo(render(found, sets))
    return 1 if any(f.category == "engine-bug" for f in found) else 0


def _refused(paths: list[Path], out_dir: Path, force: bool, *inputs) -> list[str]:
    """Why each draft that may not be written is refused: a file someone
    edited (unless `force`), a link out of `out_dir`, an input of the run."""
    from ....draftfile import refusal
    from ....safefile import clash

    out = []
    for p in paths:
        why = refusal(p, out_dir, force)
        if why is None and clash(p, inputs) is not None:
            why = f"{visible(str(p))} is an input of this run"
        if why is not None:
            out.append(why)
    return out


def _write_all(write, findings) -> list[str]:
    """Write each finding's draft; [why] at the first that cannot be written."""
    from ....draftfile import DraftRefused
    from ....safefile import OutputError

    for f in findings:
        try:
            write(f)
        except (DraftRefused, OutputError) as e:
            return [str(e)]
        except OSError as e:
            return [f"{e.filename or 'a draft'}: cannot write: {e.strerror}"]
    return []


def _say_refused(refused: list[str], out_dir: Path) -> int:
    n = len(refused)
    click.echo(visible(f"mb-oracle hunt: wrote no draft: {n} file{'s' * (n != 1)} in {out_dir} may not be written: "
                       + "; ".join(refused) + "; use --force to overwrite drafts someone edited, or another --out"),
               err=True)
    return 2


def _only(doc: dict, editions: tuple) -> dict:
    """The JSON report with each finding's per-edition entries cut to `editions`."""
    for f in doc["findings"]:
        f["editions"] = {e: v for e, v in f["editions"].items() if e in editions}
    return doc



def hunt_game(budget, seed, out, force, fmt, *, edition=None, no_abstract=False, jobs=1, progress=True,
              cards_file=None, sets_spec=None) -> int:
    """`mb-oracle hunt` for Mindbug: the search of situations, else the hunt
    of the cards of `cards_file`, else that of the later sets of `sets_spec`;
    the report, the drafts, the exit status."""
    from .drafts import draft_path, write
    from .search import Hunt

    if cards_file:
        return _hunt_cards(cards_file, out, budget or 8, seed, fmt, force)
    if sets_spec is not None:
        return _hunt_sets(sets_spec, edition, out, fmt)
    budget = budget or DEFAULT
    editions = (edition,) if edition else EDITIONS
    out_dir = Path(out) if out else None
    if out_dir is not None and (why := unusable_out(out_dir)):
        raise click.UsageError(why)
    from ....term import Progress
    with Progress("hunt", total=budget, unit="situation", enabled=progress) as bar:
        rep = Hunt(editions, budget=budget, seed=seed, abstract=not no_abstract, jobs=jobs, progress=bar.update).run()
    refused = []
    if out_dir is not None:
        refused = _refused([draft_path(f, out_dir) for f in rep.findings], out_dir, force)
        if not refused:
            refused = _write_all(lambda f: write(f, out_dir, budget, seed, force=True), rep.findings)
    if fmt == "json":
        click.echo(json_document(_only(rep.to_json(), editions)))
    else:
        click.echo(render(rep, None if refused else out_dir))
    if refused:
        return _say_refused(refused, out_dir)
    return 1 if any(f.category == "engine-bug" for f in rep.findings) else 0
