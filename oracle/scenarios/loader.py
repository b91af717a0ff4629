"""Reading scenario files: YAML (safe loading only), checked with the
mb-scenario/1 structs, then against the card set and the clause catalogue.

Every problem is a `ScenarioError` naming the file, the line and the field,
like a compiler message: `scenarios/combat.yaml:42: given.players[0].hand[2]:
unknown card 'Luchatour'`. The loader collects them and keeps going (a bad
document is left out, the others are kept); it never raises for bad input.
Every problem of a document is listed, its structure's (`structure`) and
those of the checks beyond it, in one run.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import msgspec
from msgspec import UNSET

from ..games.mindbug.cards import (CARDS, DEFAULT_SETS, KEYWORD_NAMES, SETS, UnknownCard, UnknownSet, check_sets,
                                   every_card, lookup, version)
from ..games.mindbug.cards.first_contact import KEYWORD_FRENCH
from ..clauses import load_catalogue
from .. import safeyaml
from ..games.mindbug.editions import EDITIONS, profile
from ..games import DEFAULT as DEFAULT_GAME, UnknownGame, check as check_game
from .format import FORMAT, SETUP_CODES, Expect, Illegal, PlayerExpect, Scenario
from .located import ScenarioError, check_editions_and_readings
from .structure import Locator, field_name, read_structure

SUFFIXES = (".yaml", ".yml")
DECISION_KEYS = ("play", "attack", "activate", "mindbug", "pass", "hunt", "block", "choose", "random")


# -- card instances: ids over every known set (First Contact's 48 first) ------------


def _instances() -> tuple[dict[tuple[str, int], int], dict[int, str]]:
    return _instances_of(version())


@cache
def _instances_of(_version: int) -> tuple[dict[tuple[str, int], int], dict[int, str]]:
    """Card ids over every known card; declared sets (a new `version`) come last."""
    ids: dict[tuple[str, int], int] = {}
    names: dict[int, str] = {}
    seen: dict[str, int] = {}
    for cid, name in enumerate(every_card(), 1):
        copy = seen[name] = seen.get(name, 0) + 1
        ids[(name, copy)] = cid
        names[cid] = name if copy == 1 else f"{name}#{copy}"
    return ids, names


class CardRefError(ValueError):
    pass


_COPY = re.compile(r"^(.*?)\s*#\s*(\d+)$")


def card_id(ref: str) -> int:
    """The instance id of `Name` (first copy) or `Name#2`; raises CardRefError."""
    m = _COPY.match(ref)
    name, copy = (m.group(1), int(m.group(2))) if m else (ref, 1)
    try:
        design = lookup(name)
    except UnknownCard as e:
        raise CardRefError(f"unknown card {ref!r}{e.hint}") from None
    if not 1 <= copy <= design.copies:
        n = design.copies
        raise CardRefError(f"{design.name} has {n} cop{'y' if n == 1 else 'ies'} in the set, "
                           f"so {ref!r} does not exist")
    return _instances()[0][(design.name, copy)]


def card_name(cid: int) -> str:
    """`Name` for a first copy, `Name#2` for a second one."""
    return _instances()[1][cid]


def all_ids(sets=DEFAULT_SETS) -> list[int]:
    """The ids of the deck of `sets` (setup.sets)."""
    keep = set(sets)
    return [cid for cid, name in _instances()[1].items() if CARDS[name.split("#")[0]].card_set in keep]


def scenario_sets(doc, extra=()) -> tuple[str, ...]:
    """The sets a scenario is played with: its own (First Contact by
    default) and `extra` ones (`mb-oracle scenarios --sets`)."""
    own = DEFAULT_SETS if doc.sets is UNSET else doc.sets
    return check_sets(dict.fromkeys([*own, *extra]))


_KEYWORDS = {n.casefold(): n for n in KEYWORD_NAMES.values()}
_KEYWORDS.update({KEYWORD_FRENCH[b].casefold(): n for b, n in KEYWORD_NAMES.items()})


def keyword_name(word: str) -> str | None:
    """The English keyword for FRENZY/FURIE... in any case, or None."""
    return _KEYWORDS.get(word.casefold())


# -- results of loading ------------------------------------------------------------


@dataclass
class LoadedScenario:
    doc: Scenario
    file: str
    line: int
    step_lines: list[int] = field(default_factory=list)   # the line of each step
    key_lines: dict[str, int] = field(default_factory=dict)  # given, expect, illegal, expect_by_edition.E
    game = DEFAULT_GAME    # a Mind Up! scenario is a LoadedMindUp (oracle.scenarios.mindup_loader)

    def line_of(self, part: str, step: int | None = None) -> int:
        """The line of step `step` (1-based) when `part` is "step", else of
        the top-level key `part` (or the scenario's first line)."""
        if part == "step" and step and step <= len(self.step_lines):
            return self.step_lines[step - 1]
        return self.key_lines.get(part, self.line)

    @property
    def id(self) -> str:
        return self.doc.id

    def editions(self) -> list[str]:
        """The editions the scenario applies to, in catalogue order."""
        return scenario_editions(self.doc)

    def expectation(self, edition: str) -> tuple[Expect | None, Illegal | None]:
        """The expectation and the expected refusal for one edition, with
        that edition's overrides applied."""
        d = self.doc
        expect = d.expect if d.expect is not UNSET else None
        by = d.expect_by_edition if d.expect_by_edition is not UNSET else {}
        over = by.get(edition)
        if over is not None and over.expect is not UNSET:
            expect = over.expect if expect is None else merge_expect(expect, over.expect)
        return expect, expected_refusal(d, edition)


def scenario_editions(doc: Scenario) -> list[str]:
    """The editions a scenario applies to, in catalogue order."""
    if doc.editions == "all":
        return list(EDITIONS)
    return [e for e in EDITIONS if e in doc.editions]


def expected_refusal(doc: Scenario, edition: str) -> Illegal | None:
    """The refusal a scenario expects in one edition (its `illegal`, or that
    edition's override), or None."""
    illegal = doc.illegal if doc.illegal is not UNSET else None
    by = doc.expect_by_edition if doc.expect_by_edition is not UNSET else {}
    over = by.get(edition)
    if over is not None and over.illegal is not UNSET:
        illegal = over.illegal
    return illegal


def merge_expect(base: Expect, over: Expect) -> Expect:
    """`over`'s fields replace `base`'s; `players` merge player by player."""
    changes = {}
    for name in over.__struct_fields__:
        value = getattr(over, name)
        if value is UNSET:
            continue
        if name == "players" and base.players is not UNSET:
            merged = list(base.players)
            for i, p in enumerate(value):
                if i < len(merged):
                    merged[i] = msgspec.structs.replace(
                        merged[i], **{f: getattr(p, f) for f in p.__struct_fields__
                                      if getattr(p, f) is not UNSET})
                else:
                    merged.append(p)
            value = merged
        changes[name] = value
    return msgspec.structs.replace(base, **changes)


@dataclass
class ScenarioFile:
    path: str
    scenarios: list[LoadedScenario] = field(default_factory=list)
    errors: list[ScenarioError] = field(default_factory=list)


# -- loading ----------------------------------------------------------------------


def discover(paths: Iterable[str | Path]) -> tuple[list[Path], list[ScenarioError]]:
    """The scenario files under `paths` (files, or directories searched
    recursively for *.yaml and *.yml), sorted; and the paths that do not exist."""
    found: list[Path] = []
    errors: list[ScenarioError] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file())
        elif p.is_file():
            found.append(p)
        elif p.exists():
            errors.append(ScenarioError(str(p), None, None, "not a file or a folder (a device, a pipe or a socket): "
                                                            "no scenarios are read from it"))
        else:
            errors.append(ScenarioError(str(p), None, None, "no such file or directory"))
    return found, errors


