"""The fast lane: a game that keeps to the plain form of mb-replay/1 is
verified without the bookkeeping the other forms need.

Most recorded games write each decision the rules ask for, in the order
asked, and claims the rules agree with. For such a game the verifier only
has to apply each decision and compare each claim. `FastVerifier` does just
that and gives up (`Detour`) at the first line that is anything else: a
finding, a line the rules do not ask for (an accepted form such as a forced
step left out), a claim that differs. The full `Verifier` then reads the
game from its first line, so a report never depends on which lane made it:
the fast lane only ever returns reports the full verifier gives too
(tests/test_fastlane.py checks that on every sample and on games broken at
random).

Decision lines repeat from game to game byte for byte (`{"t":"pass","p":1}`),
so the fast lane keeps what each one decodes to (`_decisions`): a line seen
before is not decoded again. A state claim is first compared, as bytes, with
the full claim the rules would write of the state (`claims.claim_into`: what
self-play and annotate write): the same bytes state exactly the rules' state,
and the line needs no decoding. After one claim that is not those bytes (a
log of another form), the game's claims are decoded and compared as fields.
"""

from __future__ import annotations

from typing import Any, Final, Iterator

import msgspec

from ....replay.findings import GameReport, say_unknown_fields
from ....replay.limits import MAX_LINE_BYTES, plain
from ....replay.reader import RawGame
from ....replay.twice import given_twice
from ..cards import UnknownSet, table_cards, version as cards_version
from ..editions import UnknownEdition, profile as get_profile
from ..engine import QuietGame, SetupError
from ..readings import differing, with_readings
from ..engine.state import COMPILED, listed
from .claims import claim_into, claim_matches
from .format import BOUNDED_LINES, FORMAT, decision_arg, named_setup, ordered_setup, strict_decoder
from .lines import read_line
from .verifier import Verifier, _checked_sets

# Final: the compiled build keeps these in the module's own variables, not its dict.
_DECODE_ERRORS: Final = (msgspec.DecodeError, msgspec.ValidationError)
# Whatever decoding a line outside the limits may raise: such a line is read again by `read_line`.
_ANY_DECODE_ERROR: Final = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError)
_strict: Final = strict_decoder.decode
# A line that is these bytes of what it decodes to gives no key twice (the
# encoder writes each field and each key of a mapping once): the common
# line, written by msgspec as self-play and annotate write it, is settled
# without `given_twice`, which searches its bytes several times.
_encode: Final = msgspec.json.Encoder().encode
_UNSET: Final = msgspec.UNSET
_STATE: Final = b'{"t":"state",'
_SETUP: Final = b'{"t":"setup",'


class _SetupDecoders:
    """The decoders of the setup lines of one choice of card sets: of
    `format.ordered_setup` (made at the second setup line of the sets, about
    1 M instructions for First Contact; None before) and of
    `format.named_setup` (made at the first, about 1.5 M: with the names of
    those sets only, the fewer the cheaper); the number of their cards, and
    whether a setup line of them was read."""

    __slots__ = ("ordered", "named", "count", "read")

    def __init__(self, named: Any, count: int):
        self.ordered: Any = None
        self.named: Any = named
        self.count = count
        self.read = False


# By a game's card sets (at most MAX_NAMED), for the card database of
# version _named_version[0].
_named: Final[dict[tuple, _SetupDecoders]] = {}
_named_version: Final[list] = [-1]
MAX_NAMED: Final = 16


class Detour(Exception):
    """The game needs the full verifier."""


# Decision lines already read: the exact bytes of a line -> its ((kind,
# engine argument), player). A line's meaning depends on its bytes alone
# (decision lines have no fields that deserve a note), so a hit is the line
# decoded again. Bounded: short lines only, and emptied when full, so a
# stream of distinct lines costs no more memory than this. A plain dict, so
# that the compiled build looks a line up without a method call.
_decisions: Final[dict[bytes, tuple]] = {}
_COMPILED: Final = COMPILED
MAX_DECISIONS: Final = 4096
MAX_DECISION_LINE: Final = 256


