"""verify, selfplay and annotate for Mind Up!: self-played logs of 3 to 6
players conform, each planted mistake is found with its clause, the turn
forms and readings, malformed logs, mixed streams of both games, and the
catalogue and registry behind them."""

from __future__ import annotations

import copy
import io
import json

import msgspec
import pytest
from conftest import ROOT, run_cli

from oracle.games import GAMES, UnknownGame, check, game_of
from oracle.games.mindup.clauses import load_catalogue, render_markdown
from oracle.games.mindup.readings import READINGS
from oracle.games.mindup.replay.selfplay import play_game, selfplay_lines
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines as mindbug_selfplay
from oracle.replay.verify import verify_game


def stream(games: list[list[dict]]) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for lines in games for x in lines)


def reports(data: bytes, **kw):
    return [verify_game(r, **kw) for r in split_games(io.BytesIO(data), "<test>")]


def game(players=4, seed=1, objectives=0, **kw) -> list[dict]:
    return list(play_game(players, seed, game_id=f"g{players}-{objectives}-{seed}", objectives=objectives, **kw))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("objectives", [0, 1, 2, 3, 5])
def test_selfplay_logs_conform(players, objectives):
    data = b"".join(x + b"\n" for x in selfplay_lines(4, 7, players, "random", objectives)) + \
        b"".join(x + b"\n" for x in selfplay_lines(2, 8, players, "greedy", objectives, split=True))
    reps = reports(data)
    assert len(reps) == 6
    assert [r.verdict for r in reps] == ["conforms"] * 6, [r.findings for r in reps if r.findings][:1]
    assert all(r.decisions == players * 21 and len(r.result["winners"]) >= 1 for r in reps)


# -- the four planted corruptions --------------------------------------------------------------------

def _nth(lines, t, k):
    return [i for i, x in enumerate(lines) if x["t"] == t][k]


def card_changed(lines):
    i = _nth(lines, "turn", 3)
    hand_of_a = lines[i + 1 - 2]["hands"][0]          # the claim before this turn: player A's hand
    lines[i]["cards"][1] = hand_of_a[0]
    return "ILLEGAL_DECISION", "mu.turn.choose", i + 1


def wrong_score_card(lines):
    for i, x in enumerate(lines):
        if x["t"] == "state":
            cols = x["columns"][1]
            two = [k for k in range(5) if len(cols[k]) >= 2]      # a colour won twice
            empty = [k for k in range(5) if not cols[k]]
            if two and empty:
                cols[empty[-1]].append(cols[two[0]].pop())      # its second card on an empty Score card
                return "STATE_MISMATCH", "mu.score-cards.place", i + 1
    raise AssertionError("no claim to change")


def wrong_score(lines):
    i = _nth(lines, "state", 5)          # after round 1's last turn: the round's scores are claimed
    lines[i]["scores"][2][0] -= 1        # one point off, one player: nothing tells which part: the columns first
    return "STATE_MISMATCH", "mu.scoring.columns", i + 1


def wrong_winner(lines):
    end = lines[-1]
    end["winners"] = [p for p in range(len(end["scores"])) if p not in end["winners"]][:1]
    return "WRONG_RESULT", "mu.game.winner", len(lines)


@pytest.mark.parametrize("corrupt", [card_changed, wrong_score_card, wrong_score, wrong_winner])
@pytest.mark.parametrize("players", [3, 6])
def test_each_planted_corruption_is_flagged_with_its_clause(corrupt, players):
    for seed in range(3):
        lines = game(players, seed, objectives=players - 2)
        code, clause, lineno = corrupt(lines)
        reps = reports(stream([lines, game(players, seed + 10)]))
        assert [r.verdict for r in reps] == ["violates", "conforms"]
        f = reps[0].findings[0]
        assert (f.code, f.clauses[0], f.line, f.basis) == (code, clause, lineno, "rules"), f