def load_paths(paths: Iterable[str | Path]) -> tuple[list[ScenarioFile], list[ScenarioError]]:
    """Every scenario file under `paths`; the errors include duplicate ids
    across files and paths that do not exist."""
    files, errors = discover(paths)
    loaded = [load_file(f) for f in files]
    seen: dict[str, LoadedScenario] = {}
    for sf in loaded:
        kept = []
        for sc in sf.scenarios:
            first = seen.get(sc.id)
            if first is not None and first is not sc:
                sf.errors.append(ScenarioError(sc.file, sc.line, "id",
                                               f"duplicate scenario id {sc.id!r} (first at {first.file}:{first.line})"))
                continue
            seen[sc.id] = sc
            kept.append(sc)
        sf.scenarios = kept
    return loaded, errors


def load_file(path: str | Path) -> ScenarioFile:
    name = str(path)
    try:
        data = safeyaml.read_file(path)
    except OSError as e:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"cannot read: {e.strerror or e}")])
    if len(data) > safeyaml.MAX_BYTES:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"the file is larger than "
                                                        f"{safeyaml.MAX_BYTES} bytes (MAX_BYTES)")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ScenarioFile(name, errors=[ScenarioError(name, None, None, f"not UTF-8 text (byte "
                                                        f"0x{data[e.start]:02x} at offset {e.start})")])
    return load_text(text, name)


