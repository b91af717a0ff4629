"""The checks of a scenario beyond its structure: its cards (known, of its
sets, each placed once), its clauses (in the catalogue), its editions and
readings, its steps and its expectations. Each problem is a ScenarioError
naming the file, the line and the field."""

from __future__ import annotations

import difflib
from functools import cache

from msgspec import UNSET

from ....scenarios.located import ScenarioError, check_editions_and_readings
from .. import load_catalogue
from ..cards import CARDS, DEFAULT_SETS, KEYWORD_NAMES, UnknownCard, UnknownSet, check_sets, lookup
from ..editions import EDITIONS, profile
from .cards import CardRefError, card_id, card_name, creature_id, face, keyword_name
from .format import SETUP_CODES, Expect, Illegal, PlayerExpect, Scenario
from .structure import Locator, field_name

DECISION_KEYS = ("play", "attack", "activate", "mindbug", "pass", "hunt", "block", "choose", "random")


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


class Checker:
    """The problems of one Mindbug scenario beyond its structure (`check`)."""

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

    def card(self, path: list, ref: str, placed: bool = True, creature: bool = False) -> int | None:
        """The id of the card `ref` names (`creature`: a creature in play,
        where a stage face names its line's stage I card)."""
        try:
            cid = creature_id(ref) if creature else card_id(ref)
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
        from ..readings import UnknownReading, check as check_readings
        check_editions_and_readings(d, self.fail, check_readings, UnknownReading)
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
                                self.fail(path, "boost cards are a rule of Beyond Eternity and the promos that boost (later.boost: "
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
            self.card(path + [kind], value, creature=kind != "play")
        if kind in ("play", "attack", "activate") and value is None:
            self.fail(path, f"'{kind}' needs a card", key=kind)
        if kind in ("choose", "random"):
            for i, ref in enumerate(value):
                if isinstance(ref, str):                 # a number (a die's face, a power) names no card
                    self.card(path + [kind, i], ref, creature=kind == "choose")
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
                    self.card(path + [key, i], ref, creature=key == "exhausted")
        for key in ("power", "keywords", "octonite", "stage"):
            table = getattr(e, key)
            if table is UNSET:
                continue
            for ref, value in table.items():
                self.card_key(path + [key], ref)
                if key == "stage":
                    self.check_stage_key(path + [key], ref, value)
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

    def check_stage_key(self, path: list, ref: str, stage: int) -> None:
        """`expect.stage`: a creature of an evolution line, at a stage its face agrees with."""
        f = face(ref)
        if f and f[1] != stage:
            self.fail(path, f"{ref} is the stage {'I' * f[1]} face of {f[0]}: at stage {stage} write "
                      f"{{{f[0]}: {stage}}}", key=ref)
            return
        try:
            d = lookup((f[0] if f else ref).split("#")[0])
        except UnknownCard:
            return
        if not d.line:
            self.fail(path, f"{d.name} is not the stage I card of an evolution line: it has no stage (later.evolve)",
                      key=ref)

    def card_key(self, path: list, ref: str) -> None:
        try:
            cid = creature_id(ref)
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
                    self.card(path + [zone, i], entry if isinstance(entry, str) else entry.card,
                              creature=zone == "play")
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
