"""`mb-oracle board`: the board in the browser, served on 127.0.0.1 with a
random token in the URL it prints (oracle.board.server). Starlette and
uvicorn are the optional extra `mb-oracle[board]`; without them the command
says so in one line (exit status 2)."""

from __future__ import annotations

import sys

import click

from ..term import error

MISSING = "mb-oracle board: needs the extra `board` (Starlette and uvicorn): pip install 'mb-oracle[board]'"


def _web_stack():
    """The modules the server needs, imported here (never at the command
    line's start-up); None when the install lacks them."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ModuleNotFoundError:
        return None
    return uvicorn


@click.command()
@click.option("--cards", "card_files", multiple=True, type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="Cards declared in FILE (mb-cards/1, spec/card-format.md), offered with their set. Repeatable.")
@click.option("--scenarios", "scenario_dirs", multiple=True, type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="A folder of scenario files the board may open; rulings are saved in the first. "
                                  "Repeatable; without it, nothing is opened or saved.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="A replay log whose games the board may start from.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: any free port, printed).")
@click.option("--open", "open_browser", is_flag=True, help="Open the board in the browser.")
def board(card_files, scenario_dirs, log_file, port, open_browser):
    """Set up a position of either game in the browser, play it against the
    reference engine and save it as a ruling (a local server; see spec/board.md)."""
    uvicorn = _web_stack()
    if uvicorn is None:
        click.echo(MISSING, err=True)
        sys.exit(2)
    import secrets
    import socket

    from .server import Settings, build_app

    for path in card_files:
        from ..harness.serve import card_file_problems

        problems = card_file_problems(path)
        if problems:
            error(f"{path}: " + problems[-1])
            sys.exit(2)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(128)            # connections wait from now on, before the server takes them
    except OSError as e:
        error(f"cannot listen on 127.0.0.1:{port}: {e.strerror or e}")
        sys.exit(2)
    port = sock.getsockname()[1]
    settings = Settings(token=secrets.token_urlsafe(24), port=port, card_files=tuple(card_files),
                        scenario_dirs=tuple(scenario_dirs), log_file=log_file)
    url = f"http://127.0.0.1:{port}/?token={settings.token}"
    click.echo(f"the board: {url}")
    click.echo("(Ctrl-C stops it)")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(build_app(settings), log_level="warning", access_log=False))
    server.run(sockets=[sock])
