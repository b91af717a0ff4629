"""Verifying one recorded game against the rules: each game by its own
game's verifier (oracle.games: the entry's VERIFY), which drives that
game's reference engine with the log's inputs and compares its claims with
what the engine says. Every verifier gives the same kind of report
(oracle.replay.findings); a game the registry does not know is malformed.
"""

from __future__ import annotations

from .findings import MALFORMED, Finding, GameReport, Summary, report_schema  # noqa: F401
from ..games import DEFAULT, GAMES, attribute, game_of
from .reader import RawGame

_verifiers: dict = {}       # game name -> its verify_game, found on first use


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False,
                readings: dict | None = None, basis: bool = True, *, strict: bool = False,
                check_invariants: bool = False) -> GameReport:
    """The report of one game, by the verifier of the game its game line
    names (none: the default game's); with `basis`, each finding of a game
    that violates says whether it stands only under a team reading. With
    `check_invariants`, the engine's own invariants are checked after every
    decision (INVARIANT_BROKEN: the game is not verified)."""
    game = game_of(raw.lines[0][1]) if raw.kind == "game" and raw.lines else DEFAULT
    verify = _verifiers.get(game) if isinstance(game, str) else None
    if verify is None:
        if not isinstance(game, str) or game not in GAMES:
            return unknown_game(raw, game)
        verify = _verifiers[game] = attribute(game, "VERIFY")
    return verify(raw, edition, keep_going, readings, basis, strict=strict, check_invariants=check_invariants)


def unknown_game(raw: RawGame, game) -> GameReport:
    """The report of a game whose game line names a game the registry does not know: malformed."""
    rep = GameReport(file=raw.file, line=raw.first_line, id=_game_id(raw), verdict="malformed")
    rep.findings.append(Finding("BAD_LINE", [], raw.first_line,
                                f"field game: unknown game {game!r}; known: {', '.join(GAMES)}", log=game))
    return rep


def _game_id(raw: RawGame) -> str:
    from .lines import loose_head
    return loose_head(raw.lines[0][1]).id
