"""`mb-oracle show LOG`: the HTML page for one game, conforming or not."""

from __future__ import annotations

import os
import shlex
import sys
import tempfile

import click

from ..replay.command import EDITION_HELP, EDITIONS, cards_option
from ..replay.run import declared
from ..safefile import OutputError, Replacement, clash, input_name
from ..term import visible


def show_page(path: str, game_id: str | None, edition: str | None, keep_going: bool, out, command: str = "") -> str:
    """Write the page of one game of the log `path` to the text stream `out`;
    returns the game's id. Raises click.UsageError when there is no such game."""
    from ..replay.jobs import game_name
    from ..replay.inputs import NoInput
    from ..replay.reader import read_all
    from .boards import board, game_of_raw
    from .page import HtmlReport, log_lines

    try:
        games = read_all((path,))
        chosen = None
        ids = []
        for raw in games:
            name = game_name(raw)
            if game_id is None or name == game_id:
                chosen = raw
                break
            if len(ids) < 2000:
                ids.append(name)
    except NoInput as e:
        raise click.UsageError(visible(str(e))) from None
    if chosen is None:
        if game_id is None:
            raise click.UsageError(visible(f"{path} holds no game"))
        hint = f" (games in it: {', '.join(ids[:10])}{', ...' if len(ids) > 10 else ''})" if ids else ""
        raise click.UsageError(visible(f"no game {game_id!r} in {path}{hint}"))
    game_board = board(game_of_raw(chosen))
    if game_board is None:
        # A game without a board: its own verifier's report.
        from ..replay.verify import verify_game
        rep, steps = verify_game(chosen, None, keep_going), None
    else:
        rep, steps = game_board.shown_game(chosen, edition, keep_going)
    rep.outcome = {"conforms": "pass", "violates": "fail"}.get(rep.verdict, rep.verdict)
    page = HtmlReport(title=f"mb-oracle: game {rep.id}", command=command, inputs=[path], kind="show")
    page.game(rep, steps=steps, log=log_lines(chosen))
    page.finish(out)
    return rep.id


@click.command()
@click.argument("log")
@click.option("--game", "game_id", metavar="ID", help="The game to show (default: the first game of LOG).")
@click.option("--edition", type=click.Choice(EDITIONS), help=EDITION_HELP)
@click.option("--keep-going", is_flag=True, help="After a divergence, resume at the next full state claim.")
@click.option("-o", "--output", "output", metavar="FILE",
              help="Write the page to FILE (default: standard output, or a temporary file with --open).")
@click.option("--open", "open_it", is_flag=True, help="Open the page in the web browser.")
@cards_option
def show(log, game_id, edition, keep_going, output, open_it, cards_file):
    """Write one game of LOG as an HTML page: its findings, and its board
    from the deal to the end, to step through with buttons or arrow keys.

    Exit status 0 when the page is written, whatever the game's verdict
    (the page says it); 2 for a usage error (no such file or game)."""
    command = "mb-oracle show " + shlex.join(sys.argv[2:]) if len(sys.argv) > 2 else ""
    if cards_file:
        declared(cards_file)
    if output is None and open_it:
        fd, output = tempfile.mkstemp(prefix="mb-oracle-show-", suffix=".html")
        os.close(fd)
    if output is None or output == "-":
        out = click.get_text_stream("stdout")
        show_page(log, game_id, edition, keep_going, out, command)
        return
    other = clash(output, (log, cards_file))
    if other is not None:
        raise click.UsageError(visible(f"-o/--output {output} would overwrite {input_name(other)}, an input of this "
                                       "run"))
    try:
        page = Replacement(output, "w")
    except OutputError as e:
        raise click.UsageError(visible(f"-o/--output {e}")) from None
    with page as f:
        gid = show_page(log, game_id, edition, keep_going, f, command)
    click.echo(visible(f"wrote {output} (game {gid})"), err=True)
    if open_it:
        import webbrowser

        webbrowser.open("file://" + os.path.abspath(output))
