"""What must hold after every step of any game of Mind Up!, read from the
rulebook a second time (not through the engine's own helpers):

- the line is sorted and holds one card per player (mu.setup.line,
  mu.turn.next-line);
- every card of the game is in exactly one place: a hand, the line, a
  Score card or the pile (mu.setup.components);
- each round uses its cards and no more: in round r every player holds
  6 + r cards in hand and on the Score cards, and the hands, the line and
  the Score cards hold n * (7 + r) cards, so a game of three rounds uses 10
  cards per player in all (mu.setup.deal, mu.round.take-back);
- a Score card holds one colour, a colour sits on one Score card, and no
  empty Score card is left of a used one (mu.score-cards.place);
- each round's score is what the clauses add up: the Score card's value
  times its cards, the bubbles, the objectives met (mu.scoring.*), read here
  from the card data and the objectives' conditions anew.

    problems(g) -> [str]     empty when all hold
"""

from __future__ import annotations

from ..cards import CARD_COUNT, CARDS, COLOURS, OBJECTIVES, ROUNDS
from ..readings import NO_GREEN, TIMING, ZERO


def problems(g) -> list[str]:
    s = g.state
    out: list[str] = []
    n = s.players
    if len(s.line) != n:
        out.append(f"the line holds {len(s.line)} cards for {n} players")
    if list(s.line) != sorted(s.line):
        out.append(f"the line {s.line} is not in ascending order")
    places: dict[int, list[str]] = {}

    def put(cards, where):
        for c in cards:
            places.setdefault(c, []).append(where)
    for p in range(n):
        put(s.hands[p], f"player {p}'s hand")
        for i, col in enumerate(s.columns[p]):
            put(col, f"player {p}'s Score card {i + 1}")
    put(s.line, "the line")
    if s.pile is not None:
        put(s.pile, "the pile")
        missing = [c for c in range(1, CARD_COUNT + 1) if c not in places]
        if missing:
            out.append(f"cards in no place: {missing[:10]}")
    twice = {c: w for c, w in places.items() if len(w) > 1}
    if twice:
        out.append(f"cards in two places: {dict(list(twice.items())[:5])}")
    if any(not 1 <= c <= CARD_COUNT for c in places):
        out.append("a card that is not a main card")
    if s.round >= 1:
        between = s.waiting_round and not s.over       # scored, the next round's cards not yet taken
        each = 6 + s.round
        for p in range(n):
            held = len(s.hands[p]) + sum(len(col) for col in s.columns[p])
            if held != each:
                out.append(f"player {p} holds {held} cards in hand and on the Score cards in round {s.round}, "
                           f"not {each}")
        used = sum(len(w) for c, w in places.items() if "pile" not in w[0])
        if used != n * (7 + s.round):
            out.append(f"round {s.round} uses {used} cards, not {n * (7 + s.round)}")
        if s.over and used != 10 * n:
            out.append(f"the game used {used} cards, not 10 per player")
        if between:
            if any(s.hands[p] for p in range(n)):
                out.append("a card stays in hand after the round's last card")
        elif len({len(h) for h in s.hands}) > 1:
            out.append(f"hands of different sizes {[len(h) for h in s.hands]}")
    for p in range(n):
        out += _columns(p, s.columns[p])
    if any(len(sc) > ROUNDS for sc in s.scores) or len({len(sc) for sc in s.scores}) > 1:
        out.append(f"round scores {s.scores} do not go one per round for every player")
    return out


def _columns(p: int, cols) -> list[str]:
    out = []
    seen: dict[str, int] = {}
    for i, col in enumerate(cols):
        if not col:
            if any(cols[i + 1:]):
                out.append(f"player {p}'s Score card {i + 1} is empty left of a used one")
            continue
        names = {CARDS[c][0] for c in col}
        if len(names) > 1:
            out.append(f"player {p}'s Score card {i + 1} holds {sorted(names)}")
        for name in names:
            if name in seen and seen[name] != i:
                out.append(f"player {p} has {name} on Score cards {seen[name] + 1} and {i + 1}")
            seen[name] = i
    return out


# -- the score, read anew ---------------------------------------------------------------

def _count(cols) -> dict[str, int]:
    out = dict.fromkeys(COLOURS, 0)
    for col in cols:
        for c in col:
            out[CARDS[c][0]] += 1
    return out


def _value_of(cols, order, name):
    return next((order[i] for i, col in enumerate(cols) if col and CARDS[col[0]][0] == name), None)


def _met(o: int, cols, order, mine: dict, everyone: list[dict], readings: dict) -> bool:
    if o in (5, 6, 10):
        name = "purple" if o == 10 else "pink"
        theirs = [e[name] for e in everyone]
        if not any(theirs) and readings[ZERO] == "nobody":
            return False
        return mine[name] == (min(theirs) if o == 5 else max(theirs))
    if o == 7:
        greens = [i for i, col in enumerate(cols) if col and CARDS[col[0]][0] == "green"]
        if not greens:
            return readings[NO_GREEN] == "bonus"
        return not any(cols[greens[0] + 1:])
    rule = {
        1: lambda: mine["orange"] in (1, 3), 2: lambda: _value_of(cols, order, "orange") in (1, 2),
        3: lambda: mine["blue"] in (2, 4), 4: lambda: mine["blue"] > 0 and all(v <= mine["blue"] for v in mine.values()),
        8: lambda: _value_of(cols, order, "green") in (4, 5), 9: lambda: mine["purple"] >= mine["orange"],
        11: lambda: min(mine.values()) > 0, 12: lambda: sum(v > 0 for v in mine.values()) == 3,
        13: lambda: 3 in mine.values(), 14: lambda: 4 in mine.values(),
    }
    return rule[o]()


def round_scores(columns, order, objectives, readings: dict) -> list[int] | None:
    """Each player's round score from the Score cards as the round ends;
    None where the reading of the objectives' timing makes it depend on the
    placement of the last cards (checked by the engine's own scenarios)."""
    if readings[TIMING] != "after-all-placed" and any(o in (5, 6, 10) for o in objectives):
        return None
    everyone = [_count(cols) for cols in columns]
    out = []
    for cols, mine in zip(columns, everyone):
        total = sum(order[i] * len(col) for i, col in enumerate(cols))
        total += sum(CARDS[c][1] for col in cols for c in col)
        total += sum(OBJECTIVES[o][1] for o in objectives if _met(o, cols, order, mine, everyone, readings))
        out.append(total)
    return out


def score_problems(g, scored_before: int) -> list[str]:
    """After a step that scored a round: the engine's scores against the clauses'."""
    s = g.state
    if not s.scores or len(s.scores[0]) == scored_before:
        return []
    want = round_scores(s.columns, s.order, s.objectives, g.readings)
    have = [sc[-1] for sc in s.scores]
    if want is not None and want != have:
        return [f"round {s.round} scores {have}; the clauses add up to {want}"]
    return []
