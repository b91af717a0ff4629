"""Verifying on several processes: workers read their own shares of the
input, the parent merges the reports back into input order.

`iter_reports(paths, options, jobs)` is what `mb-oracle verify` consumes.
With one job it verifies in this process, as a single reader of the input
does. With more, each worker process is handed shares (see `shares`): byte
ranges of files it opens itself, or raw blocks of a stream the parent cuts
at game lines. The reports come back one game at a time, so the parent
always knows which game a worker was verifying:

- A worker reports any failure of its own as an `error` verdict of the game
  it was on (a report it cannot encode for the pipe travels pickled), so
  it never ends without a word while games are in its hands.
- A worker that dies (killed, out of memory) is replaced by a fresh one,
  and its unfinished games are verified there, from the game it was on. A
  game that kills its worker twice gets an `error` verdict naming it (and
  one line on standard error); the games after it are verified as usual.
  A pipe to a dead worker is never taken for the run's closed output.
- Ctrl-C (SIGINT to the process group) ends the workers and the parent at
  once with one line on standard error and exit status 130; SIGTERM does
  the same with exit status 143.

Test hook: in a worker (and in a cluster task), the environment variable
MB_ORACLE_TEST_KILL_GAME=ID makes the worker kill itself (SIGKILL) just
before it verifies the game with that id; with MB_ORACLE_TEST_KILL_ONCE=PATH
as well, only the first time (the file PATH records that it happened). The
fault tests use it; nothing else reads it.
"""

from __future__ import annotations

import os
import sys
import time
# The signal module's C core: setting a handler needs none of the enums that
# the signal module builds when imported (about 3 M instructions a start).
import _signal
from contextlib import contextmanager
from typing import Iterator

from ..ending import INTERRUPTED, INTERRUPTED_STATUS, TERMINATED, TERMINATED_STATUS, stops_raising, to_devnull
from ..safefile import discard_pending
from ..term import visible
from .reader import RawGame, read_all
from .jobs import (ClusterUnavailable, Options, error_report, game_name, kill_hook, share_error,  # noqa: F401
                   verify_one)
from .verify import GameReport


def iter_reports(paths: tuple[str, ...], options: Options, jobs: int = 1, cluster: str | None = None,
                 share_size: int | None = None, on_hand=None) -> Iterator[GameReport]:
    """Reports of every game of `paths` (files, folders, URLs, - for
    standard input), in input order, whatever the number of jobs.

    `on_hand` (oracle.replay.onhand.OnHand), if given, is told of the game
    or share each report comes from (`hold`) just before the report is
    passed on, for the HTML report to draw boards of games it cannot read
    again."""
    for rep, _ in iter_rendered(paths, options, jobs, cluster, share_size, on_hand):
        yield rep


def iter_rendered(paths: tuple[str, ...], options: Options, jobs: int = 1, cluster: str | None = None,
                  share_size: int | None = None, on_hand=None, wanted: tuple[str, ...] = ()):
    """As `iter_reports`, each report with its report lines: with more than
    one job or on a cluster, the workers render the lines named in `wanted`
    (oracle.replay.worker.RENDERINGS) and the parent only writes them; the
    lines are None where the report comes without them (one job, a report
    the worker could not render)."""
    if cluster is None and jobs <= 1 and not any("://" in p for p in paths):
        # Local input verified here: read as a single reader does, without
        # the planning of shares (nor the cost of importing it).
        with interrupt_exits():
            for raw in read_all(paths):
                rep = verify_one(raw, options)
                if on_hand is not None:
                    on_hand.hold_game(raw)
                yield rep, None
        return
    from . import shares as sh

    files = sh.expand(paths)
    with interrupt_exits() as on_interrupt:
        if cluster is not None:
            from .cluster import cluster_reports

            def planned(workers: int):
                size = share_size or sh.cluster_share_size(files, workers)
                return sh.plan(files, size, wait=False)

            yield from cluster_reports(planned, options, cluster, on_interrupt, on_hand,
                                       wanted)
        elif jobs <= 1:
            for share in sh.plan(files, sh.MAX_SHARE):
                if on_hand is not None:
                    on_hand.hold(share)
                for raw in sh.share_games(share):
                    yield verify_one(raw, options), None
        else:
            size = share_size or sh.share_size(files, jobs)
            pool = _Pool(jobs, options, wanted)
            on_interrupt.append(pool.kill)
            finished = False
            try:
                yield from pool.run(sh.plan(files, size, wait=False), on_hand)
                finished = True
            finally:
                pool.close(finished)


# -- Ctrl-C and SIGTERM ------------------------------------------------------------

# What each stopping signal writes, and the exit status (128 + the signal).
_STOPS = {_signal.SIGINT: (INTERRUPTED, INTERRUPTED_STATUS), _signal.SIGTERM: (TERMINATED, TERMINATED_STATUS)}


