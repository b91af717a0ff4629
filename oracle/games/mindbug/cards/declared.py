"""Cards declared as data: the mb-cards/1 format (spec/card-format.md).

A card file names a set and its cards: names in English and other
languages, copies, power, keywords, and abilities composed from a trigger,
an effect verb, a target (side and filters), a count and an amount. A card
that needs code names the Python ability of a shipped card (`code`).

`load(path)` reads and checks a file (YAML or JSON; the names of its
cards and set as declared_names.py says); every problem is a
`CardFileError` naming the file, the line and the field. `register(cards)`
adds the cards and their set to the card database, so that the engine,
verify, selfplay and the scenarios deal and play them like shipped ones.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml
from msgspec import Meta, Struct

from .... import safeyaml
from ....schemas import json_schema
from ....structure import Locator, field_name, read_past, unknown_key
from ....term import visible
from . import declared_names

FORMAT = "mb-cards/1"

# "when ..." events a creature in play answers (triggers.when.events; later sets)
WHEN_TRIGGERS = ("when-ally-defeated", "when-enemy-defeated", "when-you-gain-life", "when-you-lose-life")
TRIGGERS = ("play", "attack", "defeated", "harvest", "end-of-turn", "action") + WHEN_TRIGGERS + ("constant",)
_EFFECT_TRIGGERS = ("play", "attack", "defeated", "harvest", "end-of-turn", "action") + WHEN_TRIGGERS
SIDES = ("enemy", "allied", "any")
# effect verb -> (the triggers it goes with, whether it takes a target, later-set mechanic)
VERBS: dict[str, tuple[tuple[str, ...], bool, bool]] = {
    "defeat": (_EFFECT_TRIGGERS, True, False),
    "take-control": (_EFFECT_TRIGGERS, True, False),
    "bar-block": (_EFFECT_TRIGGERS, True, False),
    "gain-life": (_EFFECT_TRIGGERS, False, False),
    "lose-life": (_EFFECT_TRIGGERS, False, False),
    "discard": (_EFFECT_TRIGGERS, False, False),
    "steal": (_EFFECT_TRIGGERS, False, False),
    "play-from-discard": (_EFFECT_TRIGGERS, False, False),
    "keyword-this-turn": (("play", "attack"), False, False),
    "power": (("constant",), True, False),
    "steal-life": (_EFFECT_TRIGGERS, False, True),
    "draw-unused": (_EFFECT_TRIGGERS, False, True),
    "refresh": (_EFFECT_TRIGGERS, False, True),
    "boost": (_EFFECT_TRIGGERS, True, True),
}
KEYWORDS = ("FRENZY", "HUNTER", "POISONOUS", "SNEAKY", "TOUGH", "FAST")
LATER_KEYWORDS = ("FAST",)
WHO = ("me", "opponent")
WHEN = ("always", "own-turn")
# What an ability may cost: `octonite` spends one counter of its own creature
# (later.octonite.spend, Action and Attack effects only).
COSTS = ("octonite",)
COST_TRIGGERS = ("action", "attack")

Name = Annotated[str, Meta(min_length=1, max_length=80)]


class Target(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Which creatures an effect may pick: a side and filters."""

    side: Literal[SIDES] = "enemy"               # type: ignore[valid-type]
    power_max: Annotated[int, Meta(ge=0, le=99)] | None = None
    power_min: Annotated[int, Meta(ge=0, le=99)] | None = None
    others: bool = False                          # not the card itself


class Ability(Struct, forbid_unknown_fields=True, omit_defaults=True):
    trigger: Literal[TRIGGERS]                    # type: ignore[valid-type]
    effect: str
    target: Target | None = None
    count: Annotated[int, Meta(ge=1, le=10)] = 1  # how many creatures or cards
    all: bool = False                             # every creature the target allows, no choice
    up_to: bool = False                           # none up to `count`
    amount: Annotated[int, Meta(ge=-20, le=20)] = 1
    who: Literal[WHO] = "opponent"                # type: ignore[valid-type]  # for life verbs
    keyword: str | None = None                    # for keyword-this-turn
    when: Literal[WHEN] = "always"                # type: ignore[valid-type]  # for power
    cost: Literal[COSTS] | None = None            # type: ignore[valid-type]  # paid before the effect (later sets)
    text: str = ""