def test_a_wrong_score_card_is_told_in_game_terms():
    lines = game(4, 3)
    code, clause, lineno = wrong_score_card(lines)
    f = reports(stream([lines]))[0].findings[0]
    entry = f.diff[0]
    assert entry.card is not None and "Score card; the rules have it on the" in entry.text
    assert "which already holds" in entry.text and entry.log[0]["zone"] == entry.rules[0]["zone"] == "columns"


def test_the_end_scores_are_checked():
    lines = game(5, 2)
    lines[-1]["scores"][0] += 2
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.clauses[0]) == ("WRONG_RESULT", "mu.game.rounds")


# -- turn forms and readings --------------------------------------------------------------------------

def test_one_line_per_player_in_any_order_and_an_optional_reveal_line():
    lines = game(4, 5, split=True)
    # a reveal line after every turn's last choice is accepted
    out = []
    chosen = 0
    for x in lines:
        out.append(x)
        if x["t"] == "choose":
            chosen += 1
            if chosen % 4 == 0:
                out.append({"t": "reveal"})
    assert [r.verdict for r in reports(stream([lines, out]))] == ["conforms", "conforms"]


def test_a_reveal_line_after_a_turn_line_changes_nothing():
    """A turn line reveals its cards; a reveal line after it writes that
    out. A second one reveals a turn nobody has chosen yet."""
    lines = game(3, 14)
    i = _nth(lines, "turn", 0)
    once = lines[:i + 1] + [{"t": "reveal"}] + lines[i + 1:]
    twice = lines[:i + 1] + [{"t": "reveal"}, {"t": "reveal"}] + lines[i + 1:]
    assert reports(stream([once]))[0].verdict == "conforms"
    f = reports(stream([twice]))[0].findings[0]
    assert (f.code, f.clauses[0], f.line) == ("ILLEGAL_DECISION", "mu.turn.hidden", i + 3)


def test_an_early_reveal_and_playing_twice_are_findings():
    lines = game(4, 6, split=True)
    i = _nth(lines, "choose", 2)
    early = lines[:i] + [{"t": "reveal"}] + lines[i:]
    f = reports(stream([early]))[0].findings[0]
    assert (f.code, f.clauses[0], f.line) == ("ILLEGAL_DECISION", "mu.turn.hidden", i + 1)
    twice = copy.deepcopy(lines)
    first = twice[_nth(twice, "choose", 0)]
    other = next(c for c in twice[1]["deck"][7 * first["p"]:7 * first["p"] + 7] if c != first["card"])
    twice.insert(_nth(twice, "choose", 0), {"t": "choose", "p": first["p"], "card": other})
    f = reports(stream([twice]))[0].findings[0]
    assert (f.code, f.clauses[0], f.basis, f.alternatives) == ("ILLEGAL_DECISION", "mu.turn.change-choice",
                                                               "reading", ["change-allowed"])
    # the same game under the alternative, declared on its game line or given with --reading
    twice[0]["readings"] = {"mu.turn.change-choice": "change-allowed"}
    assert reports(stream([twice]))[0].verdict == "conforms"
    del twice[0]["readings"]
    assert reports(stream([twice]), readings={"mu.turn.change-choice": "change-allowed"})[0].verdict == "conforms"


def test_the_last_card_played_to_the_line_is_a_finding():
    lines = game(3, 4)
    i = _nth(lines, "round", 1)
    lines.insert(i, {"t": "turn", "cards": lines[i - 2]["cards"]})
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.clauses[0], f.line) == ("ILLEGAL_DECISION", "mu.round.last-card", i + 1)


def test_a_finding_where_a_round_should_start_names_that_round():
    """The human report's `legal here` says which round the rules wait for."""
    from oracle.replay.report import human_game

    lines = game(3, 4)
    i = _nth(lines, "round", 1)
    lines.insert(i, {"t": "turn", "cards": lines[i - 2]["cards"]})
    text = human_game(reports(stream([lines]))[0])
    assert "legal here: round 2" in text


