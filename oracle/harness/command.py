"""Command-line verbs of the harness: perft, serve, conform (thin: each
game's perft and conform are reached through the game registry, PERFT,
CONFORM_OPTIONS and CONFORM, each game checking the options it takes; the
service is oracle.harness.serve, each game's part of it its SERVE)."""

from __future__ import annotations

import sys

import click

from .. import games
from ..replay.command import _reading_options, cards_option
from ..term import error

# The choices of --edition: the default game's editions (the other games' commands take none).
EDITIONS = games.attribute(games.DEFAULT, "EDITION_IDS")


def _parse_output(ctx, param, values):
    """verify's `--output FORMAT=FILE` parser, loaded only for conform."""
    from ..replay.outputs import parse_output

    return parse_output(ctx, param, values)


def _fail(message: str) -> None:
    error(message)
    sys.exit(2)


def _game(game: str) -> str:
    """A game of the registry; a usage error for another name."""
    try:
        return games.check(game)
    except games.UnknownGame as e:
        raise click.UsageError(str(e)) from None


@click.command()
@click.option("--game", default=games.DEFAULT, show_default=True, metavar="GAME",
              help="The game: mindbug, or mind-up (a step is a turn: every player's card; see spec/perft.md).")
@click.option("--players", type=click.IntRange(2, 6), help="Mind Up!: players of a --seed deal (default 4).")
@click.option("--depth", type=click.IntRange(0, 40), help="Decisions per sequence (needed unless --show-deal).")
@click.option("--edition", type=click.Choice(EDITIONS), help="Rules edition (default: the log's, else en-revised).")
@click.option("--seed", type=int, help="Start from the deal of this seed (the fixed deals of spec/perft.md).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Start from the deal of the first game of this replay log.")
@click.option("--scenario", "scenario_path", type=click.Path(dir_okay=False),
              help="Start from a scenario's position (with --id).")
@click.option("--id", "scenario_id", help="The scenario's id (with --scenario).")
@click.option("--divide", is_flag=True, help="Also count per first decision.")
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option("--show-deal", is_flag=True, help="Print the setup line of the deal and stop.")
@click.option("--sets", "sets_spec", metavar="SET,SET",
              help="With --seed: deal from these card sets (comma-separated; mb-oracle cards --sets lists them; "
                   "the later sets only in en-revised). Default first-contact.")
@cards_option
def perft(game, players, depth, edition, seed, log_path, scenario_path, scenario_id, divide, fmt, show_deal,
          sets_spec, cards_file):
    """Count the distinct decision sequences of exactly DEPTH steps (chance
    outcomes expanded) from a deal or a position; see spec/perft.md."""
    games.attribute(_game(game), "PERFT")(depth, seed, players, scenario_path, scenario_id, divide, fmt, show_deal,
                                          edition=edition, log_path=log_path, sets_spec=sets_spec,
                                          cards_file=cards_file)


@click.command()
@click.option("--cards", "card_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Cards declared in FILE (mb-cards/1, spec/card-format.md), known by name to a `position` "
                   "start. Repeatable.")
@click.option("--scenarios", "scenario_dirs", multiple=True, type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="A folder whose scenario files a `scenario` start may read (only regular files "
                                  "under it). Repeatable; without it, no `scenario` start.")
def serve(card_files, scenario_dirs):
    """Serve the reference engine over standard input and output
    (mb-oracle-rpc/1 JSON Lines; see spec/rpc.md). Ends at the end of input."""
    from .serve import card_file_problems, serve as run

    for path in card_files:
        problems = card_file_problems(path)
        if problems:
            for line in problems[:-1]:  # every problem of the file, one a line
                error(line)
            _fail(problems[-1])
    if sys.stdin is None or sys.stdin.closed:
        _fail("standard input is closed: the service reads requests on standard input and answers on "
              "standard output")
    run(sys.stdin.buffer, sys.stdout.buffer, scenario_dirs, card_files)


