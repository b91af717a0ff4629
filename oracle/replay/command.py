"""Command-line verbs for replay logs: verify, selfplay, annotate, schema, bench."""

from __future__ import annotations

import sys

import click

from ..games import DEFAULT, GAMES, attribute, entry
from ..term import color_option, error
from .outputs import parse_output
from .limits import CONNECT_TIMEOUT
from .run import _reading_options, inputs_ready


cluster_timeout_option = click.option(
    "--cluster-timeout", type=click.FloatRange(0, min_open=True), default=CONNECT_TIMEOUT, show_default=True,
    metavar="SECONDS", help="With --cluster ADDRESS: the seconds the scheduler has to answer; a listener that "
                            "stays silent or does not speak Dask's protocol is then one line, exit status 2.")


GAME_NAMES = tuple(GAMES)
EDITIONS = attribute(DEFAULT, "EDITION_IDS")     # --edition: the default game's (Mind Up! has one)


def cards_option(command):
    """`--cards FILE`, for every command that reads replay logs."""
    return click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
                        help="Also know the cards declared in FILE (mb-cards/1, spec/card-format.md); games deal "
                             "them by naming their set in `sets`.")(command)


EDITION_HELP = ("Mindbug's rules edition, in place of the one the game lines name (Mind Up! has one edition, fr; "
                "its games ignore this).")


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--edition", type=click.Choice(EDITIONS), help=EDITION_HELP)
@click.option("--format", "fmt", type=click.Choice(["human", "json", "junit", "html"]), default="human",
              show_default=True, help="The report written to standard output.")
@click.option("--output", "outputs", multiple=True, metavar="FORMAT=FILE", callback=parse_output,
              help="Also write a report in FORMAT (human, json, junit, html) to FILE. Repeatable.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--keep-going", is_flag=True, help="After a divergence, resume at the next full state claim.")
@click.option("--expect", "expect_file", type=click.Path(dir_okay=False), help="Known, accepted divergences (mb-expect/1).")
@click.option("--strict-expect", is_flag=True, help="An expectation that matched nothing this run fails the run.")
@click.option("--which-editions", is_flag=True,
              help="Also say, per game, which editions (and readings) it conforms to.")
@click.option("--reading", "reading_specs", multiple=True, metavar="CLAUSE=CHOICE",
              help="Follow this choice of a team reading (overrides the game lines); repeatable. "
                   "See `mb-oracle editions`.")
@click.option("--strict", is_flag=True,
              help="Fields mb-replay/1 does not define on game, setup, state and end lines, a key given twice "
                   "in one object of a line, and a game id an earlier game of the run has, are findings "
                   "(UNKNOWN_FIELD, DUPLICATE_KEY, DUPLICATE_GAME, malformed), not notes.")
@click.option("-q", "--quiet", is_flag=True, help="Human format: show only games that do not conform.")
@click.option("--check-invariants", is_flag=True,
              help="Also check the rules engine's own invariants after every decision (every card in one place, "
                   "the later sets' zones...): a broken one is INVARIANT_BROKEN, a game not verified (error). "
                   "Mindbug's engine: games of Mind Up! are verified without it.")
@click.option("--statistics", is_flag=True, help="Human format: count the findings by code and by clause.")
@click.option("--progress/--no-progress", default=True, help="Progress on standard error (terminals only).")
@click.option("--cluster", metavar="ADDRESS", help="Verify on a Dask cluster: a scheduler address, or local:N "
              "for N local worker processes (needs the [cluster] extra).")
@cluster_timeout_option
@cards_option
@color_option()
def verify(paths, edition, fmt, outputs, jobs, keep_going, expect_file, strict_expect, which_editions, reading_specs,
           strict, quiet, check_invariants, statistics, progress, cluster, cluster_timeout, cards_file):
    """Verify recorded games (mb-replay/1 and mu-replay/1 JSON Lines) against the rules.

    PATHS are files, folders (their *.jsonl, *.ndjson and .gz logs), globs,
    fsspec URLs (globs allowed) or - for standard input (the default). Exit
    status: 0 every game conforms (or fails only as expected), 1 some game
    violates the rules or passes unexpectedly, 2 malformed input, a game not
    verified, a report that could not be written whole or a usage error, 130
    interrupted (Ctrl-C), 141 standard output closed by its reader before the
    report was complete (| head; the --output files are still written whole),
    143 terminated (SIGTERM).
    """
    from .run import verify_run

    verify_run(paths, edition, fmt, outputs, jobs, keep_going, expect_file, strict_expect, which_editions,
               reading_specs, strict, quiet, check_invariants, statistics, progress, cluster, cluster_timeout,
               cards_file)


