"""verify --keep-going: where verification resumes after a divergence. It
resumes at every full claim from which the rules can go on (a turn action,
an `activate`, a FRENZY second attack, the claim that differed itself, an
end line after it) and never on a decision it would have to invent."""

import io
import json

from oracle.games.mindbug.replay.claims import is_full_claim
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.games.mindbug.replay.verifier import Verifier
from oracle.replay.verify import verify_game


def games(n, seed, edition="en-revised", sets=("first-contact",)):
    """Self-played games, a claim after every decision, as lists of lines."""
    out, cur = [], []
    for raw in selfplay_lines(n, seed, edition, "random", "every", sets=sets):
        x = json.loads(raw)
        if x["t"] == "game" and cur:
            out.append(cur)
            cur = []
        cur.append(x)
    return out + [cur]


def verify(lines, keep_going=True):
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return [verify_game(r, keep_going=keep_going, basis=False) for r in split_games(io.BytesIO(data), "<test>")][0]


def corrupt(claim):
    """A claim that differs from the rules (a Mindbug too many for player 0)."""
    claim = dict(claim)
    claim["mindbugs"] = [claim["mindbugs"][0] + 1, claim["mindbugs"][1]]
    return claim


def find(pattern, seeds, **kw):
    """The first (game, index) whose lines from index on match `pattern`,
    a test of (lines, index)."""
    for seed in seeds:
        for g in games(12, seed, **kw):
            for i in range(2, len(g) - 6):
                if pattern(g, i):
                    return g, i
    raise AssertionError("no self-played game shows the pattern")


def decision(x, t=None, p=None):
    return x["t"] not in ("state", "end", "note") and (t is None or x["t"] == t) and (p is None or x.get("p") == p)


def test_a_claim_before_a_frenzy_second_attack_resumes_at_that_attack():
    # attack X, claim (made to differ), block, claim, attack X again (FRENZY).
    def second_attack(g, i):
        a, b = g[i], g[i + 4]
        return decision(a, "attack") and decision(b, "attack", a["p"]) and b["card"] == a["card"] \
            and g[i + 2]["t"] == "block" and g[i + 1]["t"] == g[i + 3]["t"] == "state"
    g, i = find(second_attack, range(1, 30))
    assert verify(g).verdict == "conforms"
    g[i + 1] = corrupt(g[i + 1])
    rep = verify(g)
    # Only the claim that differs: the attack after the claim at i + 4 is the
    # FRENZY second attack, not a new turn with a FRENZY decision skipped.
    assert [(f.code, f.line) for f in rep.findings] == [("STATE_MISMATCH", i + 2)]
    assert f"verification resumed at line {i + 4}" in rep.notes


def test_a_claim_before_an_activate_line_resumes_there():
    # claim (made to differ), a decision that is no turn action, claim, activate.
    def before_activate(g, i):
        return decision(g[i], "activate") and g[i - 1]["t"] == "state" and decision(g[i - 2]) \
            and g[i - 2]["t"] not in ("play", "attack", "activate") and g[i - 3]["t"] == "state"
    g, i = find(before_activate, range(1, 10), sets=("beyond-evolution",))
    assert verify(g).verdict == "conforms"
    g[i - 3] = corrupt(g[i - 3])
    rep = verify(g)
    assert [(f.code, f.line) for f in rep.findings] == [("STATE_MISMATCH", i - 2)]
    assert f"verification resumed at line {i}" in rep.notes


def test_the_claim_that_differs_before_a_turn_action_is_where_verification_resumes():
    # A claim that differs right before a turn action, then a mistake in the
    # turn that follows: the mistake is found (it was masked, verification
    # waiting for the claim before the next turn action).
    def turn(g, i):
        return g[i]["t"] == "state" and decision(g[i + 1], "attack") and g[i + 3]["t"] == "block" \
            and g[i + 3]["card"] is not None
    g, i = find(turn, range(1, 10))
    g[i] = corrupt(g[i])
    blocker = g[i + 3]["card"]
    g[i + 3] = dict(g[i + 3], card=next(c for c in map(int, g[1]["cards"]) if c != blocker
                                        and all(c != x["card"] for side in g[i]["play"] for x in side)))
    rep = verify(g)
    assert [(f.code, f.line) for f in rep.findings] == [("STATE_MISMATCH", i + 1), ("ILLEGAL_DECISION", i + 4)]
    assert f"verification resumed at line {i + 1}" in rep.notes


