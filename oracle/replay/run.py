"""What `mb-oracle verify` does once its options are read, without click:
the click command (oracle.replay.command) and the fast path of a plain
`verify PATH...` (oracle.launch) both run it. Click is imported only on
the rare paths that raise its usage errors."""

from __future__ import annotations

import sys

from ..term import error
from .limits import CONNECT_TIMEOUT
from .inputs import NoInput, check_input


def declared(path):
    """Load and register a card file (the default game's CARDS_FILE); a bad
    file is a usage error (exit 2) naming its file, line and field."""
    from .. import games

    return games.attribute(games.DEFAULT, "CARDS_FILE")(path)


def inputs_ready(paths, cards_file=None) -> None:
    """A command's inputs before it reads them: the card file of `--cards`
    loaded (`declared`), then PATHS checked (inputs.check_input); a missing
    one, or one that standard output writes to, is an error line and exit
    status 2."""
    if cards_file:
        declared(cards_file)
    try:
        files = check_input(paths)
    except NoInput as e:
        error(e)
        sys.exit(2)
    from ..safefile import input_name, stdout_clash

    same = stdout_clash(files)
    if same is not None:
        error(f"standard output is {input_name(same)}, an input of this run: it would read what it writes")
        sys.exit(2)


def _reading_options(specs) -> tuple[tuple[str, str], ...]:
    """--reading CLAUSE=CHOICE options, in order; a usage error names a bad
    one. A reading belongs to the game whose ID_PREFIX (and a dot) it starts
    with, else to the default game."""
    from .. import games

    out = {}
    for spec in specs:
        name = next((g for g in games.GAMES if games.entry(g).ID_PREFIX
                     and spec.strip().startswith(games.entry(g).ID_PREFIX + ".")), games.DEFAULT)
        try:
            clause, choice = games.attribute(name, "PARSE_READING")(spec)
        except ValueError as e:             # the game's UnknownReading
            import click

            raise click.BadParameter(str(e), param_hint="--reading") from None
        out[clause] = choice
    return tuple(out.items())


def verify_run(paths, edition=None, fmt="human", outputs=(), jobs=1, keep_going=False, expect_file=None,
               strict_expect=False, which_editions=False, reading_specs=(), strict=False, quiet=False,
               check_invariants=False, statistics=False, progress=True, cluster=None,
               cluster_timeout=CONNECT_TIMEOUT, cards_file=None):
    """`verify` with its options' values (their defaults: what `verify PATH...` gives); ends with sys.exit."""
    from ..loading import collector_paused

    with collector_paused():
        from .outputs import Reporter, load_expectations
        from .parallel import ClusterUnavailable, Options, iter_rendered
        from .progress import GameProgress, say_reading_stdin

    expected = load_expectations(expect_file)
    readings = _reading_options(reading_specs)
    if cards_file and cluster:
        import click

        raise click.UsageError("--cards works with local workers (-j), not with --cluster")
    inputs_ready(paths, cards_file)
    say_reading_stdin(paths)
    bar = GameProgress(paths, progress)
    options = Options(edition, keep_going, which_editions, readings, strict, check_invariants)
    on_hand = None
    if "html" in (fmt, *(kind for kind, _ in outputs)):
        from .onhand import OnHand

        on_hand = OnHand()      # the boards of games that cannot be read twice (standard input, a pipe)
    reporter = Reporter(fmt, outputs, quiet=quiet, statistics=statistics, expectations=expected,
                        strict_expect=strict_expect, progress=bar, inputs=(*(paths or ("-",)), expect_file),
                        options=options, on_hand=on_hand, reads=(cards_file,) if cards_file else ())
    results = iter_rendered(paths, options, jobs, with_timeout(cluster, cluster_timeout), on_hand=on_hand, wanted=reporter.wanted)
    # Games coming down a pipe or from a terminal (an engine logging as it
    # plays) get their verdict written out as each game ends, not when a
    # buffer fills; a file is read at full speed with buffered reports.
    live = "-" in (paths or ("-",)) and _is_live(sys.stdin)
    try:
        for rep, lines in results:
            reporter.game(rep, lines)
            if live:
                reporter.flush()
    except ClusterUnavailable as e:
        bar.clear()
        error(e)
        sys.exit(2)
    finally:
        results.close()
    sys.exit(reporter.finish())


def with_timeout(cluster, timeout):
    """The --cluster address with the seconds its scheduler has to answer
    (oracle.replay.cluster.Address); None without --cluster."""
    if not cluster or timeout is None:
        return cluster
    from .cluster import Address

    return Address.of(cluster, timeout)


def _is_live(stream) -> bool:
    from .shares import is_live

    return is_live(stream)