@click.command()
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--edition", type=click.Choice(EDITIONS), default="en-revised", show_default=True)
@click.option("--bot", type=click.Choice(["random", "greedy"]), default="random", show_default=True)
@click.option("--claims", type=click.Choice(["every", "turn", "end", "none"]), default="turn", show_default=True,
              help="How often to write a state claim.")
@click.option("--check-invariants", is_flag=True,
              help="Check the engine's invariants after every step; exit 1 at the first broken one.")
@click.option("--reading", "reading_specs", multiple=True, metavar="CLAUSE=CHOICE",
              help="Play under this choice of a team reading (written on the game line); repeatable.")
@click.option("--sets", "sets_spec", default=None, metavar="SET,SET",
              help="The card sets to deal from, comma-separated (mb-oracle cards --sets lists them); default "
                   "first-contact, and the set of --cards.")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Cards declared in FILE (mb-cards/1, spec/card-format.md): their set joins the deck.")
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT, show_default=True,
              help="The game to play.")
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True,
              help="Mind Up!: the number of players (3 to 6; 2 with mu.setup.players=two-to-six).")
@click.option("--objectives", type=click.IntRange(0, 5), default=0, show_default=True,
              help="Mind Up!: bonus objectives shown at a time (0: without the optional rule).")
def selfplay(games, seed, edition, bot, claims, check_invariants, reading_specs, sets_spec, cards_file, game,
             players, objectives):
    """Play games with a bot and write them as conforming replay logs
    (mb-replay/1; Mind Up!: mu-replay/1)."""
    ctx = click.get_current_context()

    def given(name, value):
        """The value of an option the command line gives, else None (its default is the game's)."""
        return None if ctx.get_parameter_source(name) is click.core.ParameterSource.DEFAULT else value

    options = attribute(game, "SELFPLAY_OPTIONS")(given("edition", edition), bot, claims, check_invariants,
                                                  lambda: dict(_reading_options(reading_specs)), sets_spec,
                                                  cards_file, given("players", players),
                                                  given("objectives", objectives))
    broken = attribute(game, "INVARIANT_BROKEN") if hasattr(entry(game), "INVARIANT_BROKEN") else ()
    try:
        _write_games(attribute(game, "SELFPLAY")(games, seed, **options), games)
    except broken as e:
        error(e, "invariant broken: ")
        sys.exit(1)


def _write_games(lines, games: int) -> None:
    """Self-played lines to standard output, with progress counted by game
    lines; what was written is flushed even when the lines stop with an error."""
    from ..term import Progress

    w = sys.stdout.buffer
    with Progress("selfplay", total=games, unit="game") as bar:
        try:
            started = False
            for line in lines:
                if line.startswith(b'{"t":"game"'):
                    if started:
                        bar.update(1)
                    started = True
                w.write(line + b"\n")
            bar.update(1)
        except Exception:
            w.flush()
            bar.clear()
            raise
    w.flush()


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--edition", type=click.Choice(EDITIONS), help=EDITION_HELP)
@cards_option
def annotate(paths, edition, cards_file):
    """Write logs back in canonical form: every decision (forced ones
    included), a state claim after each, and the rules' result (with the
    log's own end detail, if it gave one).

    PATHS are files, folders or - for standard input (the default). Exit
    status 1 if a game breaks the rules (it is written up to that point,
    followed by a note line), 2 for malformed input."""
    from .annotate import annotate_stream

    paths = tuple(paths) or ("-",)
    inputs_ready(paths, cards_file)
    sys.exit(annotate_stream(paths, edition, sys.stdout.buffer, sys.stderr))


@click.command()
@click.argument("which", type=click.Choice(["replay", "scenario", "report", "expect", "cards", "rpc", "rpc-response",
                                            "engine", "engine-reply"]))
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT, show_default=True,
              help="The game whose schema to print: replay and the harness formats (rpc, rpc-response, engine, "
                   "engine-reply) differ by game; the others are the same for every game.")
