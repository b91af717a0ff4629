"""Comparing a state claim of a Mind Up! log with the rules' state: one
entry per card that the two put in different places, one per field that
differs, in game terms ("card 46 (orange): the log has it on player C's
second Score card; the rules have it on the first, which already holds
orange")."""

from __future__ import annotations

import msgspec

from ....replay.findings import DiffEntry
from ..cards import OBJECTIVES, ORDINALS, colour, describe, player_name
from ..engine.state import State

# The zones a claim may name, and the clause each is first about.
ZONE_CLAUSES = {"hands": "mu.turn.choose", "line": "mu.turn.next-line", "columns": "mu.score-cards.place"}


def _places(hands, line, columns) -> dict[int, list[tuple]]:
    """card -> its places: ('hands', p), ('line',), ('columns', p, i); only
    for the zones given (not None)."""
    out: dict[int, list[tuple]] = {}
    if hands is not None:
        for p, h in enumerate(hands):
            for c in h:
                out.setdefault(c, []).append(("hands", p))
    if line is not None:
        for c in line:
            out.setdefault(c, []).append(("line",))
    if columns is not None:
        for p, cols in enumerate(columns):
            for i, col in enumerate(cols):
                for c in col:
                    out.setdefault(c, []).append(("columns", p, i))
    return out


def _where(place: tuple) -> str:
    if place[0] == "hands":
        return f"in {player_name(place[1])}'s hand"
    if place[0] == "line":
        return "in the line"
    return f"on {player_name(place[1])}'s {ORDINALS[place[2]]} Score card"


def _json(place: tuple) -> dict:
    if place[0] == "hands":
        return {"zone": "hand", "player": place[1]}
    if place[0] == "line":
        return {"zone": "line"}
    return {"zone": "columns", "player": place[1], "column": place[2]}


def _text(card: int, log: list[tuple], rules: list[tuple], s: State) -> str:
    head = describe(card)
    if not log:
        return f"{head}: the log does not list it; the rules have it {', '.join(map(_where, rules))}"
    if not rules:
        return f"{head}: the log has it {', '.join(map(_where, log))}; the rules do not have it there"
    if len(log) == len(rules) == 1 and log[0][0] == rules[0][0] == "columns" and log[0][1] == rules[0][1]:
        p, i = rules[0][1], rules[0][2]
        others = [c for c in s.columns[p][i] if c != card]
        why = f"which already holds {colour(card)}" if others else "the first empty one"
        return (f"{head}: the log has it on {player_name(p)}'s {ORDINALS[log[0][2]]} Score card; "
                f"the rules have it on the {ORDINALS[i]}, {why}")
    return (f"{head}: the log has it {', '.join(map(_where, log))}; "
            f"the rules have it {', '.join(map(_where, rules))}")


def _field(name: str, log, rules, text: str) -> DiffEntry:
    return DiffEntry(text, field=name, log=log, rules=rules)


def as_claimed(line, s: State) -> State:
    """The rules' state as a claim between a turn's choices may describe it
    (mu.turn.choose): a card a player has laid face down is in front of
    them, no longer in hand; the rules keep it in the hand until the reveal.
    A player's hand claimed without that card is compared without it."""
    if line.hands is msgspec.UNSET or all(c is None for c in s.chosen):
        return s
    out = None
    for p, card in enumerate(s.chosen):
        if card is not None and p < len(line.hands) and card not in line.hands[p]:
            out = out or s.copy()
            out.hands[p] = [c for c in out.hands[p] if c != card]
    return out or s


def claim_matches(line, s: State) -> bool:
    """A quick test that a claim states the rules' state in the rules' own
    order (hands ascending, the line by number, each Score card in arrival
    order): then `claim_diff` finds nothing. False means: ask claim_diff."""
    U = msgspec.UNSET
    v = line.hands
    if v is not U and v != s.hands:
        return False
    v = line.line
    if v is not U and v != s.line:
        return False
    v = line.columns
    if v is not U and v != s.columns:
        return False
    v = line.round
    if v is not U and v != s.round:
        return False
    v = line.turn
    if v is not U and v != s.turn:
        return False
    v = line.order
    if v is not U and v != list(s.order):
        return False
    v = line.objectives
    if v is not U and sorted(v) != sorted(s.objectives):
        return False
    v = line.pile
    if v is not U and s.pile is not None and v != (len(s.pile) if v.__class__ is int else s.pile):
        return False
    v = line.scores
    if v is not U and v != s.scores:
        return False
    v = line.totals
    return v is U or v == s.totals()


