"""Verifying on a Dask cluster (`mb-oracle verify --cluster ADDRESS`).

Each share of the input (a byte range of a file, a whole file or URL, a
block of standard input) is one Dask task that returns the reports of its
games in one buffer, each with its report lines rendered as a worker of
`-j` renders them (oracle.replay.worker); the reports are passed on in
input order, as with `-j`. The
workers must be able to read the paths given (a shared file system, or
fsspec URLs such as ``s3://bucket/games/*.jsonl.gz``) and have mb-oracle
installed.

A worker that dies is handled by the scheduler, which runs its task again
on another worker; a task whose workers keep dying (`KilledWorker`) is
split into one task per game, so that only a game that kills its worker
again gets an `error` verdict. `local:N` starts a cluster of N worker
processes on this machine that allows one retry per task.

Dask and distributed are optional (`pip install 'mb-oracle[cluster]'`).
"""

from __future__ import annotations

import ipaddress
import os
import select
import signal
import struct
import sys
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from . import shares as sh
from .jobs import ClusterUnavailable, Options, error_report, kill_hook, share_error, verify_one
from .limits import CONNECT_TIMEOUT
from .reader import RawGame
from .worker import read_message, report_message

AHEAD_PER_WORKER = 4
# The protocols an address may name: Dask's others need what --cluster does
# not take (tls:// its certificates, ucx:// the UCX libraries).
PROTOCOLS = ("tcp",)
_LENGTH = struct.Struct("!i")     # before each message of a task's buffer


class Address(str):
    """A --cluster address, with the seconds its scheduler has to answer."""

    timeout: float = CONNECT_TIMEOUT

    @classmethod
    def of(cls, address: str, timeout: float = CONNECT_TIMEOUT) -> "Address":
        a = cls(address)
        a.timeout = timeout
        return a


def verify_share(share, options: Options, wanted: tuple[str, ...] = ()) -> bytes:
    """A cluster task: the messages of one share's games, as a worker of
    `-j` sends them (oracle.replay.worker: each report with the lines named
    in `wanted` rendered), framed one after the other in one buffer. A share
    that cannot be read to its end (as with -j) ends with an `error` verdict
    saying why, never with the task's failure."""
    hook = kill_hook()
    out = bytearray()
    try:
        for raw in sh.share_games(share):
            if hook is not None:
                hook(raw)
            _frame(out, report_message(verify_one(raw, options), raw, wanted))
    except OSError as e:
        _frame(out, _share_message(share_error(share, "UNREADABLE", e.strerror or str(e)), wanted))
    except Exception as e:  # noqa: BLE001 - the run goes on, the failure is a verdict
        _frame(out, _share_message(share_error(share, "INTERNAL_ERROR", str(e) or type(e).__name__), wanted))
    return bytes(out)


def verify_raw(raw: RawGame, options: Options, wanted: tuple[str, ...] = ()) -> bytes:
    """A cluster task for a single game (after its share killed workers)."""
    hook = kill_hook()
    if hook is not None:
        hook(raw)
    out = bytearray()
    _frame(out, report_message(verify_one(raw, options), raw, wanted))
    return bytes(out)


def _frame(out: bytearray, msg: bytes) -> None:
    out += _LENGTH.pack(len(msg))
    out += msg


def _share_message(rep, wanted: tuple[str, ...]) -> bytes:
    """The message of a share's `error` verdict."""
    return report_message(rep, RawGame(rep.file, [(rep.line, b"")], kind="unreadable"), wanted)


def _reports(data: bytes) -> Iterator:
    """(report, rendered lines or None) of each message of a task's buffer."""
    view = memoryview(data)
    pos, end = 0, len(data)
    while pos < end:
        (n,) = _LENGTH.unpack_from(view, pos)
        yield read_message(view[pos + 4:pos + 4 + n])
        pos += 4 + n


