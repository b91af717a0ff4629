"""`mb-oracle hunt`: search for contradictions, ambiguities, edition
differences and engine bugs, and write each finding as a draft scenario."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import click

from ..games.mindbug.editions import EDITIONS
from ..term import error, json_document, visible
from .budget import DEFAULT, MAX, SHARES

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
    from ..games.mindbug.cards.declared import CardFileError
    from .card_hunt import draft_path, hunt_cards, render, write
    out_dir = Path(out) if out else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise click.UsageError(f"--out {visible(str(out_dir))}: not a folder")
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
    """The hunt of the later sets (oracle.hunt.later_hunt); exit 1 on an engine bug."""
    from ..games.mindbug.cards import UnknownSet, check_sets
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
    from ..draftfile import refusal
    from ..safefile import clash

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
    from ..draftfile import DraftRefused
    from ..safefile import OutputError

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


def _hunt_game(game, edition, cards_file, budget, seed, out, force, fmt) -> int:
    """The hunt of a game other than Mindbug, through its registry entry (HUNT)."""
    from .. import games
    try:
        games.check(game)
    except games.UnknownGame as e:
        raise click.UsageError(str(e)) from None
    if edition or cards_file:
        raise click.UsageError(f"--edition and --cards are Mindbug's; the {game} hunt takes --budget, --seed, --out")
    return games.attribute(game, "HUNT")(budget, seed, out, force, fmt)


def _only(doc: dict, editions: tuple) -> dict:
    """The JSON report with each finding's per-edition entries cut to `editions`."""
    for f in doc["findings"]:
        f["editions"] = {e: v for e, v in f["editions"].items() if e in editions}
    return doc


@click.command()
@click.option("--game", "game", default="mindbug", show_default=True, metavar="GAME",
              help="The game to hunt: mindbug, or mind-up (invariants over random games, then the reading points).")
@click.option("--edition", "edition", type=click.Choice(EDITIONS), help="Hunt in this edition only.")
@click.option("--all", "all_editions", is_flag=True, help="Hunt in every edition (the default).")
@click.option("--budget", type=click.IntRange(1, MAX), default=None, metavar="SITUATIONS",
              help="The most situations the hunt examines, shrinking included (default 2500): half with real "
                   "cards, half with changed ones. With --cards: boards per declared card (default 8). With --game "
                   "mind-up: random games played (default 200). At most 1,000,000: a search keeps what it has "
                   "tried, so memory grows with the budget.")
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
@click.option("--sets", "sets_spec", metavar="SET,SET",
              help="Hunt the later sets instead (comma-separated: beyond-eternity, beyond-evolution): positions "
                   "where their mechanics meet the old keywords, played under every choice of the readings "
                   "involved, in en-revised.")
def hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
         sets_spec):
    """Hunt for rules contradictions, ambiguities and edition differences.

    Hypothesis searches situations (attackers, blockers, cards to play) and
    checks the engine against the rules read a second time as constraints.
    Each finding is shrunk to a minimal position; with --out it is written
    as a draft scenario; a draft someone has edited since the hunt wrote it
    is not overwritten (the run then writes no draft and exits 2) unless
    --force. Exit status 1 when the engine gives an outcome the constraints
    forbid; Ctrl-C ends it at once with exit status 130 (SIGTERM: 143).
    """
    # Ctrl-C and SIGTERM end the hunt where it stands, whatever Hypothesis
    # is doing (a KeyboardInterrupt raised inside its engine may be held up).
    from ..caches import keep_out_of_the_folder
    from ..replay.parallel import interrupt_exits

    keep_out_of_the_folder()
    with interrupt_exits():
        _hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
              sets_spec)


def _hunt(game, edition, all_editions, budget, seed, out, force, fmt, no_abstract, jobs, progress, cards_file,
          sets_spec) -> None:
    from .drafts import draft_path, write
    from .search import Hunt

    if edition and all_editions:
        raise click.UsageError("--edition and --all exclude each other")
    if game != "mindbug":
        sys.exit(_hunt_game(game, edition, cards_file, budget, seed, out, force, fmt))
    if cards_file:
        sys.exit(_hunt_cards(cards_file, out, budget or 8, seed, fmt, force))
    if sets_spec is not None:
        sys.exit(_hunt_sets(sets_spec, edition, out, fmt))
    budget = budget or DEFAULT
    editions = (edition,) if edition else EDITIONS
    out_dir = Path(out) if out else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise click.UsageError(f"--out {visible(str(out_dir))}: not a folder")
    from ..term import Progress
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
        sys.exit(_say_refused(refused, out_dir))
    sys.exit(1 if any(f.category == "engine-bug" for f in rep.findings) else 0)
