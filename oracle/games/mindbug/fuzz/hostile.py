"""Fuzz classes of hostile text and values, each a target of `mb-oracle fuzz`:

- `text`: terminal control strings in every field a person sees quoted
  (game ids, field names, claim card and keyword names, notes, decision
  cards, scenario titles, ids and keys, expectation entries, card-file
  names). No rendered report, warning or error may carry a control, format
  or line-separator character of the input; through the command line,
  `verify -j 2` must print what `-j 1` prints.
- `yaml-values`: scenario, card and expectation files holding values PyYAML
  would build into an exception (impossible dates, integers of thousands
  of digits, values their explicit tag cannot build).
- `card-names`: card files whose card names or aliases are a shipped card's
  name, French name or slug in some form: each must be refused at its
  line and field, and no card file that loads may change what a shipped
  name finds.
- `serve-reads`: service sessions whose scenario starts name FIFOs,
  devices, folders, files too large, links out of the scenario folder and
  paths outside it, and whose positions and seeds are out of range: none
  may block the service, and a path outside its folders gets the one
  message that says nothing of it.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import unicodedata
from pathlib import Path

import yaml
from hypothesis import strategies as st

from ....fuzz import strategies as fs, yaml_strategies as ys
from ..cards import CARDS
from . import lines, rpc_strategies as rs
from .card_checks import name_forms
from .corpus import MINIMAL_SCENARIO, selfplay_games

# -- terminal control strings ------------------------------------------------------

# Each would act on a terminal or hide text: set the title, clear the screen,
# a one-byte CSI, return to the start of the line, reverse the direction,
# isolate, zero-width characters, the line and paragraph separators, NEL, a
# tag character, DEL.
HIDDEN = ("\x1b]0;PWNED\x07", "\x1b[2J", "\x1b[1;1H", "\x9b2J", "\r", "\x07", "\x08", "\u202e", "\u2066", "\u200b",
          "\u200d", "\u2060", "\ufeff", "\u2028", "\u2029", "\x85", "\U000e0041", "\x7f", "\x00", "\n", "\t")
hostile_text = st.tuples(st.text(max_size=3), st.lists(st.sampled_from(HIDDEN), min_size=1, max_size=3),
                         st.text(max_size=3)).map(lambda t: t[0] + "".join(t[1]) + t[2])
HOSTILE_KEYS = ("\x1b]0;PWNED\x07", "ti\u202etle", "id\u200b", "\x9b2Jsteps", "line\u2028break")
_SGR = re.compile("\x1b\\[[0-9;]*m")   # the report's own colours (click.style)


def hidden(text: str) -> list[str]:
    """The characters of rendered `text` a terminal would act on or hide
    (newlines between lines, and the report's own colours, excepted)."""
    return sorted({f"U+{ord(c):04X}" for c in _SGR.sub("", text)
                   if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")})


def _assert_shown(text: str, what: str) -> None:
    found = hidden(text)
    assert not found, f"{what}: input characters {', '.join(found)} reach a terminal unescaped"


@st.composite
def hostile_game(draw, games: tuple) -> bytes:
    """A real game with hostile text put in some of its fields."""
    lines = [json.loads(x) for x in draw(st.sampled_from(games))]
    for _ in range(draw(st.integers(1, 4))):
        text = draw(hostile_text)
        i = draw(st.integers(0, len(lines) - 1))
        where = draw(st.sampled_from(["id", "id", "field", "field", "claim", "claim", "note", "detail", "impl",
                                      "card", "sets", "edition"]))
        if where == "id":
            lines[0]["id"] = text
        elif where == "field":
            lines[i][text] = draw(st.integers(0, 3))
        elif where == "claim":
            _hostile_claim(draw, lines, text)
        elif where == "note":
            lines.insert(max(1, i), {"t": "note", "text": text})
        elif where == "detail" and lines[-1].get("t") == "end":
            lines[-1]["detail"] = text
        elif where == "impl":
            lines[0]["impl"] = {"name": text, "version": text}
        elif where == "card" and "card" in lines[i] and lines[i].get("t") != "setup":
            lines[i]["card"] = text
        elif where == "sets":
            lines[0]["sets"] = ["first-contact", text]
        elif where == "edition":
            lines[0]["edition"] = text
    return b"".join(fs.encode(line, draw(st.booleans())) + b"\n" for line in lines)


def _hostile_claim(draw, lines: list, text: str) -> None:
    """A keyword or a card name of a state claim made hostile."""
    states = [x for x in lines if x.get("t") == "state"]
    if not states:
        return
    s = draw(st.sampled_from(states))
    creatures = [c for side in s.get("play", ()) if isinstance(side, list) for c in side if isinstance(c, dict)]
    if creatures and draw(st.booleans()):
        draw(st.sampled_from(creatures))["keywords"] = [text]
        return
    zone = draw(st.sampled_from(["hand", "discard"]))
    sides = [side for side in s.get(zone, ()) if isinstance(side, list) and side]
    if sides:
        side = draw(st.sampled_from(sides))
        side[draw(st.integers(0, len(side) - 1))] = text


@st.composite
def hostile_scenario(draw, texts: tuple) -> bytes:
    """A scenario document with hostile text as its id, title, keys or values."""
    try:
        doc = yaml.safe_load(draw(st.sampled_from(texts)))
    except yaml.YAMLError:
        doc = None
    if not isinstance(doc, dict):
        doc = yaml.safe_load(MINIMAL_SCENARIO)
    for key in draw(st.lists(st.sampled_from(["title", "title", "id", "source", "key"]), min_size=1, max_size=3)):
        if key == "key":
            doc[draw(st.sampled_from(HOSTILE_KEYS))] = draw(hostile_text)
        elif key == "source":
            doc["source"] = {"kind": "rulebook", "ref": draw(hostile_text)}
        else:
            doc[key] = draw(hostile_text)
    if draw(st.booleans()):
        doc = draw(ys.tree_mutation(doc, hostile_text | ys.yaml_values, HOSTILE_KEYS))
    return ys.dump(doc).encode("utf-8", "surrogatepass")


@st.composite
def hostile_expect(draw) -> bytes:
    """An expectation file whose entries carry hostile text."""
    entry = st.fixed_dictionaries({"code": st.sampled_from(fs.CODES[:3]) | hostile_text}, optional={
        "game": hostile_text, "note": hostile_text, "clause": hostile_text | st.sampled_from(lines.CLAUSES),
        "edition": hostile_text, draw(st.sampled_from(HOSTILE_KEYS)): hostile_text})
    doc = {"format": draw(st.sampled_from(["mb-expect/1", "mb-expect/1", "mb-expect/1"]) | hostile_text),
           "expected": draw(st.lists(entry, min_size=1, max_size=4))}
    return ys.dump(doc).encode("utf-8", "surrogatepass")


@st.composite
def hostile_cards(draw) -> bytes:
    """A legal card file with hostile text as a card's or the set's name."""
    from ..hunt.card_strategies import card_file as legal_card_file

    doc = draw(legal_card_file("fuzz-text", "Fuzz", n=draw(st.integers(1, 3))))
    where = draw(st.sampled_from(["name", "names", "set"]))
    if where == "set":
        doc["set"]["name"] = draw(hostile_text)
    else:
        card = draw(st.sampled_from(doc["cards"]))
        if where == "name":
            card["name"] = draw(hostile_text)
        else:
            card["names"] = {"fr": draw(hostile_text)}
    return ys.dump(doc).encode("utf-8", "surrogatepass")


def text_case(games: tuple, texts: tuple) -> st.SearchStrategy:
    """(kind, bytes): a game stream, a scenario file, an expectation file or a card file with hostile text."""
    return st.one_of(hostile_game(games).map(lambda b: ("games", b)), hostile_game(games).map(lambda b: ("games", b)),
                     hostile_scenario(texts).map(lambda b: ("scenarios", b)),
                     hostile_expect().map(lambda b: ("expect", b)), hostile_cards().map(lambda b: ("cards", b)))


def check_text(tally, case: tuple) -> None:
    """Every report of the input, rendered for people, shows its text only
    as visible escapes; a card name that would not is refused."""
    kind, data = case
    if kind == "games":
        _check_text_games(tally, data)
    elif kind == "scenarios":
        from ....scenarios import report
        from ....scenarios.loader import load_text
        from ....scenarios.runner import run

        sf = load_text(data.decode("utf-8", "replace"), "fuzz\u202e.yaml")
        results = [run(sc, e) for sc in sf.scenarios for e in sc.editions()]
        _assert_shown(report.human(results, sf.errors, True), "scenarios: the human report")
        out = io.StringIO()
        report.junit(results, sf.errors, out)
        _assert_shown(out.getvalue().replace("\n", " ").replace("\t", " "), "scenarios: the JUnit report")
    elif kind == "expect":
        _check_text_expect(tally, data)
    else:
        from ..cards.declared import CardFileError, load

        try:
            decl = load("fuzz.yaml", data)
        except CardFileError as e:
            assert e.message, "card error: a card file refused without a message"
            return
        from ....term import visible

        names = [decl.set.name, *decl.set.names.values()] + [n for c in decl.cards for n in (c.name, *c.names.values())]
        if any(visible(n) != n for n in names):
            raise AssertionError("card names: a name with hidden characters was accepted")


def _check_text_games(tally, data: bytes) -> None:
    from ....replay import report as render
    from ....replay.reader import split_games
    from ....replay.verify import verify_game

    raws = list(split_games(io.BytesIO(data), "fuzz\u202e.jsonl"))
    tally.games_in += len(raws)
    for raw in raws:
        reps = [verify_game(raw), verify_game(raw, None, True), verify_game(raw, strict=True)]
        tally.verdicts_out += 1
        for rep in reps:
            _assert_shown(render.human_game(rep, verbose=True), "verify: the human report")


def _check_text_expect(tally, data: bytes) -> None:
    """The stale warnings (a refused file's lines are written through
    term.error: the command line sample checks them)."""
    from ....replay import report as render
    from .verify_files import check_expect

    for st_ in check_expect(tally, data):
        _assert_shown(render.stale_warning(st_), "verify --expect: the stale warning")


def cli_text(tally, case: tuple, seconds: float) -> None:
    """The same input through the command line: standard output and error
    free of the input's hidden characters; `verify -j 2` prints what `-j 1`
    prints."""
    from ....fuzz.cli_checks import cli_problem, run_cli

    kind, data = case
    tally.cli_runs += 1
    target = f"cli-text-{kind}"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("input.jsonl" if kind == "games" else "input.yaml")
        path.write_bytes(data)
        games = Path(tmp) / "games.jsonl"
        games.write_bytes(b"\n".join(selfplay_games()[0]) + b"\n")
        runs = {"games": [["verify", "--color", "never", "-j", "1", str(path)],
                          ["verify", "--color", "never", "-j", "2", str(path)],
                          ["verify", "--color", "never", "--strict", str(path)]],
                "scenarios": [["scenarios", "--color", "never", str(path)]],
                "expect": [["verify", "--color", "never", "--expect", str(path), str(games)]],
                "cards": [["verify", "--color", "never", "--cards", str(path), str(games)]]}[kind]
        results = [run_cli(args, seconds) for args in runs]
    for r in results:
        if cli_problem(tally, target, data, path.suffix, r):
            return
        for stream, text in (("stdout", r.stdout), ("stderr", r.stderr)):
            found = hidden(text.decode("utf-8", "surrogateescape"))
            if found:
                tally.add("count", target, f"{target}: hidden characters on {stream}",
                          f"{', '.join(found)} in {text[-600:]!r}", data, path.suffix)
                return
    if kind == "games" and results[0].stdout != results[1].stdout:
        tally.add("count", target, f"{target}: -j 2 differs from -j 1", "the reports differ", data, ".jsonl")


# -- YAML values that fail to construct --------------------------------------------------

BAD_SCALARS = ("2001-13-45", "2001-02-30", "2001-02-03", "2001-12-14t21:59:43.10-05:00", "9" * 5000, "-" + "7" * 70,
               "0x" + "f" * 80, "0b" + "1" * 200, "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21:22:23",
               "!!int abc", "!!int ''", "!!bool maybe", "!!float x", "!!timestamp 2001-99-99", "!!binary '@@@'",
               "1e400", "-.inf", ".nan", "!!str 2001-13-45", "[2001-13-45, " + "9" * 4400 + "]")
_SLOT = "zzbadvaluezz"


@st.composite
def bad_value_file(draw, texts: tuple) -> bytes:
    """A YAML text whose values at one to three places are written as one of
    BAD_SCALARS, plain (as a person would type them)."""
    try:
        doc = yaml.safe_load(draw(st.sampled_from(texts)))
    except yaml.YAMLError:
        doc = None
    if not isinstance(doc, (dict, list)):
        return draw(st.sampled_from(BAD_SCALARS)).encode()
    doc = draw(ys.tree_mutation(doc, st.just(_SLOT), ("extra", "power", "life", "game", "copies", "turn")))
    text = ys.dump(doc)
    while _SLOT in text:
        text = text.replace(_SLOT, draw(st.sampled_from(BAD_SCALARS)), 1)
    return text.encode("utf-8", "surrogatepass")


def yaml_value_case(scenario_texts: tuple, card_texts: tuple, expects: tuple) -> st.SearchStrategy:
    return st.one_of(bad_value_file(scenario_texts).map(lambda b: ("scenarios", b)),
                     bad_value_file(card_texts).map(lambda b: ("cards", b)),
                     bad_value_file(expects).map(lambda b: ("expect", b)))


# -- names that collide with shipped cards --------------------------------------------------

SHIPPED = tuple(n for n, c in CARDS.items() if c.card_set in ("first-contact", "new-servants"))


def card_file_naming(draw, set_id: str, name_of) -> bytes:
    """A legal card file in which one card's name, or its name in another
    language, is `name_of(card)`."""
    from ..hunt.card_strategies import card_file as legal_card_file

    doc = draw(legal_card_file(set_id, "Fuzz", n=draw(st.integers(1, 3))))
    card = draw(st.sampled_from(doc["cards"]))
    name = name_of(card)
    where = draw(st.sampled_from(["name", "fr", "de"]))
    if where == "name":
        card["name"] = name
    else:
        card["names"] = {where: name}
    return ys.dump(doc).encode("utf-8", "surrogatepass")


def refused_at_a_card(data: bytes, what: str, why: str) -> None:
    """The card file `data` is refused at a card's line and field
    (AssertionError `what: ...` otherwise)."""
    from ..cards.declared import CardFileError, load

    try:
        load("fuzz.yaml", data)
    except CardFileError as e:
        assert e.line is not None and (e.field or "").startswith("cards["), \
            f"{what}: a refusal without its line and field ({e})"
        return
    raise AssertionError(f"{what}: a card file took {why}")


@st.composite
def colliding_cards(draw) -> bytes:
    """A legal card file in which one card's name or alias is a shipped card's
    name, French name or slug, in some case or spelling."""
    taken = draw(st.sampled_from(name_forms(draw(st.sampled_from(SHIPPED)))))
    return card_file_naming(draw, "fuzz-names", lambda card: taken)


def check_card_names(tally, data: bytes) -> None:
    """The file is refused at the colliding card's line and field."""
    refused_at_a_card(data, "card names", "a shipped card's name")


# -- serve: what a scenario start may read -----------------------------------------------------

NOT_READABLE = "no such file in the folders this service reads"


def make_sandbox(scenario_text: str) -> Path:
    """A folder for the service's `--scenarios` (`scen/`) holding a good
    scenario, two with values that cannot be built, one whose card file is
    a FIFO, a FIFO, a folder, a file over the size limit and a link out;
    and a file outside it. The caller removes it."""
    from ....safeyaml import MAX_BYTES

    root = Path(tempfile.mkdtemp(prefix="mb-fuzz-serve-"))
    scen = root / "scen"
    (scen / "sub").mkdir(parents=True)
    (scen / "ok.yaml").write_text(scenario_text, encoding="utf-8")
    for name, value in (("bad-date", "2001-13-45"), ("bad-int", "9" * 5000)):
        (scen / f"{name}.yaml").write_text(scenario_text.replace("play: [", f"life: {value}\n      play: [", 1),
                                           encoding="utf-8")
    (scen / "card-fifo.yaml").write_text(scenario_text.replace("title:", "card_file: fifo.yaml\ntitle:", 1),
                                         encoding="utf-8")
    (scen / "big.yaml").write_bytes(b"# " + b"x" * MAX_BYTES + b"\n")
    (root / "outside.yaml").write_text(scenario_text, encoding="utf-8")
    (scen / "out.yaml").symlink_to(root / "outside.yaml")
    if hasattr(os, "mkfifo"):
        os.mkfifo(scen / "fifo.yaml")
    return root


SERVE_PATHS = ("@S@/ok.yaml", "@S@/ok.yaml", "@S@/bad-date.yaml", "@S@/bad-int.yaml", "@S@/card-fifo.yaml", "@S@/fifo.yaml",
               "@S@/sub", "@S@", "@S@/big.yaml", "@S@/out.yaml", "@S@/missing.yaml", "@S@/../outside.yaml",
               "@R@/outside.yaml", "/dev/stdin", "/dev/zero", "/dev/tty", "/etc/passwd", "/proc/self/environ", "",
               ".", "bad\u0000path", "@S@/ok.yaml\u202e")


def _serve_request(scenario_id: str) -> st.SearchStrategy:
    edition = st.sampled_from(["en-revised", "en-first", "fr-first"])
    start = st.fixed_dictionaries({"op": st.just("new"), "id": st.integers(0, 99), "edition": edition,
                                   "scenario": st.fixed_dictionaries({"path": st.sampled_from(SERVE_PATHS),
                                                                      "id": st.sampled_from([scenario_id, "x"])})})
    big = st.sampled_from([99999999, -3, 10**20, -1, 3, 2, 100, 1e20, 2**63])
    position = st.fixed_dictionaries({"op": st.just("new"), "edition": edition, "position": st.fixed_dictionaries(
        {"cards": st.just({"1": "Gorillion", "2": "Spider Owl"}), "play": st.just([[1], [2]])},
        optional={"life": lines.pair(big), "mindbugs": lines.pair(big), "turn": big})})
    seed = st.sampled_from([b'{"op":"new","id":5,"edition":"en-revised","seed":1e400}',
                            b'{"op":"new","edition":"en-revised","seed":-1e400}',
                            b'{"op":"new","edition":"en-revised","seed":1e20}',
                            b'{"op":"new","edition":"en-revised","position":{"cards":{},"life":[1e999,1]}}'])
    return st.one_of(start, start, position, seed)


@st.composite
def serve_session(draw, setups: tuple, scenario_id: str) -> list:
    """A service session (rpc_strategies.rpc_session) with requests that name
    files, counts and seeds a client may not have the service read or use."""
    session = draw(rs.rpc_session(setups))
    for _ in range(draw(st.integers(1, 4))):
        session.insert(draw(st.integers(0, len(session))), draw(_serve_request(scenario_id)))
    return session


def check_serve_reads(tally, session: list, sandbox: Path) -> None:
    """The session through a service that reads `sandbox/scen`: the checks of
    every session, and a scenario start by a path outside the folder (or
    missing there) answered with the one message that says nothing of it."""
    from ....fuzz import checks

    checks.check_rpc(tally, session, (sandbox / "scen",), sandbox_paths(sandbox))
    sent, got = checks.rpc_lines(session, (sandbox / "scen",), sandbox_paths(sandbox))
    scen = os.path.realpath(sandbox / "scen")
    for line, out in zip(sent, got):
        try:
            req = json.loads(line)
            path = req["scenario"]["path"]
        except (ValueError, KeyError, TypeError):
            continue
        if not isinstance(path, str):
            continue
        try:
            real = os.path.realpath(path)
            outside = os.path.commonpath([real, scen]) != scen or not os.path.lexists(real)
        except ValueError:
            outside = True
        reply = json.loads(out)
        if outside and reply.get("ok") is False and reply["error"].get("field") == "$.scenario" and \
                "reads no scenario file" not in reply["error"]["message"]:
            assert reply["error"]["message"] == f"{path!r}: {NOT_READABLE}", \
                f"serve: a path outside the scenario folders is described ({reply['error']['message'][:120]})"
        assert not (outside and reply.get("ok")), "serve: a scenario outside the folders was read"


def sandbox_paths(sandbox: Path) -> dict[bytes, bytes]:
    """The placeholders of SERVE_PATHS, as the request lines write them."""
    return {b"@S@": str(sandbox / "scen").encode(), b"@R@": str(sandbox).encode()}


__all__ = ["HIDDEN", "check_card_names", "check_serve_reads", "check_text", "cli_text", "colliding_cards",
           "hidden", "make_sandbox", "sandbox_paths", "serve_session", "text_case", "yaml_value_case"]
