"""One team reading: a question no edition settles, and its answers."""

from __future__ import annotations

from msgspec import Struct


class Reading(Struct, frozen=True):
    """One question no edition settles, and the answers the engine can take."""

    clause: str
    attr: str                            # the Profile attribute holding the choice ("": read with readings.choice)
    team: str                            # the team's reading, the default
    choices: tuple[tuple[str, str], ...]  # (choice, one-line description); the team's first
    note: str = ""

    @property
    def alternatives(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.choices if c != self.team)

    def names(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.choices)

    def to_json(self) -> dict:
        return {"clause": self.clause, "name": self.attr or self.clause, "team": self.team,
                "choices": [{"choice": c, "description": d} for c, d in self.choices],
                "note": self.note}


def readings_text(readings) -> list[str]:
    """The lines `mb-oracle editions` writes of `readings`: each clause, its
    choices (the team's marked), and its note."""
    out = []
    for r in readings:
        out.append(f"  {r.clause}")
        for choice, what in r.choices:
            mark = "team" if choice == r.team else "    "
            out.append(f"    {mark} {choice:<20} {what}")
        if r.note:
            out.append(f"         ({r.note})")
    return out
