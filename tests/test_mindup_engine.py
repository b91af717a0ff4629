"""The Mind Up! engine, rule by rule: each test names the clause it checks,
and fails if that rule is changed."""

from __future__ import annotations

import random

import pytest

from oracle.games.mindup.cards import CARDS, OBJECTIVES, bubble, colour
from oracle.games.mindup.engine import Game, RuleError, SetupError
from oracle.games.mindup.engine.objectives import counts, meets
from oracle.games.mindup.engine.scoring import breakdown
from oracle.games.mindup.engine.turn import column_for
from oracle.games.mindup.readings import TEAM, choices

ORDER = [2, 4, 1, 5, 3]


def deal(n=3, seed=1, objectives=0, readings=None, pile=True) -> Game:
    rng = random.Random(seed)
    deck = list(range(1, 61))
    rng.shuffle(deck)
    return Game.deal(n, [deck[7 * p:7 * p + 7] for p in range(n)], deck[7 * n:8 * n],
                     deck[8 * n:] if pile else None, objectives, readings)


def fixed(hands, line, pile=None, objectives=0, readings=None) -> Game:
    return Game.deal(len(hands), hands, line, pile, objectives, readings)


def play_round(g: Game, rng=None) -> None:
    rng = rng or random.Random(0)
    while g.pending.kind == "choose":
        g.play_turn([rng.choice(h) for h in g.state.hands])


def test_the_card_data_is_the_printed_deck():
    # mu.setup.components: 12 cards per colour, the bubbles of the printed cards, mirror-symmetric
    for c in ("orange", "pink", "blue", "green", "purple"):
        assert sum(1 for n in CARDS if colour(n) == c) == 12
    assert sorted(bubble(n) for n in CARDS) == [-1] * 10 + [0] * 20 + [1] * 20 + [2] * 10
    assert all(CARDS[n] == CARDS[61 - n] for n in CARDS)
    assert CARDS[46] == ("orange", 1) and colour(37) == "blue" and CARDS[31] == ("orange", 0)
    assert [OBJECTIVES[i][0] for i in range(1, 15)] == [ch for ch in "ABCDEFG" for _ in (0, 1)]


@pytest.mark.parametrize("hands, line, clause", [
    ([[61, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19, 20]], [21, 22, 23],
     "mu.setup.components"),
    ([[1, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19, 20]], [21, 22, 23],
     "mu.setup.components"),
    ([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19, 20]], [21, 22, 23], "mu.setup.deal"),
    ([[1, 2, 3, 4, 5, 6, 24], [7, 8, 9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19, 20]], [21, 22],
     "mu.setup.line"),
])
def test_a_deal_the_rules_cannot_start_from_names_its_clause(hands, line, clause):
    with pytest.raises(SetupError) as e:
        fixed(hands, line)
    assert e.value.clause == clause


def test_player_count_is_a_reading():
    # mu.setup.players: 3 to 6 (team); 2 to 6 with the alternative; never 7
    with pytest.raises(SetupError) as e:
        deal(2)
    assert e.value.clause == "mu.setup.players"
    assert deal(2, readings={"mu.setup.players": "two-to-six"}).state.players == 2
    for n in (3, 4, 5, 6):
        assert len(deal(n).state.line) == n


def test_the_line_is_laid_out_by_number():
    # mu.setup.line
    g = fixed([[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14], [15, 16, 17, 18, 19, 20, 21]], [50, 22, 31])
    assert g.state.line == [22, 31, 50]


def test_a_score_order_is_the_five_values():
    # mu.setup.score-order
    g = deal()
    assert g.pending.kind == "round"
    with pytest.raises(RuleError) as e:
        g.start_round([1, 1, 2, 3, 4])
    assert e.value.clause == "mu.setup.score-order"
    g.start_round(ORDER)
    assert g.state.order == tuple(ORDER) and g.pending.kind == "choose"


def test_every_player_must_choose_and_only_from_hand():
    # mu.turn.choose: who must decide is the set of players who have not chosen
    g = deal(4)
    g.start_round(ORDER)
    assert g.pending.players == frozenset({0, 1, 2, 3})
    not_held = next(c for c in range(1, 61) if c not in g.state.hands[1])
    with pytest.raises(RuleError) as e:
        g.choose(1, not_held)
    assert e.value.clause == "mu.turn.choose" and e.value.options == g.state.hands[1]
    g.choose(2, g.state.hands[2][0])
    assert g.pending.players == frozenset({0, 1, 3})


