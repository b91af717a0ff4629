"""No file is destroyed by an output: every output is written beside its
place and renamed in when complete (oracle.safefile), an output that is an
input of the run is refused, and a draft folder's files are written only
inside it and never over a draft someone edited (oracle.draftfile)."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, run_cli

LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"
DESIGNED = ROOT / "examples" / "designed-cards.yaml"
OLD = b"the report of the last run\n"


@contextmanager
def _running(p: subprocess.Popen):
    """The process `p`, killed on the way out if it is still running, its standard input closed."""
    try:
        yield p
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        if p.stdin is not None:
            p.stdin.close()


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- the shared writer ----------------------------------------------------------------

def test_a_failed_write_leaves_the_file_that_was_there_and_no_temporary(tmp_path):
    from oracle.safefile import Replacement

    out = tmp_path / "report.txt"
    out.write_bytes(OLD)
    with pytest.raises(ZeroDivisionError):
        with Replacement(out) as f:
            f.write("half a report")
            1 // 0
    assert out.read_bytes() == OLD and _leftovers(tmp_path) == []
    with Replacement(out) as f:
        f.write("a whole report\n")
        assert out.read_bytes() == OLD          # not in place before it is complete
    assert out.read_text() == "a whole report\n" and _leftovers(tmp_path) == []


def test_a_folder_that_takes_no_file_is_not_called_missing(tmp_path, monkeypatch):
    """A file made in /proc fails with ENOENT although the folder is there."""
    import errno

    from oracle.safefile import OutputError, Replacement

    with pytest.raises(OutputError, match="no such folder"):
        Replacement(str(tmp_path / "nowhere" / "r.json"))

    def no_new_file(path, *args):
        raise OSError(errno.ENOENT, os.strerror(errno.ENOENT), path)

    monkeypatch.setattr(os, "open", no_new_file)
    with pytest.raises(OutputError, match="the folder takes no new file"):
        Replacement(str(tmp_path / "r.json"))


def test_a_replaced_file_keeps_its_mode_and_a_link_to_it_stays_a_link(tmp_path):
    from oracle.safefile import write_file

    real = tmp_path / "real.txt"
    real.write_bytes(OLD)
    os.chmod(real, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_file(link, b"new\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n"
    assert (real.stat().st_mode & 0o777) == 0o640


def test_an_output_to_a_device_is_written_there(tmp_path):
    from oracle.safefile import write_file

    write_file(os.devnull, "nothing\n")
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def test_an_output_that_is_an_input_is_found_however_it_is_named(tmp_path):
    from oracle.safefile import clash

    log = tmp_path / "games.jsonl"
    log.write_bytes(OLD)
    hard = tmp_path / "hard.jsonl"
    os.link(log, hard)
    soft = tmp_path / "soft.jsonl"
    soft.symlink_to(log)
    (tmp_path / "sub").mkdir()
    for out in (log, hard, soft, tmp_path / "sub" / ".." / "games.jsonl"):
        assert clash(out, ["-", str(log)]) == str(log), out
    assert clash(tmp_path / "other.jsonl", [str(log)]) is None
    assert clash(os.devnull, [os.devnull, "-"]) is None       # a device: writing there destroys no file


# -- show -o ----------------------------------------------------------------------------

def test_show_refuses_to_write_the_page_over_the_log_it_shows(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_bytes(LOG.read_bytes())
    for out in (log, tmp_path / "link.html"):
        if out != log:
            out.symlink_to(log)
        r = run_cli("show", str(log), "-o", str(out))
        assert r.returncode == 2 and b"Traceback" not in r.stderr, r.stderr
        assert f"-o/--output {out} would overwrite".encode() in r.stderr, r.stderr     # the option as it was given
        assert log.read_bytes() == LOG.read_bytes()


def test_show_with_a_wrong_game_leaves_the_page_that_was_there(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(OLD)
    r = run_cli("show", str(LOG), "--game", "no-such-game", "-o", str(page))
    assert r.returncode == 2 and b"no game" in r.stderr
    assert page.read_bytes() == OLD and _leftovers(tmp_path) == []
    r = run_cli("show", str(LOG), "-o", str(page))
    assert r.returncode == 0 and page.read_text(encoding="utf-8").rstrip().endswith("</html>")


def _as_a_user(folder) -> list[str]:
    """The start of a command line that runs a command as a user for whom
    permissions hold (not root), owning `folder`; [] when this is not root."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions are not enforced")
    for p in [folder, *folder.iterdir()]:
        os.chown(p, 65534, 65534)
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs POSIX users")
def test_an_output_over_a_read_only_file_is_refused_and_the_file_stays():
    import tempfile

    folder = Path(tempfile.mkdtemp(dir="/tmp"))         # under /tmp: a folder any user may reach
    try:
        kept = folder / "kept.json"
        kept.write_bytes(OLD)
        kept.chmod(0o444)
        user = _as_a_user(folder)
        for args in (("verify", str(LOG), "--output", f"json={kept}"), ("show", str(LOG), "-o", str(kept))):
            r = subprocess.run([*user, sys.executable, "-m", "oracle", *args], capture_output=True, cwd=ROOT,
                               timeout=300)
            # a file made read-only is not renamed over, though its folder would let it be
            assert r.returncode == 2 and f"{kept}: cannot write: Permission denied".encode() in r.stderr, r.stderr
            assert kept.read_bytes() == OLD and _leftovers(folder) == []
    finally:
        shutil.rmtree(folder)


