"""The shipped sets written in the card-definition format (spec/sets/):
their facts match the card database, and every ability written there with
the format's verbs plays exactly as the Python ability does."""

import msgspec
import msgspec.structs
import pytest
from conftest import ROOT

from oracle.games.mindbug.cards import CARDS, SETS, lookup
from oracle.games.mindbug.cards.abilities import TRIGGERED
from oracle.games.mindbug.cards.compiled import register
from oracle.games.mindbug.cards.declared import Declared, check_shipped, load
from oracle.games.mindbug.engine import position

# The deck cards and the set-aside double-sided cards of each shipped set.
DECKS = {"first-contact": (48, 0), "new-servants": (24, 0), "beyond-eternity": (48, 0),
         "beyond-evolution": (44, 4), "promo-2022": (10, 0), "promo-2023": (12, 2), "promo-later": (8, 0),
         "promo-unconfirmed": (1, 0)}
FILES = {s: ROOT / "spec" / "sets" / f"{s}.cards.yaml" for s in DECKS}


def shipped(set_id) -> Declared:
    return load(FILES[set_id], shipped=True)


@pytest.mark.parametrize("set_id", list(FILES))
def test_the_card_file_of_a_shipped_set_matches_the_database(set_id):
    decl = shipped(set_id)
    assert check_shipped(decl) == []
    deck, aside = DECKS[set_id]
    assert sum(c.copies for c in decl.cards if not c.face) == deck
    assert sum(c.stage == 2 for c in decl.cards) == aside


def test_every_set_of_the_database_has_its_card_file():
    from oracle.games.mindbug.cards import SHIPPED_SETS
    assert tuple(FILES) == SHIPPED_SETS


def _twins() -> dict[str, str]:
    """Register a copy of every verb-written shipped ability under '<name> Twin'
    (for the test under way: the card database is put back after each test)."""
    if "shipped-twins" in SETS:
        return _TWINS
    cards = []
    for set_id in FILES:
        for c in shipped(set_id).cards:
            if c.abilities:
                cards.append(msgspec.structs.replace(c, name=f"{c.name} Twin", names={}, stage=None, line=None))
    decl = Declared("twins", msgspec.convert({"id": "shipped-twins", "name": "Twins"},
                                             type(shipped("first-contact").set)), tuple(cards))
    register(decl)
    _TWINS.update({c.name[:-5]: c.name for c in cards})
    return _TWINS


_TWINS: dict[str, str] = {}
BOARD = ["Spider Owl", "Gorillion", "Plated Scorpion", "Rhino Turtle", "Axolotl Healer"]


def _trace(name: str, trigger):
    """Play the card in a fixed position, first legal answer each time; the
    events with the card named by its design."""
    names = [name] + BOARD + ["Luchataur", "Bee Bear", "Brain Fly"]
    me, board = 1, list(range(2, 2 + len(BOARD)))
    luch, bee, fly = len(names) - 2, len(names) - 1, len(names)
    stages = ()
    face = lookup(name)
    if face.stage and face.stage >= 2 and face.line:
        # A face of a line shows only on its stage I creature (later.evolve.faces-in-play):
        # card 1 is that creature, evolved, and the line's double-sided card, aside, comes last.
        double = next(d.name for d in CARDS.values() if d.stage == 2 and d.line == face.line)
        names = [face.line] + names[1:] + [double]
        stages = ((me, face.stage),)
    defs = {i: lookup(n) for i, n in enumerate(names, 1)}
    if trigger == "action":
        zones = {("play", 0): [me, luch], ("play", 1): board, ("hand", 0): [bee], ("hand", 1): [fly]}
        active, first = 0, ("activate", me)
    elif trigger == "play" or trigger is None:
        zones = {("hand", 0): [me, bee], ("play", 1): board, ("hand", 1): [fly]}
        active, first = 0, ("play", me)
    elif trigger == "attack":
        zones = {("play", 0): [me, luch], ("play", 1): board, ("hand", 0): [bee], ("hand", 1): [fly]}
        active, first = 0, ("attack", me)
    else:   # defeated: Gorillion attacks, the card blocks
        zones = {("play", 0): [me, luch], ("play", 1): board, ("hand", 0): [bee], ("hand", 1): [fly]}
        active, first = 1, ("attack", 3)
    g = position("en-revised", zones, defs, active=active, stages=stages)
    out = []
    decisions = [first] + ([("block", me)] if trigger == "defeated" else [])
    for step in range(10):
        if g.pending is None:
            break
        d = decisions[step] if step < len(decisions) and decisions[step] in g.pending.options \
            else g.pending.options[0]
        for e in g.apply_unchecked(*d):
            if e.kind != "unevolve":    # an evolved creature leaving play: its line's, not its ability's
                out.append((e.kind, e.player, e.amount, e.card, e.cards))
    power = g.stats()[0]
    return out, sorted(power.items()), [list(z) for z in g.state.play]


def _verb_written():
    """Every verb-written ability of a shipped file (each has its Python one)."""
    for s in FILES:
        for c in shipped(s).cards:
            if c.abilities:
                yield pytest.param(c.name, id=c.name)


@pytest.mark.parametrize("name", list(_verb_written()))
def test_a_verb_written_shipped_ability_plays_as_its_python_one(name):
    twin = _twins()[name]
    trigger = lookup(name).trigger
    assert lookup(twin).trigger == trigger
    original = _trace(name, trigger)
    written = _trace(twin, trigger)
    assert written == original