def _keep(raw: bytes, line, t: str) -> tuple:
    """A decision line read: its entry of `_decisions`, kept there if short."""
    hit = (listed(t, decision_arg(line)), None if t == "random" else line.p)
    if len(raw) <= MAX_DECISION_LINE:
        if len(_decisions) >= MAX_DECISIONS:
            _decisions.clear()
        _decisions[raw] = hit
    return hit


def _named_setup(raw_line, sets: tuple) -> Any:
    """A setup line of a game of `sets` in the strict contract, without
    exporter data or a key given twice (`_keys_once`): its cards the ids 1
    to N in order, decoded into a struct (`format.ordered_setup`), or else
    decoded with each card name the card database's own string
    (`format.named_setup`); None for any other line (a card of other sets
    among them), which `FastVerifier._decode` reads."""
    if type(raw_line) is not bytes or not raw_line.startswith(_SETUP) or len(raw_line) > MAX_LINE_BYTES:
        return None
    version = cards_version()
    if _named_version[0] != version:
        _named.clear()
        _named_version[0] = version
    decoders = _named.get(sets)
    if decoders is None:
        if len(_named) >= MAX_NAMED:
            _named.clear()
        cards = table_cards(sets)
        decoders = _named[sets] = _SetupDecoders(
            msgspec.json.Decoder(named_setup(tuple(dict.fromkeys(cards)))).decode, len(cards))
    count = decoders.count
    ordered = decoders.ordered
    line: Any = None
    if ordered is None:
        # Made at the second setup line of these sets (1 M instructions), used from the third: a run
        # of one game does without it.
        if decoders.read:
            decoders.ordered = msgspec.json.Decoder(ordered_setup(count)).decode
        decoders.read = True
    else:
        try:
            # The cards as self-play and annotate write them: the ids 1 to N, in order.
            line = ordered(raw_line)
        except _ANY_DECODE_ERROR:
            pass
    if line is None:
        try:
            line = decoders.named(raw_line)
        except _ANY_DECODE_ERROR:
            return None
        count = len(line.cards)
    if line.x is not _UNSET or not _keys_once(raw_line, line, count):
        return None
    return line


def _keys_once(raw: bytes, line: Any, cards: int) -> bool:
    """Whether a setup line that `ordered_setup` or `named_setup` decoded
    gives each key once.
    Its texts in quotes are its keys and its text values: `t`'s ("setup")
    and each card's name (every other value is a number or a list of
    numbers). Each key its decoded value holds and each of those texts is
    in its bytes, two quotes each: a key given again adds its own two
    quotes, a quote escaped within a text one more. So the line gives each
    key once when its quotes are exactly those, whatever blanks it has.
    `cards`: the ids that `line.cards` holds."""
    held = 4 + cards                    # t, cards, decks, unused, and each card's id
    if line.first is not _UNSET:
        held += 1
    if line.reveals is not _UNSET:
        held += 1
    if line.life_cards is not _UNSET:
        held += 1
    if line.set_aside is not _UNSET:
        held += 1
    return raw.count(b'"') == 2 * (held + 1 + cards)


def _plain_head(raw_line) -> Any:
    """A game line as `FastVerifier.run` takes it, decoded; else None."""
    if type(raw_line) is not bytes or not plain(raw_line):
        return None
    try:
        head = _strict(raw_line)
    except _ANY_DECODE_ERROR:
        return None
    if head.__struct_config__.tag != "game" or raw_line != _encode(head):
        return None
    return head


# Lines that are not decisions, by type: these leave the decision path.
_NOT_DECISIONS: Final = frozenset(("note", "state", "end", "game", "setup"))


