"""Every game gives the core the same interface (oracle.games.interface),
and the core reads no part the interface does not name."""

from __future__ import annotations

import importlib
import re
import types

import pytest
from conftest import ROOT

from oracle import games
from oracle.games import interface


@pytest.mark.parametrize("name", games.names())
def test_every_game_gives_every_part_of_the_interface(name):
    entry = games.entry(name)
    assert interface.missing(entry, default=name == games.DEFAULT) == []
    assert interface.unknown(entry) == []


@pytest.mark.parametrize("name", games.names())
def test_every_part_a_game_names_is_there(name):
    """Each "module:attribute" an entry names imports and holds the attribute;
    each module it names imports; each function it gives is callable."""
    entry = games.entry(name)
    for part in interface.PARTS:
        if not hasattr(entry, part.name):
            continue
        value = getattr(entry, part.name)
        if callable(value):
            continue
        if isinstance(value, str) and value.startswith("oracle."):
            if ":" in value:
                assert games.attribute(name, part.name) is not None, (name, part.name)
            else:
                assert isinstance(importlib.import_module(value), types.ModuleType), (name, part.name)
        else:
            assert value is not None, (name, part.name)
    assert entry.NAME == name
    assert games.FORMATS[entry.FORMAT] == name


def test_an_entry_without_a_part_or_with_an_unknown_one_is_seen():
    mindbug = games.entry(games.DEFAULT)
    fake = types.ModuleType("fake")
    fake.__dict__.update({k: v for k, v in vars(mindbug).items() if k != "BOARD"})
    fake.SOMETHING_NEW = "oracle.games.fake.part:thing"
    assert interface.missing(fake, default=False) == ["BOARD"]
    assert interface.unknown(fake) == ["SOMETHING_NEW"]
    # the default game's parts are asked of the default game only
    del fake.CARDS_FILE
    assert interface.missing(fake, default=False) == ["BOARD"]
    assert interface.missing(fake, default=True) == ["BOARD", "CARDS_FILE"]


_READ = re.compile(r'(?:attribute\([^()"]*,\s*|getattr\(\s*(?:games\.)?entry\([^()]*\),\s*|hasattr\(\s*(?:games\.)?'
                   r'entry\([^()]*\),\s*)"([A-Z][A-Z_]+)"')


def test_the_core_reads_only_parts_the_interface_names():
    read = {}
    for path in (ROOT / "oracle").rglob("*.py"):
        if "games" in path.relative_to(ROOT / "oracle").parts[:1]:
            continue
        for part in _READ.findall(path.read_text(encoding="utf-8")):
            read.setdefault(part, path.name)
    assert len(read) > 20          # the pattern finds the reads
    assert {p: f for p, f in read.items() if p not in interface.BY_NAME} == {}