def schema(which, game):
    """Print the JSON Schema of a public format: a replay log line, a
    scenario, a verify report line, an expectation file, a card file
    (mb-cards/1), a request or response of `mb-oracle serve` (rpc,
    rpc-response), a message `mb-oracle conform` sends to an engine adapter
    or the adapter's reply (engine, engine-reply). `--game mind-up`: the
    replay and harness formats of Mind Up!."""
    harness = which in ("rpc", "rpc-response", "engine", "engine-reply")
    if harness:
        doc = attribute(game, "HARNESS_SCHEMA")(which)
    elif which == "cards":
        doc = attribute(DEFAULT, "CARD_SCHEMA")()
    elif which == "replay":
        doc = attribute(game, "SCHEMA")()
    elif which == "report":
        from .verify import report_schema
        doc = report_schema()
    elif which == "expect":
        from .expect import expect_schema
        doc = expect_schema()
    else:
        from ..scenarios.document import scenario_schema
        doc = scenario_schema()
    import json

    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


def _count_modes(ctx, param, value):
    """`--count`'s modes, in the order of the counting's own (every one without the option)."""
    from .counting import MODES

    if value is None:
        return tuple(MODES)
    asked = {part.strip() for part in value.split(",") if part.strip()}
    unknown = sorted(asked - set(MODES))
    if unknown or not asked:
        raise click.BadParameter(f"{', '.join(unknown) or 'nothing'} (one or more of {', '.join(MODES)}, "
                                 "comma-separated)")
    return tuple(m for m in MODES if m in asked)


SCALING_GAMES = 10_000  # the default size of a bench that times pipelines
# The most games a bench takes: it holds every game at once (decoding and
# verifying the same games in turn), about 35 KB each with their lines.
MAX_BENCH_GAMES = 20_000


@click.command()
@click.option("--games", type=click.IntRange(1, MAX_BENCH_GAMES), default=None,
              help="Self-played games to time [default: 300; with --jobs or --cluster 10,000, so that each timed "
                   "pipeline runs for seconds rather than for its start-up]; at most 20,000: the bench holds them "
                   "all in memory (about 35 KB a game), as verify never does.")
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--edition", type=click.Choice(EDITIONS), default="en-revised", show_default=True)
@click.option("--claims", type=click.Choice(["every", "turn", "end", "none"]), default="turn", show_default=True)
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True, help="Best of N timings.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Also time verify's pipeline with N worker processes against one.")
@click.option("--cluster", metavar="ADDRESS", help="Also time verify's pipeline on a Dask cluster (local:N or an address).")
@cluster_timeout_option
@click.option("--instructions/--no-instructions", "count", default=True, show_default=True,
              help="Also count, with valgrind, the instructions verify spends per decision on a fixed self-play "
                   "corpus of each edition, with and without New Servants, against the decode floor; and (--count) "
                   "verify --keep-going and --which-editions beside it, and each target of issue 45 beside its "
                   "figure.")
@click.option("--counted-games", type=click.IntRange(2), default=None,
              help="Games of each counted corpus (the smaller run has a quarter) [default: 24].")
@click.option("--count", "modes", metavar="WHAT[,WHAT]", callback=_count_modes, default=None,
              help="What the counted runs count, comma-separated: plain (verify and the decode floor), keep-going "
                   "(verify --keep-going on each corpus, and against plain verify on self-played games broken all "
                   "along), which-editions (verify --which-editions on each corpus) [default: all three].")
def bench(games, seed, edition, claims, repeat, jobs, cluster, cluster_timeout, count, counted_games, modes):
    """Measure verification speed against merely decoding the same stream;
    with --jobs or --cluster, the scaling against one job too."""
    from .bench import run_bench
    from .parallel import ClusterUnavailable
    from .run import with_timeout

    if games is None:
        games = SCALING_GAMES if jobs > 1 or cluster else 300
    try:
        then = None
        if jobs > 1 or cluster:
            from functools import partial

            from .scaling import run_scaling

            then = partial(run_scaling, jobs=jobs, cluster=with_timeout(cluster, cluster_timeout), repeat=repeat)
        run_bench(games, seed, edition, claims, repeat, then)
    except ClusterUnavailable as e:
        error(e)
        sys.exit(2)
    if count:
        from .counting import COUNTED_GAMES, run_counts

        run_counts(seed, claims, repeat, counted_games or COUNTED_GAMES, modes=modes)
        if jobs > 1:
            from .counting import run_parent_count

            run_parent_count(jobs, seed, claims)
