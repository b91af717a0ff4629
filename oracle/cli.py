"""The `mb-oracle` command line.

Subcommands are loaded only when used, so `mb-oracle verify` does not pay
for the scenario or hunting machinery.
"""

from __future__ import annotations

from .loading import collector_paused, msgspec_first

with collector_paused():
    import importlib
    import os
    import sys

    import click

    from .ending import CLOSED_OUTPUT, cannot_go_on, closed_output, discard_stdout, missing_package
    from .games import DEFAULT, GAMES
    from .term import color_option, visible

GAME_NAMES = tuple(GAMES)

# command name -> "module:attribute" of a click command
COMMANDS = {
    "verify": "oracle.replay.command:verify",
    "selfplay": "oracle.replay.command:selfplay",
    "annotate": "oracle.replay.command:annotate",
    "schema": "oracle.replay.command:schema",
    "bench": "oracle.replay.command:bench",
    "scenarios": "oracle.scenarios.command:scenarios",
    "hunt": "oracle.hunt.command:hunt",
    "fuzz": "oracle.fuzz.command:fuzz",
    "perft": "oracle.harness.command:perft",
    "serve": "oracle.harness.command:serve",
    "conform": "oracle.harness.command:conform",
    "cards": "oracle.cli:cards",
    "clauses": "oracle.cli:clauses",
    "editions": "oracle.cli:editions",
    "show": "oracle.report.command:show",
    "board": "oracle.board.command:board",
}

# command name -> the first paragraph of its help: `mb-oracle --help` lists
# the commands from these, without importing every command's module
# (tests/test_pipeline_imports.py holds each to its command's own help).
SUMMARIES = {
    "annotate": "Write logs back in canonical form: every decision (forced ones included), a state claim after "
                "each, and the rules' result (with the log's own end detail, if it gave one).",
    "board": "Set up a position of either game in the browser, play it against the reference engine and save it "
             "as a ruling (a local server; see spec/board.md).",
    "bench": "Measure verification speed against merely decoding the same stream; with --jobs or --cluster, the "
             "scaling against one job too.",
    "cards": "List the cards of every known set (or of the named sets, or the named cards; French names and slugs "
             "work).",
    "clauses": "List the clause catalogue (or the clauses whose id is or starts with IDS).",
    "conform": "Play games against another engine in lockstep and report where it parts from the rules, each "
               "divergence shrunk to a short game.",
    "editions": "List the rulebook editions and the switches where they differ, then the team readings (questions "
                "no edition settles) with their choices.",
    "fuzz": "Feed broken input of every format to verify, annotate, scenarios, --expect, --cards, serve and "
            "conform.",
    "hunt": "Hunt for rules contradictions, ambiguities and edition differences.",
    "perft": "Count the distinct decision sequences of exactly DEPTH steps (chance outcomes expanded) from a deal "
             "or a position; see spec/perft.md.",
    "scenarios": "Run the scenarios in PATHS (files or directories; default: ./scenarios).",
    "schema": "Print the JSON Schema of a public format: a replay log line, a scenario, a verify report line, an "
              "expectation file, a card file (mb-cards/1), a request or response of `mb-oracle serve` (rpc, "
              "rpc-response), a message `mb-oracle conform` sends to an engine adapter or the adapter's reply "
              "(engine, engine-reply).",
    "selfplay": "Play games with a bot and write them as conforming replay logs (mb-replay/1; Mind Up!: "
                "mu-replay/1).",
    "serve": "Serve the reference engine over standard input and output (mb-oracle-rpc/1 JSON Lines; see "
             "spec/rpc.md).",
    "show": "Write one game of LOG as an HTML page: its findings, and its board from the deal to the end, to step "
            "through with buttons or arrow keys.",
    "verify": "Verify recorded games (mb-replay/1 and mu-replay/1 JSON Lines) against the rules.",
}


_LISTING = "oracle.cli.listing"


# The commands that take no --game, each finding the game where it is written.
READS_ITS_GAME = {
    "verify": "verify reads each log's game from its game line (its `game` field); a stream may mix games.",
    "annotate": "annotate reads each log's game from its game line (its `game` field).",
    "scenarios": "scenarios reads each ruling's game from its `game` key.",
    "serve": "serve starts each game as its `new` request says (its `game` field).",
}