def test_a_claim_after_the_last_turn_may_come_before_the_last_cards_are_placed():
    """mu.round.last-card: after a round's last turn each player holds one
    card until it is placed; a claim of that position, before a `last` line
    or the next round, is checked there, and still checked."""
    lines = game(4, 3)
    for r in (2, 1, 0):
        i = _nth(lines, "round", r + 1) if r < 2 else _nth(lines, "end", 0)
        j = max(k for k in range(i) if lines[k]["t"] == "turn")
        before = [k for k in range(j) if lines[k]["t"] == "state" and "hands" in lines[k]][-1]
        hands = [[c for c in h if c != lines[j]["cards"][p]] for p, h in enumerate(lines[before]["hands"])]
        scores = lines[before]["scores"]
        lines[j + 1:j + 1] = [{"t": "state", "round": r + 1, "turn": 5 + r + 1, "hands": hands, "scores": scores},
                              {"t": "last", "cards": [h[0] for h in hands]}]
    assert reports(stream([lines]))[0].verdict == "conforms"
    k = [i for i, x in enumerate(lines) if x["t"] == "last"][1] - 1
    lines[k]["hands"][0], lines[k]["hands"][1] = lines[k]["hands"][1], lines[k]["hands"][0]
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.line, len(f.diff)) == ("STATE_MISMATCH", k + 1, 2)
    assert "in player A's hand" in f.message


def test_a_claim_before_the_last_cards_may_follow_the_reveal_line_of_the_last_turn():
    """The position before the last cards stays claimable up to the next
    line that is not a state claim: a `reveal` line after the last choice of
    the round's last turn is part of that turn; after a `last` line the last
    cards are placed, and a claim is compared with the position after."""
    lines = game(3, 5, split=True)
    i = _nth(lines, "round", 1)
    j = max(k for k in range(i) if lines[k]["t"] == "choose")
    before = [k for k in range(j) if lines[k]["t"] == "state"][-1]
    played = {x["p"]: x["card"] for x in lines[j - 2:j + 1]}
    hands = [[c for c in h if c != played[p]] for p, h in enumerate(lines[before]["hands"])]
    claim = {"t": "state", "round": 1, "turn": 6, "hands": hands}
    after_reveal = lines[:j + 1] + [{"t": "reveal"}, claim] + lines[j + 1:]
    after_last = lines[:j + 1] + [{"t": "last", "cards": [h[0] for h in hands]}, claim] + lines[j + 1:]
    assert reports(stream([after_reveal]))[0].verdict == "conforms"
    f = reports(stream([after_last]))[0].findings[0]
    assert (f.code, f.clauses[0], f.line, len(f.diff)) == ("STATE_MISMATCH", "mu.round.last-card", j + 3, 3)
    wrong = copy.deepcopy(after_reveal)
    wrong[j + 2]["hands"][0], wrong[j + 2]["hands"][1] = hands[1], hands[0]
    f = reports(stream([wrong]))[0].findings[0]
    assert (f.code, f.line, len(f.diff)) == ("STATE_MISMATCH", j + 3, 2)
    assert "in player A's hand" in f.message


def test_a_claim_between_choices_may_leave_a_face_down_card_out_of_the_hand():
    """mu.turn.choose: a card laid face down is in front of its player; a
    claim between a turn's choices may list it in the hand or leave it out,
    and anything else that differs is still found."""
    lines = game(3, 6, split=True)
    i = _nth(lines, "choose", 0)
    first = lines[i]
    hands = [sorted(lines[1]["deck"][7 * p:7 * p + 7]) for p in range(3)]
    without = [[c for c in h if c != first["card"]] if p == first["p"] else h for p, h in enumerate(hands)]
    kept = lines[:i + 1] + [{"t": "state", "hands": hands}] + lines[i + 1:]
    left_out = lines[:i + 1] + [{"t": "state", "hands": without}] + lines[i + 1:]
    assert [r.verdict for r in reports(stream([kept, left_out]))] == ["conforms", "conforms"]
    other = (first["p"] + 1) % 3
    wrong = copy.deepcopy(left_out)
    wrong[i + 1]["hands"][other] = wrong[i + 1]["hands"][other][1:]
    f = reports(stream([wrong]))[0].findings[0]
    assert (f.code, f.line, len(f.diff)) == ("STATE_MISMATCH", i + 2, 1)
    assert f.diff[0].card == hands[other][0]


