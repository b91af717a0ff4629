"""Playing games with simple bots and writing them as mb-replay/1 logs."""

from __future__ import annotations

import random
from typing import Iterator

import msgspec

from ..cards import DEFAULT_SETS, check_sets, full_set, lookup, set_aside_cards
from ..engine import Decision, Game
from .claims import claim
from .format import FORMAT

BOTS = ("random", "greedy")


def deal_problem(sets, edition: str = "en-revised") -> str | None:
    """Why the deck of `sets` cannot be dealt (setup.deal): each draw pile
    takes 10 cards and the starting player is picked by revealing cards of
    the unused pile (after the 6 life cards of the English first edition);
    None when it can. The promo sets hold too few cards to be dealt alone:
    they are meant to join another set."""
    from ....term import plural
    from ..editions import profile
    need = 20 + 2 + (6 if profile(edition).life_cards else 0)
    n = len(full_set(sets))
    if n < need:
        return (f"the deck of {', '.join(sets)} holds {plural(n, 'card')}; a deal in {edition} needs at least {need} "
                "(10 per draw pile and 2 in the unused pile to reveal" +
                (", after the 6 life cards)" if profile(edition).life_cards else ")") +
                f": deal a small set together with another (--sets first-contact,{sets[-1]})")
    return None


def random_deal(rng: random.Random, edition: str = "en-revised", sets=DEFAULT_SETS) -> dict:
    """A shuffle of the deck of `sets` (setup.sets) and the reveals for the
    first player, as the log's setup line; the double-sided cards the sets
    put aside (setup.set-aside) follow the deck in `cards` and are listed in
    `set_aside`."""
    from ..editions import profile
    problem = deal_problem(sets, edition)
    if problem is not None:
        raise ValueError(problem)
    names = full_set(sets)
    rng.shuffle(names)
    cards = {i + 1: n for i, n in enumerate(names)}
    ids = list(cards)
    decks = [ids[:10], ids[10:20]]
    unused = ids[20:]
    aside = list(range(len(names) + 1, len(names) + 1 + len(set_aside_cards(sets))))
    cards.update(zip(aside, set_aside_cards(sets)))
    # English first edition: the top 6 unused cards become the life cards.
    pool = unused[6:] if profile(edition).life_cards else unused[:]
    reveals = []
    while len(pool) >= 2:  # setup.first-player: reveal again on a tie
        a, b = rng.sample(pool, 2)
        pool.remove(a)
        pool.remove(b)
        reveals.append([a, b])
        if lookup(cards[a]).power != lookup(cards[b]).power:
            break
    setup = {"t": "setup", "cards": cards, "decks": decks, "unused": unused, "reveals": reveals}
    if lookup(cards[reveals[-1][0]]).power == lookup(cards[reveals[-1][1]]).power:
        # Every pair tied and none is left to reveal: the reveals cannot decide,
        # so the deal names the first player instead.
        del setup["reveals"]
        setup["first"] = rng.randrange(2)
    if aside:
        setup["set_aside"] = aside
    return setup


def _score(g: Game, me: int) -> float:
    s = g.state
    if g.is_over:
        return 1000.0 if g.winner == me else -1000.0
    power = g.stats()[0]
    mine = sum(power[c] for c in s.play[me])
    theirs = sum(power[c] for c in s.play[1 - me])
    return (10 * (s.life[me] - s.life[1 - me]) + (mine - theirs) + 0.5 * (len(s.hand[me]) - len(s.hand[1 - me]))
            + 3 * (s.mindbugs[me] - s.mindbugs[1 - me]))


def choose(g: Game, bot: str, rng: random.Random) -> Decision:
    options = g.legal_decisions()
    if bot == "random" or len(options) == 1 or g.pending.is_chance:
        return options[rng.randrange(len(options))]
    me = g.pending.player
    best, best_score = [], None
    for d in options:   # greedy: one step ahead, ties broken at random
        nxt = g.copy()
        nxt.apply_unchecked(d.kind, d.arg)
        sc = _score(nxt, me)
        if best_score is None or sc > best_score:
            best, best_score = [d], sc
        elif sc == best_score:
            best.append(d)
    return best[rng.randrange(len(best))]


class InvariantBroken(AssertionError):
    pass


