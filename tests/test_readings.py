"""Team readings as switches: the engine follows each choice, logs declare
them, verify says when a finding exists only under a reading."""

import io
import json

import msgspec
import pytest
from conftest import ROOT, run_cli

from oracle.games.mindbug.cards import full_set, lookup
from oracle.games.mindbug.clauses import load_catalogue
from oracle.games.mindbug.editions import profile
from oracle.games.mindbug.engine import Decision, position
from oracle.games.mindbug.readings import BY_CLAUSE, READINGS, UnknownReading, check, choice, parse, with_readings
from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import play_game
from oracle.replay.verify import verify_game

DEFS = {i: lookup(n) for i, n in enumerate(full_set(), 1)}
ALTERNATIVES = [(r.clause, a) for r in READINGS for a in r.alternatives]


def card(name, copy=0):
    return [i for i, d in DEFS.items() if d.name == name][copy]


def game(readings, p0_play, p1_play, p0_hand=("Turbo Bug",), p1_hand=("Luchataur",)):
    zones = {("play", 0): [card(n) for n in p0_play], ("play", 1): [card(n) for n in p1_play],
             ("hand", 0): [card(n) for n in p0_hand], ("hand", 1): [card(n) for n in p1_hand]}
    return position(with_readings("en-revised", readings), zones, DEFS)


def test_every_clause_no_edition_settles_is_a_reading():
    cat = load_catalogue()
    silent = {c.id for c in cat.values() if all(s.status == "silent" for s in cat[c.id].editions.values())}
    assert silent <= set(BY_CLAUSE)
    # A switch may also stand for a clause every edition implies without
    # saying it (cards.any-creature), never for one an edition states.
    # The later sets' readings exist where those sets are dealt (absent elsewhere).
    for cid in set(BY_CLAUSE) - silent:
        # So are the readings of FAST, a keyword only the English revised rules have.
        later = cat[cid].section == "beyond" or cid.startswith("keywords.fast")
        allowed = {"silent", "implied"} | ({"absent"} if later else set())
        assert {s.status for s in cat[cid].editions.values()} <= allowed, cid
    for r in READINGS:
        team = getattr(profile("en-revised"), r.attr) if r.attr else choice(profile("en-revised"), r.clause)
        assert r.team == r.names()[0] and team == r.team
        assert r.alternatives or "no alternative" in r.note


def test_hunter_first_names_the_target_before_the_attack_effect_and_losing_it_ends_the_attack():
    shark, gor, luch = card("Shark Dog"), card("Gorillion"), card("Luchataur")
    team = game({}, ["Shark Dog"], ["Gorillion", "Luchataur"], p1_hand=())
    team.apply(Decision("attack", 0, shark))
    assert team.pending.stage == "choose"               # the Attack effect first
    g = game({"effects.hunter-order": "hunter-first"}, ["Shark Dog"], ["Gorillion", "Luchataur"], p1_hand=())
    g.apply(Decision("attack", 0, shark))
    assert g.pending.stage == "hunt"
    g.apply(Decision("hunt", 0, gor))
    assert g.pending.stage == "choose"
    events = g.apply(Decision("choose", 0, (gor,)))
    # The named creature is gone: no block, no fight, no life lost.
    assert gor in g.state.discard[1] and luch in g.state.play[1] and shark in g.state.play[0]
    assert g.state.life[1] == 3 and g.pending.stage == "action" and g.state.active == 1
    assert any(e.kind == "attack-ends" and "effects.hunter-order" in e.clauses for e in events)


def test_attacker_gone_unblocked_costs_the_defender_a_life():
    hydra = card("Snail Hydra")
    for choice, life in (("attack-ends", 3), ("unblocked", 2)):
        g = game({"combat.attacker-gone": choice}, ["Snail Hydra"], ["Gorillion", "Luchataur"], p1_hand=())
        g.apply(Decision("attack", 0, hydra))
        g.apply(Decision("choose", 0, (hydra,)))       # its Attack effect defeats itself
        assert hydra in g.state.discard[0]
        assert g.state.life[1] == life, choice