class FastVerifier(Verifier):
    """Verifies a game in the plain form; raises `Detour` otherwise."""

    game_class = QuietGame      # a plain game's report needs no events: any finding is a detour
    keep_going = False
    check_invariants = False

    def __init__(self, raw: RawGame, edition: str | None, readings: dict | None, strict: bool):
        # Only what the fast lane reads: it makes no finding (`find`), and
        # leaves the forced steps before an end line to the full verifier
        # (`_end`), which alone keeps the bookkeeping of findings and steps.
        self.raw = raw
        self.edition_override = edition
        self.readings_override = readings or {}
        self.strict = strict
        self.report = GameReport(file=raw.file, line=raw.lines[0][0], id="?")

    def find(self, *args, **kw) -> None:
        raise Detour

    def run(self) -> GameReport:
        """`Verifier.run` for the common game line: msgspec's own writing of
        what the strict contract decodes it to (so no key given twice, no
        unknown field), within every limit at a glance (limits.plain), naming
        its edition (or given one) and no reading. Any other game line, or
        one whose edition or sets are unknown, is read by `Verifier.run`."""
        lines: Iterator[tuple[int, Any]] = iter(self.raw.lines)
        lineno, raw_line = next(lines)
        head = _plain_head(raw_line)
        if head is None:
            return Verifier.run(self)
        edition = self.edition_override or (head.edition if head.edition is not _UNSET else None)
        if edition is None or head.readings is not _UNSET and head.readings:
            return Verifier.run(self)
        try:
            prof = get_profile(edition)
            sets = _checked_sets(tuple(head.sets), cards_version())     # setup.sets
        except (UnknownEdition, UnknownSet):
            return Verifier.run(self)
        rep = self.report
        rep.id = head.id
        if head.impl is not _UNSET:
            rep.impl = f"{head.impl.name} {head.impl.version}".strip()
        rep.edition = prof.edition
        chosen = dict(self.readings_override)
        self.readings = chosen
        if chosen:
            prof = with_readings(prof, chosen)      # the team's readings: the edition's own profile
            rep.readings = differing(chosen) or None
        self.sets = sets
        return self._read(lines, prof, lineno)

    def _setup(self, line, lineno, prof) -> bool:
        """`Verifier._setup` for a deal that names its reveals and no life
        cards the edition does not take: any fault of the deal is a detour,
        where the full verifier says it; another deal is read by
        `Verifier._setup`."""
        reveals = line.reveals
        if reveals is _UNSET or not reveals or line.life_cards is not _UNSET and not prof.life_cards:
            return Verifier._setup(self, line, lineno, prof)
        first = None if line.first is _UNSET else line.first
        life_cards = None if line.life_cards is _UNSET else line.life_cards
        try:
            self.g = QuietGame.deal(prof, line.cards, line.decks, line.unused, first, reveals, life_cards,
                                    None, self.sets, None if line.set_aside is _UNSET else line.set_aside)
        except SetupError:
            raise Detour from None
        self.cards = line.cards
        return True

    def _dealt(self, line) -> None:
        pass        # no finding to show the deal's events, no resynchronisation to start from the draw piles

    def _end(self, line, lineno) -> None:
        g = self.g
        assert g is not None
        if not g.is_over:
            raise Detour        # the rules' forced steps before the end line: the full verifier takes them
        if line.reason == "aborted" or line.winner != g.winner or line.reason != g.reason:
            raise Detour        # a result the rules do not give: the full verifier says it
        # Verifier._end of the result the rules give (Verifier._mark_end: not aborted).
        self.ended = True
        self.end_line = lineno

    def _finish(self) -> GameReport:
        rep = self.report
        if rep.findings or not self.ended:
            return Verifier._finish(self)
        # A game read to its end line without a finding: it conforms, and has its result if it is over.
        g = self.g
        if g is not None and g.is_over:
            rep.result = {"winner": g.winner, "reason": g.reason}
        return rep

    def _read(self, given, prof, last_line) -> GameReport:
        # Typed pairs: the compiled build takes each apart without iterating over it.
        lines: Iterator[tuple[int, Any]] = iter(given)
        # The lines up to the setup line: notes may come first.
        for lineno, raw_line in lines:
            line = _named_setup(raw_line, self.sets)
            if line is not None:
                t = "setup"
            else:
                line, t = self._decode(raw_line, lineno)
                if t == "note":
                    continue
            if t != "setup" or not self._setup(line, lineno, prof):
                raise Detour
            break
        else:
            raise Detour
        g = self.g
        assert g is not None    # _setup dealt the game
        known = _decisions
        ended = False
        applied = 0
        as_bytes = True           # the claims so far were the rules' own bytes
        written = bytearray()     # the rules' claim, written again at each state line
        hit: tuple | None
        for lineno, raw_line in lines:
            # A state line is never a decision line: it is compared before
            # it is looked for among them (which would hash all its bytes).
            if type(raw_line) is bytes and raw_line.startswith(_STATE):
                if as_bytes:
                    # The bytearray on the left: its own comparison runs at once.
                    if not ended and claim_into(g, written) == raw_line:
                        continue
                    as_bytes = False
                hit = None
            else:
                hit = known.get(raw_line) if type(raw_line) is bytes else None
            if hit is None:
                line, t = self._decode(raw_line, lineno)
                if t in _NOT_DECISIONS:
                    if t == "note":
                        continue
                    if t == "state":
                        if not (claim_matches(g, line) or self._agrees(g, line)):
                            raise Detour
                        continue
                    if ended or t != "end":
                        raise Detour       # a second end line, a second game or setup line
                    self._end(line, lineno)
                    ended = True
                    continue
                hit = _keep(raw_line, line, t)
            if ended:
                raise Detour
            # The line must be one of the answers the rules wait for, by the
            # player they ask (a chance outcome has no player).
            pend = g.state.pending
            decision: tuple = hit[0]
            if pend is None or ((who := pend.player) is not None and who != hit[1]):
                raise Detour
            # Most answers are the very objects the rules list (state.listed):
            # compiled, they are found by identity first (`in` compares each
            # option before it as a tuple); interpreted, `in` does that in C.
            options: list = pend.options
            if not _COMPILED:
                if decision not in options:
                    raise Detour
            else:
                for option in options:
                    if option is decision:
                        break
                else:
                    if decision not in options:
                        raise Detour
            g.apply_unchecked(decision[0], decision[1])
            applied += 1
        if not ended:
            raise Detour
        self.report.decisions += applied
        return self._finish()

    def _decode(self, raw_line, lineno) -> tuple:
        """A line decoded and its type; its unknown fields noted as the full
        verifier notes them.

        A setup, state or end line that the strict contract decodes, with no
        exporter data, is within every limit of limits.py whatever its
        bytes (format.BOUNDED_LINES): it is not measured first. Another line
        that the strict contract decodes is taken as `read_line` takes it
        when it is plain (limits.plain): without decoding it again."""
        if type(raw_line) is bytes and len(raw_line) <= MAX_LINE_BYTES:
            try:
                line = _strict(raw_line)
            except _ANY_DECODE_ERROR:
                pass
            else:
                if line.__class__ in BOUNDED_LINES and line.x is _UNSET or plain(raw_line):
                    if raw_line != _encode(line) and given_twice(raw_line, line):
                        raise Detour        # the full verifier says it
                    return line, line.__struct_config__.tag
        try:
            line, extra = read_line(raw_line)
        except _DECODE_ERRORS:
            raise Detour from None
        if given_twice(raw_line, line):
            raise Detour
        t = line.__struct_config__.tag
        if extra:
            say_unknown_fields(self, FORMAT, t, extra, lineno)
        return line, t


def fast_report(raw, edition, readings, strict) -> GameReport | None:
    """The report of a game in the plain form, or None: read it with `Verifier`."""
    if raw.kind != "game" or not raw.lines:
        return None
    try:
        return FastVerifier(raw, edition, readings, strict).run()
    except Detour:
        return None
