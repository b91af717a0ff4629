"""Decision lines the rules allow although the engine asks nothing there:
written empty answers, early declines, the block HUNTER forced. Each log is
a self-played game (seed given) rewritten the way another engine writes it."""

import io

from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.samples import claim, end_of, record
from oracle.replay.verify import verify_game


def log_of(seed: int, edition: str = "en-revised"):
    """A recorded game as lines (a claim after every decision) and its steps."""
    head, steps, g = record(edition, seed)
    head = [dict(x) for x in head]
    head[0]["id"] = f"forms-{seed}"
    lines = list(head)
    at = []                                 # index of each decision line
    for s in steps:
        at.append(len(lines))
        lines.append(s.decision.to_json())
        lines.append(claim(s.after))
    lines.append(end_of(g))
    return lines, steps, at


def verify(lines):
    import msgspec
    data = b"".join(msgspec.json.encode(x) + b"\n" for x in lines)
    return [verify_game(r) for r in split_games(io.BytesIO(data), "<test>")][0]


def skipped(step):
    return [e for e in step.events if e.kind == "no-effect"]


def test_written_empty_random_for_a_steal_from_an_empty_hand_is_accepted():
    lines, steps, at = log_of(20)
    (e,) = skipped(steps[37])
    assert e.player is None and steps[37].before.table.names[e.source] == "Strange Barrel"
    assert verify(lines).verdict == "conforms"
    lines.insert(at[37] + 1, {"t": "random", "cards": []})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("'random []' answers Strange Barrel's effect" in n for n in rep.notes)


def test_written_empty_random_after_the_last_decision_is_not_game_over():
    lines, steps, at = log_of(551)
    assert len(steps) == 51 and skipped(steps[50]) and steps[50].after.is_over
    lines.insert(at[50] + 1, {"t": "random", "cards": []})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]


def test_a_non_empty_random_where_the_rules_took_nothing_is_still_refused():
    lines, steps, at = log_of(20)
    hand = steps[37].before.state.hand[0] + steps[37].before.state.hand[1]
    lines.insert(at[37] + 1, {"t": "random", "cards": hand[:1] or [1]})
    assert verify(lines).verdict == "violates"


def test_written_empty_choice_for_harpy_mother_with_no_creature_is_accepted():
    lines, steps, at = log_of(28)
    (e,) = skipped(steps[66])
    assert steps[66].before.table.names[e.source] == "Harpy Mother"
    lines.insert(at[66] + 1, {"t": "choose", "p": e.player, "cards": []})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("Harpy Mother's effect, which had nothing to pick" in n for n in rep.notes)


def test_written_empty_choice_by_the_wrong_player_is_a_finding():
    lines, steps, at = log_of(28)
    (e,) = skipped(steps[66])
    lines.insert(at[66] + 1, {"t": "choose", "p": 1 - e.player, "cards": []})
    assert verify(lines).verdict == "violates"


def test_empty_choice_written_later_than_the_next_decision_is_not_taken_for_it():
    """Harpy Mother's skipped choice answered only after another decision
    line: out of place, so not accepted."""
    lines, steps, at = log_of(28)
    (e,) = skipped(steps[66])
    lines.insert(at[67] + 2, {"t": "choose", "p": e.player, "cards": []})
    assert verify(lines).verdict == "violates"


def test_written_empty_choice_does_not_shift_the_rest_of_the_log():
    """Harpy Mother's empty choice as the last decision of a game, followed by
    the order of two waiting effects and another choice."""
    lines, steps, at = log_of(669)
    (e,) = skipped(steps[61])
    lines.insert(at[61] + 1, {"t": "choose", "p": e.player, "cards": []})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert rep.decisions == len(steps)


def _hunt_first(seed, i):
    """The log with `hunt null` (step i) written before the Attack effect's choice (step i-1)."""
    lines, steps, at = log_of(seed)
    assert steps[i - 1].before.pending.stage == "choose" and steps[i].decision.kind == "hunt"
    assert steps[i].decision.arg is None
    choose_line, hunt_line = lines[at[i - 1]], lines[at[i]]
    # The other engine declines HUNTER as soon as the attack is declared.
    lines[at[i - 1]:at[i] + 2] = [hunt_line, choose_line, lines[at[i] + 1]]
    return lines, steps


def test_hunt_null_before_the_attack_effect_choice_is_accepted_with_a_note():
    lines, steps = _hunt_first(113, 50)
    assert len(steps[49].before.pending.options) > 1
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("declines HUNTER before the rules ask for it" in n for n in rep.notes)