def test_choices_stay_hidden_until_all_are_made():
    # mu.turn.hidden: no reveal before the last choice; a choice changes nothing yet
    g = deal(3)
    g.start_round(ORDER)
    before = [list(h) for h in g.state.hands]
    g.choose(0, g.state.hands[0][0])
    g.choose(1, g.state.hands[1][0])
    with pytest.raises(RuleError) as e:
        g.reveal()
    assert e.value.clause == "mu.turn.hidden"
    assert g.state.hands == before and all(not c for cols in g.state.columns for c in cols)


def test_choosing_twice_is_refused_unless_the_reading_allows_a_change():
    # mu.turn.change-choice
    g = deal(3)
    g.start_round(ORDER)
    a, b = g.state.hands[0][:2]
    g.choose(0, a)
    with pytest.raises(RuleError) as e:
        g.choose(0, b)
    assert e.value.clause == "mu.turn.change-choice"
    g = deal(3, readings={"mu.turn.change-choice": "change-allowed"})
    g.start_round(ORDER)
    g.choose(0, a)
    g.choose(0, b)
    g.choose(1, g.state.hands[1][0])
    g.choose(2, g.state.hands[2][0])
    g.reveal()
    assert b not in g.state.hands[0] and a in g.state.hands[0]


def test_the_kth_lowest_card_takes_the_kth_line_card_whatever_the_numbers():
    # mu.turn.reveal, mu.turn.take: by position, not by the nearest number
    hands = [[3, 4, 5, 6, 7, 8, 9], [1, 10, 11, 12, 13, 14, 15], [2, 16, 17, 18, 19, 20, 21]]
    g = fixed(hands, [58, 56, 57])
    g.start_round(ORDER)
    g.play_turn([3, 1, 2])
    won = {p: [c for col in g.state.columns[p] for c in col] for p in range(3)}
    assert won == {0: [58], 1: [56], 2: [57]}
    # mu.turn.next-line: the played cards, ascending
    assert g.state.line == [1, 2, 3]


def test_a_won_card_joins_its_colour_else_the_first_empty_score_card():
    # mu.score-cards.place
    g = deal(3)
    s = g.state
    s.columns[0] = [[8], [13], [], [], []]          # orange, blue
    assert column_for(s, 0, 30) == 0                 # orange joins orange
    assert column_for(s, 0, 37) == 1                 # blue joins blue
    assert column_for(s, 0, 12) == 2                 # green: the first empty one
    s.columns[0] = [[8], [], [], [], []]
    assert column_for(s, 0, 12) == 1


def test_the_last_card_goes_straight_to_the_score_cards_and_the_round_ends():
    # mu.round.last-card, mu.round.line-stays
    g = deal(4, seed=3)
    g.start_round(ORDER)
    turns = 0
    while g.pending.kind == "choose":
        last_line = sorted(h[0] for h in g.state.hands)
        g.play_turn([h[0] for h in g.state.hands])
        turns += 1
    assert turns == 6
    assert all(not h for h in g.state.hands) and g.pending.kind == "round"
    assert sum(len(c) for c in g.state.columns[0]) == 7
    assert g.state.line == last_line and len(g.state.scores[0]) == 1
    line = list(g.state.line)
    g.start_round([1, 2, 3, 4, 5])
    assert g.state.line == line


def test_a_new_round_takes_back_the_scored_cards_and_draws_one():
    # mu.round.take-back, mu.round.draw-order (seat order from the top of the pile)
    g = deal(3, seed=4)
    g.start_round(ORDER)
    play_round(g)
    scored = [sorted(c for col in g.state.columns[p] for c in col) for p in range(3)]
    top = g.state.pile[:3]
    with pytest.raises(RuleError) as e:
        g.start_round([1, 2, 3, 4, 5], draws=[top[1], top[0], top[2]])
    assert e.value.clause == "mu.round.draw-order"
    g.start_round([1, 2, 3, 4, 5])
    assert [sorted(h) for h in g.state.hands] == [sorted(scored[p] + [top[p]]) for p in range(3)]
    assert all(len(h) == 8 for h in g.state.hands) and all(not c for cols in g.state.columns for c in cols)
    g2 = deal(3, seed=4, readings={"mu.round.draw-order": "top-cards-any"})
    g2.start_round(ORDER)
    play_round(g2)
    g2.start_round([1, 2, 3, 4, 5], draws=[top[1], top[0], top[2]])
    assert top[1] in g2.state.hands[0]


def test_objectives_left_out_name_the_rule_that_reveals_them():
    """mu.objectives.count: each round reveals its objectives; round 1's
    left out is that rule, round 2's (renewed with one or two) is
    mu.objectives.renew."""
    g = deal(3, seed=4, objectives=1)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER)
    assert (e.value.code, e.value.clause) == ("MISSING_INPUT", "mu.objectives.count")
    assert "log" not in e.value.message          # the service and conform give no log
    g.start_round(ORDER, objectives=[3])
    play_round(g)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER)
    assert (e.value.code, e.value.clause) == ("MISSING_INPUT", "mu.objectives.renew")


