"""The Mindbug samples of the corpus in replays/: conforming games for every
edition, and one violating game for each kind of mistake real engines make.

Each violating game is a self-played game in which one line is corrupted
the way a faulty engine would write it. Written by `python -m
oracle.replay.samples replays/` (the game's SAMPLES), deterministically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import msgspec

from ....replay.findings import MALFORMED
from ....safefile import write_file
from ..cards import SNEAKY
from ..editions import EDITIONS
from ..engine import Decision, Game
from .format import FORMAT
from .selfplay import choose, claim, random_deal, selfplay_lines

_enc = msgspec.json.Encoder()


@dataclass
class Step:
    before: Game          # the game before the decision
    decision: Decision
    after: Game
    events: list


def record(edition: str, seed: int, bot: str = "random", deal=None) -> tuple[list[dict], list[Step], Game]:
    """A self-played game: its first lines, every step, and the final game.
    `deal` may change the setup line first; the game is then played as dealt,
    even when the deal breaks the setup rules."""
    rng = random.Random(seed)
    setup = random_deal(rng, edition)
    if deal is not None:
        deal(setup)
    head = [{"t": "game", "format": FORMAT, "id": "", "edition": edition, "sets": ["first-contact"],
             "impl": {"name": "mb-oracle samples", "version": "1"}}, setup]
    g = Game.deal(edition, setup["cards"], setup["decks"], setup["unused"], setup.get("first"), setup["reveals"],
                  tolerate=[] if deal is not None else None)
    steps = []
    while not g.is_over and len(steps) < 5000:
        d = choose(g, bot, rng)
        before = g.copy()
        events = g.apply_unchecked(d.kind, d.arg)
        steps.append(Step(before, d, g.copy(), events))
    return head, steps, g


def lines_until(head, steps, i) -> list[dict]:
    """The log up to (not including) step i, with a claim after every decision."""
    out = [dict(x) for x in head]
    for s in steps[:i]:
        out.append(s.decision.to_json())
        out.append(claim(s.after))
    return out


def end_of(g: Game) -> dict:
    return {"t": "end", "winner": g.winner, "reason": g.reason}


# -- the mistakes ------------------------------------------------------------
# Each maker looks for the situation in a recorded game and returns the
# corrupted log, or None when the game does not show the situation.

def sneaky_block(head, steps, g):
    for i, s in enumerate(steps):
        p = s.before.pending
        if p.stage == "block" and s.before.state.combat and s.before.has(s.before.state.combat[0], SNEAKY):
            bad = [c for c in s.before.state.play[p.player] if not s.before.has(c, SNEAKY)]
            if bad:
                return lines_until(head, steps, i) + [{"t": "block", "p": p.player, "card": bad[0]}, end_of(g)]
    return None


def _claim_edit(kind_test, edit):
    def maker(head, steps, g):
        for i, s in enumerate(steps):
            for e in s.events:
                if kind_test(e, s):
                    c = claim(s.after)
                    if edit(c, e, s):
                        return lines_until(head, steps, i) + [s.decision.to_json(), c, end_of(g)]
        return None
    return maker


def _to_discard(c, e, s):
    card = e.card
    for p in (0, 1):
        side = c["play"][p]
        if any(x["card"] == card for x in side):
            c["play"][p] = [x for x in side if x["card"] != card]
            c["discard"][p].append(card)
            return True
    return False


def _stay_in_play(c, e, s):
    card, p = e.card, e.player
    if card in c["discard"][p]:
        c["discard"][p].remove(card)
        c["play"][p].append({"card": card, "exhausted": False})
        return True
    return False


tough_ignored = _claim_edit(lambda e, s: e.kind == "exhaust" and "keywords.tough" in e.clauses and e.source is None,
                            _to_discard)
poisonous_ignored = _claim_edit(
    lambda e, s: e.kind == "defeat" and "keywords.poisonous" in e.clauses and "keywords.poisonous.mutual" not in e.clauses,
    _stay_in_play)


def _no_refill(c, e, s):
    p = e.player
    drawn = set(e.cards)
    c["hand"][p] = [x for x in c["hand"][p] if x not in drawn]
    c["deck"][p] += len(drawn)
    return True


hand_not_refilled = _claim_edit(lambda e, s: e.kind == "draw" and s.decision.kind == "play", _no_refill)


def _owner_discard(c, e, s):
    owner = s.before.table.owner.get(e.card)
    if owner is None or owner == e.player:
        return False
    c["discard"][e.player].remove(e.card)
    c["discard"][owner].append(e.card)
    return True


mindbugged_to_owner = _claim_edit(lambda e, s: e.kind == "defeat", _owner_discard)


def _play_effect_wrong_player(head, steps, g):
    for i, s in enumerate(steps):
        gain = [e for e in s.events if e.kind == "gain-life"]
        if s.decision.kind == "mindbug" and gain:
            c = claim(s.after)
            p = gain[0].player
            c["life"][p] -= gain[0].amount
            c["life"][1 - p] += gain[0].amount
            return lines_until(head, steps, i) + [s.decision.to_json(), c, end_of(g)]
    return None


def _power_below_one(head, steps, g):
    for i, s in enumerate(steps):
        if s.after.state.play[0] and not s.after.is_over:
            c = claim(s.after)
            c["play"][0][0]["power"] = 0
            return lines_until(head, steps, i) + [s.decision.to_json(), c, end_of(g)]
    return None


def _mindbug_in_play(head, steps, g):
    for i, s in enumerate(steps):
        p = s.before.pending
        if p.stage == "block" and s.before.state.mindbugs[p.player] > 0:
            return lines_until(head, steps, i) + [{"t": "mindbug", "p": p.player}, end_of(g)]
    return None


def _extra_action(twice: bool):
    def maker(head, steps, g):
        for i, s in enumerate(steps):
            if s.decision.kind != "mindbug":
                continue
            player = s.before.state.active
            if twice:
                # The extra turn action is taken, then the same player acts once more.
                for j in range(i + 1, len(steps)):
                    t = steps[j]
                    if t.before.pending.stage == "action" and t.before.state.active != player:
                        hand = t.before.state.hand[player]
                        if hand and t.before.state.turn == s.before.state.turn + (
                                1 if t.before.profile.mindbug_extra == "action" else 2):
                            return lines_until(head, steps, j) + [{"t": "play", "p": player, "card": hand[0]}, end_of(g)]
                        break
            else:
                # The opponent takes the next turn action instead.
                for j in range(i + 1, len(steps)):
                    t = steps[j]
                    if t.before.pending.stage == "action":
                        opp = 1 - player
                        hand = t.before.state.hand[opp]
                        if hand:
                            return lines_until(head, steps, j) + [{"t": "play", "p": opp, "card": hand[0]}, end_of(g)]
                        break
        return None
    return maker


def _frenzy_other(head, steps, g):
    for i, s in enumerate(steps):
        p = s.before.pending
        if p.stage == "frenzy":
            others = [c for c in s.before.state.play[p.player] if c != p.source]
            if others:
                return lines_until(head, steps, i) + [{"t": "attack", "p": p.player, "card": others[0]}, end_of(g)]
    return None


def _wrong_winner(head, steps, g):
    if not g.is_over:
        return None
    return lines_until(head, steps, len(steps)) + [{"t": "end", "winner": 1 - g.winner, "reason": g.reason}]


def _hunter_ignored_sneaky(head, steps, g):
    """A defender blocks a HUNTER attack with another creature than the one named."""
    for i, s in enumerate(steps):
        if s.decision.kind == "hunt" and s.decision.arg is not None:
            others = [c for c in s.before.state.play[1 - s.decision.player] if c != s.decision.arg]
            if others:
                return lines_until(head, steps, i + 1) + [{"t": "block", "p": 1 - s.decision.player,
                                                           "card": others[0]}, end_of(g)]
    return None


def _early_end(head, steps, g):
    """The log ends the game when a player has no card left in hand, though
    creatures in play could still attack."""
    for i, s in enumerate(steps):
        st = s.after.state
        if not s.after.is_over and s.after.pending.stage == "action":
            p = st.active
            if not st.hand[p] and st.play[p]:
                return lines_until(head, steps, i + 1) + [{"t": "end", "winner": 1 - p, "reason": "no-action"}]
    return None


def _third_copy(setup):
    """An engine that builds its deal from the designs with the wrong counts:
    the first card of player 0's draw pile is dealt as a third copy of a
    design the set holds twice."""
    first = setup["decks"][0][0]
    twice = sorted({n for n in setup["cards"].values() if list(setup["cards"].values()).count(n) == 2}
                   - {setup["cards"][first]})
    setup["cards"][first] = twice[0]


def _with_deal(deal, maker):
    def wrapped(head, steps, g):
        lines = maker(head, steps, g)
        return (lines, {"line": 2}) if lines else None
    wrapped.deal = deal
    return wrapped


def _always_late_draw(head, steps, g):
    """An engine that draws back up only after the Mindbug decision: every
    claim right after a play shows the hand not yet refilled."""
    out = [dict(x) for x in head]
    late = []
    for s in steps:
        out.append(s.decision.to_json())
        c = claim(s.after)
        draws = [e for e in s.events if e.kind == "draw" and e.player == s.before.state.active]
        if s.decision.kind == "play" and draws:
            _no_refill(c, draws[0], s)
            late.append(len(out) + 1)
        out.append(c)
    if len(late) < 3 or not g.is_over:
        return None
    return out + [end_of(g)], {"line": late[0], "count": len(late)}


def _two_end_lines(head, steps, g):
    if not g.is_over or g.reason != "life":
        return None
    return lines_until(head, steps, len(steps)) + [end_of(g), end_of(g)]


def _misspelt_claim(head, steps, g):
    """A claim field written with a typo (`lifes`): without --strict only a
    note, with --strict an UNKNOWN_FIELD finding."""
    if not g.is_over:
        return None
    lines = lines_until(head, steps, len(steps)) + [end_of(g)]
    c = lines[5]
    c["lifes"] = c.pop("life")
    return lines, {"line": 6}


# name, edition, maker, expected code, expected clause, what a faulty engine did
MISTAKES = [
    ("sneaky-block", "en-revised", sneaky_block, "ILLEGAL_DECISION", "keywords.sneaky",
     "a creature without SNEAKY blocks a SNEAKY attacker"),
    ("tough-not-applied", "en-revised", tough_ignored, "STATE_MISMATCH", "keywords.tough",
     "a TOUGH creature that is not exhausted goes to the discard pile after losing a combat"),
    ("poisonous-ignored", "en-revised", poisonous_ignored, "STATE_MISMATCH", "keywords.poisonous",
     "a creature that fought a POISONOUS creature with lower power stays in play"),
    ("mindbug-in-play", "en-revised", _mindbug_in_play, "ILLEGAL_DECISION", "mindbug.not-in-play",
     "a Mindbug is used on an attacking creature already in play"),
    ("extra-action-twice", "en-revised", _extra_action(True), "ILLEGAL_DECISION", "turns.alternate",
     "after a Mindbug, the extra turn action is granted twice"),
    ("extra-action-missing", "en-revised", _extra_action(False), "ILLEGAL_DECISION", "mindbug.extra-action",
     "after a Mindbug, the player whose card was taken gets no extra turn action"),
    ("extra-turn-missing", "fr-first", _extra_action(False), "ILLEGAL_DECISION", "mindbug.extra-action",
     "first editions: after a Mindbug, no extra turn for the player whose card was taken"),
    ("hand-not-refilled", "en-revised", hand_not_refilled, "STATE_MISMATCH", "drawing.refill",
     "the hand is not refilled to 5 after playing a card"),
    ("play-effect-wrong-player", "en-revised", _play_effect_wrong_player, "STATE_MISMATCH", "mindbug.play-effect",
     "the Play effect of a mindbugged card happens for the player who played it"),
    ("mindbugged-to-owner", "en-revised", mindbugged_to_owner, "STATE_MISMATCH", "mindbug.defeated-controller",
     "a defeated mindbugged creature goes to its owner's discard pile instead of its controller's"),
    ("power-below-one", "en-revised", _power_below_one, "STATE_MISMATCH", "cards.power-minimum",
     "a creature is claimed to have power 0"),
    ("wrong-winner", "en-revised", _wrong_winner, "WRONG_RESULT", "winning.life",
     "the end line names the loser as the winner"),
    ("frenzy-other-creature", "en-revised", _frenzy_other, "ILLEGAL_DECISION", "keywords.frenzy.same-creature",
     "after a FRENZY creature's first attack, a different creature attacks"),
    ("hunter-target-ignored", "en-revised", _hunter_ignored_sneaky, "ILLEGAL_DECISION", "keywords.hunter",
     "the defender blocks with another creature than the one HUNTER named"),
    ("early-no-action-loss", "en-revised", _early_end, "WRONG_RESULT", "turns.no-action",
     "a player with an empty hand but creatures in play is declared the loser"),
    ("extra-copies", "en-revised", _with_deal(_third_copy, hand_not_refilled), "BAD_SETUP", "setup.components",
     "the deal holds a third copy of a design (and one card too few of another); with --keep-going the game "
     "is played as dealt and its hand-refill mistake is reported too"),
    ("always-late-draw", "en-revised", _always_late_draw, "STATE_MISMATCH", "drawing.refill",
     "the hand is refilled only after the Mindbug decision, after every play: with --keep-going one finding "
     "with its count and lines"),
    ("two-end-lines", "en-revised", _two_end_lines, "LINE_AFTER_END", "winning.life",
     "the end line is written twice"),
    ("misspelt-claim-field", "en-revised", _misspelt_claim, "UNKNOWN_FIELD", None,
     "a state claim spells life as lifes: a note, or with --strict a malformed game"),
]
# How each sample is verified, when not with the default options.
OPTIONS = {"extra-copies": {"keep_going": True}, "always-late-draw": {"keep_going": True},
           "misspelt-claim-field": {"strict": True}}


# -- team readings and accepted forms ---------------------------------------
# A game played under an alternative reading, written without declaring it:
# its findings exist only under the team's reading (basis "reading").
READING_SEED = 3 * 1_000_003 + 12
READING_SAMPLES = [
    ("effects.hunter-order", "hunter-first"),
    ("combat.attacker-gone", "unblocked"),
    ("terms.leave-play", "keeps-exhaustion"),
]


def reading_games(declare: bool) -> list[list[dict]]:
    from .selfplay import play_game
    out = []
    for clause, choice in READING_SAMPLES:
        lines = list(play_game("en-revised", READING_SEED, "random", "", "every", readings={clause: choice}))
        lines[0]["id"] = f"reading-{choice}" + ("" if declare else "-undeclared")
        if not declare:
            del lines[0]["readings"]
            lines[0]["x"] = {"mistake": f"follows {clause}={choice} without declaring it"}
        out.append(lines)
    return out


def accepted_forms() -> list[list[dict]]:
    """Self-played games rewritten with the forms the rules allow where they
    ask nothing (spec/replay-format.md, "Accepted forms")."""
    def full(seed):
        head, steps, g = record("en-revised", seed)
        lines = lines_until(head, steps, len(steps)) + [end_of(g)]
        return lines, steps, [len(head) + 2 * i for i in range(len(steps))]

    games = []
    lines, steps, at = full(20)                    # Strange Barrel steals from an empty hand
    lines.insert(at[37] + 1, {"t": "random", "cards": []})
    games.append(("empty-random", lines))
    lines, steps, at = full(28)                    # Harpy Mother finds no creature to take
    e = next(e for e in steps[66].events if e.kind == "no-effect")
    lines.insert(at[66] + 1, {"t": "choose", "p": e.player, "cards": []})
    games.append(("empty-choice", lines))
    lines, steps, at = full(113)                   # hunt null before Shark Dog's Attack effect
    lines[at[49]:at[50] + 2] = [lines[at[50]], lines[at[49]], lines[at[50] + 1]]
    games.append(("early-hunt-decline", lines))
    lines, steps, at = full(12)                    # FRENZY declined before the Defeated effect
    lines[at[17]:at[18] + 2] = [lines[at[18]], lines[at[17]], lines[at[18] + 1]]
    games.append(("early-frenzy-decline", lines))
    lines, steps, at = full(1)                     # the defender writes the block HUNTER forced
    hunt = steps[13].decision
    lines.insert(at[13] + 1, {"t": "block", "p": 1 - hunt.player, "card": hunt.arg})
    games.append(("forced-block-written", lines))
    out = []
    for name, lines in games:
        lines[0]["id"] = f"accepted-{name}"
        out.append(lines)
    return out


def _write_games(path: Path, games) -> list[str]:
    write_file(path, b"".join(_enc.encode(x) + b"\n" for lines in games for x in lines))
    return [lines[0]["id"] for lines in games]


def build_readings(out_dir: Path) -> list[dict]:
    """The samples of team readings and accepted forms, with their manifest entries."""
    from ....replay.verify import verify_game
    from ....replay.reader import RawGame

    manifest = []
    for name, games in (("readings", reading_games(True)), ("accepted-forms", accepted_forms())):
        for gid in _write_games(out_dir / "conforming" / f"{name}.jsonl", games):
            manifest.append({"file": f"conforming/{name}.jsonl", "game": gid, "verdict": "conforms"})
    games = reading_games(False)
    # The same hunter-first game with a real deviation further on: a rules
    # finding found under the alternative reading.
    both = [dict(x) for x in games[0]]
    both[0] = {**both[0], "id": "reading-hunter-first-and-rules",
               "x": {"mistake": "follows effects.hunter-order=hunter-first undeclared, and claims a wrong Mindbug count"}}
    last = max(i for i, x in enumerate(both) if x["t"] == "state")
    both[last] = {**both[last], "mindbugs": [5, 5]}
    games.append(both)
    for lines in games:
        gid = lines[0]["id"]
        path = out_dir / "violations" / f"{gid}.jsonl"
        _write_games(path, [lines])
        raw = RawGame(str(path), [(i, _enc.encode(x)) for i, x in enumerate(lines, 1)], "game")
        rep = verify_game(raw)
        first = rep.findings[0]
        entry = {"file": f"violations/{gid}.jsonl", "game": gid, "verdict": "violates", "code": first.code,
                 "clause": first.clauses[0], "line": first.line, "basis": first.basis,
                 "mistake": lines[0]["x"]["mistake"]}
        rules = [f for f in rep.findings if f.basis == "rules"]
        if rules:
            entry["then"] = {"code": rules[0].code, "line": rules[0].line, "basis": "rules"}
        manifest.append(entry)
    return manifest


def build(out_dir: Path) -> list[dict]:
    """Write the Mindbug samples under out_dir; their manifest entries."""
    (out_dir / "conforming").mkdir(parents=True, exist_ok=True)
    (out_dir / "violations").mkdir(parents=True, exist_ok=True)
    manifest = []
    for edition in EDITIONS:
        path = out_dir / "conforming" / f"{edition}.jsonl"
        lines = list(selfplay_lines(3, 11, edition, "random", "turn")) + \
            list(selfplay_lines(2, 12, edition, "greedy", "every"))
        write_file(path, b"".join(x + b"\n" for x in lines))
        for x in lines:
            if x.startswith(b'{"t":"game"'):
                gid = msgspec.json.decode(x)["id"]
                manifest.append({"file": f"conforming/{edition}.jsonl", "game": gid, "verdict": "conforms"})
    for name, edition, maker, code, clause, what in MISTAKES:
        for seed in range(2000):
            head, steps, g = record(edition, seed, deal=getattr(maker, "deal", None))
            lines = maker(head, steps, g)
            if lines:
                break
        else:
            raise SystemExit(f"no self-played game shows the situation for {name}")
        # A maker may also say where the first finding is and how often it recurs.
        lines, known = lines if isinstance(lines, tuple) else (lines, {})
        gid = f"violation-{name}"
        lines[0]["id"] = gid
        lines[0]["x"] = {"mistake": what}
        path = out_dir / "violations" / f"{name}.jsonl"
        write_file(path, b"".join(_enc.encode(x) + b"\n" for x in lines))
        entry = {"file": f"violations/{name}.jsonl", "game": gid,
                 "verdict": "malformed" if code in MALFORMED else "violates", "code": code, "clause": clause,
                 "line": len(lines) - 1 if code not in ("WRONG_RESULT", "LINE_AFTER_END") else len(lines),
                 "mistake": what}
        entry.update(OPTIONS.get(name, {}))
        entry.update(known)
        manifest.append(entry)
    manifest += build_readings(out_dir)
    return manifest
