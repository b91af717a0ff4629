"""Two classes of hostile names, each a target of `mb-oracle fuzz`:

- `card-lookalikes`: card files one of whose card names or aliases looks
  like a shipped card's name (letters swapped for letters that look the
  same: Cyrillic, Greek, a dotless i, a capital I for an l) or holds `#`,
  the mark of a copy in scenarios (`Gorillion#1`, `Spider Owl #2`). Each
  must be refused at its line and field: a card file changes only the
  games that deal its set.
- `file-names`: inputs and outputs whose file names hold a newline, and
  after it a forged line (`summary: ...`), or another character a
  terminal acts on. No message of the command, on standard error or
  output, may carry one as it is, nor start a line the name brought.
"""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from ....fuzz.cli_checks import cli_problem, run_cli
from .card_checks import name_forms
from .hostile import SHIPPED, card_file_naming, hidden, refused_at_a_card

# -- card names that look like a shipped card's, or hold the mark of a copy ------------


def _swapped(draw, name: str) -> str:
    """`name` with one to three of its letters swapped for ones that look the same."""
    from ..cards.lookalike import look_alikes

    places = [i for i, c in enumerate(name) if look_alikes(c)]
    chosen = draw(st.lists(st.sampled_from(places), min_size=1, max_size=3, unique=True)) if places else []
    out = list(name)
    for i in chosen:
        out[i] = draw(st.sampled_from(look_alikes(name[i])))
    return "".join(out)


@st.composite
def lookalike_cards(draw) -> bytes:
    """A legal card file in which one card's name or alias looks like a
    shipped card's name, or holds `#`."""
    shipped = draw(st.sampled_from(SHIPPED))
    if draw(st.booleans()):
        swapped = _swapped(draw, draw(st.sampled_from(name_forms(shipped)[:3] + name_forms(shipped)[5:6])))
        return card_file_naming(draw, "fuzz-alike", lambda card: swapped)
    k = draw(st.integers(1, 4))
    form, base_of, at = draw(st.integers(0, 2)), draw(st.booleans()), draw(st.integers(0, 80))

    def marked(card) -> str:
        base = shipped if base_of else card["name"]
        return (f"{base}#{k}", f"{base} #{k}", base[:at] + "#" + base[at:])[form]
    return card_file_naming(draw, "fuzz-alike", marked)


def check_lookalike_cards(tally, data: bytes) -> None:
    """The file is refused at a card's line and field."""
    refused_at_a_card(data, "card look-alikes", "a name that looks like a shipped card's or holds '#'")


# -- file names that carry a newline and a forged line ------------------------------------

FORGED = "summary: 0 games: 0 conform, 0 violate, 0 malformed"
BREAKS = ("\n", "\r", "\r\n", "\x1b[2J", "\x1b]0;PWNED\x07", "\u202e", "\u2028", "\x85", "\x0b", "\t")
# Where the name is: the command line, with NAME for the path whose name is hostile.
CASES = {
    "verify-missing": ["verify", "NAME.missing"],
    "verify-glob": ["verify", "NAME*.none"],
    "verify-empty-folder": ["verify", "NAME.d"],
    "verify-cut-gzip": ["verify", "-q", "NAME.jsonl.gz"],
    "verify-expect": ["verify", "ok.jsonl", "--expect", "NAME.expect"],
    "verify-output-input": ["verify", "NAME.jsonl", "--output", "json=NAME.jsonl"],
    "verify-output-folder": ["verify", "ok.jsonl", "--output", "json=NAME.d"],
    "verify-output-twice": ["verify", "ok.jsonl", "--output", "json=NAME.out", "--output", "html=NAME.out"],
    "scenarios-file": ["scenarios", "NAME.yaml"],
    "scenarios-cards": ["scenarios", "ok.yaml", "--cards", "NAME.cards"],
    "scenarios-output-input": ["scenarios", "NAME.yaml", "--output", "json=NAME.yaml"],
    "hunt-cards": ["hunt", "--cards", "NAME.cards"],
    "perft-log": ["perft", "--log", "NAME.missing", "--depth", "1"],
}


