"""Verifying one recorded game against the rules: each game by its own
game's verifier (oracle.games), which drives that game's reference engine
with the log's inputs and compares its claims with what the engine says.
Every verifier gives the same kind of report (oracle.replay.findings).
"""

from __future__ import annotations

from .findings import MALFORMED, Finding, GameReport, Summary, report_schema  # noqa: F401
from ..games import DEFAULT, GAMES, attribute, game_of
from ..games.mindbug.replay.verify import verify_game as mindbug_game
from .reader import RawGame


def verify_game(raw: RawGame, edition: str | None = None, keep_going: bool = False,
                readings: dict | None = None, basis: bool = True, *, strict: bool = False,
                check_invariants: bool = False) -> GameReport:
    """The report of one game; with `basis`, each finding of a game that
    violates says whether it stands only under a team reading. With
    `check_invariants`, the engine's own invariants are checked after every
    decision (INVARIANT_BROKEN: the game is not verified). A game line
    that names another game (oracle.games) sends the game to that game's
    verifier, which gives the same kind of report."""
    if raw.kind == "game" and raw.lines:
        game = game_of(raw.lines[0][1])
        if game != DEFAULT:
            return other_game(raw, game, keep_going, readings, basis, strict)
    return mindbug_game(raw, edition, keep_going, readings, basis, strict=strict, check_invariants=check_invariants)


def other_game(raw: RawGame, game, keep_going: bool, readings: dict | None, basis: bool, strict: bool
               ) -> GameReport:
    """A game of another game than Mindbug, verified by its own verifier; a
    game the registry does not know is malformed."""
    if not isinstance(game, str) or game not in GAMES:
        rep = GameReport(file=raw.file, line=raw.first_line, id=_game_id(raw), verdict="malformed")
        rep.findings.append(Finding("BAD_LINE", [], raw.first_line,
                                    f"field game: unknown game {game!r}; known: {', '.join(GAMES)}", log=game))
        return rep
    return attribute(game, "VERIFY")(raw, None, keep_going, readings, basis, strict=strict)


def _game_id(raw: RawGame) -> str:
    from .lines import loose_head
    return loose_head(raw.lines[0][1]).id
