"""Mindbug's board on the HTML report (oracle.report), its registry entry
BOARD: a game's steps (`steps`: the log replayed through the rules, the
board after each decision), a failing scenario's (`scenario`), and what a
page carries once for them: the card designs and the keyword names. Its
part of the page's script, `board.js` (SCRIPT), draws the cards and the
board.
"""

from __future__ import annotations

from pathlib import Path

from ..cards import CARDS, KEYWORD_NAMES
from .scenario import scenario_steps
from .steps import game_steps, shown_game

SCRIPT = Path(__file__).with_name("board.js")


def card_names() -> list[str]:
    """The names of the cards, sorted: the page's card filter offers them."""
    return sorted(CARDS)


def page_data() -> dict:
    """What a page carries once for Mindbug's boards: each card design's
    power, keywords, text and trigger, and the keyword names by bit."""
    return {
        "designs": {c.name: {"power": c.power, "keywords": c.keywords, "text": c.text, "trigger": c.trigger}
                    for c in CARDS.values()},
        "keywords": {str(bit): name for bit, name in KEYWORD_NAMES.items()},
    }


__all__ = ["SCRIPT", "card_names", "game_steps", "page_data", "scenario_steps", "shown_game"]
