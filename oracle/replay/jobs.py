"""One game as a unit of work, wherever it runs: the options that matter to a
single game, its report (an `error` verdict when the verifier itself
fails), and the fault tests' hook (see `oracle.replay.parallel`)."""

from __future__ import annotations

import os

import msgspec

from .lines import loose_head
from .reader import RawGame
from .verify import Finding, GameReport, verify_game


class ClusterUnavailable(Exception):
    """--cluster cannot be used: Dask is missing or the scheduler cannot be reached."""


class Options(msgspec.Struct, frozen=True):
    """How to verify each game: the verify command's switches that matter
    to a single game."""

    edition: str | None = None
    keep_going: bool = False
    which_editions: bool = False
    readings: tuple[tuple[str, str], ...] = ()   # --reading choices (clause, choice), in order
    strict: bool = False
    check_invariants: bool = False                # the engine's own invariants after every decision


class _GameId(msgspec.Struct):
    id: str = ""


_game_id = msgspec.json.Decoder(_GameId)


def game_name(raw: RawGame) -> str:
    """The game's id as its game line gives it, else file:line."""
    if raw.kind == "game" and raw.lines:
        if getattr(raw.lines[0][1], "game_id", ""):   # a game line too long to read (limits.RefusedLine)
            return raw.lines[0][1].game_id
        try:
            gid = _game_id.decode(raw.lines[0][1]).id
            if gid:
                return gid
        except msgspec.ValidationError:
            pass
        except msgspec.DecodeError:
            gid = loose_head(raw.lines[0][1]).id   # not valid JSON: the id, if it reads as one
            if gid != "?":
                return gid
    return f"{raw.file}:{raw.first_line}"


def error_report(raw: RawGame, code: str, message: str) -> GameReport:
    line = raw.first_line
    return GameReport(file=raw.file, line=line, id=game_name(raw), verdict="error",
                      findings=[Finding(code, [], line, message)])


def share_error(share, code: str, why: str) -> GameReport:
    """The `error` verdict of a share (oracle.replay.shares) that could not
    be read to its end where it was handed out: the file changed or went
    away since it was planned (UNREADABLE), or the reading failed
    (INTERNAL_ERROR)."""
    name = getattr(share, "path", None) or getattr(share, "name", None) or "?"
    raw = RawGame(name, [(getattr(share, "line0", 0) + 1, b"")], kind="unreadable")
    what = "cannot read this part of the input any more" if code == "UNREADABLE" else "the worker failed"
    return error_report(raw, code, f"{what}: {why}")


def verify_one(raw: RawGame, opts: Options) -> GameReport:
    """The report of one game; a failure of the verifier itself becomes an
    `error` verdict for that game rather than the end of the run."""
    try:
        rep = verify_game(raw, opts.edition, opts.keep_going, dict(opts.readings), strict=opts.strict,
                          check_invariants=opts.check_invariants)
        if opts.which_editions and rep.verdict != "malformed":
            # Which editions and readings would this game conform to? Its
            # game's answer (the entry's CONSISTENCY): the same log under each
            # edition, and each choice of the readings in play.
            from ..games import DEFAULT, attribute

            game = rep.game if isinstance(rep.game, str) else DEFAULT
            rep.conforms_to, rep.consistent_with = attribute(game, "CONSISTENCY")(
                raw, dict(rep.readings or {}), rep)
        return rep
    except Exception as e:  # noqa: BLE001 - one game's failure must not end the run
        return error_report(raw, "INTERNAL_ERROR",
                            f"the verifier failed on this game: {type(e).__name__}: {e}")


def kill_hook():
    """The fault tests' hook (see the module's doc), or None."""
    target = os.environ.get("MB_ORACLE_TEST_KILL_GAME")
    if not target:
        return None
    once = os.environ.get("MB_ORACLE_TEST_KILL_ONCE")

    def hook(raw: RawGame) -> None:
        if game_name(raw) != target:
            return
        if once:
            try:
                os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return
        import signal

        os.kill(os.getpid(), signal.SIGKILL)

    return hook
