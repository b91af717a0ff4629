"""Shrinking a divergence to a short game that still shows it.

Delta debugging over the decisions: drop a run of decisions, replay the
rest in lockstep (a decision the rules no longer allow at its point is
skipped, so a shortened game still plays), and keep the shorter game if
the engine still differs from the rules in the same way (the same code,
the same first clause), wherever that now happens. Chunks start at half
the game and halve down to single decisions; then every run of one to six
decisions at every offset is tried, until no run can go (or the budget
of replays is spent).

The deal keeps its cards (a Mindbug game needs the whole set), but it is
rearranged when that helps: each player's draw pile is reordered so that
the cards the game uses come first, in the order it uses them, and, in a
second deal, every card a player plays is first moved into that player's
own draw pile (swapped with a card the game does not use, from the other
draw pile or the unused pile; revealed cards stay where they are). The
cards a short game needs are then in the starting hands of the players who
play them, and the decisions that only drew them can go. """

from __future__ import annotations

from ....harness.engine_client import Engine, EngineFault
from ..engine import Decision
from ..engine.errors import SetupError
from .lockstep import Divergence, replay, start_game


def legal_prefix(edition: str, setup: dict, decisions: list[Decision], readings: dict | None = None) -> tuple:
    """The decisions the rules accept, in order, skipping the others (as `replay` does)."""
    g = start_game(edition, setup, readings)[0]
    kept = []
    for d in decisions:
        p = g.pending
        if p is None:
            break
        if (d.kind, d.arg) not in p.options or (not p.is_chance and p.player != d.player):
            continue
        g.apply_unchecked(d.kind, d.arg)
        kept.append(d)
    return tuple(kept)


