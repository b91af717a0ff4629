"""A game's steps on the HTML report, as each game's board gives them
(oracle.games: BOARD): {"game": its name, "cards": {id: name}, "steps":
[...], "cut": bool}, and "at" for a scenario's. A step is {"line": the log
line (or scenario line) that made it, "decision": its text or None,
"forced": bool, "events": [[kind, clauses, text], ...], "board": the
board after it, as the game's script on the page draws it}.
"""

from __future__ import annotations

# A game longer than this many steps keeps its first ones and says so.
MAX_STEPS = 2000


def finding_step(steps: list[dict], line: int) -> int:
    """The step a finding at `line` is shown at: the last one made at or
    before that line (the deal, if none)."""
    at = 0
    for i, s in enumerate(steps):
        if s["line"] <= line:
            at = i
        else:
            break
    return at