@contextmanager
def interrupt_exits():
    """While open, SIGINT (Ctrl-C) or SIGTERM ends the run at once: the
    callbacks appended to the yielded list stop the workers, the report
    lines verified so far are written out as far as that takes no waiting,
    one line goes to standard error, and the process exits with status 130
    (128 + SIGINT) or 143 (128 + SIGTERM). Under a command that takes the
    signals as exceptions (ending.stops_raise: fuzz, whose checks verify
    here), they are left to it: the exception ends the run, and the pool's
    clean-up its workers."""
    owner = os.getpid()
    callbacks: list = []
    if stops_raising():
        yield callbacks
        return

    def on_stop(signum, frame):
        line, status = _STOPS[signum]
        if os.getpid() != owner:   # a forked worker before it set its own handler
            os._exit(status)
        err = _quiet_stderr()
        for cb in callbacks:
            try:
                cb()
            except Exception:  # noqa: BLE001 - exiting anyway
                pass
        _flush_without_waiting(sys.stdout)
        discard_pending()          # the --output files that were there stay as they were
        try:
            os.write(err, line)
        except OSError:            # no standard error to write to: the exit status says it
            pass
        os._exit(status)

    previous = {}
    try:
        for signum in _STOPS:
            previous[signum] = _signal.signal(signum, on_stop)
    except ValueError:   # not the main thread: leave the signals alone
        yield callbacks
        return
    try:
        yield callbacks
    finally:
        for signum, handler in previous.items():
            _signal.signal(signum, handler)


def _quiet_stderr() -> int:
    """Standard error pointed at /dev/null while the run stops, so that what
    is started or says something meanwhile (a local cluster's nanny starting
    a worker again as the old one dies of the same Ctrl-C, then failing to
    read from its parent) writes nowhere: the one line is written through
    the returned descriptor, the standard error as it was."""
    try:
        saved = os.dup(2)
    except OSError:                # no standard error
        return 2
    to_devnull(2)
    return saved


