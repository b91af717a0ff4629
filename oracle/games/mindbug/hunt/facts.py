"""The First Contact cards a second time, as data, for the constraints.

The engine's abilities are functions (`oracle.games.mindbug.cards.abilities`); here each
ability is a small record saying what it does, written from the card list
(shared/cards/first-contact.md), so that the constraints can reason about
a situation without asking the engine. Printed power and keywords come
from the card database (or from a situation's design changes).

`Board` is what the constraints see of a game: who controls which creature,
which creatures are exhausted, whose turn it is. It works out power and
keywords from the constant abilities below, in this order: power changes,
the floor of power where the edition states one (cards.power-minimum),
keywords granted by power (Snail Thrower), keywords copied from enemy
creatures (Sharky).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import FRENZY, HUNTER, POISONOUS, SNEAKY, CardDef, slugify

# -- what abilities do -----------------------------------------------------------


@dataclass(frozen=True)
class Boost:
    """More power: for the creature itself or for the other allied creatures,
    always, during its controller's turn, or while it is the only allied
    creature (with extra keywords then)."""

    who: str        # "self" | "others"
    amount: int
    when: str       # "always" | "own-turn" | "alone"
    keywords: int = 0


@dataclass(frozen=True)
class Grant:
    """Other allied creatures with power at most `max_power` have `keywords`."""

    max_power: int
    keywords: int


@dataclass(frozen=True)
class Copy:
    """The creature has each of `keywords` while some enemy creature has it."""

    keywords: int


@dataclass(frozen=True)
class NoBlock:
    """Creatures with power at most `max_power` cannot block: when this
    creature attacks (`attackers="itself"`) or when any creature of its
    controller attacks (`attackers="allies"`)."""

    attackers: str
    max_power: int


@dataclass(frozen=True)
class StopPlayEffects:
    """The opponent's Play effects do not happen."""


@dataclass(frozen=True)
class Effect:
    """A triggered effect. `verb` is what it does; for the verbs that act on
    creatures (defeat, take-control), `whose` and the power bounds say which
    creatures, `count` how many (one, all, up to two), `condition` when."""

    trigger: str                 # "play" | "attack" | "defeated"
    verb: str                    # defeat | take-control | discard | lose-life | gain-life | life-to-one
                                 # | copy-life | steal | play-from-discard | discard-to-hand
    whose: str | None = None     # "enemy" | "any"
    min_power: int | None = None
    max_power: int | None = None
    count: str = "one"           # "one" | "all" | "up-to-two"
    condition: str | None = None  # "fewer-allies": only while its controller has fewer creatures

    @property
    def acts_on_creatures(self) -> bool:
        return self.verb in ("defeat", "take-control")


ABILITIES: dict[str, tuple] = {
    "Axolotl Healer": (Effect("play", "gain-life"),),
    "Compost Dragon": (Effect("play", "play-from-discard"),),
    "Explosive Toad": (Effect("defeated", "defeat", "any"),),
    "Ferret Bomber": (Effect("play", "discard"),),
    "Goblin Werewolf": (Boost("self", 6, "own-turn"),),
    "Grave Robber": (Effect("play", "play-from-discard"),),
    "Kangasaurus Rex": (Effect("play", "defeat", "enemy", max_power=4, count="all"),),
    "Killer Bee": (Effect("play", "lose-life"),),
    "Luchataur": (),
    "Plated Scorpion": (),
    "Rhino Turtle": (),
    "Shield Bugs": (Boost("others", 1, "always"),),
    "Snail Hydra": (Effect("attack", "defeat", "any", condition="fewer-allies"),),
    "Spider Owl": (),
    "Tiger Squirrel": (Effect("play", "defeat", "enemy", min_power=7),),
    "Tusked Extorter": (Effect("attack", "discard"),),
    "Bee Bear": (NoBlock("itself", 6),),
    "Brain Fly": (Effect("play", "take-control", "enemy", min_power=6),),
    "Chameleon Sniper": (Effect("attack", "lose-life"),),
    "Deathweaver": (StopPlayEffects(),),
    "Elephantopus": (NoBlock("allies", 4),),
    "Giraffodile": (Effect("play", "discard-to-hand"),),
    "Gorillion": (),
    "Harpy Mother": (Effect("defeated", "take-control", "enemy", max_power=5, count="up-to-two"),),
    "Lone Yeti": (Boost("self", 5, "alone", FRENZY),),
    "Mysterious Mermaid": (Effect("play", "copy-life"),),
    "Shark Dog": (Effect("attack", "defeat", "enemy", min_power=6),),
    "Sharky Crab-Dog-Mummypus": (Copy(HUNTER | SNEAKY | FRENZY | POISONOUS),),
    "Snail Thrower": (Grant(4, HUNTER | POISONOUS),),
    "Strange Barrel": (Effect("defeated", "steal"),),
    "Turbo Bug": (Effect("attack", "life-to-one"),),
    "Urchin Hurler": (Boost("others", 2, "own-turn"),),
}


def abilities(d: CardDef) -> tuple:
    return ABILITIES.get(d.name, ())


