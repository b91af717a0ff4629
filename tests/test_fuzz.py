"""A short, fixed-seed fuzz run of every input format (the long run is
`mb-oracle fuzz --budget N --seed S`)."""

import pytest
from conftest import ROOT, run_cli

from oracle.fuzz import checks, run_fuzz

SEED = 20261126


@pytest.mark.parametrize("target,budget", [("replay-lines", 120), ("games", 200), ("scenarios", 120),
                                           ("expect", 60), ("cards", 80), ("rpc", 80), ("engine", 60),
                                           ("text", 120), ("yaml-values", 80), ("card-names", 60),
                                           ("serve-reads", 60), ("outputs", 60), ("adapters", 12),
                                           ("card-lookalikes", 60), ("file-names", 30)])
def test_fixed_seed_fuzz_finds_no_traceback_hang_or_lost_game(target, budget, tmp_path):
    tally = run_fuzz(budget, SEED, out=tmp_path, cli_every=0, targets=(target,),
                     replays=ROOT / "replays", scenarios=ROOT / "scenarios", examples=ROOT / "examples")
    assert tally.inputs[target] >= budget * 0.9
    found = "\n\n".join(f"{p.key} ({p.seen}x)\n{p.message}" for p in tally.problems.values())
    assert not tally.problems, found
    if target in ("replay-lines", "games"):
        assert tally.games_in >= tally.inputs[target] and tally.verdicts_out == tally.games_in
    if target == "text":    # the hostile games among the inputs
        assert tally.games_in > 0 and tally.verdicts_out == tally.games_in
    if target in ("cards", "engine", "adapters"):   # only the card files that load, the adapters that greet, give games
        assert tally.games_in > 0 and tally.verdicts_out == tally.games_in


def test_hostile_streams_give_every_verdict_and_the_same_bytes_with_two_jobs(tmp_path):
    """Integers beyond 64 bits, lines over the limit, cut gzip data and
    workers killed from outside: one job and two, in process and on the
    command line."""
    tally = run_fuzz(30, SEED, out=tmp_path, cli_every=10, targets=("streams",))
    found = "\n\n".join(f"{p.key} ({p.seen}x)\n{p.message}" for p in tally.problems.values())
    assert not tally.problems, found
    assert tally.inputs["streams"] == 30 and tally.cli_runs == 3
    assert tally.games_in >= 30 and tally.verdicts_out == tally.games_in


def test_a_sample_through_the_command_line_gives_a_verdict_per_game(tmp_path):
    tally = run_fuzz(21, SEED, out=tmp_path, cli_every=3,
                     targets=("games", "scenarios", "expect", "cards", "rpc", "engine"),
                     replays=ROOT / "replays", scenarios=ROOT / "scenarios", examples=ROOT / "examples")
    assert tally.cli_runs >= 3
    assert not tally.problems, [p.message for p in tally.problems.values()]


def test_outputs_and_stubborn_adapters_through_the_command_line(tmp_path):
    tally = run_fuzz(12, SEED, out=tmp_path, cli_every=2, targets=("outputs", "adapters"))
    assert tally.cli_runs >= 5
    assert not tally.problems, [p.message for p in tally.problems.values()]


def test_an_output_written_over_its_input_is_found(tmp_path, monkeypatch):
    # A planted bug: no command sees that an output is one of its inputs.
    from oracle.replay import outputs
    from oracle.report import command as show
    from oracle.scenarios import command as scenarios

    for module in (outputs, show, scenarios):
        monkeypatch.setattr(module, "clash", lambda output, inputs: None)
    tally = run_fuzz(60, SEED, out=tmp_path, cli_every=0, targets=("outputs",))
    found = [p.key for p in tally.by_kind("count")]
    assert "count: outputs over an input not refused" in found, found


def test_an_adapter_process_left_running_is_found(tmp_path, monkeypatch):
    # A planted bug: stopping the adapter ends the adapter alone, not what it started.
    from oracle.harness import adapter_process

    def adapter_alone(proc, token, known=(), grace=1.0):
        proc.kill()
        proc.wait()

    monkeypatch.setattr(adapter_process, "stop", adapter_alone)
    # Three adapters: the seed's second already starts a process of its own (8 took 44 s of CI).
    tally = run_fuzz(3, SEED, out=tmp_path, cli_every=0, targets=("adapters",))
    found = [p.key for p in tally.by_kind("count")]
    assert "count: adapters left running" in found, found


def test_the_hostile_classes_through_the_command_line(tmp_path):
    """Hostile text (verify -j 2 printing what -j 1 prints), values that
    cannot be built, colliding and look-alike names, serve's file starts and
    file names that forge a line, each with a sample through the command line."""
    tally = run_fuzz(24, SEED, out=tmp_path, cli_every=2, targets=("text", "yaml-values", "card-names", "serve-reads",
                                                                     "card-lookalikes", "file-names"),
                     replays=ROOT / "replays", scenarios=ROOT / "scenarios", examples=ROOT / "examples")
    assert tally.cli_runs >= 9
    assert not tally.problems, [p.message for p in tally.problems.values()]


