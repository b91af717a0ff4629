"""One worker process of `verify -j N` (see `oracle.replay.parallel`), and
the messages it sends back to the parent over its pipe: STARTED when it
takes a share, one per game (its report), an empty one when the share is
done, a FAILED one when a share cannot be read."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import struct
from collections import deque

import msgspec

from . import report as lines
from . import shares as sh
from .jobs import Options, error_report, kill_hook, verify_one
from .outcome import plain_outcome
from .reader import RawGame
from .verify import GameReport

DONE = b""
# The worker took the share it was handed: from here on, its death may be
# the doing of the share's next game. A worker dead before it took a share
# (killed while idle, the share already on its pipe) never began one.
STARTED = b"+"
_FRAME = struct.Struct("!i")
FAILED = b"!"     # then the code of the error verdict, a space, what went wrong
PICKLED = b"P"    # then a pickled report (one MessagePack cannot carry)
RENDERED = b"R"   # then a report with its report lines, rendered here (`Rendered`)
# A report travels as MessagePack (a few hundred bytes; msgspec writes and
# reads it faster than pickle, and the parent gets the same GameReport back).
# MessagePack holds integers of 64 bits at most: a report quoting a bigger
# one from its log travels pickled, and comes back as the same report.
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(GameReport).decode

# The lines of the report a worker can render for the parent, by name: the
# human line with its colours and without them, and the JSON line.
RENDERINGS = ("styled", "plain", "json")


class Rendered(msgspec.Struct, array_like=True):
    """A game's report with its report lines as the parent writes them: the
    worker renders them, the parent only writes them (unless the parent
    changes the report, as a duplicate game id does)."""

    report: GameReport
    styled: "str | None" = None     # oracle.replay.report.human_game
    plain: "str | None" = None      # the same without its colours (click.unstyle)
    json: "bytes | None" = None     # oracle.replay.report.json_game, without the newline


_decode_rendered = msgspec.msgpack.Decoder(Rendered).decode


def render(rep: GameReport, wanted: tuple[str, ...]) -> Rendered:
    """The report lines named in `wanted` (RENDERINGS), rendered as the
    parent's reports render them; the game's outcome is set first, as the
    parent's tally sets it when no expectation applies. (Imported once, at
    the module's load: an import statement here, run a game at a time, cost
    a third of the rendering.)"""
    rep.outcome = plain_outcome(rep)
    out = Rendered(rep)
    if "styled" in wanted or "plain" in wanted:
        import click

        text = lines.human_game(rep)
        out.styled = text if "styled" in wanted else None
        out.plain = click.unstyle(text) if "plain" in wanted else None
    if "json" in wanted:
        out.json = lines.json_game(rep)
    return out
_READ = 1 << 16   # the parent reads a worker's pipe in blocks of this size


def report_message(rep: GameReport, raw: RawGame, wanted: tuple[str, ...] = ()) -> bytes:
    """A report as the worker sends it, with the report lines in `wanted`
    rendered; a report that cannot be sent at all becomes the game's `error`
    verdict, which can. A report whose lines cannot be rendered here (or
    carried) is sent alone: the parent renders it, and words any failure."""
    if wanted:
        try:
            return RENDERED + _encode(render(rep, wanted))
        except Exception:  # noqa: BLE001 - the report alone goes, as without rendering
            pass
    try:
        return _encode(rep)
    except (OverflowError, TypeError, ValueError, msgspec.EncodeError):
        pass
    try:
        return PICKLED + pickle.dumps(rep, pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # noqa: BLE001 - the game gets the failure, the run goes on
        return _encode(error_report(raw, "INTERNAL_ERROR", f"the worker could not send this game's report: "
                                                           f"{type(e).__name__}: {e}"))


def read_message(msg: bytes) -> tuple[GameReport, Rendered | None]:
    """The report a game's message carries, and its rendered lines if it has them."""
    head = msg[:1]
    if head == RENDERED:
        got = _decode_rendered(msg[1:])
        return got.report, got
    return (pickle.loads(msg[1:]) if head == PICKLED else _decode(msg)), None


def _failure(code: str, e: BaseException) -> bytes:
    """A FAILED message: the code of the share's error verdict, and why (see jobs.share_error)."""
    why = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return FAILED + code.encode() + b" " + why.encode("utf-8", "replace")


