"""Resynchronising after a divergence (`verify --keep-going`): a new game at
the position a full state claim describes, at the point of the turn the
log's next decision line shows (`resume`): a turn action, or a FRENZY
second attack or a FAST creature's attack right after the attack or the
play before it. Where the lines cannot say which decision the rules wait
for, there is no new game: the verifier never resumes on a decision it
would have to invent."""

from __future__ import annotations

import msgspec

from ..engine import Game
from .claims import claim_matches, is_full_claim
from .decisions import MAX_FORCED_RUN, Leniency


# The decisions that begin a turn (turns.action), and the lines that may go
# on from one in the same turn (keywords.frenzy, keywords.fast).
TURN_ACTIONS = ("play", "attack", "activate")


def resume(g: Game, claim, t: str, player, card, last, base_decks) -> Game | None:
    """A new game at the claimed position where the decision line (`t`,
    `player`, `card`) comes next, or None where the rules cannot be put
    there. `last`: the last turn action line before it, (kind, player,
    card, times in a row, whether a `mindbug` line took the card), or None.
    After `attack` X, an `attack` X or a `pass` of the same player is the
    FRENZY second attack or its decline; after `play` X, an `attack` or
    `activate` X or a `pass` of the same player is the FAST attack or its
    decline, and an `attack` or `activate` X of the player who took X with
    a Mindbug is that of a FAST creature taken so: each only where the
    rules offer it at the claimed position. Any other turn action line
    begins a turn, but for the player who has just attacked or acted: their
    turn is not over."""
    if last is not None:
        kind, who, was, times, taken = last
        goes_on = t == "pass" or (card == was and t in ("attack", "activate"))
        if kind == "attack" and who == player and goes_on and t != "activate":
            return _offered(resync(g, claim, player, base_decks, (("after-attack", was),), {was: times}),
                            "frenzy", t, player, card)
        if kind == "play" and goes_on and who == player:
            return _offered(resync(g, claim, player, base_decks, (("fast", was),)), "fast", t, player, card)
        if kind == "play" and goes_on and taken and t != "pass":
            # keywords.fast.mindbugged: before the extra turn action of the player who played it
            return _offered(resync(g, claim, who, base_decks, (("extra-action",), ("fast-taken", was))),
                            "fast", t, player, card)
        if kind in ("attack", "activate") and who == player and t in TURN_ACTIONS:
            return None     # a turn action of the player who just attacked or acted: no new turn begins there
    if t in TURN_ACTIONS and player is not None:
        # mindbug.extra-action: after a Mindbug took the card played, the
        # same player's turn action is in the same turn (English revised).
        extra = last is not None and last[0] == "play" and last[1] == player and last[4] \
            and g.profile.mindbug_extra == "action"
        return resync(g, claim, player, base_decks, new_turn=not extra)
    return None


def _offered(g: Game | None, stage: str, t: str, player, card) -> Game | None:
    """`g`, if the rules wait there for `player`'s decision of `stage` and
    offer the line's answer."""
    p = None if g is None else g.pending
    if p is None or p.stage != stage or p.player != player or (t, card) not in p.options:
        return None
    return g


def resync(g: Game, claim, player: int, base_decks, tasks: tuple = (("action", False),),
           attacks: dict | None = None, new_turn: bool = False) -> Game | None:
    """A new game at the claimed position, in `player`'s turn, about to run
    `tasks` (default: the turn action); `attacks`: the attacks made this
    turn (keywords.frenzy); `new_turn`: the effects of the turn before have
    ended (effects.this-turn)."""
    if any(len(getattr(claim, f)) != 2 for f in ("life", "mindbugs", "hand", "play", "discard", "deck")):
        return None   # not a position: every pair must have one entry per player

    pairs = (claim.life, claim.mindbugs, claim.hand, claim.play, claim.discard, claim.deck)
    if any(not isinstance(x, list) or len(x) != 2 for x in pairs):
        return None     # not one value per player: no position to rebuild (never an exception)
    s = g.state.copy()
    try:
        s.life = list(claim.life)
        s.mindbugs = list(claim.mindbugs)
        s.hand = [list(h) for h in claim.hand]
        s.play = [[c.card for c in side] for side in claim.play]
        s.exhausted = {c.card for side in claim.play for c in side if c.exhausted is True}
        s.discard = [list(d) for d in claim.discard]
        s.deck = [list(base_decks[p][len(base_decks[p]) - n:]) if isinstance(n, int) and n <= len(base_decks[p])
                  else list(n) for p, n in enumerate(claim.deck)]
    except (TypeError, IndexError):
        return None
    if not _later_zones(g, s, claim):
        return None
    s.played = None
    s.pending = None
    s.winner = s.reason = None      # the claimed position, not the rules' game it replaces, says who has won
    s.combat = None
    s.triggers = []
    s.stack = list(tasks)
    s.active = player
    if claim.turn is not msgspec.UNSET:
        s.turn = claim.turn
    s.attacks = dict(attacks or {})
    s.actions = 0 if tasks[0][0] == "action" else 1
    if new_turn:
        s.lasting = ()
    s.arrived = ()      # later.action.fresh: a claim does not say what came into play this turn
    placed = [c for _, _, cards in s.zones() for c in cards]
    if len(placed) != len(set(placed)) or set(placed) != set(g.table.defs):
        return None
    ng = Game(g.table, g.profile, s)
    out = [p for p in (0, 1) if s.life[p] <= 0]
    if len(out) == 1:
        ng.end_game(1 - out[0], "life", ("winning.life",))     # a claimed position a player has lost
    else:
        ng.run()
    return ng




