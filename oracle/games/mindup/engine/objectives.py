"""The bonus objectives variant (rulebook: Règle optionnelle, objectifs
bonus): which objectives may be shown, and whether a player meets each.

Only the cards on a player's Score cards count. Objectives 5, 6 and 10
compare players' counts; the readings say what a tie at zero gives
(mu.objectives.all-zero) and when the other players' counts are taken
(mu.objectives.relative-timing, applied by the scoring step).
"""

from __future__ import annotations

from ..cards import COLOURS, colour, is_objective, letter
from ..readings import LETTERS_LATER, NO_GREEN, ZERO
from .state import RuleError, State


def counts(columns: list[list[int]]) -> dict[str, int]:
    """Cards per colour on one player's Score cards."""
    out = dict.fromkeys(COLOURS, 0)
    for col in columns:
        for c in col:
            out[colour(c)] += 1
    return out


def _column_value(columns, order, name: str) -> int | None:
    for i, col in enumerate(columns):
        if col and colour(col[0]) == name:
            return order[i]
    return None


def meets(objective: int, columns, order, everyone: list[dict[str, int]], mine: dict[str, int],
          readings: dict) -> bool:
    """mu.objectives.check: whether a player whose Score cards are `columns`
    (counts `mine`) meets `objective`; `everyone`: every player's counts, the
    player's own included, as the comparison takes them."""
    if objective == 1:
        return mine["orange"] in (1, 3)
    if objective == 2:
        return _column_value(columns, order, "orange") in (1, 2)
    if objective == 3:
        return mine["blue"] in (2, 4)
    if objective == 4:
        return mine["blue"] > 0 and mine["blue"] >= max(mine.values())
    if objective in (5, 6, 10):
        name = "purple" if objective == 10 else "pink"
        all_counts = [e[name] for e in everyone]
        if max(all_counts) == 0 and readings[ZERO] == "nobody":
            return False
        return mine[name] == (min(all_counts) if objective == 5 else max(all_counts))
    if objective == 7:
        used = [col for col in columns if col]
        if not any(colour(col[0]) == "green" for col in used):
            return readings[NO_GREEN] == "bonus"
        return colour(used[-1][0]) == "green"
    if objective == 8:
        return _column_value(columns, order, "green") in (4, 5)
    if objective == 9:
        return mine["purple"] >= mine["orange"]
    if objective == 11:
        return all(mine.values())
    if objective == 12:
        return sum(1 for v in mine.values() if v) == 3
    if objective == 13:
        return 3 in mine.values()
    if objective == 14:
        return 4 in mine.values()
    raise ValueError(objective)


def check_shown(s: State, shown, readings: dict) -> tuple[int, ...]:
    """mu.objectives.count, mu.objectives.renew, mu.objectives.letters-later:
    the objectives shown for the round about to start (None: the log leaves
    them to the rules, which they are only when they stay all game)."""
    k = s.objectives_count
    first = s.round == 0
    if k == 0:
        if shown:
            raise RuleError("mu.objectives.count", "the game line plays no objectives, yet the round shows "
                            f"{list(shown)}", code="ILLEGAL_RANDOM")
        return ()
    if shown is None:
        if not first and k >= 3:
            return s.objectives
        raise RuleError("mu.objectives.count" if first else "mu.objectives.renew",
                        f"round {s.round + 1} reveals {k} new objective(s), and which is not given",
                        code="MISSING_INPUT")
    shown = tuple(shown)
    for o in shown:
        if not is_objective(o):
            raise RuleError("mu.objectives.cards", f"{o!r} is not an objective (1 to 14)", code="ILLEGAL_RANDOM")
    if len(shown) != k:
        raise RuleError("mu.objectives.count", f"{len(shown)} objective(s) shown; the game plays {k} at a time",
                        code="ILLEGAL_RANDOM")
    letters = [letter(o) for o in shown]
    if len(set(letters)) != len(letters):
        raise RuleError("mu.objectives.count", "objectives shown together must have different letters: "
                        + ", ".join(f"{o} ({letter(o)})" for o in shown), code="ILLEGAL_RANDOM")
    if not first and k >= 3:
        if sorted(shown) != sorted(s.objectives):
            raise RuleError("mu.objectives.renew", f"with {k} objectives the same stay all game: "
                            f"{list(s.objectives)}, not {list(shown)}", code="ILLEGAL_RANDOM")
        return s.objectives
    if not first:
        again = [o for o in shown if o in s.shown]
        if again:
            raise RuleError("mu.objectives.renew", f"objective(s) {again} were shown and discarded in an "
                            "earlier round", code="ILLEGAL_RANDOM")
        if readings[LETTERS_LATER] == "letter-retired":
            used = {letter(o) for o in s.shown}
            back = [o for o in shown if letter(o) in used]
            if back:
                raise RuleError(LETTERS_LATER, "letter(s) " + ", ".join(sorted({letter(o) for o in back}))
                                + " were shown in an earlier round and are retired", code="ILLEGAL_RANDOM")
    return shown
