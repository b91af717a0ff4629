"""What every fuzz input must satisfy, and the record of what broke.

In-process checks (fast): no exception escapes the reader, the verifier,
`annotate`, the scenario loader and runner or the expectation loader; one
verdict per game read; the good game after a broken one still conforms;
the service never answers INTERNAL; no input takes longer than the time
limit. A sample of inputs also goes through the command line in a
subprocess (cli_checks.py), so crashes at that level (and hangs) are
caught too. Mindbug's expectation and card files and engine adapters are
checked by its own targets (oracle.games.mindbug.fuzz: verify_files.py,
card_checks.py, engine_checks.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import tempfile
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import games
from ..safefile import write_file


class Hang(Exception):
    """The input took longer than the time limit."""


WALL_FACTOR = 10   # the wall-clock backstop, for inputs that wait rather than compute


@contextmanager
def time_limit(seconds: float):
    """Raise Hang in the running code after `seconds` of CPU time (so a busy
    machine does not make hangs up), or ten times that on the wall clock
    (main thread, Unix); elsewhere no limit is set. Should the signal land
    where an exception is ignored (a garbage collector callback), it comes
    again a moment later, and the input counts as a hang all the same."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return
    fired: list[str] = []

    def _alarm(signum, frame):
        what = "of CPU time" if signum == signal.SIGPROF else "on the wall clock"
        fired.append(what)
        signal.setitimer(signal.ITIMER_PROF if signum == signal.SIGPROF else signal.ITIMER_REAL, 0.5)
        raise Hang(f"still running after {seconds if signum == signal.SIGPROF else seconds * WALL_FACTOR} s {what}")

    old_prof = signal.signal(signal.SIGPROF, _alarm)
    old_real = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_real)
    if fired:
        raise Hang(f"ran longer than the limit ({fired[0]})")


@dataclass
class Problem:
    kind: str          # traceback | hang | count | cli
    target: str
    key: str           # what makes two problems the same
    message: str
    data: bytes
    suffix: str
    seen: int = 1
    saved: str | None = None


@dataclass
class Tally:
    """Everything a fuzz run tried and found."""

    out: Path | None = None
    inputs: dict[str, int] = field(default_factory=dict)
    cli_runs: int = 0
    games_in: int = 0
    verdicts_out: int = 0
    problems: dict[str, Problem] = field(default_factory=dict)
    # Ctrl-C (KeyboardInterrupt) or SIGTERM (ending.Terminated) ended the run: what it
    # holds is what was done so far
    interrupted: BaseException | None = None

    def count(self, target: str) -> None:
        self.inputs[target] = self.inputs.get(target, 0) + 1

    def add(self, kind: str, target: str, key: str, message: str, data: bytes, suffix: str) -> None:
        key = f"{kind}: {key}"
        if key in self.problems:
            self.problems[key].seen += 1
            return
        p = Problem(kind, target, key, message, data, suffix)
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            digest = hashlib.sha1(key.encode()).hexdigest()[:10]
            base = self.out / f"{target}-{kind}-{digest}"
            write_file(base.with_suffix(suffix), data)
            write_file(base.with_suffix(".txt"), f"{key}\n\n{message}\n")
            p.saved = str(base.with_suffix(suffix))
        self.problems[key] = p

    @property
    def total(self) -> int:
        return sum(self.inputs.values())

    def by_kind(self, kind: str) -> list[Problem]:
        return [p for p in self.problems.values() if p.kind == kind]


def _where(exc: BaseException) -> str:
    """The exception type and the innermost frame of the project's code."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if f"{os.sep}oracle{os.sep}" in f.filename and f"{os.sep}fuzz{os.sep}" not in f.filename]
    f = (mine or frames or [None])[-1]
    where = f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.lineno} in {f.name}" if f else "?"
    return f"{type(exc).__name__} at {where}"


def guarded(tally: Tally, target: str, data: bytes, suffix: str, seconds: float, fn) -> None:
    """Run fn(); record a traceback, a hang, or a broken invariant (AssertionError)."""
    tally.count(target)
    try:
        with time_limit(seconds):
            fn()
    except Hang as e:
        tally.add("hang", target, target, str(e), data, suffix)
    except AssertionError as e:
        tally.add("count", target, str(e).split(":", 1)[0], str(e), data, suffix)
    except Exception as e:  # noqa: BLE001 - recording every escape is the point
        tally.add("traceback", target, _where(e), "".join(traceback.format_exception(e)), data, suffix)


def guarded_cli(tally: Tally, target: str, data: bytes, suffix: str, fn) -> None:
    """Run a command-line check; a failure of the check itself is recorded,
    and the run goes on."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording every escape is the point
        tally.add("traceback", f"cli-{target}", _where(e), "".join(traceback.format_exception(e)), data, suffix)


# -- the targets ----------------------------------------------------------------------