@pytest.mark.parametrize("command", ["annotate", "verify"])
def test_standard_output_sent_to_an_input_is_refused_before_reading_it(tmp_path, command):
    log = tmp_path / "games.jsonl"
    log.write_bytes(LOG.read_bytes())
    for args, stdin in (((str(log),), None), ((), log)):       # the log named, or on standard input
        with open(log, "ab") as out, open(stdin or os.devnull, "rb") as inp:
            # `annotate LOG >> LOG` read its own output without end; verify read its report as log lines
            r = subprocess.run([sys.executable, "-m", "oracle", command, *args], stdin=inp, stdout=out,
                               stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
        assert r.returncode == 2 and b"an input of this run: it would read what it writes" in r.stderr, r.stderr
        assert log.read_bytes() == LOG.read_bytes()


# -- verify --output ----------------------------------------------------------------------

def test_verify_refuses_standard_input_named_as_an_output(tmp_path):
    log = tmp_path / "games.jsonl"
    log.write_bytes(LOG.read_bytes())
    with open(log, "rb") as stdin:
        r = subprocess.run([sys.executable, "-m", "oracle", "verify", "-", "--output", "json=/dev/stdin"],
                           stdin=stdin, capture_output=True, cwd=ROOT)
    assert r.returncode == 2 and b"would overwrite standard input" in r.stderr, r.stderr
    assert log.read_bytes() == LOG.read_bytes()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_verify_leaves_the_reports_that_were_there(tmp_path, sig):
    junit, html = tmp_path / "oracle.xml", tmp_path / "report.html"
    for f in (junit, html):
        f.write_bytes(OLD)
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", "-", "--format", "json",
                          "--output", f"junit={junit}", "--output", f"html={html}"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    with _running(p):
        games = LOG.read_bytes().split(b'{"t":"game"')
        p.stdin.write(b'{"t":"game"'.join(games[:3]))     # two games; the pipe stays open
        p.stdin.flush()
        assert select.select([p.stdout], [], [], 60)[0], "no verdict within 60 s"
        line = p.stdout.readline()       # a verdict: the reports are under way
        assert json.loads(line)["t"] == "game"
        p.send_signal(sig)
        p.wait(timeout=30)
    assert p.returncode != 0
    assert junit.read_bytes() == OLD and html.read_bytes() == OLD and _leftovers(tmp_path) == []


def test_a_complete_verify_replaces_the_reports(tmp_path):
    junit = tmp_path / "oracle.xml"
    junit.write_bytes(OLD)
    r = run_cli("verify", str(LOG), "--output", f"junit={junit}")
    assert r.returncode == 0
    assert junit.read_text(encoding="utf-8").rstrip().endswith("</testsuites>") and _leftovers(tmp_path) == []


def _small_files():
    """In the child: files larger than 1 KiB cannot be written (EFBIG, as a full disk would refuse them)."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs RLIMIT_FSIZE and /dev/full (Linux)")
def test_an_output_that_cannot_be_written_is_named_in_the_error_and_the_old_file_stays(tmp_path):
    report = tmp_path / "oracle.jsonl"
    report.write_bytes(OLD)
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(LOG), "--output", f"json={report}"],
                       capture_output=True, cwd=ROOT, preexec_fn=_small_files, timeout=300)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert f"cannot go on: File too large ({report})".encode() in r.stderr
    assert report.read_bytes() == OLD and _leftovers(tmp_path) == []
    # The HTML page holds its games in a temporary file until it is written: that file is named.
    page = tmp_path / "report.html"
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(LOG), "--output", f"html={page}"],
                       capture_output=True, cwd=ROOT, preexec_fn=_small_files, timeout=300)
    assert r.returncode == 2 and b"cannot go on: File too large (a temporary file in " in r.stderr
    assert not page.exists() and _leftovers(tmp_path) == []
    for args in (("verify", str(LOG), "--output", "json=/dev/full"), ("show", str(LOG), "-o", "/dev/full")):
        r = run_cli(*args)
        assert r.returncode == 2 and r.stderr.decode().strip().endswith("No space left on device (/dev/full)")


# -- scenarios --output ----------------------------------------------------------------------

def test_scenarios_refuses_to_write_a_report_over_a_scenario_file(tmp_path):
    src = ROOT / "scenarios" / "keywords-sneaky.yaml"
    scen = tmp_path / "s.yaml"
    scen.write_bytes(src.read_bytes())
    r = run_cli("scenarios", str(tmp_path), "--output", f"json={scen}")
    assert r.returncode == 2 and b"would overwrite" in r.stderr and b"Traceback" not in r.stderr, r.stderr
    assert scen.read_bytes() == src.read_bytes()


def test_scenarios_refuses_an_output_it_cannot_write_before_running_anything(tmp_path):
    scen = tmp_path / "s.yaml"
    scen.write_bytes((ROOT / "scenarios" / "keywords-sneaky.yaml").read_bytes())
    first = tmp_path / "first.json"
    r = run_cli("scenarios", str(scen), "--output", f"json={first}", "--output", f"junit={tmp_path / 'nowhere' / 'x.xml'}")
    assert r.returncode == 2 and b"no such folder" in r.stderr and b"Traceback" not in r.stderr, r.stderr
    # as verify: no scenario run, no report on standard output, no other --output written
    assert r.stdout == b"" and not first.exists() and _leftovers(tmp_path) == []


# -- drafts: hunt --cards --out ----------------------------------------------------------------

def _hunt_cards(out, *more):
    from oracle.hunt.command import hunt

    return CliRunner().invoke(hunt, ["--cards", str(DESIGNED), "--budget", "1", "--out", str(out), *more])


def test_hunt_cards_never_overwrites_a_draft_someone_edited_without_force(tmp_path):
    out = tmp_path / "drafts"
    r = _hunt_cards(out)
    assert r.exit_code == 0, r.output
    drafts = sorted(out.glob("*.yaml"))
    assert drafts
    again = _hunt_cards(out)                 # its own untouched drafts: written again
    assert again.exit_code == 0, again.output
    draft = drafts[0]
    draft.write_text(draft.read_text(encoding="utf-8").replace("status: draft", "status: reviewed"),
                     encoding="utf-8")
    r = _hunt_cards(out)
    assert r.exit_code == 2 and "wrote no draft" in r.output and draft.name in r.output
    assert "status: reviewed" in draft.read_text(encoding="utf-8")
    r = _hunt_cards(out, "--force")
    assert r.exit_code == 0 and "status: reviewed" not in draft.read_text(encoding="utf-8")


def test_hunt_cards_never_writes_through_a_link_out_of_its_folder(tmp_path):
    out = tmp_path / "drafts"
    assert _hunt_cards(out).exit_code == 0
    draft = sorted(out.glob("*.yaml"))[0]
    victim = tmp_path / "precious.txt"
    victim.write_bytes(OLD)
    draft.unlink()
    draft.symlink_to(victim)
    for more in ((), ("--force",)):
        r = _hunt_cards(out, *more)
        assert r.exit_code == 2 and f"{draft} is a symbolic link to {victim}" in r.output, r.output
        assert victim.read_bytes() == OLD and draft.is_symlink()


@pytest.mark.parametrize("args", [("--cards", str(DESIGNED), "--budget", "1"), ("--budget", "1"),
                                  ("--game", "mind-up", "--budget", "1")])
def test_hunt_out_that_is_a_link_to_nothing_is_refused_as_not_a_folder(tmp_path, args):
    from oracle.hunt.command import hunt

    out = tmp_path / "drafts"
    out.symlink_to(tmp_path / "gone")
    r = CliRunner().invoke(hunt, [*args, "--out", str(out)])
    # a usage error naming the link, before the hunt; not "1 file may not be written ... use --force"
    assert r.exit_code == 2 and f"--out {out}: not a folder (a symbolic link to {tmp_path / 'gone'}" in r.output, \
        r.output
    assert "--force" not in r.output and not (tmp_path / "gone").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs POSIX users")
def test_an_out_folder_the_user_may_not_write_in_is_refused_before_the_run():
    import tempfile

    folder = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        out = folder / "out"
        out.mkdir()
        user = _as_a_user(folder)
        out.chmod(0o555)
        for args in (("hunt", "--budget", "1"), ("hunt", "--game", "mind-up", "--budget", "1"),
                     ("fuzz", "--budget", "1"), ("conform", "--engine", "no-such-engine")):
            r = subprocess.run([*user, sys.executable, "-m", "oracle", *args, "--out", str(out)], capture_output=True,
                               cwd=ROOT, timeout=300)
            # where hunt said so after its search, and fuzz stopped at its first reproducer
            assert r.returncode == 2 and f"--out {out}: cannot write there: Permission denied".encode() in r.stderr, \
                (args, r.stderr)
            assert r.stdout == b""
    finally:
        shutil.rmtree(folder)


def test_hunt_all_never_writes_through_a_link_out_of_its_folder(tmp_path, monkeypatch):
    from oracle.games.mindbug.hunt import search
    from oracle.hunt.command import hunt
    from oracle.games.mindbug.hunt.drafts import DraftEdited, draft_path, write

    rep = search.Hunt(("en-revised",), budget=4, seed=1, abstract=False, designs=("Spider Owl",),
                      shrink_limit=5).run()
    if not rep.findings:
        pytest.skip("the small hunt found nothing to write (needs a finding to write a draft)")
    f = rep.findings[0]
    victim = tmp_path / "precious.txt"
    victim.write_bytes(OLD)
    out = tmp_path / "drafts"
    out.mkdir()
    draft_path(f, out).symlink_to(victim)
    with pytest.raises(DraftEdited, match="symbolic link"):
        write(f, out, force=True)
    monkeypatch.setattr(search.Hunt, "run", lambda self: rep)
    r = CliRunner().invoke(hunt, ["--out", str(out), "--force"])
    assert r.exit_code == 2 and "symbolic link" in r.output
    assert victim.read_bytes() == OLD


# -- drafts: conform --out -------------------------------------------------------------------------

ADAPTER = f"{sys.executable} {ROOT / 'examples' / 'engine_adapter.py'}"


def _conform(out, *more):
    return run_cli("conform", "--engine", f"{ADAPTER} --plant sneaky", "--budget", "4", "--seed", "2",
                   "--edition", "en-revised", "--shrink-budget", "40", "--out", str(out), "--format", "json", *more)


def test_conform_refuses_an_output_over_the_engine_adapter_it_runs(tmp_path):
    script = tmp_path / "my adapter.py"
    script.write_bytes((ROOT / "examples" / "engine_adapter.py").read_bytes())
    r = run_cli("conform", "--engine", f"{sys.executable} '{script}'", "--budget", "0",
                "--output", f"json={script}")
    # where the adapter's script was replaced by the report once the run ended
    assert r.returncode == 2 and f"would overwrite {script}, an input of this run".encode() in r.stderr, r.stderr
    assert script.read_bytes() == (ROOT / "examples" / "engine_adapter.py").read_bytes()


def test_conform_out_that_is_a_link_to_nothing_is_refused_before_any_game(tmp_path):
    out = tmp_path / "shrunk"
    out.symlink_to(tmp_path / "gone")
    r = run_cli("conform", "--engine", ADAPTER, "--budget", "1", "--out", str(out))
    # where each root cause's note said "not written: ...: File exists"
    assert r.returncode == 2 and f"--out {out}: not a folder".encode() in r.stderr and r.stdout == b"", r.stderr


def test_conform_never_overwrites_a_shrunk_game_someone_edited_without_force(tmp_path):
    out = tmp_path / "c"
    r = _conform(out)
    assert r.returncode == 1, r.stderr
    drafts = sorted(out.glob("*.yaml"))
    logs = sorted(out.glob("*.jsonl"))
    assert drafts and logs
    assert _conform(out).returncode == 1 and sorted(out.glob("*")) == sorted(drafts + logs)
    draft, log = drafts[0], logs[0]
    draft.write_text(draft.read_text(encoding="utf-8") + "# reviewed\n", encoding="utf-8")
    edited_log = log.read_bytes() + b'{"t":"note","text":"mine"}\n'
    log.write_bytes(edited_log)
    r = _conform(out)
    assert r.returncode == 1
    notes = " ".join(n for g in map(json.loads, r.stdout.splitlines()) for n in g.get("notes", []))
    assert "not written" in notes and "--force" in notes
    assert draft.read_text(encoding="utf-8").endswith("# reviewed\n") and log.read_bytes() == edited_log
    r = _conform(out, "--force")
    assert r.returncode == 1 and log.read_bytes() != edited_log
    assert not draft.read_text(encoding="utf-8").endswith("# reviewed\n")


def test_conform_refuses_a_report_over_a_scenario_file_it_plays(tmp_path):
    scen = tmp_path / "s.yaml"
    scen.write_bytes((ROOT / "scenarios" / "keywords-sneaky.yaml").read_bytes())
    start = time.monotonic()
    r = run_cli("conform", "--engine", ADAPTER, "--budget", "0", "--scenarios", str(scen),
                "--output", f"junit={scen}", "--out", str(tmp_path / "c"))
    assert r.returncode == 2 and b"would overwrite" in r.stderr, r.stderr
    assert scen.read_bytes() == (ROOT / "scenarios" / "keywords-sneaky.yaml").read_bytes()
    assert time.monotonic() - start < 60


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_output_files_are_written_whole_when_standard_output_closes_early(tmp_path, jobs):
    from oracle.games.mindbug.replay.selfplay import selfplay_lines

    log = tmp_path / "games.jsonl"
    log.write_bytes(b"".join(x + b"\n" for x in selfplay_lines(300, 7, "en-revised", "random", "turn")))
    junit, as_json = tmp_path / "oracle.xml", tmp_path / "oracle.json"
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", str(log), "-j", jobs, "--format", "json",
                          "--output", f"junit={junit}", "--output", f"json={as_json}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert json.loads(p.stdout.readline())["t"] == "game"
    p.stdout.close()                     # `| head -1`: the reader goes away after a line
    err = p.stderr.read()
    assert (p.wait(timeout=300), err) == (141, b"")
    lines = as_json.read_bytes().splitlines()
    assert len(lines) == 301 and json.loads(lines[-1])["t"] == "summary"
    text = junit.read_text(encoding="utf-8")
    assert text.rstrip().endswith("</testsuites>") and text.count("<testcase ") == 300
    assert _leftovers(tmp_path) == []


def _wait_for(check, seconds: float = 60.0, what: str = "the state awaited"):
    """Wait until `check()` is true (polling: a loaded machine may take its time)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.02)