@click.command()
@click.option("--game", default=games.DEFAULT, show_default=True, metavar="GAME",
              help="The game to play: mindbug, or mind-up (the adapter's hello lists it in `games`).")
@click.option("--players", "players", multiple=True, type=click.IntRange(3, 6),
              help="Mind Up!: the player counts to deal (repeatable; default 3 to 6, game by game).")
@click.option("--engine", "command", required=True, metavar="COMMAND",
              help="The engine adapter to start (a shell-style command line speaking mb-engine/1).")
@click.option("--budget", type=click.IntRange(0, 100000), default=20, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals and the choices.")
@click.option("--edition", "editions", multiple=True, type=click.Choice(EDITIONS),
              help="Play this edition (repeatable). Default: every edition the engine plays.")
@click.option("--bot", "bots", multiple=True, type=click.Choice(["random", "greedy"]),
              help="How decisions are chosen (repeatable; games alternate). Default: random and greedy.")
@click.option("--max-decisions", type=click.IntRange(1), default=1000, show_default=True,
              help="Stop a game after this many decisions.")
@click.option("--scenarios", "scenario_paths", multiple=True, type=click.Path(exists=True),
              help="Also run these scenario files or folders against the engine (repeatable).")
@click.option("--shrink/--no-shrink", default=True, show_default=True, help="Shrink each kind of divergence.")
@click.option("--shrink-budget", type=click.IntRange(1), default=400, show_default=True,
              help="Lockstep replays allowed to shrink one divergence.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="conform-out", show_default=True,
              help="Where shrunk games are written (a replay log and a draft scenario each; never over a "
                   "draft someone edited).")
@click.option("--force", is_flag=True, help="With --out: overwrite shrunk games and drafts even where someone "
                                             "edited them.")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True,
              help="Seconds to wait for each reply of the engine.")
@click.option("--format", "fmt", type=click.Choice(["human", "json", "junit"]), default="human", show_default=True,
              help="The report written to standard output (verify's formats).")
@click.option("--output", "outputs", multiple=True, metavar="FORMAT=FILE",
              callback=_parse_output,
              help="Also write a report in FORMAT (human, json, junit) to FILE. Repeatable.")
@click.option("-q", "--quiet", is_flag=True, help="Human format: show only games that differ.")
@click.option("-v", "--verbose", is_flag=True,
              help="Human format: also show the scenario runs of --scenarios that pass (without it, those that "
                   "fail and the summary).")
@click.option("--reading", "reading_specs", multiple=True, metavar="CLAUSE=CHOICE",
              help="The rules follow this choice of a team reading (as verify's --reading); each finding says "
                   "whether it stands only under a reading (basis). Repeatable.")
@click.option("--expect", "expect_file", type=click.Path(dir_okay=False),
              help="Known deviations of the engine (mb-expect/1, as verify's): a game that meets one is followed "
                   "past it, and expected and new divergences are counted apart.")
@click.option("--sets", "sets_spec", metavar="SET,SET",
              help="Deal the games from these card sets (comma-separated; mb-oracle cards --sets lists them): the "
                   "engine's hello must list them, and only the editions that deal them are played (the later "
                   "sets: en-revised). Default first-contact.")