def test_leave_play_keeps_exhaustion_brings_a_tough_card_back_exhausted():
    from oracle.games.mindbug.engine.effects import defeat, play_from_discard
    turtle = card("Rhino Turtle")
    for choice, back_exhausted in (("resets", False), ("keeps-exhaustion", True)):
        g = game({"terms.leave-play": choice}, [], ["Rhino Turtle"])
        defeat(g, [turtle], ("test",), source=card("Tiger Squirrel"))      # TOUGH: exhausted
        defeat(g, [turtle], ("test",), source=card("Tiger Squirrel"))      # now defeated
        assert turtle in g.state.discard[1]
        play_from_discard(g, 1, turtle, 1)
        assert turtle in g.state.play[1]
        assert (turtle in g.state.exhausted) is back_exhausted, choice


def test_reading_names_and_choices_are_checked_with_suggestions():
    assert check({"effects.hunter-order": "hunter-first"}) == {"effects.hunter-order": "hunter-first"}
    with pytest.raises(UnknownReading, match="did you mean 'effects.hunter-order'"):
        check({"effects.hunter-ordre": "hunter-first"})
    with pytest.raises(UnknownReading, match="did you mean 'hunter-first'"):
        parse("effects.hunter-order=hunter-frist")
    with pytest.raises(UnknownReading, match="CLAUSE=CHOICE"):
        parse("effects.hunter-order")


# -- logs under a reading ----------------------------------------------------
SEED = 3 * 1_000_003 + 12   # a self-played game in which each alternative changes the play


# The New Servants readings: a mixed deck, and a game where the alternative changes the play.
MIXED = ("first-contact", "new-servants")
NEW_SERVANTS_SEEDS = {"cards.any-creature": 4, "cards.extreme-power": 8, "life.lose.set-lower": 455}
# The promos' readings: seeds of games with promos in which each alternative changes the play.
PROMOS = ("first-contact", "promo-2022", "promo-later")
PROMO_SEEDS = {"promo.side-markers": (7, PROMOS), "promo.set-aside.return": (10, PROMOS),
               "promo.if-you-did": (20, PROMOS), "promo.gift-loser": (17, ("first-contact", "promo-2023")),
               "promo.felix-defeated": (59, ("first-contact", "promo-2023")),
               "promo.hand-closed.returned": (183, ("promo-2023", "beyond-evolution"))}


# The Beyond Eternity readings: (seed, sets) of a game where the alternative changes the play.
ETERNITY_SEEDS = {"later.boost.leave": (0, ("beyond-eternity",)), "later.boost.empty": (456, ("beyond-eternity",)),
                  "later.in-discard.life": (641, ("new-servants", "beyond-eternity")),
                  "triggers.to-discard": (2, ("beyond-eternity",)), "later.discard-then-draw": (4, ("beyond-eternity",))}
# Readings no shipped ability reaches yet, shown by a test of their own:
# later.boost.defeated waits for a design in KEEPS_BOOSTS (Big Box Mimic, promo 2023).
NOT_YET_PLAYED = {"later.boost.defeated"}

# Readings of keywords only declared cards carry (examples/later-sets.yaml).
DECLARED_SEEDS = {"keywords.fast.mindbugged": (3, ("first-contact", "fruit-lab"))}

# The Beyond Evolution readings: a game of that set where the alternative changes the play.
EVOLUTION_SEEDS = {("later.action.useful", "always-offered"): 2, ("later.evolve.tough", "clears"): 9,
                   ("later.evolve.tough", "both-tough"): 9, ("later.forced.hippo", "when-attacking"): 3,
                   ("later.forced.hippo", "non-hunters-barred"): 19,
                   ("later.give-control.experiment", "not-itself"): 2}