def load_text(text: str, name: str = "<text>", folders=None, card_files=()) -> ScenarioFile:
    """Every scenario document of one file's text. `folders`: a `card_file`
    is read only as a regular file under them, or one of `card_files` (the
    scenario file came from a client)."""
    out = ScenarioFile(name)
    for node, data, error in _documents(text, name):
        if error is not None:
            out.errors.append(error)
            break
        sc, errs = _load_document(node, data, name, folders, card_files)
        out.errors += errs
        if sc is not None:
            if any(s.id == sc.id for s in out.scenarios):
                out.errors.append(ScenarioError(name, sc.line, "id", f"duplicate scenario id {sc.id!r}"))
            else:
                out.scenarios.append(sc)
    if not out.scenarios and not out.errors:
        out.errors.append(ScenarioError(name, None, None, "no scenario in this file"))
    return out


def _documents(text: str, name: str) -> Iterator[tuple]:
    """(node, data, None) per document; (None, None, error) at the first
    problem, which ends the file (safe loading: see oracle/safeyaml.py)."""
    try:
        for node, data in safeyaml.documents(text):
            yield node, data, None
    except safeyaml.YamlProblem as e:
        yield None, None, ScenarioError(name, e.line, None, e.message)


def _load_document(node, data, name: str, folders=None,
                   card_files=()) -> tuple[LoadedScenario | None, list[ScenarioError]]:
    loc = Locator(node)
    line = loc.line([])
    if not isinstance(data, dict):
        return None, [ScenarioError(name, line, None, "a scenario must be a mapping of keys such as id, "
                                                       "title, clauses, given, steps, expect")]
    fmt = data.get("format")
    if fmt != FORMAT:
        where = loc.key_line([], "format") if "format" in data else line
        what = f"format {fmt!r} is not {FORMAT!r}" if "format" in data else f"missing 'format: {FORMAT}'"
        return None, [ScenarioError(name, where, "format", what + f" (this oracle reads {FORMAT})")]
    game = data.get("game", DEFAULT_GAME)
    if game != DEFAULT_GAME:
        try:
            check_game(game if isinstance(game, str) else repr(game))
        except UnknownGame as e:
            return None, [ScenarioError(name, loc.key_line([], "game"), "game", str(e))]
        from .mindup_loader import load_document
        return load_document(data, name, loc)
    read = read_structure(data, loc)
    doc = read.doc
    prefix = f"scenario {data['id']}: " if isinstance(data.get("id"), str) else ""
    errors = [ScenarioError(name, at, field_name(path), prefix + message) for path, at, message in read.problems]
    if doc is None:
        return None, errors
    if doc.card_file is not UNSET:
        from ..games.mindbug.cards.compiled import load_file
        from ..games.mindbug.cards.declared import CardFileError
        card_path = Path(name).parent / doc.card_file
        try:
            load_file(card_path, None if folders is None else safeyaml.read_within(str(card_path), folders,
                                                                                  card_files))
        except CardFileError as e:
            return None, errors + [ScenarioError(name, loc.key_line([], "card_file"), "card_file",
                                                 f"scenario {doc.id}: {p}") for p in e.problems]
        except safeyaml.NotReadable as e:
            return None, errors + [ScenarioError(name, loc.key_line([], "card_file"), "card_file",
                                                 f"scenario {doc.id}: {e}")]
    errors += [e for e in _Checker(doc, loc, name, read.cut).check()
               if e.field is None or e.field.split(".")[0].split("[")[0] not in read.filled]
    if errors:
        return None, sorted(errors, key=lambda e: e.line or 0)   # in the order of the file's lines
    keys = {k: loc.key_line([], k) for k in ("given", "expect", "illegal") if k in data}
    if isinstance(data.get("expect_by_edition"), dict):
        for e in data["expect_by_edition"]:
            keys[f"expect_by_edition.{e}"] = loc.key_line(["expect_by_edition"], e)
    steps = [loc.line(["steps", i]) for i in range(len(doc.steps))]
    return LoadedScenario(doc, name, line, steps, keys), []