def _worker_main(conn, options: Options, inherited, wanted: tuple[str, ...] = ()) -> None:
    """A worker: takes (share, games to skip) from the parent, sends back one
    report per game, then an empty message when the share is done. Whatever
    fails in it is said to the parent: a game's failure as that game's
    verdict, a share that cannot be read as a FAILED message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # killed from outside: the parent verifies our games again
    for c in inherited:   # the parent's ends of the workers' pipes
        c.close()
    # What the worker inherited from the parent is never garbage here: the
    # collector leaves it alone, instead of walking (and so copying) the
    # parent's objects again and again as games are verified.
    gc.freeze()
    status = 0
    try:
        hook = kill_hook()
        while True:
            task = conn.recv()
            if task is None:
                break
            share, skip = task
            conn.send_bytes(STARTED)
            try:
                for k, raw in enumerate(sh.share_games(share)):
                    if k < skip:
                        continue
                    if hook is not None:
                        hook(raw)
                    conn.send_bytes(report_message(verify_one(raw, options), raw, wanted))
            except OSError as e:
                if isinstance(e, (BrokenPipeError, ConnectionResetError)):
                    raise                  # the parent is gone
                # The file changed or went away since it was planned.
                conn.send_bytes(_failure("UNREADABLE", e))
            except Exception as e:  # noqa: BLE001 - said to the parent, never a silent end
                conn.send_bytes(_failure("INTERNAL_ERROR", e))
            conn.send_bytes(DONE)
    except (EOFError, OSError):
        pass   # the parent is gone or closed our pipe
    except BaseException:  # noqa: BLE001 - an exit status the parent reports
        status = 1
    finally:
        # No interpreter shutdown: it would flush stdio buffers copied from the parent.
        os._exit(status)


class Worker:
    """A worker process, as the parent holds it: its pipe, what it sent so far, the shares in its hands."""

    def __init__(self, ctx, options: Options, others: list["Worker"], wanted: tuple[str, ...] = ()):
        parent, child = ctx.Pipe(duplex=True)
        # The worker closes its copies of every parent end, its own included,
        # so that it reads the end of its input when the parent is gone.
        self.proc = ctx.Process(target=_worker_main,
                                args=(child, options, [o.conn for o in others] + [parent], wanted), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.fd = parent.fileno()
        # The parent never blocks on a worker: a task is framed into `outbox`
        # and written as the pipe takes it (a share of standard input is
        # megabytes; a worker busy sending reports reads its next task only
        # when its share is done, so a blocking send could wait on a worker
        # that waits on the parent).
        os.set_blocking(self.fd, False)
        self.outbox = bytearray()
        self.inbox = bytearray()
        self.block = bytearray(_READ)   # read into, not allocated a read at a time
        self.tasks: deque[int] = deque()   # share indexes handed out, oldest first
        self.started = False                # whether it took the oldest of them (STARTED)

    def hand(self, task) -> None:
        """Queue a task for the worker, framed as Connection.send frames it
        (a 4-byte length, the pickled task), and write what the pipe takes."""
        from multiprocessing.reduction import ForkingPickler

        data = ForkingPickler.dumps(task)
        self.outbox += _FRAME.pack(len(data))
        self.outbox += data
        self.flush()

    def flush(self) -> bool:
        """Write as much of the outbox as the pipe takes now; whether some is
        left. A pipe to a dead worker (killed from outside) is no failure of
        the run: its death is seen on reading, and its shares handed out again."""
        while self.outbox:
            try:
                n = os.write(self.fd, self.outbox)
            except BlockingIOError:
                return True
            except OSError:
                self.outbox.clear()     # the worker is gone: its death is seen on reading
                return False
            del self.outbox[:n]
        return False

    def receive(self) -> list[bytes] | None:
        """The whole messages waiting on the pipe (read at once, then split
        as Connection.send_bytes frames them: a 4-byte length, the bytes);
        None when the worker is gone."""
        try:
            n = os.readv(self.fd, (self.block,))
        except BlockingIOError:
            return []
        except OSError:
            n = 0
        if not n:
            return None
        box = self.inbox
        box += memoryview(self.block)[:n]
        msgs, pos, end = [], 0, len(box)
        while end - pos >= 4:
            (n,) = _FRAME.unpack_from(box, pos)
            if end - pos - 4 < n:
                break
            msgs.append(bytes(box[pos + 4:pos + 4 + n]))
            pos += 4 + n
        del box[:pos]
        return msgs