class CardSpec(Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Name
    power: Annotated[int, Meta(ge=0, le=99)]
    names: dict[str, Name] = {}                   # other languages: {"fr": "..."}
    copies: Annotated[int, Meta(ge=1, le=4)] = 1
    keywords: list[str] = []
    abilities: Annotated[list[Ability], Meta(max_length=4)] = []
    code: str | None = None                       # a shipped card whose Python ability this card uses
    octonite: Annotated[int, Meta(ge=0, le=9)] = 0  # counters it comes into play with (later sets)
    distribute: bool = False                      # its controller may hand them out as it comes into play
    stage: Annotated[int, Meta(ge=1, le=3)] | None = None   # evolution lines (later sets): its stage
    line: Name | None = None                      # a stage face: the stage I card of its line
    text: str = ""

    @property
    def face(self) -> bool:
        """A stage face (stage II or III): never a deck card (setup.set-aside)."""
        return (self.stage or 0) >= 2

    @property
    def table_copies(self) -> int:
        """Its copies among a game's cards: a stage II face is its line's one
        double-sided card, set aside; a stage III face is that card's back (0);
        a face of no line is a card of its own, never dealt."""
        if self.face:
            return 0 if self.stage == 3 and self.line else 1
        return self.copies


class SetSpec(Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: Annotated[str, Meta(pattern=r"^[a-z][a-z0-9-]{1,40}$")]
    name: Name
    names: dict[str, Name] = {}


class CardFile(Struct, forbid_unknown_fields=True):
    format: Literal[FORMAT]                       # type: ignore[valid-type]
    set: SetSpec
    cards: Annotated[list[CardSpec], Meta(min_length=1, max_length=200)]


def card_schema() -> dict:
    """The JSON Schema of a card file (`mb-oracle schema cards`)."""
    return json_schema(CardFile, id="https://mb-oracle.invalid/schema/mb-cards-1.json", title=f"{FORMAT} card file",
                       description="Cards declared as data (YAML or JSON); see spec/card-format.md.")


class CardFileError(ValueError):
    """A problem in a card file: `file`, `line` (or None), `field`, message;
    `more`: the file's other problems (CardFileError each), one line each
    after this one's in the text."""

    def __init__(self, file: str, line, field: str | None, message: str, more=()):
        self.file, self.line, self.field, self.message = file, line, field, message
        self.more = list(more)
        name = visible(file)                # on one line, whatever the file's name holds
        where = f"{name}:{line}" if line else name
        first = f"{where}: {field}: {message}" if field else f"{where}: {message}"
        super().__init__("\n".join([first, *(str(m) for m in self.more)]))

    @property
    def problems(self) -> list["CardFileError"]:
        return [CardFileError(self.file, self.line, self.field, self.message), *self.more]


def _raise_all(problems: list[CardFileError]) -> None:
    """Every problem, in the order of the file's lines."""
    problems = sorted(problems, key=lambda p: p.line or 0)
    if problems:
        raise CardFileError(problems[0].file, problems[0].line, problems[0].field, problems[0].message,
                            problems[1:])


@dataclass(frozen=True)
class Declared:
    """A checked card file: the set and its cards, as the file gave them."""

    path: str
    set: SetSpec
    cards: tuple[CardSpec, ...]

    def uses_later_mechanics(self, spec: CardSpec) -> list[str]:
        """The later-set mechanics (English revised edition only) the card uses."""
        out = [k for k in spec.keywords if k in LATER_KEYWORDS]
        if spec.octonite:
            out.append("Octonite")
        if spec.distribute:
            out.append("distribute")
        out += ["Octonite cost" for a in spec.abilities if a.cost is not None]
        out += [a.trigger for a in spec.abilities if a.trigger in ("harvest", "end-of-turn", "action") + WHEN_TRIGGERS]
        out += [a.effect for a in spec.abilities if VERBS.get(a.effect, ((), False, False))[2]]
        if spec.stage:
            out.append("evolution line")
        return out


def _line(node, path) -> int | None:
    return None if node is None else Locator(node).line(path)


def _locate(loc: Locator):
    """(path, line, message) of a msgspec error in a card file."""
    def locate(error: str, _data) -> tuple[list, int | None, str]:
        message, _, at = error.partition(" - at `")
        at = at.rstrip("`")
        path = [int(s) if s.isdigit() else s for s in at.replace("$", "").replace("[", ".").replace("]", "")
                .split(".") if s]
        missing = re.match(r"Object missing required field `(.+)`$", message)
        if missing:
            message = f"missing required key '{missing.group(1)}'"
        unknown = re.match(r"Object contains unknown field `(.+)`$", message)
        if unknown:
            # The key itself is at fault, and what is taken out to read on.
            key = unknown.group(1)
            return path + [key], loc.key_line(path, key), unknown_key(key, CardFile, path)
        return path, loc.line(path), message
    return locate


def _near(word, names) -> str:
    close = difflib.get_close_matches(str(word), list(names), n=1, cutoff=0.5)
    return f" (did you mean {close[0]}?)" if close else f" (one of {', '.join(names)})"


def load(path: str | Path, text: str | bytes | None = None, shipped: bool = False,
         declared: dict | None = None) -> Declared:
    """Read and check a card file; raises CardFileError. `shipped`: the file
    writes a shipped set (spec/sets/), so its set and names already exist
    (`check_shipped` compares them with the database). `declared`: the sets
    this process has declared already, by set id (`Declared`): a file that
    declares one of them again, card for card the same (a copy of the file),
    is that set; with other cards it is refused, naming the first file."""
    name = str(path)
    try:
        if text is None:
            text = safeyaml.read_file(path)      # over the limit: refused by safeyaml.documents
        docs = list(safeyaml.documents(text))
    except OSError as e:
        raise CardFileError(name, None, None, f"cannot read the file ({e.strerror or e})") from None
    except yaml.YAMLError as e:
        raise CardFileError(name, getattr(e, "line", None), None, f"not a card file: {e}") from None
    if len(docs) != 1:
        raise CardFileError(name, None, None, "a card file holds exactly one document")
    node, data = docs[0]
    loc = Locator(node)
    read = read_past(data, CardFile, loc, _locate(loc))
    problems = [CardFileError(name, at, field_name(path) if path else None, message)
                for path, at, message in read.problems]
    cf = read.doc
    if cf is None:
        _raise_all(problems)
    if problems:
        # The rest of the file is checked too; cards a problem took out are not.
        _raise_all(problems + _check(cf, loc, name, shipped, declared))
    other = (declared or {}).get(cf.set.id)
    if other is not None and not shipped:
        if (other.set, other.cards) == (cf.set, tuple(cf.cards)):
            return other
        line = _line(node, ["set", "id"])
        raise CardFileError(name, line, "set.id",
                            f"set {cf.set.id!r} is declared already in this run, by {other.path}, with other "
                            "cards; a run holds one declaration of a set: give this one another id, or use it "
                            "in another run")
    _raise_all(_check(cf, loc, name, shipped, declared))
    return Declared(name, cf.set, tuple(cf.cards))


def check_shipped(decl: Declared) -> list[str]:
    """Where a shipped set's card file and the card database disagree."""
    from . import CARDS, SETS, KEYWORD_NAMES
    out = []
    if decl.set.id not in SETS:
        return [f"set {decl.set.id!r} is not a shipped set"]
    mine = [n for n, d in CARDS.items() if d.card_set == decl.set.id]
    if [c.name for c in decl.cards] != mine:
        out.append(f"the file lists {[c.name for c in decl.cards]}, the database {mine}")
    for c in decl.cards:
        d = CARDS.get(c.name)
        if d is None:
            continue
        kws = sorted(KEYWORD_NAMES[b] for b in KEYWORD_NAMES if d.keywords & b)
        trig = next((a.trigger for a in c.abilities if a.trigger != "constant"), None)
        if c.code is not None:
            trig = CARDS[c.code].trigger
        line = c.line or (c.name if c.stage == 1 else "")
        facts = (c.power, c.table_copies, sorted(c.keywords), c.names.get("fr", c.name), trig, c.stage or 0, line)
        want = (d.power, d.copies, kws, d.french, d.trigger, d.stage, d.line)
        if facts != want:
            out.append(f"{c.name}: the file says {facts}, the database {want}")
    return out


def _check(cf: CardFile, loc: Locator, name: str, shipped: bool = False,
           declared: dict | None = None) -> list[CardFileError]:
    """Every problem beyond the structure, in file order."""
    from . import SETS, UnknownCard, lookup
    problems: list[CardFileError] = []

    def fail(path, message):
        problems.append(CardFileError(name, loc.line(path), field_name(loc.original(path)), message))

    if cf.set.id in SETS and not shipped:
        fail(["set", "id"], f"set {cf.set.id!r} is a shipped set; name the declared set differently")
    if not shipped:
        declared_names.check_names(cf, fail, declared)
    for i, c in enumerate(cf.cards):
        at = ["cards", i]
        for j, k in enumerate(c.keywords):
            if k not in KEYWORDS:
                fail(at + ["keywords", j], f"unknown keyword {k!r}{_near(k, KEYWORDS)}")
        if c.code is not None:
            try:
                d = lookup(c.code)
            except UnknownCard as e:
                fail(at + ["code"], str(e))
            else:
                if c.abilities:
                    fail(at + ["code"], "a card takes its ability from `code` or from `abilities`, not both")
                own = shipped and d.name == c.name   # a shipped card names its own Python ability, maybe still to come
                if not own and d.trigger is None and not any(d.name in table for table in _constant_tables()):
                    fail(at + ["code"], f"{d.name} has no ability to borrow")
        if c.distribute and not c.octonite:
            fail(at + ["distribute"], "handing out Octonite counters needs counters: give the card `octonite`")
        triggers = [a.trigger for a in c.abilities if a.trigger != "constant"]
        if len(triggers) > 1 or len(c.abilities) - len(triggers) > 1:
            fail(at + ["abilities"], "a card has at most one triggered ability and one constant ability")
        for j, a in enumerate(c.abilities):
            _check_ability(a, c, at + ["abilities", j], fail)
    _check_stages(cf, fail)
    return problems


def _check_stages(cf: CardFile, fail) -> None:
    """Evolution lines: a stage I card has its stage II face in the file; a
    face names the stage I card of its line (a stage III face may name none:
    it is never dealt); one stage II and one stage III face per line; a face
    is one double-sided card (`copies` 1)."""
    ones = {c.name for c in cf.cards if c.stage == 1}
    faces: dict[tuple[str, int], str] = {}
    for i, c in enumerate(cf.cards):
        at = ["cards", i]
        if c.line is not None and not c.face:
            fail(at + ["line"], "only a stage face (stage 2 or 3) names the stage I card of its line")
        if c.face and c.copies != 1:
            fail(at + ["copies"], "a stage face is one face of its line's double-sided card: it has no copies")
        if c.face and c.line is None and c.stage == 2:
            fail(at + ["stage"], "a stage II face names the stage I card of its line (`line`)")
        if c.face and c.line is not None:
            if c.line not in ones:
                fail(at + ["line"], f"{c.line!r} is no stage 1 card of this file{_near(c.line, sorted(ones))}")
            elif (c.line, c.stage) in faces:
                fail(at + ["stage"], f"the line of {c.line} has a stage {c.stage} face already: "
                                     f"{faces[(c.line, c.stage)]}")
            else:
                faces[(c.line, c.stage)] = c.name
    for i, c in enumerate(cf.cards):
        if c.stage == 1 and (c.name, 2) not in faces:
            fail(["cards", i, "stage"], f"a stage 1 card evolves: give the file the stage 2 face of {c.name}'s line "
                                        f"(a card with `stage: 2, line: {c.name}`)")
    for (one, stage), name in faces.items():
        if stage == 3 and (one, 2) not in faces:
            i = next(i for i, c in enumerate(cf.cards) if c.name == name)
            fail(["cards", i, "line"], f"the line of {one} has a stage 3 face and no stage 2 face")


def _check_ability(a: Ability, c: CardSpec, ap: list, fail) -> None:
    verb = VERBS.get(a.effect)
    if verb is None:
        fail(ap + ["effect"], f"unknown effect verb {a.effect!r}{_near(a.effect, VERBS)}")
        return
    triggers_ok, takes_target, _later = verb
    if a.trigger not in triggers_ok:
        fail(ap + ["trigger"], f"effect {a.effect!r} does not go with trigger {a.trigger!r} "
                               f"(it goes with: {', '.join(triggers_ok)})")
    if a.target is not None and not takes_target:
        fail(ap + ["target"], f"effect {a.effect!r} takes no target creature")
    if a.all and a.up_to:
        fail(ap, "'all' (every matching creature, no choice) and 'up_to' (a choice of none up to count) "
                 "exclude each other")
    if a.effect == "boost":
        _check_boost(a, ap, fail)
    elif (a.all or a.up_to) and not takes_target:
        fail(ap, f"'all' and 'up_to' pick creatures; effect {a.effect!r} picks none")
    if a.effect == "keyword-this-turn" and a.keyword not in KEYWORDS:
        fail(ap + ["keyword"], f"keyword-this-turn needs a keyword{_near(a.keyword, KEYWORDS)}")
    if a.keyword is not None and a.effect != "keyword-this-turn":
        fail(ap + ["keyword"], "only keyword-this-turn takes a keyword")
    if a.trigger == "harvest" and not c.octonite:
        fail(ap + ["trigger"], "a Harvest ability needs Octonite counters: give the card `octonite`")
    if a.cost is not None and a.trigger not in COST_TRIGGERS:
        fail(ap + ["cost"], f"only {' and '.join(COST_TRIGGERS)} effects are paid for with Octonite "
                            f"(not {a.trigger!r})")
    t = a.target
    if t is not None and t.power_min is not None and t.power_max is not None and t.power_min > t.power_max:
        fail(ap + ["target"], f"power_min {t.power_min} is above power_max {t.power_max}: no creature fits")
    if a.effect == "power" and t is not None and t.side == "enemy":
        fail(ap + ["target", "side"], "a power bonus goes to allied creatures (side: allied)")


def _check_boost(a: Ability, ap: list, fail) -> None:
    """later.boost: without a target the card boosts itself; with one, any
    creature of either side (`side: any`), with no filter, always up to `count`."""
    t = a.target
    if a.all:
        fail(ap, "a boost picks its cards one by one: 'all' does not go with effect 'boost'")
    if t is not None and (t.side != "any" or t.power_min is not None or t.power_max is not None or t.others):
        fail(ap + ["target"], "a boost goes to this creature (no target) or to any creature (target: {side: any})")


def _constant_tables():
    from .abilities import ATTACK_RULES, BLOCK_RULES, COPY_LAYER, GRANT_LAYER, PLAY_BLOCKERS, POWER_LAYER
    return (POWER_LAYER, GRANT_LAYER, COPY_LAYER, BLOCK_RULES, ATTACK_RULES, PLAY_BLOCKERS)


__all__ = ["FORMAT", "CardFile", "CardFileError", "CardSpec", "Declared", "card_schema", "load", "VERBS",
           "TRIGGERS", "KEYWORDS"]