def test_without_a_pile_the_log_must_give_the_draws():
    g = deal(3, seed=4, pile=False)
    g.start_round(ORDER)
    play_round(g)
    with pytest.raises(RuleError) as e:
        g.start_round([1, 2, 3, 4, 5])
    assert e.value.code == "MISSING_INPUT"
    used = {c for h in g.state.hands for c in h} | set(g.state.line) | {
        c for p in range(3) for c in g.state.scored(p)}
    free = [c for c in range(1, 61) if c not in used][:3]
    g.start_round([1, 2, 3, 4, 5], draws=free)
    assert all(free[p] in g.state.hands[p] for p in range(3))


def test_a_repeated_score_order_is_a_reading():
    # mu.round.new-order, mu.round.order-repeat
    for readings, ok in (({}, True), ({"mu.round.order-repeat": "must-differ"}, False)):
        g = deal(3, readings=readings)
        g.start_round(ORDER)
        play_round(g)
        if ok:
            g.start_round(ORDER)
        else:
            with pytest.raises(RuleError) as e:
                g.start_round(ORDER)
            assert e.value.clause == "mu.round.order-repeat"


def test_the_rulebook_scoring_example():
    # mu.scoring.columns, mu.scoring.bubbles: 2 purple on 2, 1 blue on 4, 1 green on 1, 3 orange on 5 -> 24 + 1
    columns = [[22, 20], [13], [25], [15, 8, 30], []]
    part = breakdown(columns, ORDER, (), [counts(columns)], choices())
    assert part["columns"] == [4, 4, 1, 15, 0] and part["bubbles"] == 1 and part["total"] == 25


def _counts(**kw):
    return {c: kw.get(c, 0) for c in ("orange", "pink", "blue", "green", "purple")}


@pytest.mark.parametrize("objective, columns, met", [
    (1, [[8], [], [], [], []], True), (1, [[8, 30], [], [], [], []], False),
    (2, [[8], [], [], [], []], True), (2, [[13], [8], [], [], []], False), (2, [[13], [], [], [], []], False),
    (3, [[13, 18], [], [], [], []], True), (3, [[13, 18, 24], [], [], [], []], False),
    (4, [[13, 18], [8, 30], [], [], []], True), (4, [[13], [8, 30], [], [], []], False),
    (4, [[], [], [], [], []], False),
    (7, [[8], [12], [], [], []], True), (7, [[12], [8], [], [], []], False),
    (8, [[8], [12], [], [], []], True), (8, [[12], [], [], [], []], False),
    (9, [[20], [8], [], [], []], True), (9, [[8], [], [], [], []], False), (9, [[12], [], [], [], []], True),
    (11, [[8], [2], [13], [12], [20]], True), (11, [[8], [2], [13], [12], []], False),
    (12, [[8], [2], [13], [], []], True), (12, [[8], [2], [], [], []], False),
    (13, [[8, 30, 31], [], [], [], []], True), (13, [[8, 30], [], [], [], []], False),
    (14, [[8, 30, 31, 53], [], [], [], []], True), (14, [[8, 30, 31], [], [], [], []], False),
])
def test_each_objective_on_a_players_own_cards(objective, columns, met):
    # mu.objectives.cards, mu.objectives.check (order 2-4-1-5-3: column values 2, 4, 1, 5, 3)
    mine = counts(columns)
    assert meets(objective, columns, ORDER, [mine], mine, choices()) is met


def test_objectives_that_compare_players_count_ties_and_zero_is_a_reading():
    # objectives 5, 6, 10; mu.objectives.all-zero
    me, other = _counts(pink=2, purple=1), _counts(pink=2, purple=3)
    assert meets(6, [], ORDER, [me, other], me, choices())          # tied for the most pink
    assert meets(5, [], ORDER, [me, other], me, choices())          # tied for the fewest pink
    assert not meets(10, [], ORDER, [me, other], me, choices())     # another has more purple
    zero = _counts()
    assert meets(6, [], ORDER, [zero, zero], zero, choices())
    assert not meets(6, [], ORDER, [zero, zero], zero, choices({"mu.objectives.all-zero": "nobody"}))


def test_no_green_is_a_reading():
    # mu.objectives.no-green
    cols = [[8], [], [], [], []]
    assert not meets(7, cols, ORDER, [counts(cols)], counts(cols), choices())
    assert meets(7, cols, ORDER, [counts(cols)], counts(cols), choices({"mu.objectives.no-green": "bonus"}))