def play_game(edition: str, seed: int, bot: str = "random", game_id: str | None = None,
              claims: str = "turn", max_decisions: int = 20000, check: bool = False,
              readings: dict | None = None, sets=DEFAULT_SETS) -> Iterator[dict]:
    """The lines of one self-played game. `claims`: every (a state claim after
    every decision), turn (after every turn), end (before the end line), none.
    `readings`: team readings to play under (clause -> choice); `sets`: the
    card sets dealt from."""
    from ..readings import differing, with_readings
    sets = check_sets(sets)
    rng = random.Random(seed)
    setup = random_deal(rng, edition, sets)
    head = {"t": "game", "format": FORMAT, "id": game_id or f"selfplay-{edition}-{seed}", "edition": edition,
            "sets": list(sets), "impl": {"name": "mb-oracle selfplay", "version": bot}}
    chosen = differing(readings or {})
    if chosen:
        head["readings"] = chosen
    yield head
    yield setup
    g = Game.deal(with_readings(edition, chosen), setup["cards"], setup["decks"], setup["unused"], None,
                  setup["reveals"], sets=sets, set_aside=setup.get("set_aside"))
    n = 0
    while not g.is_over and n < max_decisions:
        turn = g.state.turn
        d = choose(g, bot, rng)
        g.apply_unchecked(d.kind, d.arg)
        n += 1
        if check:
            from ..engine.invariants import violations
            broken = violations(g)
            if broken:
                raise InvariantBroken(f"game {game_id}, decision {n}: {'; '.join(broken)}")
        yield d.to_json()
        if claims == "every" or (claims == "turn" and (g.is_over or g.state.turn != turn)):
            yield claim(g)
    if claims == "end" and g.is_over:
        yield claim(g)
    if g.is_over:
        yield {"t": "end", "winner": g.winner, "reason": g.reason}
    else:
        yield {"t": "end", "winner": None, "reason": "aborted", "detail": f"stopped after {n} decisions"}


_enc = msgspec.json.Encoder()


def game_id(edition: str, seed: int, i: int, sets=DEFAULT_SETS) -> str:
    """The id of the `i`-th self-played game of `seed`: it names what was
    dealt, so that games dealt from other sets (`--sets`, `--cards`) never
    share an id; First Contact alone keeps the short form."""
    dealt = "" if tuple(sets) == tuple(DEFAULT_SETS) else "-" + "+".join(sets)
    return f"selfplay-{edition}{dealt}-s{seed}-{i:05d}"


def selfplay_lines(games: int, seed: int, edition: str, bot: str = "random", claims: str = "turn",
                   check: bool = False, readings: dict | None = None, sets=DEFAULT_SETS) -> Iterator[bytes]:
    sets = check_sets(sets)
    for i in range(games):
        gid = game_id(edition, seed, i, sets)
        for line in play_game(edition, seed * 1_000_003 + i, bot, gid, claims, check=check, readings=readings,
                              sets=sets):
            yield _enc.encode(line)


def selfplay_options(edition: str, bot: str, claims: str, check_invariants: bool, readings, sets_spec,
                     cards_file, players: int, objectives: int) -> dict:
    """The keyword arguments of `selfplay_lines` for `mb-oracle selfplay`'s
    options (the edition, default en-revised; the card sets, default
    first-contact and the set of the card file, checked against the
    edition; then `readings()`, the --reading options); a bad one is
    click.BadParameter; `players` or `objectives` given is click.UsageError:
    they are Mind Up!'s."""
    import click

    from ..cards import UnknownSet
    from ..cards.compiled import declared
    from ..editions import DEFAULT_EDITION, profile
    from ..engine import SetupError
    from ..engine.deck import check_mechanics

    for name, value in (("--players", players), ("--objectives", objectives)):
        if value is not None:
            raise click.UsageError(f"{name} is for games of Mind Up! (--game mind-up)")
    edition = edition or DEFAULT_EDITION

    decl = declared(cards_file) if cards_file else None
    if sets_spec is None:
        sets_spec = "first-contact" + (f",{decl.set.id}" if decl else "")
    try:
        sets = check_sets(s.strip() for s in sets_spec.split(",") if s.strip())
        try:
            check_mechanics(profile(edition), {i: lookup(n) for i, n in enumerate(full_set(sets))})
        except SetupError as e:
            hint = "--sets" if e.clause == "setup.sets.later" else "--cards"
            raise click.BadParameter(e.message, param_hint=hint) from None
    except UnknownSet as e:
        raise click.BadParameter(str(e), param_hint="--sets") from None
    problem = deal_problem(sets, edition)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="--sets")
    return {"edition": edition, "bot": bot, "claims": claims, "check": check_invariants, "readings": readings(),
            "sets": sets}
