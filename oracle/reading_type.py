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


class UnknownReading(ValueError):
    """An unknown reading clause or choice; the message suggests the nearest names."""


def suggest(word: str, names) -> str:
    """The end of a message on a wrong name: the nearest of `names`, or them all."""
    import difflib              # only for a name that is wrong

    near = difflib.get_close_matches(word, list(names), n=2, cutoff=0.5)
    return f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else f"; known: {', '.join(names)}"


def check_choices(readings: dict, by_clause: dict, settled: dict, what: str) -> dict[str, str]:
    """Validate a clause -> choice mapping against a game's readings
    (`by_clause`; `settled`: choices that change nothing any more, left
    out); raise UnknownReading naming the bad entry, `what` saying what a
    clause of them is."""
    out = {}
    for clause, choice in readings.items():
        if settled.get(clause) == choice:
            continue
        r = by_clause.get(clause)
        if r is None:
            raise UnknownReading(f"unknown {what} {clause!r}" + suggest(str(clause), by_clause))
        if choice not in r.names():
            raise UnknownReading(f"reading {clause}: unknown choice {choice!r}" + suggest(str(choice), r.names()))
        out[clause] = choice
    return out


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