class LazyGroup(click.Group):
    def invoke(self, ctx):
        """A package the command needs and the install lacks is one line of
        advice (exit status 2), not a traceback."""
        # Started with standard output or error closed (`>&-`): what would be
        # written there goes nowhere, and the exit status still tells.
        if sys.stdout is None:
            sys.stdout = open(os.devnull, "w")
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w")
        try:
            return super().invoke(ctx)
        except click.ClickException as e:
            # A usage error may quote the command line or an input file:
            # what click prints goes through `visible` like any other text.
            e.message = visible(e.message, lines=True)
            if isinstance(e, click.NoSuchOption) and e.option_name == "--game" and \
                    ctx.invoked_subcommand in READS_ITS_GAME:
                e.message += f" {READS_ITS_GAME[ctx.invoked_subcommand]}"
            raise
        except KeyboardInterrupt:
            # Ctrl-C no handler of the command took: exit status 130, as
            # verify's own handler gives (not click's "Aborted!" and 1,
            # which would say that a game violates the rules).
            from .ending import say_interrupted

            ctx.exit(say_interrupted())
        except ModuleNotFoundError as e:
            command = ctx.invoked_subcommand or ""
            advice = missing_package(e, command)
            if advice is None:
                raise
            click.echo(advice, err=True)
            ctx.exit(2)
        except OSError as e:
            # Standard output closed by its reader (`| head -1`) ends quietly
            # with the status a broken pipe gives (128 + SIGPIPE): not 1,
            # which would say that a game violates the rules. Any other
            # failure to write (a full disk, an I/O error, a pipe that is not
            # standard output) is one line, exit 2.
            if closed_output(e):
                discard_stdout()
                ctx.exit(CLOSED_OUTPUT)
            command = ctx.invoked_subcommand or ""
            sys.stdout = open(os.devnull, "w")     # what is still buffered cannot be written either
            click.echo(visible(cannot_go_on(e, command)), err=True)
            ctx.exit(2)

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def format_commands(self, ctx, formatter):
        """The list of commands in `--help`, each shown by a stand-in that
        carries its summary: no command's module is imported for it."""
        ctx.meta[_LISTING] = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            del ctx.meta[_LISTING]

    def resolve_command(self, ctx, args):
        """A mistyped command name gets the nearest one (`verfy`: did you mean 'verify'?)."""
        name = click.utils.make_str(args[0])
        if name not in COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            from .term import did_you_mean

            ctx.fail(f"No such command {name!r}{did_you_mean(name, COMMANDS)}.")
        return super().resolve_command(ctx, args)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        if ctx.meta.get(_LISTING):
            return click.Command(name, help=SUMMARIES[name])
        module, attr = target.split(":")
        if module in sys.modules:
            command = getattr(sys.modules[module], attr)
        else:
            with collector_paused():
                msgspec_first()
                command = getattr(importlib.import_module(module), attr)
        if not any(p.name == "color" for p in command.params):
            color_option()(command)     # `--color` after any subcommand too
        suggesting(command)
        return command


class SuggestingChoice(click.Choice):
    """A choice that names the nearest choice to a mistyped value
    (`--edition en-revized`: did you mean 'en-revised'?)."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as e:
            from .term import did_you_mean

            hint = did_you_mean(value, self.choices)
            if hint and e.message.endswith("."):
                e.message = e.message[:-1] + hint + "."
            elif hint:
                e.message += hint
            raise


def suggesting(command) -> None:
    """Every choice option or argument of `command` names the nearest choice
    to a mistyped value."""
    for p in command.params:
        if type(p.type) is click.Choice:
            p.type = SuggestingChoice(p.type.choices, p.type.case_sensitive)


def _version(ctx, _param, value) -> None:
    """`--version`: the version and the build that runs (pure Python or
    compiled), found from the installed package wherever the command runs."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from .native import build

    click.echo(f"mb-oracle, version {version('mb-oracle')} ({build()})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and the build (pure Python, or compiled with the count of compiled modules), "
                   "then exit.")
@color_option("auto")
def main():
    """mb-oracle: the rules authority for Mindbug and Mind Up!.

    Verify recorded games against the rulebook, run rulings written as
    scenarios, and hunt for places where the rules disagree. A log says
    which game it is; selfplay, clauses, editions and schema take --game.
    """


suggesting(main)


def _dump(obj) -> None:
    from .term import json_document

    click.echo(json_document(obj))   # text from a card file (--cards) as JSON escapes, like every JSON report


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--set", "set_names", multiple=True, metavar="SET",
              help="Only the cards of this set (repeatable): first-contact, new-servants, beyond-eternity, "
                   "beyond-evolution, promo-2022, promo-2023, promo-later, promo-unconfirmed.")