def test_a_wrong_line_names_the_rule_that_laid_it_out():
    """A line in another order after a turn is mu.turn.next-line (not the
    set-up's mu.setup.line); another line at the start of round 2 is
    mu.round.line-stays."""
    lines = game(4, 12)
    i = _nth(lines, "state", 2)
    lines[i]["line"] = lines[i]["line"][::-1]
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.clauses, f.line) == ("STATE_MISMATCH", ["mu.turn.next-line"], i + 1)
    lines = game(4, 12)
    i = _nth(lines, "round", 1)
    lines.insert(i + 1, {"t": "state", "line": sorted(lines[i]["draws"])})
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.clauses[0], f.line) == ("STATE_MISMATCH", "mu.round.line-stays", i + 2)


def _round_one_parts(lines):
    from oracle.games.mindup.replay.verifier import Verifier

    v = Verifier(next(split_games(io.BytesIO(stream([lines])), "<test>")))
    assert v.run().verdict == "conforms"
    return {p: rounds[0] for p, rounds in v.parts.items()}


@pytest.mark.parametrize("left_out, clause", [("bubbles", "mu.scoring.bubbles"),
                                               ("objectives", "mu.scoring.objectives"),
                                               ("columns", "mu.scoring.columns")])
def test_a_wrong_round_score_names_the_part_it_misses(left_out, clause):
    """A round score claimed without its bubbles, its objectives, or with
    other column values is reported first under the scoring clause of the
    part that number misses (the three scoring clauses are all named)."""
    for seed in range(40):
        lines = game(4, seed, objectives=2)
        parts = _round_one_parts(lines)
        if all(parts[p]["bubbles"] and parts[p]["objectives"] for p in (0, 1)):
            break
    i = next(k for k, x in enumerate(lines) if x["t"] == "state" and x.get("scores") and x["scores"][0])
    for p in (0, 1):
        part = parts[p]
        lines[i]["scores"][p][0] = part["total"] - {"bubbles": part["bubbles"],
                                                    "objectives": sum(part["objectives"].values()),
                                                    "columns": -1}[left_out]
    f = reports(stream([lines]))[0].findings[0]
    assert (f.code, f.line, f.clauses[0]) == ("STATE_MISMATCH", i + 1, clause), f
    assert set(f.clauses) == {"mu.scoring.columns", "mu.scoring.bubbles", "mu.scoring.objectives"}


def test_a_claim_before_round_one_may_give_an_empty_order():
    """Before round 1 starts there is no Score order yet: a claim may give
    `order: []`; another order there is a difference, not a broken line."""
    lines = game(3, 13)
    deck = lines[1]["deck"]
    claim = {"t": "state", "round": 0, "turn": 0, "order": [], "line": sorted(deck[21:24]),
             "hands": [deck[7 * p:7 * p + 7] for p in range(3)], "scores": [[], [], []]}
    assert reports(stream([lines[:2] + [claim] + lines[2:]]))[0].verdict == "conforms"
    claim["order"] = [1, 2, 3, 4, 5]
    f = reports(stream([lines[:2] + [claim] + lines[2:]]))[0].findings[0]
    assert (f.code, f.line, f.diff[0].field) == ("STATE_MISMATCH", 3, "order")


def test_a_log_may_leave_out_claims_draws_and_kept_objectives():
    lines = [x for x in game(5, 9, objectives=3) if x["t"] != "state"]
    for x in lines:
        if x["t"] == "round" and x["round"] > 1:
            x.pop("draws", None)
            x.pop("objectives", None)
    assert reports(stream([lines]))[0].verdict == "conforms"


