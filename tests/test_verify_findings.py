"""What verify's findings say: broken deals played on, repeated divergences
counted once, identity diffs, the rules' events, reasons in game terms, end
lines, --strict, and keep-going on misshapen claims."""

import io
import json
import random
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from conftest import ROOT, run_cli

from oracle.games.mindbug.engine import Decision, Game
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.samples import _third_copy, record
from oracle.games.mindbug.replay.selfplay import claim, selfplay_lines
from oracle.replay.verify import verify_game

SAMPLES = ROOT / "replays" / "violations"


def verify_bytes(data: bytes, **kw):
    return [verify_game(r, **kw) for r in split_games(io.BytesIO(data), "<test>")]


def lines_of(data: bytes) -> list[dict]:
    return [json.loads(x) for x in data.splitlines()]


def dump(lines) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


def selfplay(n, seed, claims="every", edition="en-revised") -> list[dict]:
    return lines_of(b"".join(x + b"\n" for x in selfplay_lines(n, seed, edition, "random", claims)))


def replay(lines):
    """(line index, game before the decision, the decision) for each decision of a one-game log."""
    setup = lines[1]
    g = Game.deal(lines[0].get("edition", "en-revised"), {int(k): v for k, v in setup["cards"].items()},
                  setup["decks"], setup["unused"], setup.get("first"), setup.get("reveals", ()), tolerate=[])
    for i, x in enumerate(lines):
        if x["t"] in ("play", "attack", "mindbug", "pass", "hunt", "block", "choose", "random"):
            d = Decision.make(x["t"], x.get("p"), x.get("card", x.get("cards")))
            yield i, g.copy(), d
            g.apply_unchecked(d.kind, d.arg)


# -- 3. a broken deal does not hide the game -----------------------------------

def _recorded(seed, deal) -> tuple[list[dict], int]:
    """A self-played game on a deal changed by `deal`, played as dealt: the
    log a real engine with that deal would write (a claim after every decision)."""
    head, steps, g = record("en-revised", seed, deal=deal)
    lines = [dict(x) for x in head]
    for s in steps:
        lines += [s.decision.to_json(), claim(s.after)]
    return lines + [{"t": "end", "winner": g.winner, "reason": g.reason}], len(steps)