def test_a_forced_choice_written_after_an_early_hunt_null_is_accepted():
    """The Attack effect had one candidate: the rules take that choice at
    once, and the log writes it after its early `hunt null`."""
    lines, steps = _hunt_first(30, 10)
    assert len(steps[9].before.pending.options) == 1
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("writes the forced step the rules took" in n for n in rep.notes)


def test_frenzy_pass_before_the_combat_effects_is_accepted_with_a_note():
    lines, steps, at = log_of(12)
    assert steps[18].before.pending.stage == "frenzy" and steps[18].decision.kind == "pass"
    assert steps[17].before.pending.stage == "choose"
    choice, decline = lines[at[17]], lines[at[18]]
    lines[at[17]:at[18] + 2] = [decline, choice, lines[at[18] + 1]]
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("FRENZY second attack before the rules offer it" in n for n in rep.notes)


def test_the_defender_writing_the_block_hunter_forced_is_accepted():
    lines, steps, at = log_of(1)
    hunt = steps[13].decision
    assert hunt.kind == "hunt" and hunt.arg is not None
    lines.insert(at[13] + 1, {"t": "block", "p": 1 - hunt.player, "card": hunt.arg})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("the block HUNTER forced" in n for n in rep.notes)
    # Any other blocker is still refused.
    others = [c for c in steps[13].before.state.play[1 - hunt.player] if c != hunt.arg]
    if others:
        lines[at[13] + 1] = {"t": "block", "p": 1 - hunt.player, "card": others[0]}
        assert verify(lines).verdict == "violates"


def test_naming_the_only_waiting_effect_is_accepted_and_does_not_shift_the_log():
    """Explosive Toad's Defeated effect is the only one waiting: the rules
    resolve it without an order decision; a log may still name it."""
    lines, steps, at = log_of(0)
    (trig,) = [e for e in steps[9].events if e.kind == "trigger"]
    assert steps[9].after.table.names[trig.card] == "Explosive Toad"
    assert steps[9].after.pending.stage == "choose" and steps[9].after.pending.source == trig.card
    lines.insert(at[9] + 1, {"t": "choose", "p": steps[9].before.state.active, "cards": [trig.card]})
    rep = verify(lines)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("names Explosive Toad's effect, the only one waiting" in n for n in rep.notes)
    assert rep.decisions == len(steps)


def test_annotate_writes_an_early_decline_where_the_rules_ask_for_it():
    import msgspec

    from oracle.replay.annotate import annotate_stream
    lines, steps = _hunt_first(113, 50)
    data = b"".join(msgspec.json.encode(x) + b"\n" for x in lines)
    out = io.BytesIO()
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        f.write(data)
        f.flush()
        assert annotate_stream((f.name,), None, out) == 0
    kinds = ("play", "attack", "mindbug", "pass", "hunt", "block", "choose", "random")
    decided = [x for x in map(msgspec.json.decode, out.getvalue().splitlines()) if x["t"] in kinds]
    # The canonical order: the Attack effect's choice, then the decline.
    assert decided == [s.decision.to_json() for s in steps]


def test_a_forced_choice_left_out_before_a_choice_of_the_same_player_is_taken_by_the_rules():
    """spec/replay-format.md, item 7: Grave Robber's pick with one card in the
    opponent's discard pile is forced; the log leaves it out and writes the
    next Play effect's choice (Tiger Squirrel's), which the rules reach once
    the forced pick is taken."""
    import json
    from pathlib import Path
    path = Path(__file__).parent / "data" / "forced-choose-left-out.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert verify(lines).verdict == "conforms"
    k = lines.index({"t": "choose", "p": 0, "cards": [13]})
    assert lines[k + 1] == {"t": "choose", "p": 0, "cards": [16]}
    rep = verify(lines[:k] + lines[k + 1:])
    assert rep.verdict == "conforms", rep.findings
    # a choice legal at no point is still refused, with the forced step's option
    rep = verify(lines[:k] + [{"t": "choose", "p": 0, "cards": [5]}] + lines[k + 2:])
    assert rep.findings[0].code == "ILLEGAL_DECISION" and rep.findings[0].line == k + 1


def _forced_skip(seeds):
    """A game, the index of a forced step (one option) whose effect then
    skipped a player's choice for want of anything to pick, and that choice."""
    for seed in seeds:
        lines, steps, at = log_of(seed)
        for k, s in enumerate(steps):
            chooser = [e for e in skipped(s) if e.player is not None]
            if k and len(s.before.pending.options) == 1 and chooser:
                return lines, at[k], chooser[0]
    raise AssertionError("no game of these seeds shows it")


