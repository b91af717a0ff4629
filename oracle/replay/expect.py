"""Known, accepted divergences of an implementation (`verify --expect FILE`).

    format: mb-expect/1
    expected:
      - code: ILLEGAL_DECISION
        clause: keywords.sneaky      # optional
        game: g-000017               # optional: only this game
        edition: fr-first            # optional: only games verified under this edition
        note: why it is accepted     # optional

The file is checked when it is read: the format line, every key, every
code, clause id and edition (with a suggestion for a near miss), each
problem named with the file and line. What a match means for a game and
for the run (expected failure, unexpected pass, stale entry) is set out in
`oracle.replay.outcome`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec
import yaml

from .. import safeyaml
from .. import games
from ..term import did_you_mean, visible
from .outcome import StaleExpectation
from .findings import MALFORMED

FORMAT = "mb-expect/1"
# The editions an entry may name: every game's (Mindbug's four, Mind Up!'s `fr`).
EDITIONS = tuple(e for name in games.GAMES for e in games.attribute(name, "EDITION_IDS"))

# The codes of findings that say a game broke the rules: the only ones an
# expectation can accept (a malformed log is never a known divergence).
VIOLATION_CODES = (
    "BAD_SETUP", "GAME_OVER", "ILLEGAL_DECISION", "ILLEGAL_RANDOM", "LINE_AFTER_END", "MISSING_DECISION",
    "STATE_MISMATCH", "WRONG_FIRST_PLAYER", "WRONG_RESULT",
)


class Expected(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One accepted divergence."""

    code: Literal[VIOLATION_CODES]  # type: ignore[valid-type]
    clause: str | None = None
    game: str | None = None
    edition: Literal[EDITIONS] | None = None  # type: ignore[valid-type]
    note: str = ""


class ExpectFile(msgspec.Struct, forbid_unknown_fields=True):
    """An expectation file (mb-expect/1)."""

    format: Literal["mb-expect/1"]
    expected: list[Expected]


FIELDS = tuple(Expected.__struct_fields__)
TOP_FIELDS = tuple(ExpectFile.__struct_fields__)


class ExpectError(ValueError):
    """The file cannot be used; the message holds one `file:line: ...` line per problem."""


@dataclass
class Entry:
    expected: Expected
    file: str
    line: int


def _suggest(word: str, choices) -> str:
    return did_you_mean(word, choices, quote=False)


def _line(node) -> int:
    return node.start_mark.line + 1


def _every_clause() -> dict:
    """The clauses of every game (Mindbug's ids and Mind Up!'s mu.* ids)."""
    return {cid: c for name in games.GAMES for cid, c in games.entry(name).load_catalogue().items()}


def expect_schema() -> dict:
    """JSON Schema (2020-12) of an expectation file; clause ids from the catalogue."""
    from ..schemas import json_schema

    out = json_schema(ExpectFile, id="https://mb-oracle.invalid/schema/mb-expect-1.json",
                      title="mb-oracle expectations (mb-expect/1)",
                      description="Known, accepted divergences for `mb-oracle verify --expect`; "
                                  "see spec/replay-format.md.")
    clause = out["$defs"]["Expected"]["properties"]["clause"]
    clause.clear()
    clause.update({"anyOf": [{"enum": sorted(_every_clause())}, {"type": "null"}], "default": None})
    return out