def check_stream(tally: Tally, data: bytes, last_id: str | None = None) -> None:
    """verify (and --keep-going, and annotate) on a stream: a verdict per game,
    and the good last game conforms."""
    from ..replay.reader import split_games
    from ..replay.verify import verify_game

    raws = list(split_games(io.BytesIO(data), "<fuzz>"))
    reports = [verify_game(r) for r in raws]
    for r, rep in zip(raws, reports):
        if rep.verdict != "conforms":   # a conforming game takes the same path in these
            verify_game(r, None, True)
            game = games.game_of(r.lines[0][1]) if r.kind == "game" and r.lines else games.DEFAULT
            if not (isinstance(game, str) and game in games.GAMES):
                game = games.DEFAULT
            games.attribute(game, "ANNOTATE")(r, io.BytesIO())     # as `annotate` sends it
            # Under another edition's profile, as --edition and --which-editions do.
            editions = games.attribute(game, "EDITION_IDS")
            verify_game(r, editions[len(data) % len(editions)])
    tally.games_in += len(raws)
    tally.verdicts_out += len(reports)
    assert len(reports) == len(raws), f"verdicts: {len(reports)} verdicts for {len(raws)} games"
    if last_id is not None:
        last = reports[-1]
        assert last.id == last_id and last.verdict == "conforms", \
            f"lost game: the good game after a broken one is {last.verdict} ({last.id})"
    from ..replay import report as render
    for rep in reports:
        render.human_game(rep)
        render.json_game(rep)


def check_scenarios(tally: Tally, data: bytes) -> None:
    """The scenario loader and runner on a file; every report format renders."""
    from ..scenarios import report
    from ..scenarios.loader import load_file
    from ..scenarios.runner import run

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"
        path.write_bytes(data)
        sf = load_file(path)
    results = [run(sc, e) for sc in sf.scenarios for e in sc.editions()]
    report.human(results, sf.errors, True)
    report.as_json(results, sf.errors)
    report.junit(results, sf.errors, io.StringIO())


def rpc_lines(session: list, folders=(), paths=None) -> tuple[list[bytes], list[bytes]]:
    """A session played against a fresh service in this process that reads
    the scenarios under `folders`: the request lines sent (each ("legal", k)
    turned into the k-th legal decision of game g1 at that moment, as its
    game's registry entry FUZZ_LEGAL gives it, or left out when g1 has none;
    each placeholder of `paths` replaced by its path, see Mindbug's
    hostile.SERVE_PATHS) and the responses."""
    from ..harness.serve import Service

    svc = Service(folders)
    paths = paths or {}
    sent: list[bytes] = []
    got: list[bytes] = []
    for item in session:
        if isinstance(item, tuple):
            opened = svc.games.get("g1")
            step = games.attribute(opened.rules, "FUZZ_LEGAL")(opened.game, item[1]) if opened is not None else None
            if step is None:
                continue
            line = json.dumps({"op": "apply", "game": "g1", "decision": step, "id": "legal"}).encode()
        elif isinstance(item, bytes):
            line = item
        else:
            line = json.dumps(item, default=str).encode()
        for placeholder, path in paths.items():
            line = line.replace(placeholder, path)
        if not line.strip() or b"\n" in line or b"\r" in line:
            continue                 # the service reads lines: these are not one request each
        sent.append(line)
        got.append(svc.handle(line))
    return sent, got


def check_rpc(tally: Tally, session: list, folders=(), paths=None) -> None:
    """`mb-oracle serve`: every request line gets one response that the
    response schema accepts; a refusal names its code, never INTERNAL (a
    failure the service caught)."""
    import msgspec

    from ..harness import protocol as pr

    sent, got = rpc_lines(session, folders, paths)
    data = b"\n".join(sent) + b"\n"
    for line, out in zip(sent, got):
        try:
            resp = _response(out)
        except msgspec.ValidationError as e:
            tally.add("count", "rpc", f"rpc: a response off its schema ({str(e)[:80]})",
                      f"request: {line[:300]!r}\nresponse: {out[:500]!r}\n{e}", data, ".jsonl")
            return
        if isinstance(resp, pr.ErrorReply) and resp.error.code == "INTERNAL":
            tally.add("traceback", "rpc", f"INTERNAL: {resp.error.message[:120]}",
                      f"request: {line[:300]!r}\nresponse: {out[:500]!r}", data, ".jsonl")
            return


def _response(out: bytes):
    """A service response decoded by the default game's response schema,
    else by the one of another game (each its registry entry's
    RPC_RESPONSE); the first ValidationError when none accepts it."""
    import msgspec

    try:
        return msgspec.json.decode(out, type=games.attribute(games.DEFAULT, "RPC_RESPONSE"))
    except msgspec.ValidationError as first:
        for name in games.GAMES:
            if name != games.DEFAULT and getattr(games.entry(name), "RPC_RESPONSE", None):
                try:
                    return msgspec.json.decode(out, type=games.attribute(name, "RPC_RESPONSE"))
                except msgspec.ValidationError:
                    pass
        raise first
