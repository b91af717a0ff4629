"""The `mb-oracle` program: the click group (oracle.cli), with one fast path.

The commonest runs, `mb-oracle verify PATH...` with no option or with the
options a CI job gives (`--format json|junit|human`, `-j N`, and the flags
`-q`, `--statistics`, `--keep-going`, `--strict`, `--which-editions`,
`--check-invariants`, `--strict-expect`, `--progress/--no-progress`), need
none of click's parsing. Those runs go to `oracle.replay.run.verify_run`
directly, and end as the click group would end them (the same output,
messages and exit statuses), without loading click (a third of the
command's start-up). Every other command line (another option, a value
click would refuse, `-` or no path), and these whenever the environment
asks click for shell completion, goes to click.
"""

from __future__ import annotations

import os
import sys


# The flags of `verify` the fast path reads: the keyword of verify_run each sets, and its value.
_FLAGS = {"--keep-going": ("keep_going", True), "--strict-expect": ("strict_expect", True),
          "--which-editions": ("which_editions", True), "--strict": ("strict", True), "-q": ("quiet", True),
          "--quiet": ("quiet", True), "--check-invariants": ("check_invariants", True),
          "--statistics": ("statistics", True), "--progress": ("progress", True),
          "--no-progress": ("progress", False)}
_FORMATS = ("human", "json", "junit")


def _jobs(value: str | None) -> int | None:
    """-j's value as click's IntRange(1, 64) reads it; None for anything else."""
    if value is None or not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 64:
        return None
    return int(value)


def _verify_options(args: list[str]) -> tuple[tuple[str, ...], dict] | None:
    """The paths and the keywords of verify_run when `args` is `verify PATH...`
    with only the options the fast path reads, each spelled and valued as
    click accepts it (a later one wins, as in click); None for any other
    command line, left to click (which says what is wrong with it)."""
    if len(args) < 2 or args[0] != "verify" or any(k.endswith("_COMPLETE") for k in os.environ):
        return None
    paths: list[str] = []
    options: dict = {}
    rest = iter(args[1:])
    for arg in rest:
        if arg and not arg.startswith("-"):
            paths.append(arg)
        elif arg in _FLAGS:
            key, value = _FLAGS[arg]
            options[key] = value
        else:
            if arg.startswith("-j"):
                name, value = "--jobs", arg[2:] or next(rest, None)     # -j N, -jN (not -j=N: click reads "=N")
            else:
                name, eq, value = arg.partition("=")
                value = value if eq else next(rest, None)
            jobs = _jobs(value) if name == "--jobs" else None
            if jobs is not None:
                options["jobs"] = jobs
            elif name == "--format" and value in _FORMATS:
                options["fmt"] = value
            else:
                return None
    return (tuple(paths), options) if paths else None


def _echo_err(text: str = "") -> None:
    import click

    click.echo(text, err=True)


def _verify(paths: tuple[str, ...], options: dict) -> None:
    """`verify PATHS` with these options (the others at their defaults), ending as the group
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
                verify_run(paths, **options)
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
        fast = _verify_options(args)
        if fast is not None:
            _verify(*fast)
        from .cli import main as group

        group()
    except KeyboardInterrupt:
        from .ending import say_interrupted

        sys.exit(say_interrupted())