def differs(line, s: State) -> bool:
    """Whether `claim_diff(line, s)` finds anything: at once where a claimed
    hand holds other cards than the rules' (each such card is a difference)."""
    hands = line.hands
    if hands is not msgspec.UNSET and len(hands) == s.players and any(
            sorted(h) != sorted(r) for h, r in zip(hands, s.hands)):
        return True
    return not claim_matches(line, s) and bool(claim_diff(line, s, 1))


def claim_diff(line, s: State, limit: int | None = None) -> list[DiffEntry]:
    """The differences between a state claim and the rules' state. With
    `limit`, the first `limit` of them at most (all of them when there are
    fewer): for a caller that only compares their number with `limit`."""
    U = msgspec.UNSET
    out: list[DiffEntry] = []
    n = s.players
    hands = line.hands if line.hands is not U else None
    cline = line.line if line.line is not U else None
    cols = line.columns if line.columns is not U else None
    for name, val in (("hands", hands), ("columns", cols)):
        if val is not None and len(val) != n:
            out.append(_field(name, len(val), n, f"{name}: the log gives {len(val)} players; the game has {n}"))
    if any(e.field for e in out):
        return out
    log_places = _places(hands, cline, cols)
    rules_places = _places(s.hands if hands is not None else None, s.line if cline is not None else None,
                           s.columns if cols is not None else None)
    for card in sorted(set(log_places) | set(rules_places)):
        a = sorted(log_places.get(card, []))
        b = sorted(rules_places.get(card, []))
        if a != b:
            out.append(DiffEntry(_text(card, a, b, s), card=card, log=[_json(x) for x in a],
                                 rules=[_json(x) for x in b]))
            if limit is not None and len(out) >= limit:
                return out          # the texts of the other cards are not written
    if cline is not None and sorted(cline) == sorted(s.line) and list(cline) != s.line:
        out.append(_field("line", list(cline), list(s.line), "the line: the log has it in another order; "
                          f"the rules lay it out by number: {' '.join(map(str, s.line))}"))
    for name, rules in (("round", s.round), ("turn", s.turn), ("order", list(s.order)),
                        ("objectives", sorted(s.objectives))):
        val = getattr(line, name)
        if val is U:
            continue
        log = sorted(val) if name == "objectives" else val
        if log != rules:
            out.append(_field(name, val, rules, f"{name}: the log says {val}; the rules say {rules}"))
    if line.pile is not U:
        if isinstance(line.pile, int):
            rules = len(s.pile) if s.pile is not None else line.pile
            if line.pile != rules:
                out.append(_field("pile", line.pile, rules, f"the pile: the log says {line.pile} cards; "
                                  f"the rules say {rules}"))
        elif s.pile is not None and list(line.pile) != s.pile:
            out.append(_field("pile", list(line.pile), list(s.pile), "the pile: the log's cards or order differ "
                              "from the rules'"))
    if line.scores is not U:
        out += _scores(line.scores, s)
    if line.totals is not U:
        totals = s.totals()
        if len(line.totals) != n or list(line.totals) != totals:
            out.append(_field("totals", list(line.totals), totals,
                              f"game scores: the log says {list(line.totals)}; the rules say {totals}"))
    return out if limit is None else out[:limit]


def _scores(claimed, s: State) -> list[DiffEntry]:
    out = []
    if len(claimed) != s.players:
        return [_field("scores", len(claimed), s.players, f"scores: the log gives {len(claimed)} players")]
    for p, (mine, rules) in enumerate(zip(claimed, s.scores)):
        if list(mine) != rules:
            out.append(_field(f"scores[{p}]", list(mine), list(rules),
                              f"{player_name(p)}'s round scores: the log says {list(mine)}; the rules say {rules}"))
    return out


def is_full(line) -> bool:
    """A claim that gives the whole state a resynchronisation needs."""
    U = msgspec.UNSET
    return all(getattr(line, f) is not U for f in ("round", "hands", "line", "columns", "order", "scores"))


SCORE_CLAUSES = ["mu.scoring.columns", "mu.scoring.bubbles"]
FIELD_CLAUSES = {"round": ["mu.game.rounds"], "turn": ["mu.turn.choose"], "order": ["mu.round.new-order"],
                 "objectives": ["mu.objectives.renew"], "pile": ["mu.round.take-back"],
                 "line": ["mu.setup.line", "mu.turn.next-line"]}


