"""`verify --keep-going` and the basis of findings: a game's findings are
those of the readings in force alone, and a finding is `reading` only when
an alternative reads its line in step with the log without it."""

import pytest
from conftest import ROOT

from oracle.replay.reader import split_games
from oracle.games.mindbug.replay.selfplay import selfplay_lines
from oracle.replay.verify import verify_game

VIOLATIONS = ROOT / "replays" / "violations"


def games(path):
    with open(path, "rb") as f:
        return list(split_games(f, str(path)))


def found(rep) -> list[tuple]:
    return [(f.line, f.code) for f in rep.findings]


def labels(f) -> tuple:
    return (f.line, f.code, f.basis, f.reading, f.alternatives, f.under)


@pytest.mark.parametrize("name", ["reading-unblocked-undeclared", "reading-hunter-first-undeclared",
                                  "reading-hunter-first-and-rules"])
def test_keep_going_reports_only_what_the_readings_in_force_find(name):
    raw = games(VIOLATIONS / f"{name}.jsonl")[0]
    own = verify_game(raw, keep_going=True, basis=False)
    rep = verify_game(raw, keep_going=True)
    assert found(rep) == found(own)
    assert all(f.under is None for f in rep.findings)


def test_a_later_real_violation_is_not_said_to_exist_only_under_a_reading():
    """Under combat.attacker-gone=unblocked the game ends at line 142: that
    reading does not accept the later lines; the claim at line 164 (both
    players' Mindbugs written wrong) is a rules finding whatever the reading."""
    rep = verify_game(games(VIOLATIONS / "reading-hunter-first-and-rules.jsonl")[0], keep_going=True)
    by_line = {f.line: f for f in rep.findings}
    hunt = by_line[157]
    assert (hunt.basis, hunt.reading, hunt.alternatives) == (
        "reading", {"clause": "effects.hunter-order", "choice": "attack-effect-first"}, ["hunter-first"])
    assert by_line[164].basis == "rules" and by_line[164].reading is None


def test_a_finding_names_the_one_reading_whose_alternatives_accept_it():
    for f in verify_game(games(VIOLATIONS / "reading-unblocked-undeclared.jsonl")[0], keep_going=True).findings:
        assert (f.basis, f.reading, f.alternatives) == (
            "reading", {"clause": "combat.attacker-gone", "choice": "attack-ends"}, ["unblocked"])


def _agree(raw, readings=None):
    """With and without --keep-going: a game plain verify calls conforming has
    no finding; one that violates has plain verify's first finding first,
    labelled alike, and no finding of another reading."""
    plain = verify_game(raw, readings=readings)
    kept = verify_game(raw, keep_going=True, readings=readings)
    if plain.verdict == "conforms":
        assert kept.findings == [], (raw.file, readings, [labels(f) for f in kept.findings])
        return
    first = kept.findings[0]
    assert labels(first)[:5] == labels(plain.findings[0])[:5], (raw.file, readings)
    assert found(kept) == found(verify_game(raw, keep_going=True, readings=readings, basis=False))


@pytest.mark.parametrize("readings", [None, {"combat.attacker-gone": "unblocked"},
                                      {"terms.leave-play": "keeps-exhaustion"}])
def test_the_sample_games_keep_their_labels_with_keep_going(readings):
    for path in sorted((ROOT / "replays").glob("*/*.jsonl")):
        if "mind-up" in path.name:
            continue
        for raw in games(path):
            _agree(raw, readings)


CORPORA = [(e, ("first-contact",)) for e in ("en-first", "fr-first", "fr-revised", "en-revised")] + [
    ("en-revised", ("first-contact", "new-servants")), ("en-revised", ("beyond-evolution",)),
    ("en-revised", ("beyond-eternity", "promo-2022"))]


@pytest.mark.parametrize("edition,sets", CORPORA)
def test_self_play_gives_no_keep_going_finding_where_plain_verify_gives_none(edition, sets):
    data = b"".join(line + b"\n" for line in selfplay_lines(3, 11, edition, "random", "turn", sets=sets))
    import io
    for raw in split_games(io.BytesIO(data), "<selfplay>"):
        for readings in (None, {"terms.leave-play": "keeps-exhaustion"}, {"effects.hunter-order": "hunter-first"}):
            _agree(raw, readings)


# -- what --keep-going costs: only the readings a game asks for are replayed --

def _broken(games, seed=1):
    import io

    from oracle.games.mindbug.replay.bench import broken

    return list(split_games(io.BytesIO(b"".join(line + b"\n" for line in broken(games, seed))), "<broken>"))