class Shrinker:
    def __init__(self, engine: Engine, edition: str, setup: dict, budget: int = 400, readings: dict | None = None):
        self.engine = engine
        self.readings = readings or {}
        self.edition = edition
        self.setup = setup
        self.budget = budget            # lockstep replays at most (a count, not a time: the result is reproducible)
        self.replays = 0
        self._seen: set[tuple] = set()

    def _try(self, candidate: list[Decision], signature: tuple) -> Divergence | None:
        key = legal_prefix(self.edition, self.setup, candidate, self.readings)
        if key in self._seen:
            return None
        self._seen.add(key)
        self.replays += 1
        run = replay(self.engine, self.edition, self.setup, list(key), self.readings)
        d = run.divergence
        return d if d is not None and d.signature == signature else None

    def _spent(self) -> bool:
        return self.replays >= self.budget

    def shrink(self, div: Divergence) -> tuple[Divergence, dict]:
        """The shortest game found that shows the same divergence as `div`,
        and its deal."""
        best = self._decisions(div)
        setup = self.setup
        for deal in _rearranged(self.setup, best):
            if self._spent():
                break
            trial = Shrinker(self.engine, self.edition, deal, self.budget - self.replays, self.readings)
            try:
                got = trial._try(best.decisions, best.signature)
                if got is not None:
                    got = trial._decisions(got)
            finally:
                self.replays += trial.replays
            if got is not None and len(got.decisions) < len(best.decisions):
                best, setup = got, deal
        return best, setup

    def _decisions(self, div: Divergence) -> Divergence:
        best = div
        sig = div.signature
        n = 2
        try:
            while best.decisions and not self._spent():
                ds = best.decisions
                chunk = max(1, -(-len(ds) // n))
                better = None
                for start in range(len(ds) - chunk, -1, -chunk) if chunk < len(ds) else [0]:
                    if self._spent():
                        break
                    got = self._try(ds[:start] + ds[start + chunk:], sig)
                    if got is not None and len(got.decisions) < len(ds):
                        better = got
                        break
                if better is not None:
                    best = better
                    n = max(n - 1, 2)
                elif chunk == 1:
                    break
                else:
                    n = min(len(ds), n * 2)
            best = self._windows(best, sig)
        except EngineFault:
            pass        # shrinking stops; the best game so far stands
        return best

    def _windows(self, best: Divergence, sig: tuple) -> Divergence:
        """Then drop every short run of decisions at every offset (a turn,
        a turn and the answer to it), last ones first, until none can go."""
        improved = True
        while improved and not self._spent():
            improved = False
            for width in range(1, 7):
                ds = best.decisions
                for start in range(len(ds) - width, -1, -1):
                    if self._spent():
                        return best
                    got = self._try(ds[:start] + ds[start + width:], sig)
                    if got is not None and len(got.decisions) < len(ds):
                        best, improved = got, True
                        break
                if improved:
                    break
        return best


def from_position(engine: Engine, edition: str, setup: dict, div: Divergence, readings: dict | None = None,
                  tries: int = 4) -> tuple[Divergence, object] | None:
    """The same divergence from a position: the rules' position at one of
    the last turn actions before it (the latest first), set up on both
    sides, and the decisions from there; None when none shows it (or the
    engine cannot set up positions)."""
    from .views import position_of

    if not engine.positions or not isinstance(setup, dict):
        return None
    g = start_game(edition, setup, readings)[0]
    points = []
    for i, d in enumerate(div.decisions):
        if g.pending is not None and g.pending.stage == "action" and i:
            points.append((i, position_of(g)))
        g.apply_unchecked(d.kind, d.arg)
    for i, pos in reversed(points[-tries:]):
        try:
            run = replay(engine, edition, pos, div.decisions[i:], readings)
        except EngineFault:
            return None
        got = run.divergence
        if got is not None and got.signature == div.signature:
            return got, pos
    return None


def _rearranged(setup: dict, div: Divergence):
    """Deals like `setup` whose draw piles start with the cards the game
    uses: first those the finding names, then every card a decision names;
    then the same with every played card moved to its player's draw pile."""
    if not isinstance(setup, dict):
        return                          # a position: its draw piles are as the game left them
    used: list[int] = []
    for d in div.decisions:
        for c in (d.arg if isinstance(d.arg, tuple) else (d.arg,)):
            if isinstance(c, int) and c not in used:
                used.append(c)
    named = [c for c in div.finding.cards if c not in used]
    seen = [[list(x) for x in setup["decks"]]]
    for base in (setup, _regrouped(setup, div, used + named)):
        if base is None:
            continue
        for first in (used + named, [c for c in used if c in div.finding.cards] + named):
            decks = []
            for deck in base["decks"]:
                front = [c for c in first if c in deck]
                decks.append(front + [c for c in deck if c not in front])
            if decks not in seen:
                seen.append(decks)
                yield {**base, "decks": decks}


def _regrouped(setup: dict, div: Divergence, used: list[int]) -> dict | None:
    """The deal with every card a player plays in the game moved into that
    player's draw pile, each swapped with a card the game never names (from
    the end of that draw pile), or None when nothing moves. The cards the
    reveals name are left where they are (they pick the starting player)."""
    decks = [list(x) for x in setup["decks"]]
    unused = list(setup.get("unused") or ())
    revealed = {c for pair in setup.get("reveals") or () for c in pair}
    keep = set(used) | revealed
    moved = False
    for d in div.decisions:
        if d.kind != "play" or d.player not in (0, 1) or d.arg in decks[d.player]:
            continue
        mine = decks[d.player]
        spare = next((i for i in range(len(mine) - 1, -1, -1) if mine[i] not in keep), None)
        if spare is None or d.arg in revealed:
            continue
        for pile in (decks[1 - d.player], unused):
            if d.arg in pile:
                j = pile.index(d.arg)
                pile[j], mine[spare] = mine[spare], d.arg
                moved = True
                break
    return {**setup, "decks": decks, "unused": unused} if moved else None


def thinned(engine: Engine, edition: str, pos, div: Divergence, readings: dict | None = None,
            budget: int = 60) -> tuple[object, Divergence, int]:
    """Fewer cards in the position: the cards of each zone (the unused pile,
    the draw piles, the discard piles, the hands, the play areas) taken out
    of the position altogether, a whole zone at once and then one card at a
    time, and kept out when the same divergence still shows (replayed from
    the smaller position). (the position, its divergence, the replays spent)."""
    import msgspec

    state = {"best": pos, "found": div, "spent": 0}

    def attempt(cards) -> bool:
        if state["spent"] >= budget:
            return False
        cand = state["best"]
        for c in cards:
            cand = _without(cand, c, msgspec)
        state["spent"] += 1
        try:
            got = replay(engine, edition, cand, state["found"].decisions, readings).divergence
        except SetupError:
            return False                # a position the rules refuse (life cards need the unused pile)
        if got is not None and got.signature == div.signature:
            state["best"], state["found"] = cand, got
            return True
        return False

    zones = [("unused", None)] + [(z, p) for z in ("deck", "discard", "hand", "play") for p in (0, 1)]
    try:
        for zone, p in zones:
            cards = getattr(state["best"], zone)
            if p is None and not isinstance(cards, list):
                continue
            cards = list(cards if p is None else cards[p])
            if len(cards) > 1 and attempt(cards):
                continue
            for c in cards:
                attempt([c])
    except EngineFault:
        pass
    return state["best"], state["found"], state["spent"]


def _without(pos, card: int, msgspec):
    """The position with `card` in none of its zones and not among its cards."""
    def drop(pair):
        return [[c for c in z if c != card] for z in pair]

    changes = {z: drop(getattr(pos, z)) for z in ("hand", "play", "discard", "deck")}
    changes["exhausted"] = [c for c in pos.exhausted if c != card]
    changes["out"] = [c for c in pos.out if c != card]
    if isinstance(pos.unused, list):
        changes["unused"] = [c for c in pos.unused if c != card]
    if isinstance(pos.octonite, dict):
        changes["octonite"] = {c: n for c, n in pos.octonite.items() if c != card}
    changes["cards"] = {c: n for c, n in pos.cards.items() if c != card}
    return msgspec.structs.replace(pos, **changes)