def _later_zones(g: Game, s, claim) -> bool:
    """The evolved creatures and boost cards of the claimed position
    (later.evolve, later.boost): a creature's claimed `stage` and `boosts`
    where given, else what the rules have for a creature still in play. False
    when the claim cannot be built (a stage with no set-aside card free)."""
    U = msgspec.UNSET
    entries = {c.card: c for side in claim.play for c in side}
    old_stage = {c: (a, n) for c, a, n in s.stages}
    old_boosts = dict(s.boosts)
    free = set(s.set_aside) | {a for a, _n in old_stage.values()}
    stages, boosts = [], []
    for c, e in entries.items():
        n = e.stage if e.stage is not U else old_stage.get(c, (None, 1))[1]
        if n in (2, 3):
            line = g.table.defs[c].name
            aside = old_stage.get(c, (None,))[0]
            if aside is None or aside not in free:
                aside = next((a for a in sorted(free) if g.table.defs[a].line == line), None)
            if aside is None:
                return False
            free.discard(aside)
            stages.append((c, aside, n))
        under = e.boosts if e.boosts is not U else old_boosts.get(c, ())
        if under:
            if not all(isinstance(b, int) for b in under):
                return False
            boosts.append((c, tuple(under)))
    s.stages = tuple(stages)
    s.boosts = tuple(boosts)
    s.set_aside = sorted(free)
    return True


# -- the verifier's side (`verifier`, with keep_going) --------------------------------------

def try_resync(v, line, lineno: int) -> None:
    """A line read after a violation. A full state claim may be where the
    rules go on: it is kept until the next line says from which point of
    the turn (`resume`), and verification resumes there with that line. An
    end line resumes only at the claim that differed, when the rules wait
    there for a turn action: the claimed position is then checked as the
    end of the game. Any other line skips the claim before it."""
    t = line.__struct_config__.tag
    if t == "state":
        v._resync_claim = (line, lineno, None) if is_full_claim(line) else None
        return
    pending, v._resync_claim = v._resync_claim, None
    g = None
    if pending is not None:
        claim, claim_line, rules = pending
        if t == "end":
            pend = None if rules is None else rules.pending
            if pend is not None and pend.stage == "action":
                g = resync(v.g, claim, pend.player, v.base_decks, new_turn=True)
        else:
            g = resume(v.g, claim, t, getattr(line, "p", None), getattr(line, "card", None), v._turn_line,
                       v.base_decks)
    if g is None:
        if t == "end":
            v._mark_end(line, lineno)
        return
    v.g = g
    v.lost = False
    v.since_claim = []
    v.lenient = Leniency()
    v.order_queue = []
    v.prev = None
    last = v._turn_line
    v.attacker, v.attacked = (last[1], last[2]) if last is not None and last[0] == "attack" else (None, None)
    # The rules' own game at a claim that differed goes on beside: if the
    # next claim agrees with it, that claim alone was wrong (rules_agree).
    v._rules_alt = (rules.copy(), claim_line) if rules is not None and t != "end" else None
    v._anchor = v.stretch[lineno] = claim_line
    v.report.notes.append(f"verification resumed at line {claim_line}")
    if t == "end":
        v._end(line, lineno)
    else:
        v._decision(line, t, lineno)


def seen_turn_line(v, line, t: str) -> None:
    """Remember the turn action line just read (`resume`), counting the
    attacks of one creature in a row, and whether a Mindbug took the card
    it played (a `mindbug` line after a `play`)."""
    last = v._turn_line
    if t == "mindbug":
        if last is not None and last[0] == "play":
            v._turn_line = last[:4] + (True,)
        return
    card = getattr(line, "card", None)
    times = last[3] + 1 if last is not None and last[:3] == (t, line.p, card) else 1
    v._turn_line = (t, line.p, card, times, False)


def follow_rules(v, kind: str, arg) -> None:
    """Take the decision just applied in the rules' own game kept beside
    (with its forced steps); where it is no answer there, that game is
    dropped."""
    alt = v._rules_alt[0]
    for _ in range(MAX_FORCED_RUN):
        pend = alt.pending
        if pend is None:
            break
        if (kind, arg) in pend.options:
            alt.apply_unchecked(kind, arg)
            return
        if len(pend.options) != 1:
            break
        alt.apply_unchecked(*pend.options[0])
    v._rules_alt = None


def rules_agree(v, line, lineno: int) -> bool:
    """Whether a claim that differs from the game resumed at a claim that
    differed agrees with the rules' own game kept beside (at once or after
    its forced steps): then that earlier claim alone was wrong, and
    verification goes on in the rules' game."""
    kept, v._rules_alt = v._rules_alt, None
    if kept is None:
        return False
    probe, claim_line = kept
    for _ in range(MAX_FORCED_RUN):
        if claim_matches(probe, line) or v._agrees(probe, line):
            v.g = probe
            v.since_claim = []
            v.report.notes.append(f"line {lineno}: the claim agrees with the rules' position, not with the one "
                                  f"claimed at line {claim_line}: verification goes on from the rules' position")
            return True
        if probe.pending is None or len(probe.pending.options) != 1:
            return False
        probe.apply_unchecked(*probe.pending.options[0])
    return False