def _every_alternative(raw, readings=None):
    """The report of --keep-going with every alternative replayed in full (no reading left out)."""
    from oracle.replay.basis import classify, replayed
    from oracle.games.mindbug.replay.verifier import Verifier

    team = Verifier(raw, None, True, readings)
    rep = team.run()
    if rep.verdict == "violates":
        classify(lambda ed, rd: replayed(Verifier(raw, ed, True, rd)), team, None, True, team.readings)
    return rep


def _played_under(clause, choice, games=4, sets=("first-contact",)):
    """Games played under another reading, their game lines declaring none."""
    import io

    import msgspec
    lines = []
    for raw in selfplay_lines(games, 5, "en-revised", "random", "turn", readings={clause: choice}, sets=sets):
        x = msgspec.json.decode(raw)
        x.pop("readings", None)
        lines.append(msgspec.json.encode(x))
    return list(split_games(io.BytesIO(b"\n".join(lines) + b"\n"), "<under>"))


@pytest.mark.parametrize("source", ["broken", "keeps-exhaustion", "samples", "foreign"])
def test_leaving_out_the_readings_a_game_never_asks_for_changes_no_label(source):
    if source == "broken":
        raws = _broken(12)
    elif source == "samples":
        raws = [r for p in sorted(VIOLATIONS.glob("reading-*.jsonl")) for r in games(p)]
    elif source == "foreign":
        from test_verify import _foreign_logs
        raws = games(_foreign_logs())
    else:
        raws = _played_under("terms.leave-play", source)
    for raw in raws:
        fast, full = verify_game(raw, keep_going=True), _every_alternative(raw)
        assert [labels(f) for f in fast.findings] == [labels(f) for f in full.findings], raw.lines[0][1][:80]
        assert fast.notes == full.notes


def test_keep_going_replays_only_the_readings_the_game_asked_for_before_a_finding(monkeypatch):
    from oracle.games.mindbug.readings import consulted
    from oracle.games.mindbug.replay import verify as verify_module
    from oracle.games.mindbug.replay.verifier import Verifier

    replayed = []
    real = verify_module.replayed
    monkeypatch.setattr(verify_module, "replayed", lambda v: replayed.append(v.readings_override) or real(v))
    resume = verify_module.resume      # a replay from a snapshot of the team's run (oracle.games.mindbug.replay.fork)
    forked = []
    monkeypatch.setattr(verify_module, "resume", lambda raw, snap, team, rd, until: replayed.append(rd)
                        or forked.append(snap.line) or resume(raw, snap, team, rd, until))
    some_asked = some_left = False
    for raw in _broken(12):
        team = Verifier(raw, keep_going=True)
        with consulted(lambda: team.reading) as asked:
            found = [f for f in team.run().findings if not f.malformed]
        replayed.clear()
        rep = verify_game(raw, keep_going=True)
        assert rep.verdict == "violates"
        # Of the readings asked, those first asked at or before a finding's first line.
        wanted = {c for c, first in asked.items() if any(min(f.lines or (f.line,)) >= first for f in found)}
        assert {c for rd in replayed for c in rd} == wanted, (asked, replayed)
        some_asked = some_asked or bool(wanted)
        some_left = some_left or wanted != set(asked)
    assert some_asked and some_left
    assert forked and min(forked) > 10      # most replays begin at a claim well into the game
    # Plain verify still replays every alternative (it stops at the broken deal).
    replayed.clear()
    verify_game(_broken(1)[0])
    assert len(replayed) > 10


def test_a_replay_from_a_snapshot_shares_no_changing_part_with_the_team_run(monkeypatch):
    """keep-going's part-way replays start from a copy of the team's verifier
    (fork.Snapshot): every list, map, set and game in it is its own, so the
    replay reading on cannot change the run it was copied from, whatever the
    verifier's attributes are named."""
    from oracle.games.mindbug.engine import Game
    from oracle.games.mindbug.replay import fork
    from oracle.games.mindbug.replay.decisions import Leniency

    states = []
    real = fork._copied
    monkeypatch.setattr(fork, "_copied", lambda state, prof: states.append(state) or real(state, prof))
    for raw in _broken(3):
        verify_game(raw, keep_going=True)
    assert states
    for state in states:
        copy = real(state, None)
        assert copy.keys() == state.keys()
        for name, value in state.items():
            if name in fork._FRESH:
                assert copy[name] is None
            elif isinstance(value, (list, dict, set, Game, Leniency)):
                assert copy[name] is not value and type(copy[name]) is type(value), name
            elif isinstance(value, tuple):
                assert not any(isinstance(v, Game) and any(v is w for w in copy[name]) for v in value), name
