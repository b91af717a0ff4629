"""The clauses verify names when a log skips a choice the rules wait for, and
for rules that leave no event behind: each finding's first clauses name the
rule the log broke, whatever the cards involved. The logs are self-played
games cut where the rules reach the position in question."""

from __future__ import annotations

import io
import json
import random

from oracle.games.mindbug.cards import DEFAULT_SETS, FRENZY, TOUGH
from oracle.games.mindbug.engine import Decision, Game
from oracle.games.mindbug.harness.start import game_from_setup
from oracle.games.mindbug.harness.views import full_claim
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import choose, random_deal
from oracle.replay.verify import verify_game


def verify(lines: list[dict], keep_going: bool = False):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r, keep_going=keep_going) for r in split_games(io.BytesIO(data), "cut.jsonl")][0]


def find(predicate, edition: str = "en-revised", seeds: int = 400, sets=DEFAULT_SETS):
    """The first self-played position where `predicate(g)` holds: (setup, decisions so far, game)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        setup = random_deal(rng, edition, sets)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        g = game_from_setup(edition, setup, sets=sets)
        taken: list[Decision] = []
        while g.pending is not None and len(taken) < 300:
            if predicate(g):
                return setup, taken, g
            d = choose(g, "random", rng)
            g.apply_unchecked(d.kind, d.arg)
            taken.append(d)
    raise AssertionError("no self-played game reaches the position")


def log(setup: dict, taken: list[Decision], *tail: dict, edition: str = "en-revised",
        sets=DEFAULT_SETS) -> list[dict]:
    return [{"t": "game", "format": "mb-replay/1", "id": "cut", "edition": edition, "sets": list(sets)},
            {"t": "setup", **{k: v for k, v in setup.items() if k != "t"}},
            *(d.to_json() for d in taken), *tail, {"t": "end", "winner": None, "reason": "aborted"}]


def skipped(g: Game, option) -> list[dict]:
    """The log's lines of an engine that took `option` without writing it:
    the state after it, then the next decision (a log that stops at the
    claim skips nothing)."""
    probe = g.copy()
    probe.apply_unchecked(*option)
    p = probe.pending
    kind, arg = p.options[0]
    return [full_claim(probe), Decision(kind, None if p.is_chance else p.player, arg).to_json()]


def test_a_skipped_defeated_effect_choice_is_cited_first():
    def toad_choice(g):
        p = g.pending
        return (p.stage == "choose" and "triggers.defeated" in p.clauses and len(p.options) > 1
                and g.name(p.source) == "Explosive Toad")

    setup, taken, g = find(toad_choice)
    rep = verify(log(setup, taken, *skipped(g, g.pending.options[0])))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and "which the log skips" in f.message
    assert f.clauses[:2] == ["triggers.defeated", "effects.chooser"] or \
        f.clauses[:3] == ["triggers.defeated", "triggers.controller", "effects.chooser"], f.clauses


def test_a_skipped_block_of_a_sneaky_attacker_cites_sneaky_first():
    def sneaky_block(g):
        p = g.pending
        return p.stage == "block" and len(p.options) > 1 and g.has(g.state.combat[0], 8)   # SNEAKY

    setup, taken, g = find(sneaky_block)
    rep = verify(log(setup, taken, *skipped(g, ("block", None))))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and "which the log skips" in f.message
    assert f.clauses[0] == "keywords.sneaky" and "combat.block" in f.clauses, f.clauses
    # A log that stops at the claim skipped nothing: the state difference alone is cited.
    cut = verify(log(setup, taken, skipped(g, ("block", None))[0])).findings[0]
    assert "skips" not in cut.message and cut.clauses[0] != "keywords.sneaky"


def test_a_tough_creatures_exhaustion_wiped_without_an_event_cites_tough():
    def tough_exhausted(g):
        s = g.state
        return g.pending.stage == "action" and any(c in s.exhausted and g.has(c, TOUGH) for c in s.play[0] + s.play[1])

    setup, taken, g = find(tough_exhausted)
    right = full_claim(g)
    wrong = json.loads(json.dumps(right))
    for side in wrong["play"]:
        for place in side:
            place["exhausted"] = False
    rep = verify(log(setup, taken, right, wrong))
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and f.line == len(taken) + 4
    assert f.clauses[0] == "keywords.tough", f.clauses


def test_a_second_attack_by_another_copy_of_a_frenzy_creature_cites_frenzy():
    def two_copies(g):
        p = g.pending
        if p.stage != "action":
            return False
        mine = [c for c in g.state.play[p.player] if g.has(c, FRENZY)]
        return any(g.name(a) == g.name(b) and a != b for a in mine for b in mine)

    setup, taken, g = find(two_copies, seeds=3000)
    me = g.pending.player
    a, b = next((a, b) for a in g.state.play[me] for b in g.state.play[me]
                if a != b and g.has(a, FRENZY) and g.name(a) == g.name(b))
    steps = [Decision("attack", me, a)]
    g.apply_unchecked("attack", a)
    while g.pending is not None and not (g.pending.stage == "action" and g.pending.player != me):
        p = g.pending
        option = ("pass", None) if p.stage == "frenzy" else p.options[-1]
        steps.append(Decision(option[0], None if p.is_chance else p.player, option[1]))
        g.apply_unchecked(*option)
    assert g.pending is not None and b in g.state.play[me]
    rep = verify(log(setup, taken + steps, {"t": "attack", "p": me, "card": b}))
    f = rep.findings[0]
    assert f.code == "ILLEGAL_DECISION" and f.clauses[0] == "keywords.frenzy", (f.code, f.clauses)


# -- the first clause names the rule the log broke ------------------------------------------------

NEW_SERVANTS = ("first-contact", "new-servants")
ETERNITY = ("first-contact", "beyond-eternity")


def settled(g: Game, option) -> Game:
    """`g` after `option` and the forced steps that follow it."""
    probe = g.copy()
    probe.apply_unchecked(*option)
    while probe.pending is not None and len(probe.pending.options) == 1:
        probe.apply_unchecked(*probe.pending.options[0])
    return probe


def test_a_skipped_turf_the_surfer_choice_before_the_end_of_the_game_is_cited_first():
    # The engine barred a blocker, the attack went through unblocked and ended
    # the game; the log writes the last state and the result, no choice.
    def turf_wins(g):
        p = g.pending
        return (p.stage == "choose" and len(p.options) > 1 and g.name(p.source) == "Turf the Surfer"
                and any(settled(g, o).is_over for o in p.options))

    setup, taken, g = find(turf_wins, seeds=3000, sets=NEW_SERVANTS)
    end = settled(g, next(o for o in g.pending.options if settled(g, o).is_over))
    rep = verify(log(setup, taken, full_claim(end), sets=NEW_SERVANTS)[:-1]
                 + [{"t": "end", "winner": end.winner, "reason": end.reason}])
    f = rep.findings[0]
    assert f.code == "STATE_MISMATCH" and "which the log skips" in f.message
    assert f.clauses[0] == "triggers.attack" and f.clauses.index("cards.any-creature") < f.clauses.index("life.lose")


def test_a_claim_that_leaves_a_boost_out_of_a_power_cites_the_boost():
    def boosted(g):
        s = g.state
        return g.pending.stage == "action" and any(cards and (c in s.play[0] or c in s.play[1])
                                                   for c, cards in s.boosts)

    setup, taken, g = find(boosted, sets=ETERNITY)
    right = full_claim(g)
    wrong = json.loads(json.dumps(right))
    place = next(pl for side in wrong["play"] for pl in side if pl.get("boosts"))
    place["power"] = g.power(place["card"]) - len(place["boosts"])
    f = verify(log(setup, taken, right, wrong, sets=ETERNITY)).findings[0]
    assert f.code == "STATE_MISMATCH" and f.line == len(taken) + 4
    assert f.clauses[0] == "later.boost.counts" and "abilities.constant" not in f.clauses, f.clauses
    # A power off by anything else is still a constant ability's.
    place["power"] = g.power(place["card"]) + 5
    f = verify(log(setup, taken, right, wrong, sets=ETERNITY)).findings[0]
    assert f.clauses[0] == "abilities.constant", f.clauses


def test_a_life_gain_the_log_left_out_is_cited_before_a_later_loss():
    # A gain, then a loss of a different amount, both before the claim: the
    # claimed life is short of the gain.
    for seed in range(400):
        rng = random.Random(seed)
        setup = random_deal(rng, "en-revised")
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        g = game_from_setup("en-revised", setup)
        taken: list[Decision] = []
        gain = None
        while g.pending is not None and len(taken) < 300:
            d = choose(g, "random", rng)
            events = g.apply_unchecked(d.kind, d.arg)
            taken.append(d)
            for e in events:
                if e.kind == "gain-life" and gain is None:
                    gain = e
                elif (e.kind == "lose-life" and gain is not None and e.player == gain.player
                      and e.amount != gain.amount and g.pending is not None):
                    wrong = full_claim(g)
                    wrong["life"][gain.player] -= gain.amount
                    f = verify(log(setup, taken, wrong)).findings[0]
                    assert f.code == "STATE_MISMATCH"
                    assert set(f.clauses[:2]) <= set(gain.clauses), (f.clauses, gain.clauses)
                    assert f.clauses.index("life.gain") < f.clauses.index("life.lose")
                    return
    raise AssertionError("no self-played game gains life, then loses another amount")


def test_both_picks_of_a_boost_in_one_choose_cite_the_boost_one_card_at_a_time():
    def boost_to_any(g):
        p = g.pending
        return (p.stage == "choose" and p.resume[0] == "boost-card" and len(p.options) > 2
                and len(g.state.play[0] + g.state.play[1]) > 1)

    setup, taken, g = find(boost_to_any, seeds=800, sets=ETERNITY)
    p = g.pending
    cards = [a[0] for _, a in p.options if a]
    creature = sorted(g.state.play[0] + g.state.play[1])[0]
    for pick in ([cards[0], creature], cards[:2]):
        f = verify(log(setup, taken, {"t": "choose", "p": p.player, "cards": pick}, sets=ETERNITY)).findings[0]
        assert (f.code, f.clauses) == ("ILLEGAL_DECISION", ["later.boost.split"]), (f.code, f.clauses)
        assert "one at a time" in f.message and g.name(p.source) in f.message


def eric_on_top(claims: bool):
    """Self-played games of an engine that puts Future Eric's cards on top
    of the draw pile (other cards above them): each as (setup, lines, the
    cards moved, the game so far), once the player has drawn one of them.
    `claims`: a claim after every decision, its draw piles given as sizes
    (the order shows only when the cards are drawn); else none."""
    sets = ("first-contact", "promo-2023")
    for seed in range(200):
        rng = random.Random(seed)
        setup = random_deal(rng, "en-revised", sets)
        setup["cards"] = {int(k): v for k, v in setup["cards"].items()}
        g = game_from_setup("en-revised", setup, sets=sets)
        lines: list[dict] = []
        moved = None
        while g.pending is not None and len(lines) < 400:
            d = choose(g, "random", rng)
            events = g.apply_unchecked(d.kind, d.arg)
            lines.append(d.to_json())
            for e in events:
                if (e.kind == "unused-to-deck" and moved is None and len(e.cards) == 2
                        and len(g.state.deck[e.player]) > 2):      # other cards above them
                    moved = list(e.cards)
                    deck = g.state.deck[e.player]
                    g.state.deck[e.player] = moved + [c for c in deck if c not in moved]
            if claims:
                claim = full_claim(g)
                claim["deck"] = [len(x) for x in g.state.deck]
                lines.append(claim)
            if moved and any(c in g.state.hand[0] + g.state.hand[1] for c in moved):
                yield setup, lines, moved, g
                break
            if moved and g.pending is None:
                break


def test_cards_future_eric_put_on_top_instead_of_under_the_draw_pile_cite_future_eric():
    # The claim after the draw shows the cards in the hand.
    for setup, lines, _moved, _g in eric_on_top(claims=True):
        f = verify(log(setup, [], *lines, sets=("first-contact", "promo-2023"))).findings[0]
        assert f.code == "STATE_MISMATCH" and "hand" in f.message
        assert f.clauses[0] == "promo.future-eric", f.clauses
        assert f.clauses.index("promo.future-eric") < f.clauses.index("drawing.refill")
        return
    raise AssertionError("no self-played game draws a card Future Eric put under the draw pile")


def test_a_card_future_eric_put_on_top_played_with_no_claim_cites_future_eric():
    # No claim shows the draw: the log then plays a card the rules still
    # have at the bottom of the draw pile.
    sets = ("first-contact", "promo-2023")
    seen = 0
    for setup, lines, moved, g in eric_on_top(claims=False):
        rng = random.Random(len(lines))
        while g.pending is not None and len(lines) < 400:
            mine = [d for d in g.legal_decisions() if d.kind == "play" and d.arg in moved]
            d = mine[0] if mine else choose(g, "random", rng)
            g.apply_unchecked(d.kind, d.arg)
            lines.append(d.to_json())
            if mine:
                if verify(log(setup, [], *lines, sets=sets)).verdict == "conforms":
                    break           # the rules' player has drawn that card by now too
                for keep_going in (False, True):
                    f = verify(log(setup, [], *lines, sets=sets), keep_going).findings[0]
                    assert (f.code, f.line) == ("ILLEGAL_DECISION", len(lines) + 2), (f.code, f.message)
                    assert f.clauses == ["promo.future-eric", "triggers.play", "play.from-hand"], f.clauses
                    assert f"card {d.arg} is not in player {d.player}'s hand" in f.message, f.message
                seen += 1
                break
        if seen == 3:
            return
    raise AssertionError("no self-played game plays a card Future Eric put under the draw pile")
