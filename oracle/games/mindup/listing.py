"""What `mb-oracle editions --game mind-up` lists: its rulebook and the
team readings of its silences."""

from __future__ import annotations

from ...reading_type import readings_text
from . import EDITION_TITLES, EDITIONS, NAME, RULEBOOKS, TITLE, all_readings


def editions_listing() -> tuple[dict, list[str]]:
    """(the JSON document, the lines of the human listing)."""
    readings = all_readings()
    doc = {"game": NAME, "editions": [{"edition": x, "title": EDITION_TITLES[x], "rulebook": RULEBOOKS[x]}
                                      for x in EDITIONS],
           "readings": [r.to_json() for r in readings]}
    lines = [f"{x}: {TITLE}, {EDITION_TITLES[x]} ({RULEBOOKS[x]})" for x in EDITIONS]
    lines.append("team readings (the rulebook is silent; verify --reading CLAUSE=CHOICE, game line `readings`):")
    return doc, lines + readings_text(readings)
