"""What every mb-scenario/1 document has, whatever its game: the format
id, the scenario id's pattern, where the ruling comes from (`source`) and
its status. Each game's structs (oracle.games.<game>.scenarios.format)
build on these; the game of a document is found here (`of_game`), and
the JSON Schema of a document of any game is made here (`scenario_schema`)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Annotated, Literal

from msgspec import Meta, Struct

from .. import games
from ..schemas import json_schema

FORMAT = "mb-scenario/1"

SOURCE_KINDS = ("rulebook example", "rulebook", "card list", "FAQ", "team ruling")
STATUSES = ("approved", "draft")
ID_PATTERN = r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$"


class Source(Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """Where the ruling comes from, and a free-text reference."""

    kind: Literal[SOURCE_KINDS]  # type: ignore[valid-type]
    ref: Annotated[str, Meta(min_length=1)]


def of_game(game: str) -> ModuleType:
    """The scenario vocabulary of a game (its registry entry's SCENARIOS)."""
    return importlib.import_module(games.entry(game).SCENARIOS)


def scenario_schema() -> dict:
    """The JSON Schema of one scenario document (`mb-oracle schema scenario`):
    a document of the game its `game` names, of the default game (Mindbug)
    without one. Each game's document is its `Scenario` struct."""
    base = json_schema(
        of_game(games.DEFAULT).Scenario, id="https://mb-oracle.invalid/schema/mb-scenario-1.json",
        title=f"{FORMAT} scenario",
        description=("One document of a scenario file (YAML; a file may hold several documents separated "
                     "by ---): a Mindbug scenario, or with `game: mind-up` a Mind Up! one; "
                     "see spec/scenario-format.md."))
    defs = dict(base.pop("$defs", {}))
    choice = {"$ref": base.pop("$ref")}
    for game in reversed([g for g in games.GAMES if g != games.DEFAULT]):
        schema = json_schema(of_game(game).Scenario, id=game, title="", description="")
        for name, part in schema.get("$defs", {}).items():
            if defs.setdefault(name, part) != part:
                raise AssertionError(f"two scenario structs named {name} differ")
        choice = {"if": {"type": "object", "properties": {"game": {"const": game}}, "required": ["game"]},
                  "then": {"$ref": schema["$ref"]}, "else": choice}
    return {**base, **choice, "$defs": defs}