def effect(d: CardDef, trigger: str | None = None) -> Effect | None:
    for a in abilities(d):
        if isinstance(a, Effect) and (trigger is None or a.trigger == trigger):
            return a
    return None


def ref(clause: str, d: CardDef) -> str:
    """A clause as it applies through one card's ability: `clause@card-slug`."""
    return f"{clause}@{slugify(d.name)}"


# -- the board ------------------------------------------------------------------


class Board:
    """Creatures in play and what the rules make of them."""

    def __init__(self, defs: dict[int, CardDef], play, exhausted: Iterable[int], active: int, floor: int = 0,
                 attacks: dict | None = None):
        self.defs = defs
        self.play = (tuple(play[0]), tuple(play[1]))
        self.exhausted = frozenset(exhausted)
        self.active = active
        self.floor = floor
        self.attacks = dict(attacks or {})
        self._power = None
        self._kw = None

    @classmethod
    def of(cls, g, floor: int = 0) -> Board:
        s = g.state
        return cls(g.table.defs, s.play, s.exhausted, s.active, floor, s.attacks)

    def moved(self, card: int, side: int) -> Board:
        """The board with `card` in `side`'s play area (and nowhere else)."""
        play = [tuple(c for c in self.play[p] if c != card) for p in (0, 1)]
        play[side] = play[side] + (card,)
        return Board(self.defs, play, self.exhausted, self.active, self.floor, self.attacks)

    def without(self, cards) -> Board:
        gone = set(cards)
        play = [tuple(c for c in self.play[p] if c not in gone) for p in (0, 1)]
        return Board(self.defs, play, self.exhausted - gone, self.active, self.floor, self.attacks)

    def side(self, card: int) -> int | None:
        for p in (0, 1):
            if card in self.play[p]:
                return p
        return None

    def creatures(self):
        return self.play[0] + self.play[1]

    def _work_out(self) -> None:
        power, kw = {}, {}
        for c in self.creatures():
            power[c] = self.defs[c].power
            kw[c] = self.defs[c].keywords
        for p in (0, 1):
            mine = self.play[p]
            for h in mine:
                for a in abilities(self.defs[h]):
                    if not isinstance(a, Boost):
                        continue
                    if a.when == "own-turn" and self.active != p:
                        continue
                    if a.when == "alone" and len(mine) != 1:
                        continue
                    targets = (h,) if a.who == "self" else tuple(c for c in mine if c != h)
                    for c in targets:
                        power[c] += a.amount
                        kw[c] |= a.keywords
        if self.floor:
            for c, v in power.items():
                power[c] = max(v, self.floor)
        for p in (0, 1):
            mine = self.play[p]
            for h in mine:
                for a in abilities(self.defs[h]):
                    if isinstance(a, Grant):
                        for c in mine:
                            if c != h and power[c] <= a.max_power:
                                kw[c] |= a.keywords
        copied = {}
        for p in (0, 1):
            for h in self.play[p]:
                for a in abilities(self.defs[h]):
                    if isinstance(a, Copy):
                        enemy = 0
                        for c in self.play[1 - p]:
                            enemy |= kw[c]
                        copied[h] = enemy & a.keywords
        for h, extra in copied.items():
            kw[h] |= extra
        self._power, self._kw = power, kw

    def power(self, card: int) -> int:
        if self._power is None:
            self._work_out()
        return self._power[card]

    def keywords(self, card: int) -> int:
        if self._kw is None:
            self._work_out()
        if card in self._kw:
            return self._kw[card]
        return self.defs[card].keywords   # out of play: the printed keywords

    def has(self, card: int, keyword: int) -> bool:
        return bool(self.keywords(card) & keyword)

    # -- abilities seen from the board -----------------------------------------

    def restrictions(self, attacker: int, blocker: int):
        """(holder, NoBlock) for every ability that shuts `blocker` out of
        blocking `attacker`."""
        a_side = self.side(attacker)
        out = []
        for p in (0, 1):
            for h in self.play[p]:
                for a in abilities(self.defs[h]):
                    if not isinstance(a, NoBlock):
                        continue
                    if a.attackers == "itself" and h != attacker:
                        continue
                    if a.attackers == "allies" and p != a_side:
                        continue
                    if self.power(blocker) <= a.max_power:
                        out.append((h, a))
        return out

    def play_stopper(self, controller: int) -> int | None:
        """The creature that stops `controller`'s Play effects, if any."""
        for h in self.play[1 - controller]:
            if any(isinstance(a, StopPlayEffects) for a in abilities(self.defs[h])):
                return h
        return None

    def targets(self, source: int, controller: int, e: Effect) -> tuple[int, ...]:
        """The creatures an effect acting on creatures may pick (or hits, for `all`)."""
        if e.whose == "enemy":
            pool = self.play[1 - controller]
        else:
            pool = self.creatures()
        out = []
        for c in pool:
            pw = self.power(c)
            if e.min_power is not None and pw < e.min_power:
                continue
            if e.max_power is not None and pw > e.max_power:
                continue
            out.append(c)
        return tuple(sorted(out))

    def effect_happens(self, controller: int, e: Effect) -> bool:
        if e.condition == "fewer-allies":
            return len(self.play[controller]) < len(self.play[1 - controller])
        return True