# both-tough differs from the team's reading only for a creature exhausted at a
# stage without TOUGH, which no card of the set can bring about in play: the
# scenario bev.reading-both-tough-readies-a-tadpole shows it from a position.
NO_GAME_SHOWS = {("later.evolve.tough", "both-tough")}


def log_under(clause, choice, declare=True) -> bytes:
    seed, sets = (NEW_SERVANTS_SEEDS[clause], MIXED) if clause in NEW_SERVANTS_SEEDS else (SEED, ("first-contact",))
    seed, sets = ETERNITY_SEEDS.get(clause, (seed, sets))
    if (clause, choice) in EVOLUTION_SEEDS:
        seed, sets = EVOLUTION_SEEDS[clause, choice], ("beyond-evolution",)
    if clause in PROMO_SEEDS:
        seed, sets = PROMO_SEEDS[clause]
    if clause in DECLARED_SEEDS:                        # FAST: only declared cards carry it
        from oracle.games.mindbug.cards.compiled import load_file

        load_file(ROOT / "examples" / "later-sets.yaml")
        seed, sets = DECLARED_SEEDS[clause]
    lines = list(play_game("en-revised", seed, "random", f"reading-{choice}", "every",
                           readings={clause: choice}, sets=sets))
    if not declare:
        del lines[0]["readings"]
    return b"".join(msgspec.json.encode(x) + b"\n" for x in lines)


def verify(data: bytes, **kw):
    return [verify_game(r, **kw) for r in split_games(io.BytesIO(data), "<test>")][0]


@pytest.mark.parametrize("clause,choice", ALTERNATIVES)
def test_a_game_played_under_a_reading_conforms_when_it_declares_it(clause, choice):
    data = log_under(clause, choice)
    assert json.loads(data.splitlines()[0])["readings"] == {clause: choice}
    rep = verify(data)
    assert rep.verdict == "conforms", rep.findings[:1]
    assert rep.readings == {clause: choice}
    assert verify(log_under(clause, choice, declare=False), readings={clause: choice}).verdict == "conforms"


@pytest.mark.parametrize("clause,choice", [a for a in ALTERNATIVES if a[0] not in NOT_YET_PLAYED])
def test_a_finding_that_exists_only_under_the_team_reading_says_so(clause, choice):
    if (clause, choice) in NO_GAME_SHOWS:
        pytest.skip("no self-played game can show this reading apart from the team's; a scenario shows it")
    rep = verify(log_under(clause, choice, declare=False))
    assert rep.verdict == "violates"
    team = BY_CLAUSE[clause].team
    for f in rep.findings:
        assert f.basis == "reading", f
        assert f.reading == {"clause": clause, "choice": team} and f.alternatives == [choice]
    assert f"the game conforms under the reading {clause}={choice}" in rep.notes