@pytest.mark.parametrize("kind", ["setup", "round", "state", "end"])
def test_an_unknown_field_is_a_note_and_with_strict_a_finding(kind):
    """On the lines where the spec looks for them (decision lines are not searched)."""
    lines = game(4, 5)
    at = next(i for i, x in enumerate(lines) if x["t"] == kind)
    lines[at]["colour"] = "red"
    rep = reports(stream([lines]))[0]
    assert rep.verdict == "conforms" and any("ignored: colour" in n and f"line {at + 1}:" in n for n in rep.notes)
    strict = reports(stream([lines]), strict=True)[0]
    assert [(f.code, f.line) for f in strict.findings] == [("UNKNOWN_FIELD", at + 1)], strict.findings


def test_keep_going_reports_every_wrong_claim():
    lines = game(4, 11)
    wrong_score(lines)
    wrong_winner(lines)
    rep = reports(stream([lines]), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["STATE_MISMATCH", "WRONG_RESULT"]
    assert reports(stream([lines]))[0].findings[0].code == "STATE_MISMATCH"
    assert len(reports(stream([lines]))[0].findings) == 1


# -- malformed logs -----------------------------------------------------------------------------------

@pytest.mark.parametrize("change, code, words", [
    (lambda L: L[0].update(game="chess"), "BAD_LINE", "unknown game 'chess'"),
    (lambda L: L[0].update(format="mu-replay/9"), "BAD_VERSION", "mu-replay/1"),
    (lambda L: L[2].update(order=[1, 2, 3, 4, 9]), "ILLEGAL_RANDOM", "Score cards"),
    (lambda L: L[3].update(cards=[61, 1, 2, 3]), "BAD_LINE", "cards"),
    (lambda L: L.pop(), "MISSING_END", "end line"),
    (lambda L: L.pop(1), "MISSING_SETUP", "setup"),
])
def test_a_broken_game_gets_a_verdict_and_the_next_one_still_conforms(change, code, words):
    lines = game(4, 12)
    change(lines)
    reps = reports(stream([lines, game(4, 13)]))
    assert reps[1].verdict == "conforms"
    f = reps[0].findings[0]
    assert f.code == code and words in f.message, f


def test_game_of_reads_the_game_field_only_when_there_is_one():
    assert game_of(b'{"t":"game","format":"mb-replay/1","id":"x"}') == "mindbug"
    assert game_of(b'{"t":"game","game":"mind-up","format":"mu-replay/1"}') == "mind-up"
    assert game_of(b'{"t":"game","game":"mindbug","format":"mb-replay/1","id":"x"}') == "mindbug"
    assert set(GAMES) == {"mindbug", "mind-up"} and check("mind-up") == "mind-up"
    with pytest.raises(UnknownGame, match="mind-up"):
        check("mindup")


def test_a_mindbug_log_may_name_its_game():
    lines = [json.loads(x) for x in mindbug_selfplay(1, 3, "en-revised")]
    lines[0]["game"] = "mindbug"
    assert reports(stream([lines]))[0].verdict == "conforms"


# -- the command line -------------------------------------------------------------------------------

def test_mixed_streams_verify_in_one_run_and_jobs_give_the_same_bytes(tmp_path):
    mixed = b""
    for i, players in enumerate((3, 4, 5, 6)):
        mixed += b"".join(x + b"\n" for x in mindbug_selfplay(3, i + 1, "en-revised"))
        lines = game(players, i, objectives=i)
        if i == 2:
            wrong_score_card(lines)
        mixed += stream([lines])
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(mixed)
    one = run_cli("verify", str(path), "--format", "json")
    two = run_cli("verify", str(path), "--format", "json", "-j", "2")
    assert one.returncode == two.returncode == 1, one.stderr
    assert one.stdout == two.stdout
    rows = [json.loads(x) for x in one.stdout.splitlines()]
    assert [r.get("game") for r in rows if r["t"] == "game"] == ([None] * 3 + ["mind-up"]) * 4
    assert rows[-1]["games"] == 16 and rows[-1]["violates"] == 1
    human = run_cli("verify", str(path), "--color", "never", "-j", "2")
    assert b"[mind-up fr, " in human.stdout and b"mu.score-cards.place" in human.stdout
    junit = run_cli("verify", str(path), "--format", "junit")
    assert b"mu.score-cards.place" in junit.stdout


def test_which_editions_and_expect_work_on_mind_up_games(tmp_path):
    lines = game(4, 21)
    wrong_winner(lines)
    path = tmp_path / "g.jsonl"
    path.write_bytes(stream([lines, game(3, 22)]))
    r = run_cli("verify", str(path), "--format", "json", "--which-editions")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows[0]["conforms_to"] == [] and rows[1]["conforms_to"] == ["fr"]
    expect = tmp_path / "expect.yaml"
    expect.write_text("format: mb-expect/1\nexpected:\n  - code: WRONG_RESULT\n    clause: mu.game.winner\n")
    assert run_cli("verify", str(path), "--expect", str(expect)).returncode == 0
    # an entry may name Mind Up!'s edition, fr
    expect.write_text("format: mb-expect/1\nexpected:\n  - code: WRONG_RESULT\n    edition: fr\n")
    assert run_cli("verify", str(path), "--expect", str(expect)).returncode == 0
    expect.write_text("format: mb-expect/1\nexpected:\n  - code: WRONG_RESULT\n    edition: fr-first\n")
    assert run_cli("verify", str(path), "--expect", str(expect)).returncode == 1


def test_selfplay_cli_writes_logs_that_verify_and_annotate_writes_them_canonically(tmp_path):
    r = run_cli("selfplay", "--game", "mind-up", "--players", "5", "--objectives", "2", "--games", "3",
                "--claims", "none")
    assert r.returncode == 0, r.stderr
    v = run_cli("verify", "-", "-j", "2", input=r.stdout)
    assert v.returncode == 0 and b"3 conform" in v.stdout, v.stdout
    a = run_cli("annotate", "-", input=r.stdout)
    assert a.returncode == 0, a.stderr
    kinds = [json.loads(x)["t"] for x in a.stdout.splitlines()]
    assert kinds.count("turn") == 3 * 21 and kinds.count("last") == 9 and kinds.count("state") >= 3 * 21
    assert run_cli("verify", "-", input=a.stdout).returncode == 0
    assert run_cli("annotate", "-", input=a.stdout).stdout == a.stdout
    bad = run_cli("selfplay", "--game", "mind-up", "--players", "7")
    assert bad.returncode == 2 and b"--players" in bad.stderr


@pytest.mark.parametrize("args, named", [
    (("--players", "5"), b"--players is for games of Mind Up!"),
    (("--objectives", "2"), b"--objectives is for games of Mind Up!"),
    (("--game", "mind-up", "--edition", "en-first"), b"--edition is Mindbug's"),
    (("--game", "mind-up", "--sets", "beyond-eternity"), b"--sets is Mindbug's"),
    (("--game", "mind-up", "--cards", "examples/designed-cards.yaml"), b"--cards is Mindbug's"),
    (("--game", "mind-up", "--check-invariants"), b"--check-invariants is Mindbug's"),
])
def test_selfplay_refuses_an_option_of_the_other_game_rather_than_ignore_it(args, named):
    """As perft, conform and cards do: `selfplay --players 5` is not a game of
    Mindbug with the option dropped, nor `--game mind-up --check-invariants`
    a game whose invariants go unchecked."""
    r = run_cli("selfplay", "--games", "1", *args)
    assert r.returncode == 2 and named in r.stderr and not r.stdout, r.stderr
    assert len([x for x in r.stderr.splitlines() if x.startswith(b"Error:")]) == 1


def test_selfplay_defaults_stay_those_its_help_shows():
    mindbug = json.loads(run_cli("selfplay", "--games", "1").stdout.splitlines()[0])
    assert mindbug["edition"] == "en-revised"
    mind_up = json.loads(run_cli("selfplay", "--games", "1", "--game", "mind-up").stdout.splitlines()[0])
    assert (mind_up["players"], mind_up["objectives"]) == (4, 0)


def test_verify_says_that_check_invariants_is_mindbugs():
    """verify --check-invariants reads a Mind Up! log as without it, and its
    help says so rather than promising a check that is not made."""
    plain = run_cli("verify", "replays/conforming/mind-up.jsonl", "--format", "json")
    checked = run_cli("verify", "replays/conforming/mind-up.jsonl", "--format", "json", "--check-invariants")
    assert checked.returncode == plain.returncode == 0 and checked.stdout == plain.stdout
    assert b"games of Mind Up! are verified without it" in b" ".join(run_cli("verify", "--help").stdout.split())


def test_clauses_editions_and_schema_take_the_game():
    r = run_cli("clauses", "--game", "mind-up")
    assert r.returncode == 0 and b"mu.score-cards.place" in r.stdout and b"keywords.sneaky" not in r.stdout
    r = run_cli("clauses", "mu.turn.change-choice")
    assert r.returncode == 0 and b"change-allowed" in r.stdout
    r = run_cli("editions", "--game", "mind-up", "--json")
    data = json.loads(r.stdout)
    assert [e["edition"] for e in data["editions"]] == ["fr"]
    assert {x["clause"] for x in data["readings"]} == {x.clause for x in READINGS}
    r = run_cli("schema", "replay", "--game", "mind-up")
    assert json.loads(r.stdout)["$id"].endswith("mu-replay-1.json")


# -- the catalogue ----------------------------------------------------------------------------------

def test_the_markdown_catalogue_is_in_step_with_the_yaml():
    assert (ROOT / "spec" / "mind-up" / "clauses.md").read_text(encoding="utf-8") == render_markdown()


def test_every_reading_is_a_silent_clause_and_every_cited_clause_exists():
    import re
    catalogue = load_catalogue()
    for r in READINGS:
        assert catalogue[r.clause].is_reading, r.clause
    cited = set()
    for path in (ROOT / "oracle" / "games" / "mindup").rglob("*.py"):
        cited |= set(re.findall(r'"(mu\.[a-z.-]+)"', path.read_text(encoding="utf-8")))
    assert cited and cited <= set(catalogue), cited - set(catalogue)
    assert all(c.startswith("mu.") for c in catalogue)
    readings_md = (ROOT / "spec" / "mind-up" / "readings.md").read_text(encoding="utf-8")
    assert all(f"`{r.clause}`" in readings_md for r in READINGS)


def test_the_format_example_in_the_spec_verifies():
    text = (ROOT / "spec" / "mind-up" / "replay-format.md").read_text(encoding="utf-8")
    block = text.split("```json\n")[1].split("```")[0]
    data = block.encode() + b'{"t":"end","reason":"aborted","detail":"the example stops here"}\n'
    rep = reports(data)[0]
    assert rep.verdict == "conforms" and rep.aborted and rep.decisions == 6


def test_keep_going_resumes_at_the_next_full_claim_after_a_refused_card():
    lines = game(4, 14)
    card_changed(lines)
    wrong_winner(lines)
    rep = reports(stream([lines]), keep_going=True)[0]
    assert [(f.code, f.clauses[0]) for f in rep.findings] == [("ILLEGAL_DECISION", "mu.turn.choose"),
                                                              ("WRONG_RESULT", "mu.game.winner")]
    # a claim that does not fit the game is not taken as a position
    lines = game(4, 15)
    _, _, refused = card_changed(lines)
    wrong_winner(lines)
    for x in lines[refused:]:
        if x["t"] == "state":
            x["hands"] = x["hands"][:2]
    rep = reports(stream([lines]), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["ILLEGAL_DECISION"]


def test_a_mixed_stream_on_a_local_dask_cluster_gives_the_bytes_of_one_job():
    pytest.importorskip("distributed", reason="--cluster needs Dask distributed (pip install -e .[cluster])")
    paths = [str(ROOT / "replays" / "conforming" / "mind-up.jsonl"),
             str(ROOT / "replays" / "violations" / "mind-up-wrong-score-card.jsonl"),
             str(ROOT / "replays" / "conforming" / "en-first.jsonl")]
    one = run_cli("verify", *paths, "--format", "json")
    cluster = run_cli("verify", *paths, "--format", "json", "--cluster", "local:2")
    assert one.returncode == cluster.returncode == 1, cluster.stderr
    assert one.stdout == cluster.stdout and b'"game":"mind-up"' in one.stdout


def test_annotate_keeps_the_end_detail_and_says_which_games_it_cut_short():
    """annotate: an aborted game's end.detail is kept; a game that breaks
    the rules is written up to its finding and said on standard error."""
    aborted = game(3, 15)[:12] + [{"t": "end", "reason": "aborted", "detail": "a player left"}]
    broken = game(3, 16)
    i = _nth(broken, "turn", 2)
    broken[i]["cards"][0] = broken[i]["cards"][1]
    a = run_cli("annotate", "-", input=stream([aborted, broken]))
    assert a.returncode == 1
    ends = [json.loads(x) for x in a.stdout.splitlines() if json.loads(x)["t"] == "end"]
    assert ends == [{"t": "end", "reason": "aborted", "detail": "a player left"}]
    assert a.stderr.count(b"note:") == 1 and b"g3-0-16: violates: ILLEGAL_DECISION" in a.stderr, a.stderr


def test_keep_going_does_not_take_a_line_an_alternative_never_checked_as_accepted():
    """With --keep-going, a wrong winner in a game whose later objective
    shares a letter with an earlier one (the team's reading allows it; under
    letter-retired that round is refused and nothing after it is checked)
    stands on the rules: it is not said to conform under letter-retired, and
    that reading's refusal is not added as a finding of the game."""
    from oracle.games.mindup.cards import letter

    for seed in range(200):
        lines = game(3, seed, objectives=2, claims="none")
        shown = [x.get("objectives", []) for x in lines if x["t"] == "round"]
        if {letter(o) for o in shown[0]} & {letter(o) for o in shown[1] + shown[2]}:
            break
    wrong_winner(lines)
    rep = reports(stream([lines]), keep_going=True)[0]
    assert [(f.code, f.clauses[0], f.basis) for f in rep.findings] == [("WRONG_RESULT", "mu.game.winner", "rules")]


def test_claim_diff_with_a_limit_and_differs_agree_with_the_whole_claim_diff():
    """claim_diff(line, s, k): the first k differences of claim_diff(line,
    s), or all of them when there are fewer; differs(line, s): whether there
    is any. Verify uses them to ask whether a claim differs less from the
    position before a round's last cards: on claims of other positions, on
    each position's own claim and on that claim with one field changed."""
    from oracle.games.mindup.replay.diff import claim_diff, differs
    from oracle.games.mindup.replay.format import StateLine, decoder
    from oracle.games.mindup.replay.selfplay import claim
    from oracle.games.mindup.replay.verifier import Verifier

    raw = next(split_games(io.BytesIO(stream([game(5, 4, objectives=2)])), "<test>"))
    v = Verifier(raw, False, None)
    assert v.run().verdict == "conforms"
    claims = [x for x in (decoder.decode(b) for _, b in raw.lines) if isinstance(x, StateLine)]
    positions = [v.g.state, v.g.before_last]
    for s in positions:
        own = decoder.decode(json.dumps({"t": "state", **claim(v.g.__class__(s))}))
        claims += [own, msgspec.structs.replace(own, turn=own.turn + 1),
                   msgspec.structs.replace(own, hands=own.hands[1:] + own.hands[:1])]
    counts = []
    for s in positions:
        for line in claims:
            full = claim_diff(line, s)
            counts.append(len(full))
            assert differs(line, s) == bool(full)
            for k in range(1, len(full) + 2):
                assert claim_diff(line, s, k) == full[:k]
    assert max(counts) > 3 and 0 in counts and 1 in counts
