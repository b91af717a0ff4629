"""Playing games of Mind Up! with simple bots and writing them as
mu-replay/1 logs (`mb-oracle selfplay --game mind-up`).

Chance comes from the seed: the shuffle of the 60 cards (written as the
setup's `deck`), each round's Score order (drawn again, under
mu.round.order-repeat=must-differ, when it repeats the last round's), the
objectives drawn. The bots:
`random` picks any card of its hand; `greedy` picks the card that, if the
others played cards drawn at random from their hands, would add most to its
round score as it stands.
"""

from __future__ import annotations

import random
from typing import Iterator

import msgspec

from .. import readings as rd
from ..cards import CARD_COUNT, OBJECTIVES, letter
from ..engine import Game
from ..engine.objectives import counts
from ..engine.scoring import breakdown
from .format import FORMAT, GAME

BOTS = ("random", "greedy")
CLAIMS = ("every", "turn", "end", "none")     # every and turn: a claim after every turn


def draw_objectives(pile: list[int], g: Game) -> list[int] | None:
    """The objectives a new round shows, drawn from the top of the shuffled
    objective pile (skipping, and keeping for later, a card whose letter is
    already shown, or retired under mu.objectives.letters-later=letter-retired);
    None when the same objectives stay (3 or more, after round 1)."""
    s = g.state
    k = s.objectives_count
    if k == 0:
        return []
    if s.round > 0 and k >= 3:
        return None
    retired = {letter(o) for o in s.shown} if g.readings[rd.LETTERS_LATER] == "letter-retired" else set()
    shown: list[int] = []
    for o in list(pile):
        if len(shown) == k:
            break
        if letter(o) in retired or letter(o) in {letter(x) for x in shown}:
            continue
        shown.append(o)
        pile.remove(o)
    return shown


def _gain(g: Game, me: int, card: int, rng: random.Random) -> float:
    work = g.copy()
    s = work.state
    for p in range(s.players):
        s.chosen[p] = card if p == me else rng.choice(s.hands[p])
    work.reveal()
    s = work.state
    if s.round != g.state.round or s.waiting_round:
        return float(s.scores[me][-1])
    everyone = [counts(s.columns[p]) for p in range(s.players)]
    return float(breakdown(s.columns[me], s.order, s.objectives, everyone, work.readings)["total"])


def choose(g: Game, p: int, bot: str, rng: random.Random) -> int:
    hand = g.legal(p)
    if bot == "random" or len(hand) == 1:
        return rng.choice(hand)
    scored = [(_gain(g, p, c, rng), c) for c in hand]
    best = max(v for v, _ in scored)
    return rng.choice([c for v, c in scored if v == best])


def claim(g: Game) -> dict:
    """A full state claim of the game as it stands."""
    s = g.state
    return {"t": "state", "round": s.round, "turn": s.turn, "hands": [list(h) for h in s.hands],
            "line": list(s.line), "columns": [[list(c) for c in cols] for cols in s.columns],
            "order": list(s.order), "scores": [list(x) for x in s.scores], "pile": len(s.pile or ())}


def play_game(players: int, seed: int, bot: str = "random", game_id: str | None = None, objectives: int = 0,
              claims: str = "turn", readings: dict | None = None, split: bool = False) -> Iterator[dict]:
    """The lines of one self-played game. `claims`: every or turn (a state
    claim after every turn), end (before the end line), none.
    `split`: write each turn as one `choose` line per player, in a random
    order, rather than one `turn` line."""
    chosen = rd.differing(rd.check(readings or {}))
    rng = random.Random(seed)
    deck = list(range(1, CARD_COUNT + 1))
    rng.shuffle(deck)
    pile_objectives = list(OBJECTIVES)
    rng.shuffle(pile_objectives)
    head = {"t": "game", "game": GAME, "format": FORMAT, "id": game_id or f"selfplay-mind-up-{seed}",
            "players": players, "objectives": objectives, "impl": {"name": "mb-oracle selfplay", "version": bot}}
    if chosen:
        head["readings"] = chosen
    yield head
    yield {"t": "setup", "deck": deck}
    n = players
    g = Game.deal(n, [deck[7 * p:7 * p + 7] for p in range(n)], deck[7 * n:8 * n], deck[8 * n:], objectives,
                  chosen)
    while not g.is_over:
        order = [1, 2, 3, 4, 5]
        rng.shuffle(order)
        while g.readings[rd.ORDER_REPEAT] == "must-differ" and g.state.orders and tuple(order) == g.state.orders[-1]:
            rng.shuffle(order)      # mu.round.order-repeat=must-differ: the draw is made again
        shown = draw_objectives(pile_objectives, g)
        line: dict = {"t": "round", "round": g.state.round + 1, "order": order}
        if g.state.round > 0:
            line["draws"] = list(g.state.pile[:n])
        if shown:
            line["objectives"] = shown
        g.start_round(order, line.get("draws"), shown)
        yield line
        while g.pending.kind == "choose":
            cards = [choose(g, p, bot, rng) for p in range(n)]
            if split:
                for p in rng.sample(range(n), n):
                    g.choose(p, cards[p])
                    yield {"t": "choose", "p": p, "card": cards[p]}
                if g.pending.kind == "choose":
                    g.reveal()
            else:
                g.play_turn(cards)
                yield {"t": "turn", "cards": cards}
            if claims in ("every", "turn"):
                yield claim(g)
        if claims == "end" and g.is_over:
            yield claim(g)
    yield {"t": "end", "scores": g.totals(), "winners": g.winners()}


_enc = msgspec.json.Encoder()


def selfplay_lines(games: int, seed: int, players: int = 4, bot: str = "random", objectives: int = 0,
                   claims: str = "turn", readings: dict | None = None, split: bool = False) -> Iterator[bytes]:
    for i in range(games):
        gid = f"selfplay-mind-up-{players}p{objectives}o-s{seed}-{i:05d}"
        for line in play_game(players, seed * 1_000_003 + i, bot, gid, objectives, claims, readings, split):
            yield _enc.encode(line)


def selfplay_options(edition: str, bot: str, claims: str, check_invariants: bool, readings, sets_spec,
                     cards_file, players: int, objectives: int) -> dict:
    """The keyword arguments of `selfplay_lines` for `mb-oracle selfplay`'s
    options: `readings()` (the --reading options, all mu.*) and a number of
    players they allow (default 4; objectives, default 0); a bad one is
    click.BadParameter; an option of Mindbug's given (the edition, card
    sets, card file, the check of its engine's invariants) click.UsageError."""
    import click

    from ..engine.setup import player_range

    mindbug = [name for name, value in (("--edition", edition), ("--sets", sets_spec), ("--cards", cards_file),
                                        ("--check-invariants", check_invariants)) if value]
    if mindbug:
        raise click.UsageError(f"{', '.join(mindbug)} {'is' if len(mindbug) == 1 else 'are'} Mindbug's; mind-up "
                               "selfplay takes --players, --objectives, --bot, --claims and mu. readings")
    players = 4 if players is None else players
    objectives = objectives or 0
    readings = readings()
    if any(not c.startswith("mu.") for c in readings):
        raise click.BadParameter("Mind Up! readings start with mu. (mb-oracle editions --game mind-up)",
                                 param_hint="--reading")
    low, high = player_range(rd.choices(readings))
    if not low <= players <= high:
        raise click.BadParameter(f"{players} players: Mind Up! is played by {low} to {high} (mu.setup.players)",
                                 param_hint="--players")
    return {"players": players, "bot": bot, "objectives": objectives, "claims": claims, "readings": readings}