def _stock_yaml(monkeypatch):
    """PyYAML's own safe loader in place of the project's constructor (dates
    built as timestamps, integers of any size, tags that raise)."""
    import yaml

    from oracle import safeyaml

    class Stock(safeyaml._Limits, yaml.SafeLoader):
        def __init__(self, stream):
            yaml.SafeLoader.__init__(self, stream)
            self._start_limits()

    monkeypatch.setattr(safeyaml, "_Fast", None)
    monkeypatch.setattr(safeyaml, "_Limited", Stock)


def _no_escaping(monkeypatch):
    import re

    from oracle import term

    monkeypatch.setattr(term, "_HIDDEN_IN_LINE", re.compile("(?!)"))
    monkeypatch.setattr(term, "_HIDDEN_IN_LINES", re.compile("(?!)"))


def _names_unchecked(monkeypatch):
    from oracle.games.mindbug.cards import declared_names

    monkeypatch.setattr(declared_names, "check_names", lambda *a: None)


def _lookalikes_taken(monkeypatch):
    from oracle.games.mindbug.cards import declared_names

    monkeypatch.setattr(declared_names, "_alike_problem", lambda *a: None)
    monkeypatch.setattr(declared_names, "_unnamable", lambda alias: None)


def _file_names_unescaped(monkeypatch):
    """The file names of messages written as they are (as before they were escaped)."""
    from oracle import safefile
    from oracle.games.mindbug.cards import declared
    from oracle.games.mindbug.harness import start
    from oracle.harness import start as shared_start
    from oracle.replay import expect, outputs
    from oracle.scenarios import command, located

    for module in (safefile, declared, start, shared_start, expect, outputs, command, located):
        monkeypatch.setattr(module, "visible", lambda text, lines=False: text)


def _reads_anywhere(monkeypatch):
    from oracle import safeyaml

    within = safeyaml.read_within
    monkeypatch.setattr(safeyaml, "read_within", lambda path, folders, files=(): within(path, ("/",), files))


@pytest.mark.parametrize("target, mutant, kind, words", [
    ("text", _no_escaping, "count", "reach a terminal unescaped"),
    ("yaml-values", _stock_yaml, "traceback", "ValueError"),
    ("card-names", _names_unchecked, "count", "took a shipped card's name"),
    ("serve-reads", _reads_anywhere, "count", "outside the scenario folders"),
    ("card-lookalikes", _lookalikes_taken, "count", "took a name that looks like a shipped card's"),
    ("file-names", _file_names_unescaped, "count", "a line forged by a file name"),
])
def test_each_hostile_class_finds_the_bug_it_covers(target, mutant, kind, words, monkeypatch):
    """Each new class, run against the code with its fix taken out, reports
    the problem the fix prevents."""
    mutant(monkeypatch)
    tally = run_fuzz(40, SEED, cli_every=0, targets=(target,), replays=ROOT / "replays",
                     scenarios=ROOT / "scenarios", examples=ROOT / "examples")
    found = tally.by_kind(kind)
    assert any(words in p.message or words in p.key for p in found), [p.key for p in tally.problems.values()]


def test_the_fuzzer_records_a_traceback_once_with_a_reproducer(tmp_path, monkeypatch):
    # A planted bug: verifying any game whose stream holds a note line raises.
    real = checks.check_stream

    def broken(tally, data, last_id=None):
        if b'"note"' in data or b"\xff" in data:
            raise KeyError("planted")
        real(tally, data, last_id)

    monkeypatch.setattr(checks, "check_stream", broken)
    # Enough inputs that the planted bug is hit more than once whatever games the corpus
    # (self-play and ./replays, Mindbug and Mind Up!) offers to start a stream with.
    tally = run_fuzz(150, SEED, out=tmp_path, cli_every=0, targets=("replay-lines",))
    tracebacks = tally.by_kind("traceback")
    assert len(tracebacks) == 1 and tracebacks[0].seen >= 2
    assert "KeyError" in tracebacks[0].key
    saved = tmp_path / tracebacks[0].saved.rsplit("/", 1)[1]
    assert saved.exists() and saved.read_bytes() == tracebacks[0].data


def test_a_busy_hang_is_cut_at_the_cpu_time_limit_and_reported(tmp_path):
    import time

    def spin():
        while True:
            pass

    tally = checks.Tally(out=tmp_path)
    start = time.process_time()
    checks.guarded(tally, "games", b"x", ".jsonl", 0.2, spin)
    assert time.process_time() - start < 2
    assert [p.kind for p in tally.problems.values()] == ["hang"]
    assert "CPU time" in next(iter(tally.problems.values())).message


