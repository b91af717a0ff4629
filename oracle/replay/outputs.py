"""The reports of one `verify` run: what `--format` sends to standard output
and every `--output FORMAT=FILE`, fed game by game, closed with one summary.

Every report reads the same `Summary` (`oracle.replay.outcome`), so the
human line, the JSON summary and the JUnit counts agree with the exit
status.
"""

from __future__ import annotations

import io
import os
import sys
import time

from ..safefile import OutputError, Replacement, clash, input_name
from ..term import did_you_mean, error, is_terminal, style, unstyle, use_color, visible
from . import report as render
from .outcome import Summary, Tally

FORMATS = ("human", "json", "junit", "html")
# Findings that stop or skip an input file: said on standard error as well.
FILE_ERRORS = ("UNREADABLE", "BAD_SCENARIO")


def parse_output(_ctx, _param, values) -> list[tuple[str, str]]:
    """Click callback for the repeatable `--output FORMAT=FILE`."""
    if values:
        import click
    out: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for value in values:
        fmt, sep, path = value.partition("=")
        if not sep or not path:
            raise click.BadParameter(f"{value!r}: write FORMAT=FILE, e.g. junit=oracle.xml "
                                     f"(formats: {', '.join(FORMATS)})")
        if fmt not in FORMATS:
            hint = did_you_mean(fmt, FORMATS, quote=False)
            raise click.BadParameter(f"{value!r}: unknown format {fmt!r}{hint}; formats: {', '.join(FORMATS)}")
        if path == "-":
            raise click.BadParameter(f"{value!r}: --format chooses the report on standard output; "
                                     "--output writes to a file")
        key = os.path.abspath(path)
        if key in seen:
            raise click.BadParameter(visible(f"{path} is given twice ({seen[key]} and {value})"))
        seen[key] = value
        out.append((fmt, path))
    return out


def side_of(command: str) -> str:
    """What a report compares with the rules: the engine for conform, else a log."""
    return "engine" if command == "conform" else "log"


class _Human:
    """The human report. On standard output it leaves the stale expectations
    out (`warnings=False`): they are warnings, said on standard error."""

    def __init__(self, stream, color: bool, quiet: bool, statistics: bool, before=None, warnings: bool = True,
                 side: str = "log", scenario_runs=None, verbose: bool = False):
        self.stream, self.color, self.quiet, self.statistics, self.before = stream, color, quiet, statistics, before
        self.scenario_runs, self.verbose = scenario_runs, verbose
        self._held = None       # (key, reports): the failing runs of one scenario, shown once together
        self.warnings = warnings
        self.side = side        # what the other side of the rules is: a log (verify), the engine (conform)

    def echo(self, text: str) -> None:
        if self.before is not None:
            self.before()
        if self.color:
            # As click.echo(text, file=self.stream, color=True) writes it.
            self.stream.write(text + "\n")
            self.stream.flush()
        else:
            # Written as click.echo writes it, without a flush a game: the
            # stream's buffer (a line at a time on a terminal) does that.
            self.stream.write(unstyle(text) + "\n")

    @property
    def wanted(self) -> str:
        """The rendering of a game's line this report writes (oracle.replay.worker.RENDERINGS)."""
        return "styled" if self.color else "plain"

    def game(self, rep, seconds: float, lines=None) -> None:
        if self.scenario_runs is not None and lines is None and self.scenario_runs(rep):
            return self._scenario_run(rep)
        self._show_held()
        if not self.quiet or rep.verdict != "conforms" or rep.outcome == "xpass":
            if lines is None:
                self.echo(render.human_game(rep, side=self.side))
            elif self.color:
                self.echo(lines.styled)
            else:
                # As `echo` writes it, the line already without colours.
                if self.before is not None:
                    self.before()
                self.stream.write(lines.plain + "\n")

    def _scenario_run(self, rep) -> None:
        """A scenario's run in one edition: held while the next runs of the
        scenario fail the same way, then shown once naming their editions."""
        if rep.verdict == "conforms" and rep.outcome != "xpass":
            if self.verbose and not self.quiet:
                self._show_held()
                self.echo(render.human_game(rep, side=self.side))
            return
        import msgspec

        scenario = rep.id.rpartition(" [")[0] or rep.id
        key = (scenario, rep.file, render.human_game(msgspec.structs.replace(rep, id=scenario, edition=None),
                                                     side=self.side))
        if self._held is not None and self._held[0] == key:
            self._held[1].append(rep)
            return
        self._show_held()
        self._held = (key, [rep])

    def _show_held(self) -> None:
        if self._held is None:
            return
        (scenario, _, _), reps = self._held
        self._held = None
        if len(reps) > 1:
            import msgspec

            reps[0] = msgspec.structs.replace(reps[0], id=scenario, edition=", ".join(r.edition for r in reps))
        self.echo(render.human_game(reps[0], side=self.side))

    def finish(self, summary: Summary) -> None:
        self._show_held()
        for st in summary.stale if self.warnings else ():
            self.echo(style(render.stale_warning(st), fg="magenta"))
        if self.statistics and summary.statistics is not None:
            self.echo(render.statistics(summary.statistics))
        self.echo(render.human_summary(summary))
        self.stream.flush()   # a closed pipe is found here, while the command can still end quietly


