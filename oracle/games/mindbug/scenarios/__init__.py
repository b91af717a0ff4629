"""Mindbug's scenarios: its vocabulary of mb-scenario/1 (the structs of a
document, `format`; reading and checking one, `loader`, `structure`,
`checking`, `cards`; running one, `runner`, `expectation`, `wording`), as
the shared scenario runner (oracle.scenarios) reaches it through the game
registry (the entry's SCENARIOS; oracle/games/__init__.py says what it
gives). Mindbug's decks have card sets: `--sets` and `--cards` of
`mb-oracle scenarios` are read here."""

from __future__ import annotations

from ..cards import UnknownSet, check_sets
from ..cards.compiled import load_file as load_card_file
from ..cards.declared import CardFileError
from ..editions import EDITIONS
from .format import Scenario
from .loader import load_document
from .runner import run

__all__ = ["EDITIONS", "CardFileError", "Scenario", "UnknownSet", "check_sets", "load_card_file", "load_document",
           "run"]