@click.option("--sets", "list_sets", is_flag=True, help="List the known card sets instead.")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also know the cards declared in FILE (mb-cards/1, spec/card-format.md): `--set` takes its "
                   "set's id, and its cards are listed with the others.")
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT, show_default=True,
              help="The game whose cards to list (mind-up: the 60 cards with colour and bubble, the Score cards, "
                   "the objectives).")
@click.argument("names", nargs=-1)
def cards(as_json, set_names, list_sets, names, cards_file, game):
    """List the cards of every known set (or of the named sets, or the named
    cards; French names and slugs work). The stage faces of evolution lines
    are listed with their stage and line."""
    from .games import attribute

    if list_sets and (names or set_names):
        # `--sets nope` reads as a filter, and would otherwise list every set with "nope" ignored
        given = ", ".join([*(f"--set {n}" for n in set_names), *names])
        raise click.UsageError(f"--sets lists every known set and takes no card names or --set (given: "
                               f"{given}); `--set SET` lists the cards of one set")
    doc, lines = attribute(game, "CARDS_LISTING")(names, set_names, list_sets, cards_file)
    if as_json:
        _dump(doc)
        return
    for line in lines:
        click.echo(visible(line))     # a card file's texts are input: shown as visible text


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--coverage", is_flag=True, help="Show the scenarios and tests that cite each clause.")
@click.option("--markdown", is_flag=True, help="Print the catalogue (or the chosen clauses) as Markdown, as in spec/.")
@click.option("--game", type=click.Choice(GAME_NAMES), default=None,
              help="The catalogue of this game only (default: Mindbug's; a Mind Up! id, mu.*, finds its own).")
@click.argument("ids", nargs=-1)
def clauses(as_json, coverage, markdown, ids, game):
    """List the clause catalogue (or the clauses whose id is or starts with IDS).

    A clause named by its full id is shown in full: its text, its status
    in each edition with the variant or the engine's reading, and where the
    code, the scenarios and the tests cite it."""
    from .clause_view import describe, select, unknown_message
    from .clauses import clause_to_json
    from .games import entry

    if game is None:        # a game whose ids all of IDS start with, else the default one
        game = next((g for g in GAMES if entry(g).ID_PREFIX and ids
                     and all(i.startswith(entry(g).ID_PREFIX) for i in ids)), DEFAULT)
    book = importlib.import_module(entry(game).CLAUSES)
    if coverage and not book.FULL_VIEW_CITED:
        from .coverage import coverage_report
        sys.exit(coverage_report(as_json, ids, game))
    every = book.load_catalogue()
    chosen, missing = select(every, ids)
    if missing:
        raise click.UsageError(unknown_message(every, missing))
    if markdown:
        click.echo(book.render_markdown([c.id for c in chosen] if ids else None), nl=False)
        return
    if coverage:
        from .coverage import coverage_report
        sys.exit(coverage_report(as_json, ids, game))
    if as_json:
        _dump([clause_to_json(c) for c in chosen])
        return
    readings = {r.clause: r for r in entry(game).all_readings()}
    exact = [c for c in chosen if c.id in ids]
    rest = chosen
    if exact:
        cov = None
        if book.FULL_VIEW_CITED:
            from .coverage import compute

            cov = compute(game=game)
        for n, c in enumerate(exact):
            click.echo(("\n" if n else "") + describe(c, cov.clauses[c.id] if cov else None, book.EDITIONS, readings))
        rest = [c for c in chosen if c.id not in ids] if book.FULL_VIEW_CITED else []
        if rest:
            click.echo("\nclauses under it:" if len(exact) == 1 else "\nclauses under them:")
    for c in rest:
        r = readings.get(c.id)
        mark = f"  (team reading: {' | '.join(r.names())})" if r is not None else ""
        click.echo(f"{c.id:<34} {c.title}{mark}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT, show_default=True,
              help="The game whose editions and readings to list.")
def editions(as_json, game):
    """List the rulebook editions and the switches where they differ, then the
    team readings (questions no edition settles) with their choices."""
    from .games import attribute

    doc, lines = attribute(game, "EDITIONS_LISTING")()
    if as_json:
        _dump(doc)
        return
    click.echo("\n".join(lines))