@st.composite
def file_name_case(draw) -> dict:
    """A command, and the name of the file it names: text, a break, a forged line."""
    head = draw(st.text(alphabet="abcxyz -_.", max_size=4))
    breaks = "".join(draw(st.lists(st.sampled_from(BREAKS), min_size=1, max_size=2)))
    return {"case": draw(st.sampled_from(sorted(CASES))), "name": f"{head}{breaks}{FORGED}"}


def _lay_out(root: Path, name: str, samples: dict) -> None:
    """The files the cases name, under `root`: each hostile one, and good ones beside them."""
    (root / "ok.jsonl").write_bytes(samples["log"])
    (root / "ok.yaml").write_bytes(samples["scenario"])
    (root / f"{name}.jsonl").write_bytes(samples["log"])
    (root / f"{name}.jsonl.gz").write_bytes(gzip.compress(samples["log"])[:-20])       # cut short
    (root / f"{name}.yaml").write_text("format: mb-scenario/1\nid: [\n", encoding="utf-8")
    (root / f"{name}.cards").write_text("format: mb-cards/1\nset: {id: z-lab, name: Z}\n"
                                        "cards: [{name: Zed, power: 100}]\n", encoding="utf-8")
    (root / f"{name}.expect").write_text("format: mb-expect/1\nexpected: [{code: NOPE}]\n", encoding="utf-8")
    (root / f"{name}.d").mkdir()


def _args(case: dict, root: Path) -> list[str]:
    return [a.replace("NAME", str(root / case["name"])) if "NAME" in a else
            (str(root / a) if a.startswith("ok.") else a) for a in CASES[case["case"]]]


def judge_file_names(case: dict, code: int, out: str, err: str) -> None:
    """What must hold of a command's messages, whatever the file names."""
    assert code in (1, 2), f"file names exit status: {code} ({case['case']})"
    for stream, text in (("standard error", err), ("standard output", out)):
        found = hidden(text)
        assert not found, f"file names: {', '.join(found)} of a file name on {stream} ({case['case']})"
        assert not any(FORGED in (line[:len(FORGED)], line.split(": ", 1)[-1][:len(FORGED)])   # "error: " before it
                       for line in text.splitlines()), \
            f"file names: a line forged by a file name on {stream} ({case['case']})"
    assert err.strip(), f"file names: no message ({case['case']})"


def check_file_names(case: dict, samples: dict) -> None:
    """The command in this process (click's runner)."""
    from click.testing import CliRunner

    from ....harness.command import perft
    from ....hunt.command import hunt
    from ....replay.command import verify
    from ....scenarios.command import scenarios

    root = Path(tempfile.mkdtemp(prefix="mb-fuzz-names-"))
    try:
        _lay_out(root, case["name"], samples)
        name, *args = _args(case, root)
        command = {"verify": verify, "scenarios": scenarios, "hunt": hunt, "perft": perft}[name]
        r = CliRunner().invoke(command, args, catch_exceptions=True)
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise r.exception
        judge_file_names(case, r.exit_code, r.stdout, r.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def cli_file_names(tally, case: dict, samples: dict, seconds: float) -> None:
    """The same command in a process of its own."""
    tally.cli_runs += 1
    root = Path(tempfile.mkdtemp(prefix="mb-fuzz-names-"))
    try:
        _lay_out(root, case["name"], samples)
        r = run_cli(_args(case, root), seconds)
        data = repr(case).encode()
        if cli_problem(tally, "cli-file-names", data, ".txt", r, allowed=(1, 2)):
            return
        try:
            judge_file_names(case, r.returncode, r.stdout.decode("utf-8", "replace"),
                             r.stderr.decode("utf-8", "replace"))
        except AssertionError as e:
            tally.add("cli", "cli-file-names", str(e).split("(")[0].strip(), str(e), data, ".txt")
    finally:
        shutil.rmtree(root, ignore_errors=True)