def test_objectives_shown_together_have_distinct_letters_and_renew_or_stay():
    # mu.objectives.count, mu.objectives.renew, mu.objectives.letters-later
    g = deal(3, objectives=2)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER, objectives=[1, 2])
    assert e.value.clause == "mu.objectives.count"
    g.start_round(ORDER, objectives=[1, 3])
    play_round(g)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER, objectives=[1, 5])
    assert e.value.clause == "mu.objectives.renew"
    g.start_round(ORDER, objectives=[2, 5])       # A's sister card: allowed by the team's reading
    g = deal(3, objectives=2, readings={"mu.objectives.letters-later": "letter-retired"})
    g.start_round(ORDER, objectives=[1, 3])
    play_round(g)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER, objectives=[2, 5])
    assert e.value.clause == "mu.objectives.letters-later"
    g = deal(3, objectives=3)
    g.start_round(ORDER, objectives=[1, 3, 5])
    play_round(g)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER, objectives=[2, 4, 6])
    assert e.value.clause == "mu.objectives.renew"
    g.start_round(ORDER)
    assert g.state.objectives == (1, 3, 5)


def test_relative_objectives_are_checked_after_every_last_card_unless_the_reading_says_otherwise():
    # mu.objectives.relative-timing, objective 6 (the most pink): A's last card is pink 2, B's is pink 59;
    # before B's last card, A and B were tied at one pink card each
    from oracle.games.mindup.engine.scoring import score_round
    g = deal(3, objectives=1)
    g.start_round(ORDER, objectives=[6])
    s = g.state
    before = [[[8], [], [], [], []], [[6], [], [], [], []], [[13], [], [], [], []]]
    s.columns = [[[8], [2], [], [], []], [[6, 59], [], [], [], []], [[13], [12], [], [], []]]
    after = score_round(s, choices(), before)
    bga = score_round(s, choices({"mu.objectives.relative-timing": "placement-order"}), before)
    assert [6 in p["objectives"] for p in after] == [False, True, False]
    assert [6 in p["objectives"] for p in bga] == [True, True, False]


def test_three_rounds_the_winner_and_the_tie_break():
    # mu.game.rounds, mu.game.winner
    g = deal(3, seed=9)
    for r in range(3):
        g.start_round(ORDER)
        play_round(g, random.Random(r))
    assert g.is_over and all(len(s) == 3 for s in g.state.scores)
    with pytest.raises(RuleError) as e:
        g.start_round(ORDER)
    assert e.value.clause in ("mu.round.new-order", "mu.game.rounds")
    s = g.state
    s.scores = [[10, 10, 5], [10, 5, 10], [5, 5, 5]]
    assert g.winners() == [1]                          # tied at 25: B scored more in round 3
    s.scores = [[10, 10, 5], [15, 5, 5], [5, 5, 5]]
    assert g.winners() == [0, 1]                       # still tied: a shared victory
    s.scores = [[30, 0, 0], [10, 10, 9], [5, 5, 5]]
    assert g.winners() == [0]                          # the highest total, not the best last round


def test_team_readings_are_the_defaults():
    assert choices() == TEAM


def test_who_must_decide_is_a_set_of_players_in_both_games():
    from oracle.games.mindbug.engine import Game as MindbugGame
    from oracle.games.mindbug.replay.selfplay import random_deal
    d = random_deal(random.Random(1))
    mb = MindbugGame.deal("en-revised", d["cards"], d["decks"], d["unused"], None, d["reveals"])
    assert mb.pending.players == frozenset({mb.pending.player})
    g = deal(5)
    g.start_round(ORDER)
    assert g.pending.players == frozenset(range(5))


def test_a_copied_state_shares_no_list_with_its_original():
    """State.copy copies by hand (deepcopy cost most of a verification): a
    list field it forgot would be shared, and a game and its copy would
    change each other. Every field is checked, so a new one must be copied."""
    import dataclasses
    import copy

    g = deal(4, seed=3, objectives=2)
    play_round(g)
    s = g.state
    c = s.copy()
    assert c == copy.deepcopy(s)
    for f in dataclasses.fields(s):
        mine, theirs = getattr(s, f.name), getattr(c, f.name)
        if isinstance(mine, list):
            assert theirs is not mine, f.name
            for a, b in zip(mine, theirs):
                if isinstance(a, list):
                    assert a is not b, f.name
                    for x, y in zip(a, b):
                        assert not isinstance(x, list) or x is not y, f.name
        else:
            assert not isinstance(mine, (dict, set)), f"{f.name}: a field State.copy does not know how to copy"
