"""Replays under another reading that begin part way into the game
(`verify --keep-going`, for basis.classify).

A replay under another choice of a reading reads the game exactly as the
team's run did up to the line where that run first asked for the reading
(readings.consulted). So the team's run keeps the verifier as it stood at
the start of its latest state claim line (`Checkpoints`), and the readings
it asks for there note it; a replay under an alternative of such a reading
starts from that copy (`resume`), its game under the other reading, rather
than from the game line. Only the lines it reads itself count for
`basis._accepts`: those from the claim on, which hold every line of the
findings it may accept.
"""

from __future__ import annotations

from ....replay.findings import Finding, GameReport
from ..engine import Game
from ..readings import with_readings
from .decisions import Leniency
from .verifier import LeanVerifier


class Snapshot:
    """The team's verifier at the start of line `line`, and how many
    findings it had then."""

    __slots__ = ("line", "found", "state")

    def __init__(self, line: int, found: int, state: dict):
        self.line = line
        self.found = found
        self.state = state


class Checkpoints:
    """Kept by the team's run (its `on_claim`): a snapshot at the start of
    each state claim line, the latest kept. `where` is what
    readings.consulted notes of a reading first asked: (the line being
    read, the latest snapshot)."""

    __slots__ = ("v", "latest")

    def __init__(self, v):
        self.v = v
        self.latest: Snapshot | None = None
        v.on_claim = self.take

    def take(self, lineno: int) -> None:
        v = self.v
        self.latest = None if v.g is None else Snapshot(lineno, len(v.report.findings), _copied(v.__dict__, None))

    def where(self) -> tuple:
        return self.v.reading, self.latest


# Made anew for each replay by `resume`, never copied.
_FRESH = frozenset(("report", "stretch", "flagged", "_seen", "on_claim"))


def _game(g: Game, prof) -> Game:
    """A copy of the game `g` under the profile `prof` (None: the same)."""
    out = g.copy()
    if prof is not None:
        out.profile = prof
    return out


def _games_in(t: tuple, prof) -> tuple:
    for v in t:
        if type(v) is Game:
            return tuple([_game(w, prof) if type(w) is Game else w for w in t])
    return t


# How a replay copies each kind of value it starts from (found by the
# value's type, one look-up each): a game under the other profile, a
# container one level down (the games in a tuple copied too); a value of
# any other kind cannot change and is shared.
_COPY_BY_KIND = {
    Game: _game,
    list: lambda v, prof: list(v),
    dict: lambda v, prof: dict(v),
    set: lambda v, prof: set(v),
    tuple: _games_in,
    Leniency: lambda v, prof: v.copy(),
}


def _copied(state: dict, prof) -> dict:
    """A verifier's attributes, each copied by its kind (its games under
    `prof`), so that no list, map, set or game is shared with the run it
    comes from; those `resume` makes anew left None."""
    out = {}
    kinds = _COPY_BY_KIND
    for k, v in state.items():
        if k in _FRESH:
            out[k] = None
        else:
            how = kinds.get(type(v))
            out[k] = v if how is None else how(v, prof)
    return out


def resume(raw, snap: Snapshot, team, readings: dict, until: int | None) -> LeanVerifier:
    """The replay under `readings` from the snapshot `snap` of `team`'s run
    to its end (or past `until`, as a LeanVerifier stops), once run."""
    prof = with_readings(team.report.edition, readings)
    alt = LeanVerifier.__new__(LeanVerifier)
    alt.__dict__.update(_copied(snap.state, prof))
    alt.readings_override = alt.readings = dict(readings)
    alt.until = until
    alt.report = GameReport(file=raw.file, line=raw.first_line, id=team.report.id)
    # The findings before the snapshot are the team's: the replay made them too.
    alt.report.findings = [Finding(f.code, [], f.line, "") for f in team.report.findings[:snap.found]]
    alt.stretch, alt.flagged, alt._seen = {}, set(), {}
    start = next(i for i, (n, _) in enumerate(raw.lines) if n == snap.line)
    alt._read(iter(raw.lines[start:]), prof, snap.line)
    return alt