def connect(address: str):
    """(a client of the cluster at `address`, the local cluster started for `local:N` or None)."""
    try:
        import dask  # noqa: F401
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable("--cluster needs Dask; install it with: pip install 'mb-oracle[cluster]'") from None
    import logging

    if address.startswith("local:"):
        count = address[len("local:"):]
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise ClusterUnavailable(f"--cluster {address}: local:N needs a number of workers from 1 to 256")
        with _quiet_children():
            cluster = LocalCluster(n_workers=int(count), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL,
                                   scheduler_kwargs={"allowed_failures": 1})
        return Client(cluster), cluster
    protocol, sep, _ = address.rpartition("://")
    if sep and protocol not in PROTOCOLS:
        raise ClusterUnavailable(f"--cluster {address}: the {protocol}:// protocol is not supported; give "
                                 "tcp://HOST:PORT, HOST:PORT or local:N")
    timeout = getattr(address, "timeout", CONNECT_TIMEOUT)
    _probe(str(address), timeout)
    try:
        return Client(str(address), timeout=f"{timeout}s"), None
    except Exception as e:  # noqa: BLE001 - whatever the other end sent, one line
        raise ClusterUnavailable(_unreachable(address, e)) from None


def direct_gather(scheduler: str, workers: Iterable[str]) -> bool | None:
    """Whether this process fetches each task's reports from the worker that
    holds them (True), rather than through the scheduler, which then
    receives and sends on every report of the run (None: Dask's default).
    Dask's own setting (`distributed.client.direct-to-workers`, or the
    environment's DASK_DISTRIBUTED__CLIENT__DIRECT_TO_WORKERS) decides where
    it is set. Else True only when the scheduler and every worker it knows
    are on loopback addresses: then they are on this machine, and this
    process reaches them. A worker elsewhere may be out of its reach (behind
    another network, or inside a container whose addresses the host does not
    route), where each fetch would first wait for a connection that never
    comes."""
    import dask

    configured = dask.config.get("distributed.client.direct-to-workers", None)
    if configured is not None:
        return bool(configured)
    hosts = [scheduler, *workers]
    return True if len(hosts) > 1 and all(_loopback(a) for a in hosts) else None