class _Json:
    wanted = "json"

    def __init__(self, stream, before=None):
        self.stream, self.before = stream, before

    def game(self, rep, seconds: float, lines=None) -> None:
        if self.before is not None:
            self.before()
        self.stream.write((render.json_game(rep) if lines is None else lines.json) + b"\n")

    def finish(self, summary: Summary) -> None:
        self.stream.write(render.json_summary(summary) + b"\n")
        self.stream.flush()


def _finding_line(f) -> str:
    clauses = f" [{', '.join(f.clauses)}]" if f.clauses else ""
    return f"{f.code}{clauses} at line {f.line}: {f.message}"


class _JUnit:
    """A case per game, then a case per stale expectation."""

    wanted = None       # its cases are written here, from the report

    def __init__(self, stream, command: str = "verify"):
        from .. import junit

        self.junit = junit      # imported for this report only (it brings tempfile and shutil)
        self.command = command
        self.writer = junit.JUnitWriter(stream, f"mb-oracle {command}")

    def game(self, rep, seconds: float, lines=None) -> None:
        kw = {"time": seconds, "file": rep.file, "line": rep.line}
        cls = self.junit.classname(self.command, rep.file)
        outcome = rep.outcome
        if outcome == "pass":
            # A conforming game whose lines carry fields the format does not define.
            self.writer.case(cls, rep.id, system_out="\n".join(n for n in rep.notes if render.unknown_fields_note(n)),
                             **kw)
            return
        text = unstyle(render.human_game(rep, side=side_of(self.command)))
        if outcome in ("malformed", "error"):
            f = rep.findings[0]
            self.writer.case(cls, rep.id, result="error", message=_finding_line(f), type=f.code, text=text, **kw)
        elif outcome == "fail":
            f = next(f for f in rep.findings if not f.expected)
            self.writer.case(cls, rep.id, result="failure", message=_finding_line(f), type=f.code, text=text, **kw)
        elif outcome == "xfail":
            f = rep.findings[0]
            self.writer.case(cls, rep.id, result="skipped", message="expected divergence: " + _finding_line(f),
                             text=text, **kw)
        else:  # xpass
            why = next((n for n in rep.notes if n.startswith("expected divergences")), "an expected divergence")
            self.writer.case(cls, rep.id, result="failure", message="unexpected pass: " + why, type="XPASS",
                             text=text, **kw)

    def finish(self, summary: Summary) -> None:
        for st in summary.stale:
            name = f"{st.code} [{st.clause or '*'}]" + (f" game {st.game}" if st.game else "")
            message = render.stale_warning(st)
            if summary.strict_expect:
                self.writer.case(self.junit.classname("expect", st.file), name, result="failure", file=st.file,
                                 line=st.line, message=message, type="STALE_EXPECTATION",
                                 text=message + "\n(--strict-expect: a stale expectation fails the run)")
            else:
                self.writer.case(self.junit.classname("expect", st.file), name, result="skipped", file=st.file,
                                 line=st.line, message=message)
        self.writer.close()


class _Html:
    """The HTML page (oracle.report): each game's row and data as it comes,
    the page itself at the end."""

    wanted = None

    def __init__(self, stream, inputs, options, on_hand=None):
        import shlex

        from ..report.page import HtmlReport
        from ..report.source import LogSource

        self.stream = stream
        command = "mb-oracle " + shlex.join(sys.argv[1:]) if len(sys.argv) > 1 else ""
        # Standard input is named `<stdin>`, as in the games' reports and the text report.
        self.page = HtmlReport(title="mb-oracle verify report", command=command,
                               inputs=["<stdin>" if p == "-" else p for p in inputs if p], options=options,
                               source=LogSource(on_hand))

    def game(self, rep, seconds: float, lines=None) -> None:
        self.page.game(rep)

    def finish(self, summary: Summary) -> None:
        self.page.finish(self.stream, summary)


# hashlib's BLAKE2b, taken from its own module: `hashlib` would load the
# OpenSSL bindings, which no report needs.
try:
    from _blake2 import blake2b as _blake2b