def load(path: str) -> Expectations:
    """Read and check an expectation file; raises ExpectError naming every problem."""
    name = visible(str(path))           # on one line, whatever the file's name holds
    try:
        data = safeyaml.read_file(path)
    except OSError as e:
        raise ExpectError(f"{name}: cannot read: {e.strerror}") from None
    if len(data) > safeyaml.MAX_BYTES:
        raise ExpectError(f"{name}: the file is larger than {safeyaml.MAX_BYTES} bytes (MAX_BYTES)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ExpectError(f"{name}: not UTF-8 text (byte {e.start})") from None
    try:
        docs = [node for node, _ in safeyaml.documents(text)]   # within the limits of untrusted YAML
        if len(docs) > 1:
            raise ExpectError(f"{name}:{docs[1].start_mark.line + 1}: a second document: this file holds one")
        root = docs[0] if docs else None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise ExpectError(f"{name}{where}: not valid YAML or JSON: {getattr(e, 'problem', None) or e}") from None
    return Expectations(path, _check(path, root))


def _scalar(node):
    return safeyaml.scalar(node)   # built as the document was: no value fails here that loaded


def _check(path: str, root) -> list[Entry]:
    errors: list[str] = []
    name = visible(str(path))

    def err(node, where: str, message: str) -> None:
        line = _line(node) if node is not None else 1
        errors.append(f"{name}:{line}: {where}: {message}" if where else f"{name}:{line}: {message}")

    if root is None or not isinstance(root, yaml.MappingNode):
        raise ExpectError(f"{name}:1: an expectation file is a mapping: `format: {FORMAT}` and `expected:`, "
                          "a list of entries")
    top = {}
    for k, v in root.value:
        key = _scalar(k) if isinstance(k, yaml.ScalarNode) else "?"
        if key not in TOP_FIELDS:
            err(k, "", f"unknown key {key!r}{_suggest(str(key), TOP_FIELDS)}; known: {', '.join(TOP_FIELDS)}")
        else:
            top[key] = (k, v)
    if "format" not in top:
        err(root, "format", f"missing; the file must say `format: {FORMAT}`")
    else:
        value = _scalar(top["format"][1])
        if value != FORMAT:
            err(top["format"][1], "format", f"{value!r} is not {FORMAT}")
    entries: list[Entry] = []
    if "expected" not in top:
        err(root, "expected", "missing; a list of entries (it may be empty: `expected: []`)")
    elif not isinstance(top["expected"][1], yaml.SequenceNode):
        err(top["expected"][1], "expected", "must be a list of entries")
    else:
        catalogue = _every_clause()
        seen: dict[tuple, int] = {}
        for i, node in enumerate(top["expected"][1].value):
            e = _check_entry(node, f"expected[{i}]", catalogue, err)
            if e is None:
                continue
            key = msgspec.structs.astuple(e)[:4]
            if key in seen:
                err(node, f"expected[{i}]", f"the same entry as line {seen[key]}: it could never match")
                continue
            seen[key] = _line(node)
            entries.append(Entry(e, path, _line(node)))
    if errors:
        raise ExpectError("\n".join(errors))
    return entries


def _check_entry(node, where: str, catalogue, err) -> Expected | None:
    if not isinstance(node, yaml.MappingNode):
        err(node, where, f"an entry is a mapping with the keys {', '.join(FIELDS)} (code required)")
        return None
    values: dict = {}
    ok = True
    for k, v in node.value:
        key = _scalar(k) if isinstance(k, yaml.ScalarNode) else "?"
        if key not in FIELDS:
            err(k, where, f"unknown key {key!r}{_suggest(str(key), FIELDS)}; known: {', '.join(FIELDS)}")
            ok = False
            continue
        at = f"{where}.{key}"
        if key in values:
            err(k, at, "given twice in one entry")
            ok = False
            continue
        if not isinstance(v, yaml.ScalarNode):
            err(v, at, "must be text, not a list or a mapping")
            ok = False
            continue
        value = _scalar(v)
        if value is None and key != "code":
            continue
        if not isinstance(value, str):
            hint = f' (write it quoted: "{value}")' if key == "game" and isinstance(value, (int, float)) else ""
            err(v, at, f"must be text, not {type(value).__name__}{hint}")
            ok = False
            continue
        if key == "code" and value not in VIOLATION_CODES:
            if value in MALFORMED:
                err(v, at, f"{value} makes a game malformed; malformed input cannot be an expected divergence")
            else:
                err(v, at, f"unknown code {value!r}{_suggest(value, VIOLATION_CODES)}")
            ok = False
            continue
        if key == "clause" and value not in catalogue:
            err(v, at, f"unknown clause {value!r}{_suggest(value, catalogue)} (mb-oracle clauses lists them)")
            ok = False
            continue
        if key == "edition" and value not in EDITIONS:
            err(v, at, f"unknown edition {value!r}{_suggest(value, EDITIONS)}; known: {', '.join(EDITIONS)}")
            ok = False
            continue
        values[key] = value
    if "code" not in values:
        if ok:
            err(node, where, "code: missing (the finding code to accept, e.g. ILLEGAL_DECISION)")
        return None
    if not ok:
        return None
    return Expected(**values)


def matches(e: Expected, rep, finding) -> bool:
    return (e.code == finding.code and (e.clause is None or e.clause in finding.clauses)
            and (e.game is None or e.game == rep.id) and (e.edition is None or e.edition == rep.edition))


@dataclass
class Expectations:
    """The entries of one file, and what they matched in this run."""

    file: str
    entries: list[Entry]
    hits: list[int] = field(default_factory=list)
    # game id -> how the games of that id named by an entry came out:
    # editions verified under, or "malformed"
    named: dict[str, set] = field(default_factory=dict)
    # entries naming a game that showed their divergence, each finding of it
    # accepted by an earlier entry (stale, not an unexpected pass); and those
    # naming a game that did not show it (an unexpected pass)
    shadowed: set[int] = field(default_factory=set)
    missed: set[int] = field(default_factory=set)

    def __post_init__(self):
        self.hits = [0] * len(self.entries)
        self._general = [i for i, e in enumerate(self.entries) if e.expected.game is None]
        self._by_game: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            if e.expected.game is not None:
                self._by_game.setdefault(e.expected.game, []).append(i)

    def apply(self, rep) -> None:
        """Mark the game's accepted findings and set its outcome."""
        specific = self._by_game.get(rep.id, ())
        if specific:
            self.named.setdefault(rep.id, set()).add("malformed" if rep.verdict == "malformed" else rep.edition)
        if rep.verdict in ("malformed", "error"):
            rep.outcome = rep.verdict          # nothing verified to accept or miss
            return
        candidates = sorted([*self._general, *specific]) if specific else self._general
        here: set[int] = set()
        for f in rep.findings:
            for i in candidates:
                if matches(self.entries[i].expected, rep, f):
                    f.expected = True
                    self.hits[i] += 1
                    here.add(i)
                    break
        missed = []
        for i in specific:
            e = self.entries[i].expected
            if i in here or e.edition not in (None, rep.edition):
                continue
            if any(matches(e, rep, f) for f in rep.findings):
                self.shadowed.add(i)        # the game shows it: an earlier entry accepted it
            else:
                self.missed.add(i)
                missed.append(self.entries[i])
        if any(not f.expected for f in rep.findings):
            rep.outcome = "fail"
        elif missed:
            rep.outcome = "xpass"
            rep.notes.append("expected divergences that did not happen: " + ", ".join(
                f"{e.expected.code} [{e.expected.clause or '*'}] ({e.file}:{e.line})" for e in missed))
        elif rep.findings:
            rep.outcome = "xfail"
        else:
            rep.outcome = "pass"

    def stale(self) -> list[StaleExpectation]:
        """Entries that accepted nothing this run and are not an unexpected
        pass of a game they name."""
        out = []
        for i, entry in enumerate(self.entries):
            if self.hits[i]:
                continue
            e = entry.expected
            if e.game is None:
                reason = "matched no finding in this run"
            else:
                seen = self.named.get(e.game)
                if not seen:
                    reason = f"game {e.game!r} is not in the input"
                elif seen == {"malformed"}:
                    reason = f"game {e.game!r} is malformed: nothing in it could be checked"
                elif i in self.shadowed and i not in self.missed:
                    reason = f"game {e.game!r} shows it, but an earlier entry accepted each of its findings there"
                elif e.edition is None or e.edition in seen:
                    continue                    # that game is an unexpected pass
                else:
                    reason = (f"game {e.game!r} was verified under {', '.join(sorted(s for s in seen if s != 'malformed'))}, "
                              f"not {e.edition}")
            out.append(StaleExpectation(file=entry.file, line=entry.line, code=e.code, reason=reason,
                                        clause=e.clause, game=e.game, edition=e.edition))
        return out