def _loopback(address: str) -> bool:
    """Whether a Dask address (tcp://HOST:PORT, HOST:PORT) names this machine's loopback."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        host = parse_host_port(parse_address(address)[1])[0]
    except ValueError:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _unreachable(address: str, e: BaseException) -> str:
    return f"cannot reach the Dask scheduler at {address}: {str(e).strip() or type(e).__name__}"


def _probe(address: str, timeout: float) -> None:
    """Connect to the scheduler and ask who it is, all within `timeout`
    seconds: a listener that accepts and stays silent, or that answers
    with anything but Dask's protocol (random bytes), is one line
    (ClusterUnavailable), not a wait of minutes or a traceback."""
    import asyncio

    from distributed.comm import connect

    async def ask():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            reply = await comm.read()
        finally:
            comm.abort()
        if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
            raise ValueError("the other end is not a Dask scheduler")

    try:
        asyncio.run(asyncio.wait_for(ask(), timeout))
    except (TimeoutError, asyncio.TimeoutError):
        raise ClusterUnavailable(f"no answer from the Dask scheduler at {address} within {timeout:g} s "
                                 "(--cluster-timeout)") from None
    except OSError as e:
        raise ClusterUnavailable(_unreachable(address, e)) from None
    except Exception as e:  # noqa: BLE001 - whatever the other end sent, one line
        raise ClusterUnavailable(f"{address} does not answer as a Dask scheduler "
                                 f"({type(e).__name__}: {str(e).strip()})") from None


@contextmanager
def _quiet_children():
    """While open, the processes started here (a local cluster's workers,
    multiprocessing's resource tracker, and whatever they start later) get
    /dev/null for standard error: the report and its one-line errors stay the
    only output, even when Ctrl-C ends them half-way."""
    from multiprocessing import resource_tracker

    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        resource_tracker.ensure_running()
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _descendants(root: int) -> list[int]:
    """The processes below `root`, the deepest first (from /proc; empty where
    there is none)."""
    parent: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
                parent[int(entry)] = int(stat[stat.rindex(b")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    depth = {root: 0}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parent.items():
            if pid not in depth and ppid in depth:
                depth[pid] = depth[ppid] + 1
                changed = True
    return sorted((pid for pid in depth if pid != root), key=lambda pid: -depth[pid])


def _stop_local(cluster) -> None:
    """On Ctrl-C: end every process the local cluster started (its workers
    and the processes they were still starting), all stopped first so that
    none reacts to another's end; then reap our children. multiprocessing's
    resource tracker is left to end by itself when we exit (its standard
    error is /dev/null: `_quiet_children`)."""
    from multiprocessing import resource_tracker

    tracker = getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)
    pids = [pid for pid in _descendants(os.getpid()) if pid != tracker]
    if not pids:   # no /proc: the workers we know of
        pids = [getattr(getattr(nanny, "process", None), "pid", None)
                for nanny in list(getattr(cluster, "workers", {}).values())]
    stopped: list = []
    for _ in range(8):    # again while a nanny (a thread of ours) was starting a worker meanwhile
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in filter(None, pids):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        stopped += pids
        pids = [pid for pid in _descendants(os.getpid()) if pid != tracker and pid not in stopped]
        if not pids:
            break
    for pid in filter(None, stopped):
        try:
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass   # not our child: its parent was killed too


def cluster_reports(planned: Callable[[int], Iterator], options: Options, address: str, on_interrupt: list,
                    on_hand=None, wanted: tuple[str, ...] = ()) -> Iterator:
    """(report, its rendered lines or None) of every game of the shares
    `planned(workers)` plans for the cluster's number of workers, in input
    order, verified on the cluster at `address`; the workers render the
    lines named in `wanted` (oracle.replay.worker)."""
    client, cluster = connect(address)
    if cluster is not None:
        on_interrupt.append(lambda: _stop_local(cluster))
    try:
        from distributed.scheduler import KilledWorker

        nthreads = client.nthreads()
        workers = max(1, sum(nthreads.values()))
        client.direct_to_workers = direct_gather(client.scheduler.address, nthreads)
        window: deque = deque()
        plan = iter(planned(workers))
        exhausted = False
        while True:
            while not exhausted and len(window) < workers * AHEAD_PER_WORKER:
                try:
                    share = next(plan)
                except StopIteration:
                    exhausted = True
                    break
                if share.__class__ is sh.Wait:
                    # A live input with nothing to read yet: pass on the
                    # shares under way meanwhile; with none, wait for it.
                    if window:
                        break
                    select.select([share.fd], [], [])
                    continue
                window.append((share, client.submit(verify_share, share, options, wanted, pure=False)))
            if not window:
                return
            share, future = window.popleft()
            if on_hand is not None:
                on_hand.hold(share)     # its bytes, if this process read them (see oracle.replay.onhand)
            try:
                yield from _reports(future.result())
            except KilledWorker:
                yield from _game_by_game(client, share, options, KilledWorker, wanted)
            finally:
                future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _game_by_game(client, share, options: Options, killed, wanted: tuple[str, ...] = ()) -> Iterator:
    """One game at a time, so that a worker's death can only be blamed on
    the game it was verifying (a dead worker's other tasks count as
    suspects too, in Dask's reckoning)."""
    for raw in sh.share_games(share):
        future = client.submit(verify_raw, raw, options, wanted, pure=False)
        try:
            yield from _reports(future.result())
        except killed:
            yield error_report(raw, "WORKER_DIED", "the workers verifying this game died each time they tried "
                                                   "(a Dask KilledWorker); the game was not verified"), None
        finally:
            future.release()
