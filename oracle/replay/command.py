"""Command-line verbs for replay logs: verify, selfplay, annotate, schema, bench."""

from __future__ import annotations

import json
import sys
import time

import click
import msgspec

from ..editions import EDITIONS
from . import report as render


class _Progress:
    """A one-line progress counter on standard error, only on a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.last = 0.0

    def update(self, games: int, decisions: int) -> None:
        now = time.monotonic()
        if self.enabled and now - self.last > 0.2:
            self.last = now
            sys.stderr.write(f"\rverified {games} games, {decisions} decisions")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled and self.last:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--edition", type=click.Choice(EDITIONS), help="Rules edition (overrides the game lines).")
@click.option("--format", "fmt", type=click.Choice(["human", "json", "junit"]), default="human", show_default=True)
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--keep-going", is_flag=True, help="After a divergence, resume at the next full state claim.")
@click.option("--expect", "expect_file", type=click.Path(dir_okay=False), help="Known, accepted divergences (mb-expect/1).")
@click.option("--which-editions", is_flag=True, help="Also say, per game, which editions it conforms to.")
@click.option("-q", "--quiet", is_flag=True, help="Human format: show only games that do not conform.")
@click.option("--progress/--no-progress", default=True, help="Progress on standard error (terminals only).")
@click.option("--cluster", metavar="ADDRESS", help="Verify on a Dask cluster: a scheduler address, or local:N "
              "for N local worker processes (needs the [cluster] extra).")
def verify(paths, edition, fmt, jobs, keep_going, expect_file, which_editions, quiet, progress, cluster):
    """Verify recorded games (mb-replay/1 JSON Lines) against the rules.

    PATHS are files, folders (their *.jsonl files), fsspec URLs (globs
    allowed) or - for standard input (the default). Exit status: 0 every
    game conforms, 1 some game violates the rules, 2 malformed input, a game
    not verified or a usage error, 130 interrupted.
    """
    from . import expect as expectations

    try:
        expected = expectations.load(expect_file) if expect_file else None
    except expectations.ExpectError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    used: set[int] = set()
    counts = {"games": 0, "conforms": 0, "violates": 0, "malformed": 0, "xfail": 0, "xpass": 0, "decisions": 0}
    reports = []
    bar = _Progress(progress)
    out = sys.stdout
    from .parallel import ClusterUnavailable, Options, iter_reports

    results = iter_reports(paths, Options(edition, keep_going, which_editions), jobs, cluster)
    failing = False
    try:
        for rep in results:
            counts["games"] += 1
            counts[rep.verdict] = counts.get(rep.verdict, 0) + 1
            counts["decisions"] += rep.decisions
            if expected is not None:
                expectations.apply(expected, rep, used)
                counts["xfail"] += rep.outcome == "xfail"
                counts["xpass"] += rep.outcome == "xpass"
                failing |= rep.outcome in ("fail", "xpass")
            else:
                failing |= rep.verdict == "violates"
            if fmt == "human":
                if not quiet or rep.verdict != "conforms" or rep.outcome == "xpass":
                    bar.done()
                    click.echo(render.human_game(rep))
            elif fmt == "json":
                out.buffer.write(render.json_game(rep) + b"\n")
            else:
                reports.append(rep)
            bar.update(counts["games"], counts["decisions"])
    except ClusterUnavailable as e:
        bar.done()
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    finally:
        results.close()
    bar.done()
    unused = [e for i, e in enumerate(expected or []) if i not in used and e.game is None]
    if unused:
        counts["xpass"] += len(unused)
        failing = True
    malformed = counts["malformed"] > 0 or counts.get("error", 0) > 0
    counts["exit"] = 2 if malformed else (1 if failing else 0)
    if unused:
        counts["unmatched_expectations"] = [msgspec.to_builtins(e) for e in unused]
    if fmt == "human":
        for e in unused:
            click.echo(click.style(f"XPASS     expected {e.code} [{e.clause or '*'}] happened nowhere", fg="magenta"))
        click.echo(render.human_summary(counts))
    elif fmt == "json":
        out.buffer.write(render.json_summary(counts) + b"\n")
    else:
        out.write(render.junit(reports, counts))
    out.flush()
    sys.exit(counts["exit"])


@click.command()
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--edition", type=click.Choice(EDITIONS), default="en-revised", show_default=True)
@click.option("--bot", type=click.Choice(["random", "greedy"]), default="random", show_default=True)
@click.option("--claims", type=click.Choice(["every", "turn", "end", "none"]), default="turn", show_default=True,
              help="How often to write a state claim.")
@click.option("--check-invariants", is_flag=True,
              help="Check the engine's invariants after every step; exit 1 at the first broken one.")
def selfplay(games, seed, edition, bot, claims, check_invariants):
    """Play games with a bot and write them as conforming mb-replay/1 logs."""
    from .selfplay import InvariantBroken, selfplay_lines

    w = sys.stdout.buffer
    try:
        for line in selfplay_lines(games, seed, edition, bot, claims, check_invariants):
            w.write(line + b"\n")
    except InvariantBroken as e:
        w.flush()
        click.echo(f"invariant broken: {e}", err=True)
        sys.exit(1)
    w.flush()


@click.command()
@click.argument("path", default="-")
@click.option("--edition", type=click.Choice(EDITIONS), help="Rules edition (overrides the game lines).")
def annotate(path, edition):
    """Write a log back in canonical form: every decision (forced ones
    included), a state claim after each, and the rules' result.

    Exit status 1 if a game breaks the rules (it is written up to that
    point, followed by a note line), 2 for malformed input."""
    from .annotate import annotate_stream

    sys.exit(annotate_stream((path,), edition, sys.stdout.buffer))


@click.command()
@click.argument("which", type=click.Choice(["replay", "scenario", "report"]))
def schema(which):
    """Print the JSON Schema of a public format."""
    if which == "replay":
        from .format import replay_schema
        doc = replay_schema()
    elif which == "report":
        from .verify import report_schema
        doc = report_schema()
    else:
        from ..scenarios.format import scenario_schema
        doc = scenario_schema()
    click.echo(json.dumps(doc, indent=2, ensure_ascii=False))


@click.command()
@click.option("--games", type=click.IntRange(1), default=300, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--edition", type=click.Choice(EDITIONS), default="en-revised", show_default=True)
@click.option("--claims", type=click.Choice(["every", "turn", "end", "none"]), default="turn", show_default=True)
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True, help="Best of N timings.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Also time verify's pipeline with N worker processes against one.")
@click.option("--cluster", metavar="ADDRESS", help="Also time verify's pipeline on a Dask cluster (local:N or an address).")
def bench(games, seed, edition, claims, repeat, jobs, cluster):
    """Measure verification speed against merely decoding the same stream;
    with --jobs or --cluster, the scaling against one job too."""
    from .bench import run_bench
    from .parallel import ClusterUnavailable

    try:
        run_bench(games, seed, edition, claims, repeat, jobs, cluster)
    except ClusterUnavailable as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