# -- checks beyond the structure -----------------------------------------------------


class _Checker:
    def __init__(self, doc: Scenario, loc: Locator, name: str, cut=frozenset()):
        self.doc = doc
        self.cut = cut                       # top-level keys a problem of the structure took values out of
        self.loc = loc
        self.name = name
        self.errors: list[ScenarioError] = []
        self.catalogue = _catalogue()
        self.placed: dict[int, tuple] = {}   # card id -> path where the position puts it
        self.octonite_checked = False        # the editions of placed counters (later.octonite)
        self.sets: tuple[str, ...] | None = DEFAULT_SETS
        if doc.sets is not UNSET:
            try:
                self.sets = check_sets(doc.sets)
            except UnknownSet as e:
                self.sets = None
                self.fail(["sets"], str(e))

    def fail(self, path: list, message: str, key: str | None = None) -> None:
        at = self.loc.key_line(path, key) if key else self.loc.line(path)
        self.errors.append(ScenarioError(self.name, at, field_name(self.loc.original(path + ([key] if key else []))),
                                         f"scenario {self.doc.id}: {message}"))

    def card(self, path: list, ref: str, placed: bool = True) -> int | None:
        try:
            cid = card_id(ref)
        except CardRefError as e:
            self.fail(path, str(e))
            return None
        home = CARDS[card_name(cid).split("#")[0]].card_set
        if self.sets is not None and home not in self.sets:
            self.fail(path, f"{card_name(cid)} belongs to the set {home}, which the scenario does not play with; "
                      f"add it to `sets` (sets: [{', '.join([*self.sets, home])}])")
            return None
        # A double-sided card (named by a stage face) is aside, never in the unused pile (setup.set-aside).
        if (placed and self.placed is not None and cid not in self.placed and "given" not in self.cut
                and CARDS[card_name(cid).split("#")[0]].stage < 2):
            self.fail(path, f"{card_name(cid)} is not in the given position (it is in the unused pile)"
                      + (f"; did you mean {self._other_copy(cid)}?" if self._other_copy(cid) else ""))
        return cid

    def _other_copy(self, cid: int) -> str | None:
        base = card_name(cid).split("#")[0]
        for other in self.placed or {}:
            if other != cid and card_name(other).split("#")[0] == base:
                return card_name(other)
        return None

    def clause(self, path: list, cid: str) -> None:
        if cid not in self.catalogue:
            near = difflib.get_close_matches(cid, sorted(self.catalogue), n=1, cutoff=0.6)
            hint = f"did you mean {near[0]}? " if near else ""
            self.fail(path, f"unknown clause id {cid!r} ({hint}see spec/clauses.yaml)")

    def check(self) -> list[ScenarioError]:
        d = self.doc
        for i, c in enumerate(d.clauses):
            self.clause(["clauses", i], c)
        if len(set(d.clauses)) != len(d.clauses):
            self.fail(["clauses"], "a clause is cited twice")
        for i, ref in enumerate(d.cards):
            if "#" in ref:
                self.fail(["cards", i], "name a design here, not a copy")
                continue
            try:
                lookup(ref)
            except UnknownCard as e:
                self.fail(["cards", i], str(e))
        from ..games.mindbug.readings import check as check_readings
        check_editions_and_readings(d, self.fail, check_readings)
        self.check_given()
        for i, s in enumerate(d.steps):
            self.check_step(["steps", i], s)
        expected = ("expect", "illegal", "expect_by_edition")
        if all(getattr(d, k) is UNSET and k not in self.cut for k in expected):
            self.fail([], "the scenario checks nothing: give expect, illegal or expect_by_edition")
        if d.expect is not UNSET:
            self.check_expect(["expect"], d.expect)
        if d.illegal is not UNSET:
            self.check_illegal(["illegal"], d.illegal)
        if d.expect_by_edition is not UNSET:
            applies = set(EDITIONS if d.editions == "all" else d.editions)
            for e, over in d.expect_by_edition.items():
                path = ["expect_by_edition", e]
                if e not in applies:
                    self.fail(["expect_by_edition"], f"the scenario does not apply to {e}", key=e)
                if over.expect is UNSET and over.illegal is UNSET and "expect_by_edition" not in self.cut:
                    self.fail(path, "give expect or illegal for this edition")
                if over.expect is not UNSET:
                    self.check_expect(path + ["expect"], over.expect)
                if over.illegal not in (UNSET, None):
                    self.check_illegal(path + ["illegal"], over.illegal)
        return self.errors

    # -- the position
    def check_given(self) -> None:
        g = self.doc.given
        if g.deal is not UNSET:
            for key in ("players", "unused"):
                if getattr(g, key) is not UNSET:
                    self.fail(["given"], f"'{key}' does not go with 'deal'", key=key)
            self.placed = None  # a deal places every card
            seen: dict[int, list] = {}
            deal = g.deal
            zones = [(["given", "deal", "decks", p], cards) for p, cards in enumerate(deal.decks)]
            zones.append((["given", "deal", "unused"], deal.unused))
            for path, cards in zones:
                for i, ref in enumerate(cards):
                    cid = self.card(path + [i], ref, placed=False)
                    if cid is not None:
                        self._once(seen, cid, path + [i])
            for i, pair in enumerate(deal.reveals):
                for j, ref in enumerate(pair):
                    self.card(["given", "deal", "reveals", i, j], ref, placed=False)
            if deal.first is UNSET and not deal.reveals and "given" not in self.cut:
                self.fail(["given", "deal"], "give 'first' or the 'reveals' that decide it")
            return
        seen = {}
        if g.players is not UNSET:
            for p, side in enumerate(g.players):
                for zone in ("hand", "play", "discard", "deck"):
                    for i, entry in enumerate(getattr(side, zone)):
                        ref = entry if isinstance(entry, str) else entry.card
                        path = ["given", "players", p, zone, i]
                        cid = self.card(path, ref, placed=False)
                        if cid is not None:
                            self._once(seen, cid, path)
                        if not isinstance(entry, str) and entry.octonite not in (UNSET, 0):
                            self.check_octonite_editions(path)
                        if not isinstance(entry, str) and entry.stage is not UNSET:
                            self.check_stage(path, zone, ref)
                        if not isinstance(entry, str) and entry.boosts:
                            if zone != "play":
                                self.fail(path, "only a creature in play has boost cards under it (later.boost)",
                                          key="boosts")
                            without = [e for e in scenario_editions(self.doc) if not profile(e).later_sets]
                            if without and expected_refusal(self.doc, without[0]) is None:
                                self.fail(path, "boost cards are a rule of the Beyond sets (later.boost: "
                                          f"en-revised only), and the scenario also runs in {', '.join(without)}; "
                                          "write `editions: [en-revised]`", key="boosts")
                            for j, under in enumerate(entry.boosts):
                                bid = self.card(path + ["boosts", j], under, placed=False)
                                if bid is not None:
                                    self._once(seen, bid, path + ["boosts", j])
        if g.unused is not UNSET:
            for i, ref in enumerate(g.unused):
                path = ["given", "unused", i]
                cid = self.card(path, ref, placed=False)
                if cid is not None:
                    self._once(seen, cid, path)
        self.placed = seen

    def check_stage(self, path: list, zone: str, ref: str) -> None:
        """later.evolve: a stage belongs to a stage I card of an evolution line in play."""
        if zone != "play":
            self.fail(path, "only a creature in play has a stage (later.evolve)", key="stage")
            return
        try:
            d = lookup(ref.split("#")[0])
        except UnknownCard:
            return
        if d.stage != 1:
            self.fail(path, f"{d.name} is not the stage I card of an evolution line: it has no stage to give "
                      "(later.evolve)", key="stage")

    def check_octonite_editions(self, path: list) -> None:
        """later.octonite: counters exist only in the editions with the
        later-set mechanics. Placing them in a scenario that also runs in
        another edition is an error (at the first creature given counters),
        unless that edition expects the setup to be refused (`illegal:
        {step: 0}`), which is the ruling itself."""
        d = self.doc
        if self.octonite_checked:
            return                  # one error says it: the fix is the scenario's `editions`
        self.octonite_checked = True
        without = []
        for e in scenario_editions(d):
            if profile(e).later_sets:
                continue
            illegal = expected_refusal(d, e)
            step = None if illegal is None else len(d.steps) if illegal.step is UNSET else illegal.step
            if step != 0:
                without.append(e)
        if without:
            have = [e for e in EDITIONS if profile(e).later_sets]
            self.fail(path, f"Octonite counters are a rule of the later sets (later.octonite: {', '.join(have)} "
                      f"only), and the scenario also runs in {', '.join(without)}; write "
                      f"`editions: [{', '.join(have)}]`, or expect the setup to be refused there "
                      "(illegal: {step: 0, code: BAD_SETUP, clause: later.octonite})", key="octonite")

    def _once(self, seen: dict, cid: int, path: list) -> None:
        if cid in seen:
            first = seen[cid]
            self.fail(path, f"{card_name(cid)} is already placed at {field_name(self.loc.original(first))} "
                      f"(line {self.loc.line(first)}); a card is in one place only"
                      + ("" if "#" in card_name(cid) or CARDS[card_name(cid)].copies == 1
                         else f"; the second copy is {card_name(cid)}#2"))
        else:
            seen[cid] = path

    # -- decisions
    def check_step(self, path: list, s) -> None:
        if isinstance(s, str):
            return
        keys = [k for k in DECISION_KEYS if getattr(s, "pass_" if k == "pass" else k) is not UNSET]
        if len(keys) != 1:
            what = "no decision" if not keys else "several decisions (" + ", ".join(keys) + ")"
            self.fail(path, f"a step is exactly one decision ({', '.join(DECISION_KEYS)}); this one has {what}")
            return
        kind = keys[0]
        value = getattr(s, "pass_" if kind == "pass" else kind)
        if kind in ("mindbug", "pass") and value is False:
            self.fail(path, f"'{kind}: false' means nothing; leave the step out or write another decision",
                      key=kind)
        if kind in ("play", "attack", "activate", "hunt", "block") and value is not None:
            self.card(path + [kind], value)
        if kind in ("play", "attack", "activate") and value is None:
            self.fail(path, f"'{kind}' needs a card", key=kind)
        if kind in ("choose", "random"):
            for i, ref in enumerate(value):
                if isinstance(ref, str):                 # a number (a die's face, a power) names no card
                    self.card(path + [kind, i], ref)
            if kind == "random" and s.by is not UNSET:
                self.fail(path, "a random outcome belongs to no player: leave 'by' out", key="by")

    # -- expectations
    def check_expect(self, path: list, e: Expect) -> None:
        if all(getattr(e, f) is UNSET for f in e.__struct_fields__) and path[0] not in self.cut:
            self.fail(path, "this expect checks nothing")
        if e.players is not UNSET:
            for p, pe in enumerate(e.players):
                self.check_player(path + ["players", p], pe)
        for key in ("exhausted", "set_aside"):
            if getattr(e, key) is not UNSET:
                for i, ref in enumerate(getattr(e, key)):
                    self.card(path + [key, i], ref)
        for key in ("power", "keywords", "octonite"):
            table = getattr(e, key)
            if table is UNSET:
                continue
            for ref, value in table.items():
                self.card_key(path + [key], ref)
                if key == "keywords":
                    for i, word in enumerate(value):
                        if keyword_name(word) is None:
                            self.fail(path + [key, ref, i], f"unknown keyword {word!r} "
                                      f"(one of {', '.join(KEYWORD_NAMES.values())})")
        if e.pending not in (UNSET, None):
            pe = e.pending
            pp = path + ["pending"]
            for key in ("options", "has", "lacks"):
                steps = getattr(pe, key)
                if steps is not UNSET:
                    for i, s in enumerate(steps):
                        self.check_step(pp + [key, i], s)
            if pe.source is not UNSET:
                self.card(pp + ["source"], pe.source)
            if pe.clauses is not UNSET:
                for i, c in enumerate(pe.clauses):
                    self.clause(pp + ["clauses", i], c)
        for key in ("events", "no_events"):
            matchers = getattr(e, key)
            if matchers is UNSET:
                continue
            for i, m in enumerate(matchers):
                mp = path + [key, i]
                if all(getattr(m, f) is UNSET for f in m.__struct_fields__) and path[0] not in self.cut:
                    self.fail(mp, "an event pattern needs at least one field")
                if m.clause is not UNSET:
                    self.clause(mp + ["clause"], m.clause)
                for f in ("card", "source"):
                    if getattr(m, f) is not UNSET:
                        self.card(mp + [f], getattr(m, f))
                if m.cards is not UNSET:
                    for j, ref in enumerate(m.cards):
                        self.card(mp + ["cards", j], ref)

    def card_key(self, path: list, ref: str) -> None:
        try:
            cid = card_id(ref)
        except CardRefError as err:
            self.fail(path, str(err), key=ref)
            return
        if self.placed is not None and cid not in self.placed and "given" not in self.cut:
            self.fail(path, f"{card_name(cid)} is not in the given position", key=ref)

    def check_player(self, path: list, pe: PlayerExpect) -> None:
        for zone in ("hand", "play", "discard", "deck"):
            value = getattr(pe, zone)
            if isinstance(value, list):
                for i, entry in enumerate(value):
                    self.card(path + [zone, i], entry if isinstance(entry, str) else entry.card)
                    if not isinstance(entry, str) and entry.boosts:
                        for j, under in enumerate(entry.boosts):
                            self.card(path + [zone, i, "boosts", j], under)

    def check_illegal(self, path: list, il: Illegal) -> None:
        n = len(self.doc.steps)
        if il.clause is not UNSET:
            self.clause(path + ["clause"], il.clause)
        if il.card is not UNSET:
            try:
                lookup(il.card)
            except UnknownCard as e:
                self.fail(path + ["card"], str(e))
        if "steps" in self.cut:
            return                           # a step was taken out: the count is not the document's
        step = n if il.step is UNSET else il.step
        if step == 0:
            if il.code not in SETUP_CODES:
                self.fail(path, f"step 0 is the setup: its refusals are setup codes, not {il.code}", key="code")
            if n:
                self.fail(path, "the setup is refused, so no step can follow it", key="step")
            return
        if step > n:
            self.fail(path, f"step {step} does not exist: the scenario has {n} step{'s' * (n != 1)}", key="step")
        elif step < n:
            self.fail(path, f"steps after the refused step {step} would never run; end the steps there",
                      key="step")


@cache
def _catalogue() -> frozenset[str]:
    return frozenset(load_catalogue())


def step_kind(s) -> tuple[str, object, int | None]:
    """(kind, value, by) of a step as written."""
    if isinstance(s, str):
        return s, None, None
    for k in DECISION_KEYS:
        v = getattr(s, "pass_" if k == "pass" else k)
        if v is not UNSET:
            return k, v, (None if s.by is UNSET else s.by)
    raise ValueError("a step with no decision")


def step_text(s) -> str:
    kind, value, by = step_kind(s)
    if kind in ("mindbug", "pass"):
        text = kind
    elif value is None:
        text = f"{kind}: null"
    elif isinstance(value, list):
        text = f"{kind}: [{', '.join(map(str, value))}]"
    else:
        text = f"{kind}: {value}"
    return text + (f" (by player {by})" if by is not None else "")


__all__ = ["ScenarioError", "ScenarioFile", "LoadedScenario",
           "card_id", "card_name", "all_ids", "keyword_name", "load_file", "load_text", "load_paths",
           "discover", "step_kind", "step_text", "merge_expect"]
