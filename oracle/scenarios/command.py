"""`mb-oracle scenarios`: run scenario files."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import click

from .. import games
from ..term import error, visible
from ..replay.outputs import parse_output
from ..safefile import OutputError, Replacement, clash, input_name
from .document import of_game

# Every game's editions, in the registry's order.
EDITIONS = tuple(e for game in games.GAMES for e in of_game(game).EDITIONS)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--edition", "editions", multiple=True, type=click.Choice(EDITIONS),
              help="Run only in this edition (repeatable; Mind Up!'s: fr). Default: every edition a scenario "
                   "applies to.")
@click.option("--format", "fmt", type=click.Choice(["human", "json", "junit", "html"]), default="human",
              show_default=True, help="Output for people, for machines, JUnit XML for CI, or the HTML page.")
@click.option("--output", "outputs", multiple=True, metavar="FORMAT=FILE", callback=parse_output,
              help="Also write a report in FORMAT (human, json, junit, html) to FILE. Repeatable. "
                   "The html page shows each failing run's position and steps on a board.")
@click.option("-v", "--verbose", is_flag=True, help="Also list the runs that pass (human format).")
@click.option("--sets", "sets_spec", default="", metavar="SET,SET",
              help="Card sets added to every Mindbug scenario's deck (a scenario's own `sets` always count; "
                   "Mind Up!'s rulings have their one deck).")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Cards declared in FILE (mb-cards/1); a scenario plays them by naming their set in `sets`.")
def scenarios(paths, editions, fmt, outputs, verbose, sets_spec, cards_file):
    """Run the scenarios in PATHS (files or directories; default: ./scenarios).

    Each scenario runs once per edition it applies to. Exit status 0 when
    every run passes, 1 when some fail, 2 when a file cannot be read as
    scenarios (with the file, line and field of each problem)."""
    from . import report
    from .loader import ScenarioError, load_paths
    from .runner import run_all

    decks = of_game(games.DEFAULT)     # the game whose decks have card sets: --sets and --cards are its
    if cards_file:
        try:
            decks.load_card_file(cards_file)
        except decks.CardFileError as e:
            for line in str(e).splitlines():       # every problem of the file, one a line
                error(line)
            sys.exit(2)
    names = [s.strip() for s in sets_spec.split(",") if s.strip()]
    try:
        extra = decks.check_sets(names) if names else ()
    except decks.UnknownSet as e:
        raise click.BadParameter(str(e), param_hint="--sets") from None

    if not paths:
        if not Path("scenarios").is_dir():
            click.echo("no PATHS given and no ./scenarios directory", err=True)
            sys.exit(2)
        paths = ("scenarios",)
    _refuse_inputs(outputs, paths, cards_file)
    # Every --output is opened before the run, as verify's are: one that
    # cannot be written is a usage error before any scenario runs or any
    # report is written.
    opened = [(kind, _open(kind, path)) for kind, path in outputs]
    files, errors = load_paths(paths)
    errors = errors + [e for f in files for e in f.errors]
    if not files and not errors:
        errors.append(ScenarioError(", ".join(paths), None, None, "no scenario files (*.yaml, *.yml) found"))
    # Problems in the input files are said on standard error, whatever the
    # format; the JSON and JUnit reports record them too, the human summary counts them.
    for e in errors:
        error(e)
    results = run_all(files, set(editions) or None, extra)
    if fmt == "json":
        click.echo(report.as_json(results, errors))
    elif fmt in ("junit", "html"):
        # JUnit and the HTML page declare UTF-8, whatever the locale of the terminal.
        out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
        if fmt == "junit":
            report.junit(results, errors, out)
        else:
            _page(results, errors, files, paths, out)
        out.detach()
    else:
        click.echo(report.human(results, errors, verbose, list_errors=False))
    for kind, out in opened:
        _write(kind, out, results, errors, files, verbose, paths)
    if errors:
        sys.exit(2)
    sys.exit(1 if any(r.failed for r in results) else 0)


def _refuse_inputs(outputs, paths, cards_file) -> None:
    """No --output may be a file the run reads: a scenario file, the card
    file of --cards, a card file a scenario names."""
    if not outputs:
        return
    from .loader import files_read

    read = files_read(paths)
    for kind, path in outputs:
        other = clash(path, [*read, cards_file])
        if other is not None:
            raise click.UsageError(f"--output {kind}={visible(path)} would overwrite {input_name(other)}, an input of "
                                   "this run")


def _open(kind, path) -> Replacement:
    """The file of one --output FORMAT=FILE, opened beside its place."""
    try:
        return Replacement(path, "w")
    except OutputError as e:
        raise click.UsageError(f"--output {kind}={e}") from None


def _write(kind, out, results, errors, files, verbose, paths) -> None:
    """One --output FORMAT=FILE report, written to `out` and renamed into place."""
    from . import report

    with out as f:
        if kind == "json":
            f.write(report.as_json(results, errors) + "\n")
        elif kind == "junit":
            report.junit(results, errors, f)
        elif kind == "human":
            f.write(click.unstyle(report.human(results, errors, verbose)) + "\n")
        else:
            _page(results, errors, files, paths, f)


def _page(results, errors, files, paths, out) -> None:
    """The HTML page of the run, to `out`."""
    import shlex

    from ..report.scenario import write_page

    write_page(results, files, out, command="mb-oracle " + shlex.join(sys.argv[1:]), inputs=paths, errors=errors)