def test_a_waiting_hang_is_cut_on_the_wall_clock(tmp_path, monkeypatch):
    import time

    monkeypatch.setattr(checks, "WALL_FACTOR", 2)
    tally = checks.Tally(out=tmp_path)
    start = time.monotonic()
    checks.guarded(tally, "games", b"x", ".jsonl", 0.2, lambda: time.sleep(30))
    assert time.monotonic() - start < 10
    assert [p.kind for p in tally.problems.values()] == ["hang"]


def test_fuzz_command_prints_what_it_tried_and_exits_0(tmp_path):
    r = run_cli("fuzz", "--budget", "24", "--seed", "3", "--cli-every", "0", "--out", str(tmp_path / "f"))
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.decode()
    assert "24 inputs" in out and "tracebacks: 0 distinct" in out and "hangs: 0 distinct" in out
    games = out.split("games in: ")[1].split(",")[0]
    assert f"verdicts out: {games}" in out


def test_fuzz_out_that_is_a_link_to_nothing_is_refused_before_any_input(tmp_path):
    out = tmp_path / "found"
    out.symlink_to(tmp_path / "gone")
    r = run_cli("fuzz", "--budget", "1", "--out", str(out))
    # where the run stopped at its first reproducer to write ("cannot go on: File exists")
    assert r.returncode == 2 and f"--out {out}: not a folder".encode() in r.stderr and r.stdout == b"", r.stderr


def test_card_files_are_tried_without_leaving_their_cards_in_the_database(tmp_path):
    from oracle.games.mindbug.cards import SETS

    before = set(SETS)
    tally = run_fuzz(30, SEED, out=tmp_path, cli_every=0, targets=("cards",), examples=ROOT / "examples")
    assert tally.inputs["cards"] == 30 and not tally.problems
    # Some files loaded and played: their games were verified.
    assert tally.games_in > 0 and tally.verdicts_out == tally.games_in
    assert set(SETS) == before


def test_a_declared_card_game_that_does_not_conform_is_reported(tmp_path, monkeypatch):
    from oracle.replay import verify

    real = verify.verify_game

    def strict_about_lab(raw, *a, **kw):
        rep = real(raw, *a, **kw)
        if b"fuzz-lab" in raw.lines[0][1] and rep.verdict == "conforms":
            rep.verdict = "violates"
            rep.findings.append(verify.Finding("STATE_MISMATCH", ["planted"], 1, "planted"))
        return rep

    monkeypatch.setattr(verify, "verify_game", strict_about_lab)
    tally = run_fuzz(40, SEED, out=tmp_path, cli_every=0, targets=("cards",), examples=ROOT / "examples")
    counts = tally.by_kind("count")
    assert len(counts) == 1 and "declared cards is violates" in counts[0].message


def test_a_service_failure_in_a_session_is_recorded_as_a_traceback(tmp_path, monkeypatch):
    from oracle.games.mindbug.harness import serve

    # A planted bug: the service fails on every `state` request.
    monkeypatch.setattr(serve, "_state", lambda service, req: 1 // 0)
    tally = run_fuzz(60, SEED, out=tmp_path, cli_every=0, targets=("rpc",))
    found = tally.by_kind("traceback")
    assert len(found) == 1 and "ZeroDivisionError" in found[0].key
    sent = (tmp_path / found[0].saved.rsplit("/", 1)[1]).read_bytes().splitlines()
    assert any(b'"state"' in line for line in sent)


def test_each_way_of_breaking_an_adapter_reply_ends_as_a_report_not_a_traceback():
    from oracle.games.mindbug.fuzz.engine import BREAKS
    from oracle.games.mindbug.fuzz.engine_checks import check_engine
    from oracle.harness.conform import ENGINE_FAULT

    for i, kind in enumerate(BREAKS):
        tally = checks.Tally()
        # Reply 1 is the hello, 2 the first deal, 3 the first decision's answer.
        check_engine(tally, (i, {1 if kind == "hello-wrong" else 3: (kind, 7 + i)}, "en-revised"))
        assert not tally.problems, (kind, tally.problems)


def test_a_broken_adapter_reply_is_an_engine_fault_naming_what_is_wrong():
    from oracle.games.mindbug.fuzz.engine import FuzzEngine
    from oracle.games.mindbug.harness.conform import Campaign
    from oracle.harness.conform import Settings

    engine = FuzzEngine({3: ("not-utf8", 5)})
    engine.start()
    reports = list(Campaign(engine, Settings(budget=1, seed=3, editions=("en-first",)), ["en-first"]).run())
    assert [r.verdict for r in reports] == ["malformed"]
    assert reports[0].findings[0].code == "ENGINE_FAULT"
    assert "not UTF-8 text" in reports[0].findings[0].message