def conform(game, players, command, budget, seed, editions, bots, max_decisions, scenario_paths, shrink, shrink_budget,
            out_dir, timeout, fmt, outputs, quiet, force, reading_specs, expect_file, sets_spec, verbose):
    """Play games against another engine in lockstep and report where it
    parts from the rules, each divergence shrunk to a short game (a replay
    log and a draft scenario in --out). See spec/engine-protocol.md.

    Exit status: 0 no divergence, 1 a divergence, 2 the engine broke the
    protocol or could not be started, or a usage error."""
    from pathlib import Path

    from ..draftfile import unusable_out
    from ..replay.outputs import Reporter, load_expectations
    from .conform import KnownOutcomes, Settings
    from .engine_client import EngineFault, stop_all

    if why := unusable_out(Path(out_dir)):        # a link to nothing, a folder it may not write in
        raise click.UsageError(why)
    known = load_expectations(expect_file)
    options = games.attribute(_game(game), "CONFORM_OPTIONS")(players, editions, scenario_paths, reading_specs,
                                                              expect_file, sets_spec)
    settings = Settings(budget=budget, seed=seed, editions=tuple(editions), bots=tuple(bots) or ("random", "greedy"),
                        max_decisions=max_decisions, shrink=shrink, shrink_budget=shrink_budget,
                        out=Path(out_dir), scenarios=tuple(scenario_paths), timeout=timeout, force=force,
                        readings=dict(_reading_options(reading_specs)),
                        expected=[e.expected for e in known.entries] if known is not None else [], **options)
    from ..scenarios.loader import files_read

    reads = (*files_read(scenario_paths), *_engine_files(command)) if outputs else ()
    reporter = Reporter(fmt, outputs, quiet=quiet, command="conform", expectations=KnownOutcomes(),
                        reads=(*reads, *((expect_file,) if expect_file else ())),
                        scenario_runs=scenario_run, verbose=verbose)
    from ..ending import say_stopped, stops_raise

    try:
        with stops_raise():
            try:
                camp = games.attribute(game, "CONFORM")(command, settings, tuple(players))
            except (EngineFault, ValueError) as e:
                reporter.abandon()
                _fail(str(e))
            for rep in camp.run():
                reporter.game(rep, seconds=camp.seconds.get(rep.id))
    except KeyboardInterrupt as e:      # Ctrl-C, or SIGTERM: the adapter is stopped all the same (finally)
        reporter.abandon()
        sys.exit(say_stopped(e))
    finally:
        stop_all()          # the campaign's adapter, or one a stop caught before the campaign was made
    _say_skipped(camp.skipped)
    _say_shrunk(getattr(camp, "shrunk", ()))
    sys.exit(reporter.finish())


def _engine_files(command: str) -> list[str]:
    """The files the --engine command names (the adapter's script, a file
    it is given): inputs of the run, which no --output may overwrite."""
    import os
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:          # unbalanced quotes: the engine is refused when started
        return []
    return [w for w in words if os.path.isfile(w)]


def scenario_run(rep) -> bool:
    """Whether a report of conform is a scenario's run (oracle.games.mindbug.harness.scenario_run), not a game."""
    return rep.id.startswith("scenario ")


def _say_shrunk(shrunk) -> None:
    """How short the root causes were shrunk: the median over them, found
    and shrunk, and the shortest artifact of each (standard error)."""
    if not shrunk:
        return
    from statistics import median

    found, small, draft = zip(*shrunk)
    n = len(shrunk)
    click.echo(f"conform: {n} root cause{'s' if n != 1 else ''} shrunk from a median of {median(found):g} to "
               f"{median(small):g} decisions (the shortest artifact of each: median {median(draft):g}, "
               f"longest {max(draft)})", err=True)


def _say_skipped(skipped: list[tuple[str, str, str, bool]]) -> None:
    """Scenario runs left out, counted with why and, but for the editions
    the run does not play, listed (standard error)."""
    from ..junit import clean_line

    if not skipped:
        return
    by_why: dict[str, list[tuple[str, str, bool]]] = {}
    for what, where, why, listed in skipped:
        by_why.setdefault(why, []).append((what, where, listed))
    click.echo(f"conform: {len(skipped)} scenario run{'s' if len(skipped) != 1 else ''} skipped:", err=True)
    for why, runs in by_why.items():
        click.echo(f"  {len(runs)}: {clean_line(why)}", err=True)
        for what, where, listed in runs:
            if listed:
                click.echo(f"    {clean_line(what)}  {clean_line(where)}", err=True)