def _flush_without_waiting(stream) -> None:
    """Write out the lines `stream` still holds, as far as that takes no
    waiting: a pipe or socket is written without blocking for the moment,
    so that a reader that is stuck (or paused, as a pager is) cannot hold
    up the exit, while one that reads on gets every line verified so far."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):   # no stream, or not a file
        return
    try:
        blocking = os.get_blocking(fd)
        if blocking:
            os.set_blocking(fd, False)
    except OSError:
        return
    try:
        stream.flush()
    except Exception:  # noqa: BLE001 - full pipe, closed reader or a reentered stream: exiting anyway
        pass
    finally:
        if blocking:
            try:
                os.set_blocking(fd, True)   # the descriptor may be shared with the rest of a pipeline
            except OSError:
                pass


class _State:
    __slots__ = ("share", "reports", "next_game", "done")

    def __init__(self, share):
        self.share = share
        self.reports: list = []               # (report, rendered lines or None) received, not yet passed on
        self.next_game = 0                    # games of the share reported so far
        self.done = False


def _how_it_died(exitcode) -> str:
    if exitcode is None:
        return "it stopped answering"
    if exitcode < 0:
        try:
            import signal

            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


class _Pool:
    """Worker processes, each with at most two shares in hand; reports are
    passed on in share order, at most `window` shares ahead of the oldest."""

    AHEAD = 2
    PAUSE = 0.005   # seconds

    def __init__(self, jobs: int, options: Options, wanted: tuple[str, ...] = ()):
        import multiprocessing

        from .worker import Worker      # here: a run with one job has no workers

        self.ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        self.options = options
        self.wanted = wanted            # the report lines the workers render
        self.window = 4 * jobs
        self.workers: list[Worker] = []
        for _ in range(jobs):
            self.workers.append(Worker(self.ctx, options, self.workers, wanted))
        self.deaths: dict[tuple[int, int], int] = {}
        self.selector = None

    def kill(self) -> None:
        """End every worker now (SIGKILL: nothing of theirs is worth keeping) and reap it."""
        for w in self.workers:
            try:
                os.kill(w.proc.pid, _signal.SIGKILL)
            except (ProcessLookupError, TypeError):
                pass
        for w in self.workers:
            w.proc.join(timeout=1)

    def close(self, finished: bool = True) -> None:
        """Let idle workers end; end at once those of a run stopped early."""
        if self.selector is not None:
            self.selector.close()
        if not finished:
            self.kill()
        for w in self.workers:
            try:
                os.set_blocking(w.fd, True)
                w.conn.send(None)
            except OSError:
                pass
        for w in self.workers:
            w.proc.join(timeout=1)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()

    def run(self, planned: Iterator, on_hand=None) -> Iterator:
        """Each report, in input order, with the lines its worker rendered (or None)."""
        import selectors

        from . import shares as sh
        from .worker import DONE, FAILED, STARTED, read_message

        plan = iter(planned)
        planned_all = False
        states: dict[int, _State] = {}
        retry: list[int] = []     # share indexes to hand out again, a heap
        head = 0                  # the oldest share not yet passed on
        top = 0                   # shares taken from the plan so far
        waiting = None            # the live input the plan waits on (registered with the selector)

        def next_share():
            nonlocal planned_all, top, waiting
            if retry:
                import heapq

                return heapq.heappop(retry)
            if planned_all or waiting is not None or top >= head + self.window:
                return None
            try:
                share = next(plan)
            except StopIteration:
                planned_all = True
                return None
            if share.__class__ is sh.Wait:
                # Nothing to read yet: hand out nothing more, and pass on the
                # reports that come meanwhile, until the input has data.
                waiting = share.fd
                self._selector().register(waiting, selectors.EVENT_READ, None)
                return None
            i = top
            states[i] = _State(share)
            top = i + 1
            return i

        while True:
            # Pass on what is ready, in order; then hand out shares (the
            # window has moved), and only then wait for the workers.
            while head in states:
                st = states[head]
                if st.reports:
                    if on_hand is not None:
                        on_hand.hold(st.share)
                    yield from st.reports
                    st.reports = []
                if not st.done:
                    break
                del states[head]
                head += 1
            for w in self.workers:
                while len(w.tasks) < self.AHEAD:
                    i = next_share()
                    if i is None:
                        break
                    w.tasks.append(i)
                    w.hand((states[i].share, states[i].next_game))
            if planned_all and not states:
                return
            selector = self._selector()
            for w in self.workers:      # wait to write only where a task is not all written yet
                events = selectors.EVENT_READ | (selectors.EVENT_WRITE if w.outbox else 0)
                if selector.get_key(w.fd).events != events:
                    selector.modify(w.fd, events, w)
            ready = selector.select()
            freed = False             # a worker finished a share: it gets the next one without a pause
            for key, mask in ready:
                w = key.data
                if w is None:             # the input has data: planning goes on
                    self.selector.unregister(waiting)
                    waiting = None
                    continue
                if mask & selectors.EVENT_WRITE:
                    w.flush()
                if not mask & selectors.EVENT_READ:
                    continue
                msgs = w.receive()
                if msgs is None:
                    self.selector.unregister(w.fd)
                    fresh = self._replace(w, states, retry)
                    self.selector.register(fresh.fd, selectors.EVENT_READ, fresh)
                    continue
                for msg in msgs:
                    st = states[w.tasks[0]]
                    if msg == DONE:
                        st.done = True
                        freed = True
                        w.tasks.popleft()
                        w.started = False
                    elif msg == STARTED:
                        w.started = True
                    elif msg[:1] == FAILED:
                        st.reports.append((_share_failed(st, msg), None))
                    else:
                        st.reports.append(read_message(msg))
                        st.next_game += 1
            # Reports come one game at a time (so a death is blamed on the
            # right game); a short pause lets several gather for one wake-up.
            # Never after a share is done: the worker then holds one share
            # less, and a pause before handing it the next (the pause, then
            # the time the next wake-up takes) can outlast what it has left
            # of its last share.
            if not freed:
                time.sleep(self.PAUSE)

    def _selector(self):
        """The selector that waits on the workers' pipes (made at first use)."""
        if self.selector is None:
            import selectors

            self.selector = selectors.DefaultSelector()
            for w in self.workers:
                self.selector.register(w.fd, selectors.EVENT_READ, w)
        return self.selector

    def _replace(self, dead: Worker, states: dict[int, _State], retry: list[int]) -> Worker:
        """A worker died: the game it was on is tried again once in a fresh
        worker; a second death gives that game an `error` verdict. A worker
        that had not taken its oldest share (STARTED) was on no game: its
        death is held against none (two workers killed at once, one idle,
        with the other's shares handed to it before its death was seen)."""
        dead.proc.join(timeout=5)
        how = _how_it_died(dead.proc.exitcode)
        dead.conn.close()
        if dead.tasks and dead.started:         # the game it was on
            i = dead.tasks[0]
            st = states[i]
            key = (i, st.next_game)
            self.deaths[key] = self.deaths.get(key, 0) + 1
            if self.deaths[key] >= 2:
                raw = _nth_game(st.share, st.next_game)
                if raw is not None:
                    rep = error_report(raw, "WORKER_DIED", f"the worker process verifying this game died twice "
                                                           f"({how}); the game was not verified")
                    st.reports.append((rep, None))
                    # Names from the input: no terminal controls, and of a bounded length.
                    import click

                    click.echo(f"mb-oracle: game {visible(rep.id)[:200]} ({visible(rep.file)[:500]}:{rep.line}) "
                               f"was not verified: the worker process verifying it died twice ({how})", err=True)
                st.next_game += 1
        for j in dead.tasks:
            import heapq

            heapq.heappush(retry, j)
        from .worker import Worker

        others = [w for w in self.workers if w is not dead]
        fresh = Worker(self.ctx, self.options, others, self.wanted)
        self.workers[self.workers.index(dead)] = fresh
        return fresh


def _share_failed(st: _State, msg: bytes) -> GameReport:
    """The `error` verdict of a share its worker could not read."""
    code, _, why = msg[1:].decode("utf-8", "replace").partition(" ")
    return share_error(st.share, code, why)


def _nth_game(share, n: int) -> RawGame | None:
    from . import shares as sh

    for k, raw in enumerate(sh.share_games(share)):
        if k == n:
            return raw
    return None