def test_a_claim_alone_wrong_is_reported_once():
    # The claim that differs is where verification resumes; the next claim
    # agrees with the rules' own position, not with it: one finding only.
    g = games(1, 4)[0]
    decisions = verify(g).decisions
    states = [i for i, x in enumerate(g) if x["t"] == "state" and decision(g[i + 1], "play")]
    i = states[len(states) // 2]
    g[i] = corrupt(g[i])
    rep = verify(g)
    assert [(f.code, f.line) for f in rep.findings] == [("STATE_MISMATCH", i + 1)]
    assert any(n.startswith(f"line {i + 3}: the claim agrees with the rules' position") for n in rep.notes)
    assert rep.decisions == decisions


def test_an_end_line_after_the_claim_that_differs_is_checked():
    # An engine that ends the game at a turn boundary though the player to
    # act can still act, and claims a position that differs: both are found.
    def boundary(g, i):
        return g[i]["t"] == "state" and decision(g[i + 1], "play") and i > 20
    g, i = find(boundary, [3])
    loser = g[i + 1]["p"]
    cut = g[:i] + [corrupt(g[i]), {"t": "end", "winner": 1 - loser, "reason": "no-action"}]
    rep = verify(cut)
    assert [(f.code, f.line) for f in rep.findings] == [("STATE_MISMATCH", i + 1), ("WRONG_RESULT", i + 2)]
    assert "the game goes on" in rep.findings[1].message
    assert verify(cut, keep_going=False).findings[0].code == "STATE_MISMATCH"


def test_resuming_at_every_claim_invents_nothing():
    # A verifier that resumes at every full claim of conforming games, as if
    # each had differed: each game still conforms (the rules are put where
    # the log's next line is, or not resumed at all).
    class EveryClaim(Verifier):
        def _claim(self, line, lineno):
            super()._claim(line, lineno)
            if not self.lost and is_full_claim(line):
                self.lost = True
                self._resync_claim = (line, lineno, None)

    resumed = 0
    for edition, sets in (("en-revised", ("first-contact",)), ("en-first", ("first-contact", "new-servants")),
                          ("en-revised", ("beyond-evolution",))):
        for g in games(6, 11, edition, sets):
            data = b"".join(json.dumps(x).encode() + b"\n" for x in g)
            rep = EveryClaim(next(iter(split_games(io.BytesIO(data), "<test>"))), keep_going=True).run()
            assert rep.findings == [], (g[0]["id"], rep.findings[0].message)
            resumed += sum("resumed" in n for n in rep.notes)
    assert resumed > 100


def test_a_log_broken_past_its_first_divergence_is_malformed_only_when_read_that_far():
    """The verdict rule is one (spec/replay-format.md, Keep going): a finding
    that the log is not a game makes it malformed. Plain verify stops at the
    first divergence and never reads the missing end line, so the game
    violates; --keep-going reads on and finds both."""
    g = games(1, 3)[0]
    i = next(k for k, x in enumerate(g) if x["t"] == "state")
    broken = g[:i] + [corrupt(g[i])] + [x for x in g[i + 1:] if x["t"] != "end"]
    plain = verify(broken, keep_going=False)
    assert plain.verdict == "violates" and [f.code for f in plain.findings] == ["STATE_MISMATCH"]
    kept = verify(broken)
    assert kept.verdict == "malformed", kept.findings
    assert kept.findings[0].code == "STATE_MISMATCH" and "MISSING_END" in [f.code for f in kept.findings]
    # With its end line, the same game violates in both modes.
    whole = g[:i] + [corrupt(g[i])] + g[i + 1:]
    assert verify(whole, keep_going=False).verdict == verify(whole).verdict == "violates"