def _round_parts(mine: int, part: dict) -> set[str]:
    """The parts of one round score a wrong claimed number fits: the bubbles
    left out or counted the wrong way (mu.scoring.bubbles), the objectives
    left out or others met (mu.scoring.objectives); neither: the columns
    (mu.scoring.columns)."""
    cols, bubbles, met = sum(part["columns"]), part["bubbles"], sum(part["objectives"].values())
    out = set()
    if bubbles and mine in (cols + met, cols - bubbles + met):
        out.add("mu.scoring.bubbles")
    sums = {0}
    for value in part.get("shown", ()):     # every sum some of the objectives shown could give
        sums |= {x + value for x in sums}
    if mine - cols - bubbles in sums - {met}:
        out.add("mu.scoring.objectives")
    return out or {"mu.scoring.columns"}


def record_parts(parts: dict[int, list[dict | None]], events, round_: int, objectives) -> dict:
    """Add to `parts` (player -> the rules' parts of each round scored, as
    score_part reads them; None: a round not known) the scores of round
    `round_` among the rules' `events`. `objectives`: that round's objectives
    shown, whose values score_part tries. Returns `parts`."""
    shown = None
    for e in events:
        if e.kind == "score" and e.parts is not None:
            if shown is None:
                shown = [OBJECTIVES[o][1] for o in objectives]
            rounds = parts.setdefault(e.player, [])
            rounds += [None] * (round_ - len(rounds))
            rounds[round_ - 1] = {**e.parts, "shown": shown}
    return parts


def score_part(diff: list[DiffEntry], parts: dict) -> str | None:
    """The scoring clause that alone fits every wrong round score of a
    claim whose cards all agree, or None (nothing to tell, or no one part;
    a single score one point off tells nothing: a bubble of 1 left out looks
    like any slip of one point). `parts`: player -> the rules' parts of each
    round scored (scoring.breakdown, with `shown`: the values of the
    objectives shown that round; None: not known)."""
    if any(d.field is None for d in diff):
        return None         # cards in other places: the scores follow from them
    found: set[str] | None = None
    gaps = []
    for d in diff:
        if not (d.field or "").startswith("scores[") or not isinstance(d.log, list):
            continue
        rounds = parts.get(int(d.field[7:-1]), [])
        for r, (mine, right) in enumerate(zip(d.log, d.rules)):
            if mine != right:
                if r >= len(rounds) or rounds[r] is None or not isinstance(mine, int):
                    return None
                fits = _round_parts(mine, rounds[r])
                found = fits if found is None else found & fits
                gaps.append(abs(mine - right))
    if gaps == [1]:
        return None
    return found.pop() if found and len(found) == 1 else None


def score_part_first(clauses: list[str], diff: list[DiffEntry], parts: dict) -> list[str]:
    """`clauses` with the scoring clause that alone fits the wrong scores
    (score_part) first, when it is among them."""
    first = score_part(diff, parts)
    return [first] + [c for c in clauses if c != first] if first in clauses else clauses


def clauses_of(d: DiffEntry, since: list, objectives: bool, s: State | None = None) -> list[str]:
    """The clauses a difference of a claim is about: by field (the line by
    whether a turn has laid it out yet, `s`); for a
    card, the Score card it should be on (mu.score-cards.place), else the
    clauses of the rules' latest event that moved it (`since`: the rules'
    events since the sides last agreed; a line card across the start of a
    round: mu.round.line-stays), else its zone's."""
    if d.field is not None:
        name = d.field.split("[")[0]
        if name in ("scores", "totals"):
            return SCORE_CLAUSES + (["mu.scoring.objectives"] if objectives else []) \
                + (["mu.game.rounds"] if name == "totals" else [])
        if name == "line" and s is not None:
            return ["mu.setup.line"] if s.round <= 1 and s.turn == 0 else ["mu.turn.next-line"]
        return list(FIELD_CLAUSES.get(name, []))
    if (len(d.log or ()) == len(d.rules or ()) == 1 and d.log[0]["zone"] == d.rules[0]["zone"] == "columns"
            and d.log[0]["player"] == d.rules[0]["player"]):
        return ["mu.score-cards.place"]        # the right card, on the wrong Score card
    line = any(p["zone"] == "line" for p in (d.log or []) + (d.rules or []))
    for e in reversed(since):
        if e.card == d.card or (e.cards and d.card in e.cards):
            return [c for c in e.clauses if c != "mu.turn.reveal"] or list(e.clauses)
        if line and e.kind == "order" and "mu.round.new-order" in e.clauses:
            return ["mu.round.line-stays", "mu.turn.next-line"]
    zones = {p["zone"] for p in (d.log or []) + (d.rules or [])}
    return [ZONE_CLAUSES.get("hands" if z == "hand" else z, "mu.turn.choose") for z in sorted(zones)]