def test_a_claim_that_matches_after_a_forced_step_records_the_choices_it_skipped():
    # The Mindbug decision with no Mindbug left (one option) is left out; the
    # claim written after it matches once the rules take it, and the Play
    # effect it let resolve had nothing to pick: the empty answer written
    # after the claim is accepted, as it is with the forced step written.
    lines, i, e = _forced_skip(range(1, 40))
    assert verify(lines).verdict == "conforms"
    written = lines[:i + 2] + [{"t": "choose", "p": e.player, "cards": []}] + lines[i + 2:]
    assert verify(written).verdict == "conforms"
    left_out = lines[:i] + lines[i + 1:i + 2] + [{"t": "choose", "p": e.player, "cards": []}] + lines[i + 2:]
    rep = verify(left_out)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("'choose []' answers" in n for n in rep.notes)
    # The forced step itself, written after the claim, is the step the rules took.
    late = lines[:i] + lines[i + 1:i + 2] + [lines[i]] + lines[i + 2:]
    rep = verify(late)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("writes the forced step the rules took" in n for n in rep.notes)
    # A second empty answer has no skipped choice left to answer.
    twice = left_out[:i + 2] + [left_out[i + 1]] + left_out[i + 2:]
    assert verify(twice).verdict == "violates"


def test_a_choice_whose_answers_all_come_to_the_same_is_a_forced_step():
    # Wheatle names a power against an empty hand: whatever the power, the
    # opponent gives nothing. A log that leaves the choice out conforms (the
    # rules take it like a forced step, with a note); with a hand to take
    # from, leaving it out is still a missing decision.
    import json

    from oracle.games.mindbug.replay.selfplay import selfplay_lines

    sets = ("first-contact", "promo-later")
    lines = [json.loads(x) for x in selfplay_lines(10, 2, "en-revised", "random", "every", sets=sets)]
    starts = [k for k, x in enumerate(lines) if x["t"] == "game"] + [len(lines)]
    cases = {}                  # whether the hand is empty -> (game, index of Wheatle's choice)
    for a, b in zip(starts, starts[1:]):
        game, names = lines[a:b], lines[a + 1]["cards"]
        for k, x in enumerate(game):
            if x["t"] == "choose" and game[k - 2]["t"] == "attack" and names[str(game[k - 2]["card"])] == "Wheatle":
                cases.setdefault(not game[k - 1]["hand"][1 - x["p"]], (game, k))
    assert set(cases) == {True, False}, "no game names a power with Wheatle against an empty and a full hand"
    game, k = cases[True]
    assert verify(game).verdict == "conforms"
    rep = verify(game[:k] + game[k + 1:])
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("every one of its" in n and "same outcome" in n for n in rep.notes)
    game, k = cases[False]
    rep = verify(game[:k] + game[k + 1:])
    assert rep.findings and rep.findings[0].code in ("MISSING_DECISION", "STATE_MISMATCH")


def test_ratomancer_puts_its_cards_into_play_one_choose_at_a_time():
    # spec/replay-format.md, order of lines, item 9: one `choose` per card,
    # `[]` to stop; after the last card the rules ask nothing, and a `[]`
    # written there is an accepted empty answer. All at once is refused.
    import json

    from oracle.games.mindbug.replay.selfplay import selfplay_lines

    sets = ("first-contact", "promo-2022")
    lines = [json.loads(x) for x in selfplay_lines(20, 4, "en-revised", "random", "every", sets=sets)]
    starts = [k for k, x in enumerate(lines) if x["t"] == "game"] + [len(lines)]
    for a, b in zip(starts, starts[1:]):
        game, names = lines[a:b], lines[a + 1]["cards"]
        plays = [k for k, x in enumerate(game) if x["t"] == "play" and names[str(x["card"])] == "Ratomancer"]
        for k in plays:
            picks = []
            j = k + 4                       # play, claim, pass, claim: the first pick
            while game[j]["t"] == "choose" and game[j]["cards"]:
                picks.append(j)
                j += 2
            if len(picks) >= 2 and game[j]["t"] != "choose":
                break
        else:
            continue
        break
    else:
        raise AssertionError("no game puts two cards into play with Ratomancer")
    assert verify(game).verdict == "conforms"
    last = picks[-1] + 2                    # after the last pick and its claim
    rep = verify(game[:last] + [{"t": "choose", "p": game[k]["p"], "cards": []}] + game[last:])
    assert rep.verdict == "conforms", rep.findings[:1]
    assert any("'choose []' answers Ratomancer's effect" in n for n in rep.notes)
    together = [c for j in picks for c in game[j]["cards"]]
    rep = verify(game[:picks[0]] + [{"t": "choose", "p": game[k]["p"], "cards": together}] + game[last:])
    assert rep.findings[0].code == "ILLEGAL_DECISION" and rep.findings[0].line == picks[0] + 1
