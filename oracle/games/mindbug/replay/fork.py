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


def _game(g, prof):
    """A copy of the game `g` under the profile `prof` (None: the same)."""
    if g is None:
        return None
    out = g.copy()
    if prof is not None:
        out.profile = prof
    return out


def _copied(state: dict, prof) -> dict:
    """A verifier's attributes, those that change as it reads copied (its
    games under `prof`)."""
    out = dict(state)
    out["g"] = _game(state["g"], prof)
    out["_since_claim"] = list(state["_since_claim"])   # behind the property since_claim
    out["_claim_faces"] = dict(state["_claim_faces"])
    out["order_queue"] = list(state["order_queue"])
    out["under_deck"] = list(state["under_deck"])
    old = state["lenient"]
    lenient = Leniency()
    lenient.skipped, lenient.declined, lenient.forced = list(old.skipped), old.declined, list(old.forced)
    out["lenient"] = lenient
    if state["_rules_alt"] is not None:
        rules, line = state["_rules_alt"]
        out["_rules_alt"] = (_game(rules, prof), line)
    if state["_resync_claim"] is not None:
        claim, line, rules = state["_resync_claim"]
        out["_resync_claim"] = (claim, line, _game(rules, prof))
    out["report"] = out["stretch"] = out["flagged"] = out["_seen"] = None
    out["on_claim"] = None
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