except ImportError:     # a Python without the module hashlib itself uses
    from hashlib import blake2b as _blake2b


class GameIds:
    """The game ids of a run, in input order (as the reports come, whatever
    -j or --cluster): a game whose id an earlier game has gets a note, and
    under --strict a DUPLICATE_GAME finding (malformed). An id is kept as an
    8-byte digest with where it was first seen, however long the id."""

    def __init__(self, strict: bool = False):
        self.strict = strict
        self.first: dict[bytes, tuple[int, int]] = {}
        self.files: dict[str, int] = {}
        self.names: list[str] = []

    def check(self, rep) -> bool:
        """Whether the report was changed (a note, or a finding under --strict)."""
        key = _blake2b(rep.id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        seen = self.first.get(key)
        if seen is None:
            if rep.file not in self.files:
                self.files[rep.file] = len(self.names)
                self.names.append(rep.file)
            self.first[key] = (self.files[rep.file], rep.line)
            return False
        from .findings import DUPLICATE_NOTE, Finding

        text = (f"{DUPLICATE_NOTE} ({self.names[seen[0]]}:{seen[1]}); the reports and `--expect game:` "
                "cannot tell the two apart")
        if not self.strict:
            rep.notes.append(text)
            return True
        rep.findings.insert(0, Finding("DUPLICATE_GAME", [], rep.line, f"game id {rep.id!r}: {text}"))
        rep.verdict = "malformed"
        return True


class Reporter:
    """Opens the reports, takes each game as it is verified, and closes them
    with the summary. `finish()` returns the exit status."""

    def __init__(self, fmt: str, outputs: list[tuple[str, str]], *, quiet: bool = False,
                 statistics: bool = False, expectations=None, strict_expect: bool = False, progress=None,
                 inputs: tuple[str, ...] = (), command: str = "verify", options=None, on_hand=None,
                 reads: tuple[str, ...] = (), scenario_runs=None, verbose: bool = False):
        # scenario_runs(report): whether a report is a scenario's run in one edition (`conform
        # --scenarios`); the human reports show those that pass only with `verbose`, and a
        # failure the runs of one scenario share once, naming their editions.
        self.scenario_runs, self.verbose = scenario_runs, verbose
        self.command = command          # the command named in JUnit (`mb-oracle.<command>.<file>`)
        self.inputs, self.options = inputs, options   # the HTML page reads the logs again with these
        self.on_hand = on_hand          # or takes a game's lines from here (oracle.replay.onhand)
        # No --output may be one of `inputs` (the logs they hold) or of `reads` (more files the run reads).
        self.tally = Tally(expectations, strict_expect)
        self.ids = GameIds(strict=bool(options is not None and options.strict))
        self.progress = progress
        self._files = []
        self._outs = []                 # the --output files, each renamed into place by finish()
        self.sinks = []                 # the report on standard output, then one per --output file
        self.closed = False             # standard output closed by its reader while --output files go on
        _refuse_overwriting_inputs(outputs, inputs, reads)
        # Erase the progress line before writing to standard output only
        # when both are on the terminal.
        clear = progress.clear if progress is not None and is_terminal(sys.stdout) else None
        self.sinks.append(self._sink(fmt, None, quiet, statistics, clear))
        for kind, path in outputs:
            try:
                out = Replacement(path, "wb" if kind == "json" else "w")
            except OutputError as e:
                self.abandon()
                import click

                raise click.UsageError(f"--output {kind}={e}") from None
            self._outs.append(out)
            self.sinks.append(self._sink(kind, out.file, quiet, statistics, None))
        self._last = time.perf_counter()

    def _sink(self, kind, file, quiet, statistics, clear):
        """A report to `file` (opened by the caller), or to standard output."""
        if kind == "json":
            return _Json(file) if file is not None else _Json(sys.stdout.buffer, clear)
        if file is None:
            file = sys.stdout
            if kind in ("junit", "html"):
                # JUnit and the HTML page declare UTF-8, whatever the locale of the terminal.
                file = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n", write_through=True)
                self._files.append(_Detach(file))
            color = use_color(sys.stdout)
        else:
            color = False
        if kind == "junit":
            return _JUnit(file, self.command)
        if kind == "html":
            return _Html(file, self.inputs, self.options, self.on_hand)
        return _Human(file, color, quiet, statistics, clear, warnings=file is not sys.stdout,
                      side=side_of(self.command), scenario_runs=self.scenario_runs, verbose=self.verbose)

    @property
    def wanted(self) -> tuple[str, ...]:
        """The report lines a worker may render for these reports
        (oracle.replay.worker.RENDERINGS): none when expectations may change
        a game's outcome after it is verified."""
        if self.tally.expectations is not None:
            return ()
        return tuple(sorted({s.wanted for s in self.sinks if s.wanted is not None}))

    def game(self, rep, lines=None, seconds: float | None = None) -> None:
        """A game's report; `lines`, if given, its report lines rendered by
        the worker that verified it (oracle.replay.worker.Rendered), written
        as they are unless the report changes here; `seconds`, the game's own
        time when the caller measured it (else the time since the last game)."""
        now = time.perf_counter()
        seconds, self._last = (now - self._last) if seconds is None else seconds, now
        if self.ids.check(rep):
            lines = None
        self.tally.add(rep)
        self._say_file_errors(rep)
        sinks = self.sinks
        for i in range(1, len(sinks)):
            sinks[i].game(rep, seconds, lines)
        try:
            sinks[0].game(rep, seconds, lines)
        except OSError as e:
            self._lost_stdout(e)
        if self.progress is not None:
            self.progress.update(rep)

    def _say_file_errors(self, rep) -> None:
        """A file that could not be read to its end, or a scenario file
        skipped, is also said on standard error (the report has its verdict)."""
        for f in rep.findings:
            if f.code in FILE_ERRORS:
                if self.progress is not None:
                    self.progress.clear()
                name = visible(rep.file)        # on one line, whatever the file's name holds
                if f.message.startswith(rep.file):
                    error(name + f.message[len(rep.file):])
                else:
                    error(f"{name}:{f.line}: {f.message}" if f.line else f"{name}: {f.message}")

    def finish(self) -> int:
        summary = self.tally.summary()
        if self.progress is not None:
            self.progress.clear()
        for st in summary.stale:        # warnings: on standard error, whatever the format
            import click

            click.echo(style(render.stale_warning(st), fg="magenta"), err=True)
        try:
            # The files first, each renamed into place when complete: a
            # closed pipe on standard output does not cost them.
            for sink, out in zip(self.sinks[1:], self._outs):
                sink.finish(summary)
                out.commit()
            self.sinks[0].finish(summary)
        finally:
            self.abandon()
        if self.closed:
            from ..ending import CLOSED_OUTPUT

            return CLOSED_OUTPUT
        return summary.exit

    def flush(self) -> None:
        """Write out what the report on standard output holds so far."""
        try:
            sys.stdout.flush()
            for f in self._files:
                f.flush()
        except OSError as e:
            self._lost_stdout(e)

    def _lost_stdout(self, e: OSError) -> None:
        """Standard output closed by its reader (`| head`): with --output
        files, the run goes on for them, its report on standard output
        dropped, and ends with the status of a closed output once they are
        written whole; without, the error ends the run at once."""
        from ..ending import closed_output, discard_stdout

        if not self._outs or not closed_output(e):
            raise e
        discard_stdout()
        self.closed = True
        self.sinks[0] = _Dropped()

    def abandon(self) -> None:
        """Close standard output's wrappers; an --output file not yet renamed
        into place is removed, and the file that was there stays."""
        for f in self._files:
            f.close()
        self._files = []
        for out in self._outs:
            out.discard()
        self._outs = []


def _refuse_overwriting_inputs(outputs, inputs, reads=()) -> None:
    """An --output file must not be one of the logs, standard input, the
    expectation file, or another file the run reads."""
    if not outputs:
        return
    from .inputs import expand_paths

    given = tuple(i for i in inputs if i)
    read = [*(p for p in expand_paths(given) if p != "-"), *given] if given else []
    read += [r for r in reads if r]
    for kind, path in outputs:
        other = clash(path, read)
        if other is not None:
            import click

            raise click.UsageError(f"--output {kind}={visible(path)} would overwrite {input_name(other)}, an input of "
                                   "this run")


class _Dropped:
    """The report on standard output once its reader has gone."""

    wanted = None

    def game(self, rep, seconds: float, lines=None) -> None:
        pass

    def finish(self, summary: Summary) -> None:
        pass


class _Detach:
    """Closing a text wrapper over standard output without closing standard output."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def flush(self):
        self.wrapper.flush()

    def close(self):
        self.wrapper.flush()
        self.wrapper.detach()


# -- the command line around the reports ------------------------------------------


def load_expectations(path: str | None):
    """The expectations of `--expect`, or exit 2 with every problem on standard error."""
    if path is None:
        return None
    from . import expect

    try:
        return expect.load(path)
    except expect.ExpectError as e:
        for line in str(e).splitlines():
            error(line)
        sys.exit(2)