def test_a_deal_with_extra_copies_is_played_as_dealt_with_keep_going():
    # A deal with a third copy of a design, played by the rules with that deal.
    lines, decisions = _recorded(3, _third_copy)
    plain = verify_bytes(dump(lines))[0]
    assert [f.code for f in plain.findings] == ["BAD_SETUP"] and plain.decisions == 0
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert rep.verdict == "violates"
    assert [(f.code, f.clauses, f.line) for f in rep.findings] == [("BAD_SETUP", ["setup.components"], 2)]
    assert "too many" in rep.findings[0].message and rep.findings[0].log["extra"]
    assert rep.decisions == decisions and rep.result is not None
    # A wrong claim in the middle: reported, then verification resumes on
    # the table with the extra copy.
    states = [i for i, x in enumerate(lines) if x["t"] == "state"]
    lines[states[len(states) // 2]]["life"] = [9, 9]
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["BAD_SETUP", "STATE_MISMATCH"]
    assert any("resumed" in n for n in rep.notes)
    # Verification resumes at the claim that differs, and the next claim
    # agrees with the rules' own position: no decision is skipped.
    assert rep.decisions == decisions
    assert any("agrees with the rules' position" in n for n in rep.notes)


def test_a_broken_deal_still_reports_the_play_level_divergences():
    rep = verify_bytes((SAMPLES / "extra-copies.jsonl").read_bytes(), keep_going=True)[0]
    assert [(f.code, f.clauses[0]) for f in rep.findings] == [("BAD_SETUP", "setup.components"),
                                                              ("STATE_MISMATCH", "drawing.refill")]


def test_a_wrong_starting_player_and_a_long_draw_pile_are_played_as_given():
    # An engine that picks the starting player at random, yet writes reveals.
    def other_first(setup):
        g = Game.deal("en-revised", setup["cards"], setup["decks"], setup["unused"], None, setup["reveals"])
        setup["first"] = 1 - g.state.active
    lines, decisions = _recorded(14, other_first)
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["WRONG_FIRST_PLAYER"] and rep.decisions == decisions
    assert verify_bytes(dump(lines))[0].decisions == 0
    # An engine that deals eleven cards to player 0 and plays that deal.
    def eleven(setup):
        setup["decks"][0].append(setup["unused"].pop())
    lines, decisions = _recorded(15, eleven)
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["BAD_SETUP"] and "11 cards" in rep.findings[0].message
    assert rep.decisions == decisions


def test_a_card_dealt_twice_still_stops_the_game():
    lines = selfplay(1, 16)
    lines[1]["decks"][0][0] = lines[1]["decks"][1][0]
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert [f.code for f in rep.findings] == ["BAD_SETUP"] and rep.decisions == 0


# -- 4. keep-going without noise --------------------------------------------------

def test_a_divergence_after_every_resynchronisation_is_reported_once_with_its_lines():
    data = (SAMPLES / "always-late-draw.jsonl").read_bytes()
    rep = verify_bytes(data, keep_going=True)[0]
    assert len(rep.findings) == 1
    f = rep.findings[0]
    claims_after_play = []
    lines = lines_of(data)
    for i, x in enumerate(lines):
        if x["t"] == "play":
            claims_after_play.append(i + 2)
    assert f.count == len(f.lines) == len(claims_after_play) >= 3
    assert f.lines == claims_after_play and f.line == f.lines[0]
    out = run_cli("verify", str(SAMPLES / "always-late-draw.jsonl"), "--keep-going", "--format", "json")
    game = json.loads(out.stdout.splitlines()[0])
    assert game["findings"][0]["count"] == f.count and game["findings"][0]["lines"] == f.lines
    human = run_cli("verify", str(SAMPLES / "always-late-draw.jsonl"), "--keep-going").stdout.decode()
    assert f"found {f.count} times" in human


def test_different_divergences_are_kept_apart():
    lines = selfplay(1, 9)
    states = [i for i, x in enumerate(lines) if x["t"] == "state"]
    lines[states[3]]["life"] = [9, 9]
    lines[states[-4]]["mindbugs"] = [7, 7]
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    assert [f.count for f in rep.findings] == [1, 1]


# -- 5. divergences a person can act on -------------------------------------------

def _moved_to_discard():
    """A claim that puts one creature of a play area in its discard pile."""
    for seed in range(60):
        lines = selfplay(1, seed)
        for i, x in enumerate(lines):
            if x["t"] == "state" and len(x["play"][1]) >= 3 and i > 10:
                moved = x["play"][1][0]["card"]
                x["play"][1] = x["play"][1][1:]
                x["discard"][1].insert(0, moved)
                return lines[:i + 1] + [lines[-1]], i + 1, moved
    raise AssertionError("no game with three creatures in a play area")


def test_one_card_in_the_wrong_zone_is_one_difference_labelled_log_and_rules():
    lines, lineno, moved = _moved_to_discard()
    rep = verify_bytes(dump(lines))[0]
    f = rep.findings[0]
    assert (f.code, f.line) == ("STATE_MISMATCH", lineno)
    assert len(f.diff) == 1
    e = f.diff[0]
    name = json.loads(json.dumps(lines[1]["cards"]))[str(moved)]
    assert (e.card, e.name) == (moved, name)
    assert e.log == [{"zone": "discard", "player": 1}]
    assert e.rules[0]["zone"] == "play" and e.rules[0]["player"] == 1 and "exhausted" in e.rules[0]
    state = "exhausted" if e.rules[0]["exhausted"] else "ready"
    assert e.text == (f"{name} ({moved}): the log has it in player 1's discard pile; "
                      f"the rules have it in player 1's play area, {state}")
    out = run_cli("verify", "-", "--format", "json", input=dump(lines)).stdout.decode()
    assert "old_value" not in out and "new_value" not in out
    assert '"log":[{"zone":"discard","player":1}]' in out


def test_the_same_card_twice_in_a_claim_is_said_plainly():
    """An engine that cannot tell two copies apart writes one id twice."""
    lines = selfplay(1, 5)
    for i, x in enumerate(lines):
        if x["t"] == "state" and x["play"][0] and i > 6:
            x["hand"][0].append(x["play"][0][0]["card"])
            rep = verify_bytes(dump(lines[:i + 1] + [lines[-1]]))[0]
            texts = [e.text for e in rep.findings[0].diff]
            assert any("the log has it in player 0's hand and in player 0's play area" in t for t in texts), texts
            return
    raise AssertionError("no claim with a creature in play")


def test_zones_named_by_card_names_are_compared_as_counts_of_each_design():
    lines = selfplay(1, 4, claims="turn")
    names = {int(k): v for k, v in lines[1]["cards"].items()}
    for i, x in enumerate(lines):
        if x["t"] == "state" and x["hand"][0] and i > 4:
            x["hand"] = [[names[c] for c in h] for h in x["hand"]]
            dropped = x["hand"][0].pop()
            rep = verify_bytes(dump(lines[:i + 1] + [lines[-1]]))[0]
            entries = rep.findings[0].diff
            assert [(e.name, e.card) for e in entries] == [(dropped, None)]
            assert "the rules have" in entries[0].text and "in player 0's hand" in entries[0].text
            return
    raise AssertionError("no claim with a card in hand")


def _skipped_choice():
    """A log that leaves out a choice with several options and claims the
    state as if the engine had picked for the player."""
    for seed in range(300):
        lines = selfplay(1, seed)
        steps = list(replay(lines))
        for k, (i, g, d) in enumerate(steps):
            if d.kind == "choose" and g.pending.stage == "choose" and len(g.pending.options) > 1 \
                    and lines[i + 1]["t"] == "state":
                after = lines[i + 1]
                return lines[:i] + [after, lines[-1]], i + 1, g
    raise AssertionError("no self-played game with a choice")


def test_a_claim_while_the_rules_wait_for_a_skipped_choice_says_so_first():
    lines, lineno, g = _skipped_choice()
    rep = verify_bytes(dump(lines))[0]
    f = rep.findings[0]
    assert (f.code, f.line) == ("STATE_MISMATCH", lineno)
    src = g.pending.source
    assert f.message.startswith(f"the rules are waiting for player {g.pending.player}'s choice for "
                                f"{g.name(src)} ({src})'s "), f.message
    assert "which the log skips" in f.message


def test_a_claim_written_before_the_decision_it_precedes_does_not_say_skipped():
    data = (SAMPLES / "always-late-draw.jsonl").read_bytes()
    rep = verify_bytes(data)[0]
    assert "waiting" not in rep.findings[0].message


def test_each_finding_shows_what_the_rules_did_with_clauses():
    rep = verify_bytes((SAMPLES / "tough-not-applied.jsonl").read_bytes())[0]
    f = rep.findings[0]
    assert f.clauses[0] == "keywords.tough"
    kinds = [e.kind for e in f.events]
    assert "exhaust" in kinds
    exhaust = next(e for e in f.events if e.kind == "exhaust")
    assert "keywords.tough" in exhaust.clauses and f"({exhaust.card})" in exhaust.text
    human = run_cli("verify", str(SAMPLES / "tough-not-applied.jsonl")).stdout.decode()
    assert "the rules did, since log and rules last agreed:" in human and "[keywords.tough" in human


def test_a_claim_of_draw_pile_counts_names_no_card_by_those_counts():
    """`deck: [4, 7]` counts cards per player: cards 4 and 7 have nothing to
    do with the finding. `cards` names the ids the finding shows (here the
    legal plays); a draw pile claimed as a list names its cards."""
    lines = selfplay(1, 1, claims="none")
    counts = lines[:2] + [{"t": "state", "deck": [4, 7]}] + lines[2:]
    f = verify_bytes(dump(counts))[0].findings[0]
    assert f.code == "STATE_MISMATCH" and [e.field for e in f.diff] == ["deck[0]", "deck[1]"]
    shown = {o["card"] for o in f.options if o.get("card") is not None}
    assert set(f.cards) == shown and not {4, 7} & shown
    piles = lines[:2] + [{"t": "state", "deck": [[4], [7]]}] + lines[2:]
    assert {4, 7} <= set(verify_bytes(dump(piles))[0].findings[0].cards)


def test_clauses_of_a_mismatch_are_stable_and_specific_first():
    data = (SAMPLES / "poisonous-ignored.jsonl").read_bytes()
    a = verify_bytes(data)[0].findings[0].clauses
    b = verify_bytes(data)[0].findings[0].clauses
    assert a == b and a[0] == "keywords.poisonous"
    assert a.index("keywords.poisonous") < a.index("combat.to-discard")


def test_a_forbidden_block_says_why_in_game_terms():
    rep = verify_bytes((SAMPLES / "sneaky-block.jsonl").read_bytes())[0]
    msg = rep.findings[0].message
    assert "has no SNEAKY, so it may not block" in msg and "which has SNEAKY" in msg


def test_hunter_naming_a_creature_the_attack_effect_defeated_says_so():
    from oracle.games.mindbug.cards import full_set
    ids = {}
    defs = {}
    from oracle.games.mindbug.cards import lookup
    for cid, name in enumerate(full_set(), 1):
        defs[cid] = lookup(name)
        ids.setdefault(name, cid)
    shark, gorillion, toad = ids["Shark Dog"], ids["Gorillion"], ids["Explosive Toad"]
    g = Game.position("en-revised", {("play", 0): [shark], ("play", 1): [gorillion, toad], ("hand", 0): [],
                                     ("hand", 1): []}, defs)
    g.apply(Decision("attack", 0, shark))
    while g.pending.stage != "hunt":
        g.apply_unchecked(*g.pending.options[0])
    r = g.refusal(Decision("hunt", 0, gorillion))
    assert r.clause == "effects.hunter-order"
    assert r.message.startswith(f"Shark Dog ({shark})'s Attack effect defeated Gorillion ({gorillion}) "
                                "before the HUNTER choice")


def test_hunter_naming_a_creature_the_attack_effect_defeated_says_so_after_a_chance_event_too():
    """Strange Barrel, defeated by Shark Dog's Attack effect, steals two of
    three cards at random before the HUNTER choice: the refusal of naming the
    Barrel still sees the defeat (the events before the chance event are
    kept), in the game and in a copy of it; the next attack starts afresh."""
    from oracle.games.mindbug.cards import full_set, lookup
    ids, defs = {}, {}
    for cid, name in enumerate(full_set(), 1):
        defs[cid] = lookup(name)
        ids.setdefault(name, cid)
    shark, barrel, owl = ids["Shark Dog"], ids["Strange Barrel"], ids["Spider Owl"]
    hand = [ids["Bee Bear"], ids["Killer Bee"], ids["Brain Fly"]]
    g = Game.position("en-revised", {("play", 0): [shark], ("play", 1): [barrel, owl], ("hand", 0): hand,
                                     ("hand", 1): []}, defs)
    g.apply(Decision("attack", 0, shark))
    g.apply(Decision("choose", 0, (barrel,)))
    assert g.pending.stage == "random"
    g.apply_unchecked(*g.pending.options[0])
    assert g.pending.stage == "hunt"
    for game in (g, g.copy()):
        r = game.refusal(Decision("hunt", 0, barrel))
        assert r.clause == "effects.hunter-order", r.message
        assert "'s Attack effect defeated Strange Barrel" in r.message
    g.state.combat = [shark, None, False]        # another attack: what the first one did is not its own
    assert g.refusal(Decision("hunt", 0, barrel)).clause == "keywords.hunter"


def test_a_block_by_the_attacker_after_a_hunt_is_not_blamed_on_the_defender():
    data = (SAMPLES / "hunter-target-ignored.jsonl").read_bytes()
    lines = lines_of(data)
    block = next(x for x in lines if x["t"] == "block")
    hunt = next(x for x in reversed(lines[:lines.index(block)]) if x["t"] == "hunt")
    block["p"] = hunt["p"]
    msg = verify_bytes(dump(lines))[0].findings[0].message
    assert msg.startswith(f"player {hunt['p']} attacked: only the defender blocks"), msg


def _forced_step_claim():
    """A self-played log and the index of a forced pass between two claims
    that differ (the pass changes the state)."""
    for seed in range(200):
        lines = selfplay(1, seed)
        for i, g, d in replay(lines):
            if len(g.pending.options) == 1 and d.kind == "pass" and lines[i - 1]["t"] == "state" \
                    and lines[i + 1]["t"] == "state" and i > 6 and lines[i - 1] != lines[i + 1]:
                return lines, i
    raise AssertionError("no forced pass in self-played games")


def _wrong_life(claim_line: dict) -> dict:
    return dict(claim_line, life=[claim_line["life"][0] + 5, claim_line["life"][1]])


def test_a_wrong_claim_written_after_a_forced_step_is_compared_after_it():
    lines, i = _forced_step_claim()
    # The forced pass is left out and the claim after it has one wrong field.
    log = lines[:i] + [_wrong_life(lines[i + 1])] + lines[i + 2:]
    f = verify_bytes(dump(log))[0].findings[0]
    assert (f.code, f.line) == ("STATE_MISMATCH", i + 1)
    assert [e.field for e in f.diff] == ["life[0]"], [e.text for e in f.diff]
    assert {"life.lose", "life.gain"} & set(f.clauses)


def test_a_wrong_claim_written_before_a_forced_step_is_compared_before_it():
    lines, i = _forced_step_claim()
    # The claim before the forced pass (which the log writes) has one wrong field.
    log = lines[:i - 1] + [_wrong_life(lines[i - 1])] + lines[i:]
    f = verify_bytes(dump(log))[0].findings[0]
    assert (f.code, f.line) == ("STATE_MISMATCH", i)
    assert [e.field for e in f.diff] == ["life[0]"], [e.text for e in f.diff]


# -- 6. end lines -----------------------------------------------------------------

def test_two_end_lines_are_a_finding():
    rep = verify_bytes((SAMPLES / "two-end-lines.jsonl").read_bytes())[0]
    assert rep.verdict == "violates"
    assert rep.findings[0].code == "LINE_AFTER_END" and "second end line" in rep.findings[0].message


def _aborted(lines, at):
    cut = [x for x in lines[:at] if x["t"] != "end"]
    return cut + [{"t": "end", "winner": None, "reason": "aborted", "detail": "stopped by the test"}]


def test_decisions_after_an_aborted_end_are_a_finding_and_aborted_games_are_counted():
    lines = selfplay(1, 7)
    decisions = [i for i, x in enumerate(lines) if x["t"] in ("play", "attack")]
    at = decisions[len(decisions) // 2]
    stopped = _aborted(lines, at)
    rep = verify_bytes(dump(stopped + lines[at:at + 2]))[0]
    assert rep.aborted and rep.findings[0].code == "LINE_AFTER_END"
    assert "(aborted)" in rep.findings[0].message
    # A cleanly aborted game conforms, and the summary counts it apart.
    data = dump(stopped) + dump(selfplay(1, 8))
    out = run_cli("verify", "-", "--format", "json", input=data)
    summary = json.loads(out.stdout.splitlines()[-1])
    assert (summary["conforms"], summary["aborted"]) == (2, 1)
    human = run_cli("verify", "-", input=data).stdout.decode()
    assert "1 aborted" in human


# -- issue 9: --strict ------------------------------------------------------------

def test_strict_makes_unknown_claim_fields_findings():
    path = str(SAMPLES / "misspelt-claim-field.jsonl")
    r = run_cli("verify", path)
    assert r.returncode == 0 and b"lifes" in r.stdout        # shown for a conforming game
    junit = ET.fromstring(run_cli("verify", path, "--format", "junit").stdout)
    assert "lifes" in junit.find(".//testcase/system-out").text
    r = run_cli("verify", path, "--strict", "--format", "json")
    assert r.returncode == 2
    game = json.loads(r.stdout.splitlines()[0])
    assert game["verdict"] == "malformed"
    assert [(f["code"], f["line"], f["log"]) for f in game["findings"]] == [("UNKNOWN_FIELD", 6, ["lifes"])]
    junit = ET.fromstring(run_cli("verify", path, "--strict", "--format", "junit").stdout)
    assert junit.find(".//testcase/error").get("type") == "UNKNOWN_FIELD"
    lines = lines_of((SAMPLES / "misspelt-claim-field.jsonl").read_bytes())
    lines[0]["edtion"] = "en-first"
    rep = verify_bytes(dump(lines), strict=True)[0]
    assert [(f.code, f.line) for f in rep.findings] == [("UNKNOWN_FIELD", 1), ("UNKNOWN_FIELD", 6)]


# -- issue 10: keep-going on misshapen full claims -----------------------------------

MISSHAPEN = [
    {"deck": [5]}, {"mindbugs": [2]}, {"hand": [[], [], []]}, {"life": [3]}, {"play": [[]]},
    {"discard": [[], [], []]}, {"deck": [-3, 5]}, {"life": [-1, 3]}, {"deck": [[999], 5]},
    {"hand": [[999], []]}, {"deck": [50, 50]}, {"mindbugs": [-2, 9]},
]


@pytest.mark.parametrize("bad", MISSHAPEN, ids=lambda b: json.dumps(b))
def test_keep_going_never_raises_on_a_misshapen_full_claim(bad):
    lines = selfplay(1, 9)
    states = [i for i, x in enumerate(lines) if x["t"] == "state"]
    lines[states[2]]["life"] = [9, 9]                        # a first divergence
    for i in states[3:]:
        lines[i].update(bad)                                 # every later claim is misshapen
    rep = verify_bytes(dump(lines), keep_going=True)[0]
    # A pair that is not a pair breaks the contract (BAD_LINE, malformed); other
    # odd values are claims the rules contradict. Neither resynchronises.
    not_a_pair = any(len(v) != 2 for v in bad.values())
    assert rep.verdict == ("malformed" if not_a_pair else "violates")
    assert rep.findings[0].line == states[2] + 1
    assert not any("resumed" in n for n in rep.notes) or not not_a_pair


def test_keep_going_never_raises_on_random_misshapen_claims():
    rng = random.Random(8)
    base = selfplay(1, 12)
    states = [i for i, x in enumerate(base) if x["t"] == "state"]
    for _ in range(60):
        lines = json.loads(json.dumps(base))
        lines[states[1]]["life"] = [8, 8]
        for i in rng.sample(states[2:], 5):
            field = rng.choice(["life", "mindbugs", "hand", "discard", "deck"])
            value = lines[i][field]
            choice = rng.randrange(4)
            if choice == 0:
                lines[i][field] = value[:1]
            elif choice == 1:
                lines[i][field] = value + value[:1]
            elif choice == 2:
                lines[i][field] = [rng.randrange(-3, 60), rng.randrange(-3, 60)]
            else:
                lines[i][field] = [[rng.randrange(0, 60)], []] if field in ("hand", "discard", "deck") else [0, 0]
        rep = verify_bytes(dump(lines), keep_going=True)[0]
        assert rep.verdict in ("violates", "malformed")


# -- the report schema and the foreign logs ------------------------------------------

def test_the_report_schema_names_the_new_fields():
    schema = json.loads(run_cli("schema", "report").stdout)
    text = json.dumps(schema)
    for field in ('"count"', '"lines"', '"events"', '"DiffEntry"', '"aborted"', '"RulesEvent"'):
        assert field in text


def _foreign() -> Path | None:
    for root in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        p = root / "design" / "foreign-logs" / "games.jsonl"
        if p.exists():
            return p
    return None


@pytest.mark.skipif(_foreign() is None, reason="needs the foreign logs of the project's sources (../shared/design/foreign-logs/games.jsonl, beside "
                           "the project): games recorded by another engine, not shipped in the repository")
def test_foreign_logs_with_keep_going_report_each_divergence_once():
    reps = verify_bytes(_foreign().read_bytes(), keep_going=True)
    for rep in reps:
        sigs = [(f.code, tuple(f.clauses), f.message) for f in rep.findings]
        assert len(sigs) == len(set(sigs))
        for f in rep.findings:
            assert f.count == max(1, len(f.lines))
            if f.code == "STATE_MISMATCH":
                assert f.diff and all(e.text for e in f.diff)
    assert any(f.count > 1 for rep in reps for f in rep.findings)
