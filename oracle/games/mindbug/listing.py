"""What `mb-oracle editions` lists of Mindbug: the four editions as rules
profiles with every switch where they differ, then the team readings."""

from __future__ import annotations

from ...reading_type import readings_text
from .editions import PROFILES
from .readings import READINGS


def editions_listing() -> tuple[dict, list[str]]:
    """(the JSON document, the lines of the human listing)."""
    doc = {"editions": [p.to_json() for p in PROFILES.values()], "readings": [r.to_json() for r in READINGS]}
    lines = []
    for p in PROFILES.values():
        lines.append(f"{p.edition}: {p.title} ({p.rulebook})")
        for s in p.switches:
            how = {"states": "states", "implied": "implied", "silent": "silent, reading"}[s.how]
            lines.append(f"  {s.name:<24} {str(s.value):<11} {how:<16} [{s.clause}] {s.note}")
    lines.append("team readings (no edition settles them; verify --reading CLAUSE=CHOICE, game line `readings`):")
    return doc, lines + readings_text(READINGS)