def test_a_real_deviation_under_the_alternative_is_reported_with_basis_rules():
    lines = [json.loads(x) for x in log_under("effects.hunter-order", "hunter-first", declare=False).splitlines()]
    last_claim = max(i for i, x in enumerate(lines) if x["t"] == "state")
    lines[last_claim]["mindbugs"] = [5, 5]
    rep = verify(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    bases = [(f.basis, f.line) for f in rep.findings]
    assert bases[0][0] == "reading"
    assert ("rules", last_claim + 1) in bases
    rules = next(f for f in rep.findings if f.basis == "rules")
    assert rules.under == {"effects.hunter-order": "hunter-first"}


def test_verify_cli_reading_option_and_report_fields(tmp_path):
    path = tmp_path / "hunter-first.jsonl"
    path.write_bytes(log_under("effects.hunter-order", "hunter-first", declare=False))
    human = run_cli("verify", str(path))
    assert human.returncode == 1
    assert (b"only under the team's reading effects.hunter-order=attack-effect-first; "
            b"the rules accept this line under hunter-first") in human.stdout
    js = run_cli("verify", str(path), "--format", "json")
    f = json.loads(js.stdout.splitlines()[0])["findings"][0]
    assert f["basis"] == "reading" and f["alternatives"] == ["hunter-first"]
    ok = run_cli("verify", str(path), "--reading", "effects.hunter-order=hunter-first")
    assert ok.returncode == 0, ok.stdout
    bad = run_cli("verify", str(path), "--reading", "effects.hunter-ordr=hunter-first")
    assert bad.returncode == 2 and b"did you mean 'effects.hunter-order'" in bad.stderr
    assert b"Traceback" not in bad.stderr


def test_which_editions_lists_the_readings_a_game_is_consistent_with(tmp_path):
    path = tmp_path / "hunter-first.jsonl"
    path.write_bytes(log_under("effects.hunter-order", "hunter-first", declare=False))
    r = run_cli("verify", str(path), "--which-editions", "--format", "json")
    g = json.loads(r.stdout.splitlines()[0])
    assert g["conforms_to"] == []
    assert {"edition": "en-revised", "readings": {"effects.hunter-order": "hunter-first"}} in g["consistent_with"]
    assert all(c["readings"] == {"effects.hunter-order": "hunter-first"} for c in g["consistent_with"])
    human = run_cli("verify", str(path), "--which-editions")
    assert b"consistent with: " in human.stdout and b"effects.hunter-order=hunter-first" in human.stdout


def test_a_bad_reading_on_the_game_line_is_a_bad_line_naming_the_field():
    lines = [json.loads(x) for x in log_under("effects.hunter-order", "hunter-first").splitlines()]
    lines[0]["readings"] = {"effects.hunter-order": "hunter-frist"}
    rep = verify(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    assert rep.verdict == "malformed"
    f = rep.findings[0]
    assert f.code == "BAD_LINE" and f.line == 1 and f.message.startswith("field readings:")
    assert "did you mean 'hunter-first'" in f.message


def test_selfplay_and_editions_commands_know_the_readings():
    r = run_cli("selfplay", "--games", "1", "--reading", "combat.attacker-gone=unblocked")
    assert r.returncode == 0
    assert json.loads(r.stdout.splitlines()[0])["readings"] == {"combat.attacker-gone": "unblocked"}
    bad = run_cli("selfplay", "--games", "1", "--reading", "combat.attacker-gone=blocked")
    assert bad.returncode == 2 and b"unblocked" in bad.stderr
    ed = run_cli("editions")
    assert b"effects.hunter-order" in ed.stdout and b"hunter-first" in ed.stdout
    js = json.loads(run_cli("editions", "--json").stdout)
    assert any(r["clause"] == "effects.hunter-order" for r in js["readings"])


def test_clauses_listing_marks_the_readings():
    out = run_cli("clauses", "effects", "combat").stdout.decode()
    lines = out.splitlines()
    assert any(l.startswith("effects.hunter-order") and "team reading: attack-effect-first | hunter-first" in l
               for l in lines)
    assert any(l.startswith("combat.attack ") and "team reading" not in l for l in lines)


def test_one_clause_in_full_shows_its_reading_and_choices():
    out = run_cli("clauses", "effects.hunter-order").stdout.decode()
    assert "team reading" in out and "attack-effect-first (the team's):" in out and "hunter-first:" in out
    plain = run_cli("clauses", "combat.attack").stdout.decode()
    assert "team reading" not in plain


def test_the_summary_counts_games_that_violate_only_under_a_reading():
    folder = ROOT / "replays" / "violations"
    undeclared = sorted(str(p) for p in folder.glob("reading-*-undeclared.jsonl"))
    mixed = str(folder / "reading-hunter-first-and-rules.jsonl")     # a rules finding too
    r = run_cli("verify", *undeclared, mixed, "--format", "json")
    summary = json.loads(r.stdout.splitlines()[-1])
    assert r.returncode == 1 and summary["violates"] == len(undeclared) + 1
    assert summary["reading_only"] == len(undeclared)
    human = run_cli("verify", *undeclared, mixed, "-q").stdout.decode().splitlines()[-1]
    assert f"{len(undeclared)} of the violations only under a team reading" in human
