"""`mb-oracle fuzz`: a long fuzz run of every input format."""

from __future__ import annotations

import sys
import time

import click

from .. import games
from ..term import visible

MAX_BUDGET = 1_000_000      # inputs a run may try: at the speed of the command line, days


@click.command()
@click.option("--budget", type=click.IntRange(1, MAX_BUDGET), default=2000, show_default=True,
              help="Inputs to try, at most 1,000,000 (they are tried in rounds of 1,000 a format, so memory stays "
                   "flat whatever the budget).")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same inputs.")
@click.option("--out", type=click.Path(file_okay=False), default="fuzz-findings", show_default=True,
              help="Folder for a reproducer of each distinct problem.")
@click.option("--timeout", "seconds", type=click.FloatRange(0.1), default=5.0, show_default=True,
              help="Seconds one input may take in process (four times that on the command line).")
@click.option("--cli-every", type=click.IntRange(0), default=50, show_default=True,
              help="Also run every Nth input of each format through the command line (0: never).")
@click.option("--target", "targets", multiple=True,
              type=click.Choice(["replay-lines", "games", "scenarios", "expect", "cards", "rpc", "engine", "text",
                                 "yaml-values", "card-names", "serve-reads", "streams", "outputs", "adapters",
                                 "undecodable-names", "big-claims", "blank-lines", "boms", "card-lookalikes",
                                 "file-names", "mu-replay-lines", "mu-games", "mu-scenarios", "mu-rpc"]),
              help="Fuzz only these formats (repeatable; those of --game). Default: all of the game's.")
@click.option("--game", default=games.DEFAULT, show_default=True, metavar="GAME",
              help="Whose inputs: mindbug, or mind-up (its logs, scenarios and service requests: the mu-* targets).")
@click.option("--progress-every", "every", type=click.IntRange(1), default=None, metavar="N",
              help="A progress line on standard error every N inputs: inputs tried, problems found so far, "
                   "the same per format. Default: a line every 500 inputs (and at least one a minute) when "
                   "standard error is not a terminal, one line drawn in place when it is.")
@click.option("--no-progress", is_flag=True, help="No progress on standard error.")
def fuzz(budget, seed, out, seconds, cli_every, targets, game, every, no_progress):
    """Feed broken input of every format to verify, annotate, scenarios,
    --expect, --cards, serve and conform: replay lines of every type, real
    games mutated line by line (self-play and ./replays), scenario files
    (./scenarios), expectation files, card files (./examples), sessions of
    service requests and engine adapters whose replies break, and hostile
    text, YAML values, card names and service file starts
    (oracle/games/mindbug/fuzz/hostile.py), and hostile streams verified with one job
    and with two (integers beyond 64 bits, lines over the limit, cut gzip
    data, workers killed from outside: the same report, byte for byte;
    oracle/fuzz/streams.py), state claims of a hostile size
    (oracle/games/mindbug/fuzz/claims.py), runs of blank lines and byte
    order marks at the start of lines (streams.py), file
    names that are not UTF-8 (oracle/fuzz/undecodable.py), card names
    that look like a shipped card's and file names that forge a line
    (oracle/games/mindbug/fuzz/names.py); outputs that are inputs or links (and drafts
    someone edited), and engine adapters with stubborn children
    (oracle/games/mindbug/fuzz/surroundings.py). Reports the inputs tried, the distinct tracebacks
    and hangs (a reproducer of each in --out), and games in against
    verdicts out. Exit status 1 if anything broke, else 0; Ctrl-C reports
    what was tried so far and exits 130, SIGTERM the same with 143. Its
    progress goes to standard error (--progress-every, --no-progress)."""
    from ..caches import keep_out_of_the_folder

    keep_out_of_the_folder()
    try:
        from .run import game_shares, run_fuzz
    except ImportError as e:
        click.echo(f"error: mb-oracle fuzz needs hypothesis ({e.name} is missing): "
                   "pip install 'mb-oracle[test]'", err=True)
        sys.exit(2)
    from .. import games

    try:
        games.check(game)
    except games.UnknownGame as e:
        raise click.UsageError(str(e)) from None
    shares = game_shares(game)
    wrong = [t for t in targets if t not in shares]
    if wrong:
        raise click.UsageError(f"--target {', '.join(wrong)}: not a target of {game} ({', '.join(shares)})")
    if no_progress and every is not None:
        raise click.UsageError("--progress-every and --no-progress exclude each other")
    from pathlib import Path

    from ..draftfile import unusable_out

    if why := unusable_out(Path(out)):     # said now, not at the first reproducer to write
        raise click.UsageError(why)
    from ..ending import say_stopped, stops_raise
    from .progress import FuzzProgress

    progress = FuzzProgress(budget, 0 if no_progress else every)
    start = time.monotonic()
    # Ctrl-C and SIGTERM end the run where it stands, as exceptions: the
    # summary of what was tried so far is printed all the same (a
    # reproducer is written whole as soon as its problem is found).
    with stops_raise():
        try:
            tally = run_fuzz(budget, seed, out=out, seconds=seconds, cli_every=cli_every,
                             targets=tuple(targets) or tuple(shares), game=game, progress=progress)
        finally:
            progress.close()
    took = time.monotonic() - start
    click.echo(f"fuzz: seed {seed}, {tally.total} inputs in {took:.0f} s "
               f"({', '.join(f'{t} {n}' for t, n in tally.inputs.items())}); "
               f"{tally.cli_runs} through the command line")
    click.echo(f"games in: {tally.games_in}, verdicts out: {tally.verdicts_out}")
    for kind, title in (("traceback", "tracebacks"), ("hang", "hangs"), ("count", "broken counts"),
                        ("cli", "command-line failures")):
        found = tally.by_kind(kind)
        click.echo(f"{title}: {len(found)} distinct")
        for p in found:
            click.echo(visible(f"  {p.key}  [{p.target}, {p.seen} input{'s' * (p.seen != 1)}]"
                               + (f"  reproducer: {p.saved}" if p.saved else "")))
    if tally.interrupted is not None:
        sys.exit(say_stopped(tally.interrupted))
    sys.exit(1 if tally.problems else 0)
