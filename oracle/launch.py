"""The `mb-oracle` program: the click group (oracle.cli), with one fast path.

The commonest run, `mb-oracle verify PATH...` with no option, needs none of
click's parsing: its options all take their defaults. That run goes to
`oracle.replay.run.verify_run` directly, and ends as the click group would
end it (the same output, messages and exit statuses), without loading click
(a third of the command's start-up). Every other command line, and this one
whenever the environment asks click for shell completion, goes to click.
"""

from __future__ import annotations

import os
import sys


def _plain_verify(args: list[str]) -> bool:
    """Whether `args` is `verify PATH...`: paths only, none an option or `-`."""
    return (len(args) >= 2 and args[0] == "verify" and all(a and not a.startswith("-") for a in args[1:])
            and not any(k.endswith("_COMPLETE") for k in os.environ))


def _echo_err(text: str = "") -> None:
    import click

    click.echo(text, err=True)


def _verify(paths: tuple[str, ...]) -> None:
    """`verify PATHS` with every option at its default, ending as the group
    (oracle.cli.LazyGroup) and click's main would end it."""
    from .ending import CLOSED_OUTPUT, cannot_go_on, closed_output, discard_stdout, missing_package
    from .loading import collector_paused, msgspec_first

    with collector_paused():
        msgspec_first()
        from .replay.run import verify_run
    try:
        try:
            if sys.stdout is None:
                sys.stdout = open(os.devnull, "w")
            if sys.stderr is None:
                sys.stderr = open(os.devnull, "w")
            try:
                verify_run(paths)
            except SystemExit as e:
                _end_now(e.code)
                raise
            _end_now(0)
        except ModuleNotFoundError as e:
            advice = missing_package(e, "verify")
            if advice is None:
                raise
            _echo_err(advice)
            sys.exit(2)
        except OSError as e:
            if closed_output(e):
                discard_stdout()
                sys.exit(CLOSED_OUTPUT)
            from .term import visible

            sys.stdout = open(os.devnull, "w")
            _echo_err(visible(cannot_go_on(e, "verify")))
            sys.exit(2)
        sys.exit(0)
    except EOFError:
        # As click's main: a blank line closes the terminal's ^C echo, then "Aborted!".
        from gettext import gettext

        _echo_err()
        _echo_err(gettext("Aborted!"))
        sys.exit(1)
    except KeyboardInterrupt:
        from .ending import say_interrupted

        sys.exit(say_interrupted())


def _end_now(code) -> None:
    """End the process with `code` without the interpreter's teardown, which
    frees every module and object one by one (about 6 M instructions, 3% of
    a one-log run) for a process that is about to end anyway. What teardown
    does that shows (exit handlers: safefile's clean-up; flushing standard
    output and error) is done here first. Returns, and leaves the ordinary
    exit to the caller, when that cannot be done safely: a code that is not
    a number, another thread still running, no way to run the exit handlers,
    or a flush that fails (a closed pipe: the caller's handling applies)."""
    if code is None:
        code = 0
    if type(code) is not int:
        return
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    import atexit

    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is None:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
        run_handlers()
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:
        return
    os._exit(code & 0xFF)


def main() -> None:
    """Ctrl-C ends every command with one line and exit status 130 (128 +
    SIGINT), whenever it comes: while modules load, while the command
    runs, while its reports are written."""
    try:
        args = sys.argv[1:]
        if _plain_verify(args):
            _verify(tuple(args[1:]))
        from .cli import main as group

        group()
    except KeyboardInterrupt:
        from .ending import say_interrupted

        sys.exit(say_interrupted())