def _no_core():
    """In the child: SIGQUIT's default action writes no core file, and the
    signals these tests send have their default action, even where the tests
    run under `nohup` (which leaves SIGHUP ignored in every child)."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT, signal.SIGUSR1, signal.SIGALRM):
        signal.signal(sig, signal.SIG_DFL)


HOLDING = ("import sys\n"
           "from oracle.safefile import Replacement\n"
           "out = Replacement(sys.argv[1])\n"
           "out.file.write('half of a report')\n"
           "out.file.flush()\n"
           "sys.stdin.read()\n")


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT, signal.SIGUSR1, signal.SIGALRM])
def test_a_signal_that_ends_the_process_leaves_no_temporary_file(tmp_path, sig):
    report = tmp_path / "report.txt"
    report.write_bytes(OLD)
    p = subprocess.Popen([sys.executable, "-c", HOLDING, str(report)], stdin=subprocess.PIPE, cwd=tmp_path,
                         preexec_fn=_no_core)
    with _running(p):
        _wait_for(lambda: _leftovers(tmp_path), what="the temporary file")
        p.send_signal(sig)
        assert p.wait(timeout=30) == -sig          # ended by the signal, as without a handler
    assert _leftovers(tmp_path) == [] and report.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_verify_ended_by_a_signal_while_it_waits_for_input_leaves_no_temporary_file(tmp_path, sig):
    junit = tmp_path / "oracle.xml"
    junit.write_bytes(OLD)
    p = subprocess.Popen([sys.executable, "-m", "oracle", "verify", "-", "--output", f"junit={junit}"],
                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                         preexec_fn=_no_core)
    with _running(p):
        _wait_for(lambda: _leftovers(tmp_path), what="the temporary file")
        p.send_signal(sig)
        p.wait(timeout=30)
    assert p.returncode != 0
    assert _leftovers(tmp_path) == [] and junit.read_bytes() == OLD
