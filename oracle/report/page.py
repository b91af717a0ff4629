"""The HTML report page, rendered from the Jinja2 templates of `templates/`.

`HtmlReport` takes the games of a run one at a time and writes the page at
`finish`. What it keeps, so that a run of millions of games stays within
bounds:

- a row of the game list per game (id, verdict, codes, clauses, cards),
  up to MAX_LISTED games (and every game that does not conform up to
  MAX_LISTED more); the rest are counted;
- each listed game's data (its report, and its steps when it has a board)
  encoded at once to a temporary file, not held in memory; the page reads
  it back while it is written, one `<script type="application/json">` per
  game, which the page's script parses only when the game is opened;
- a board (the game's steps, replayed through the rules, and its log
  lines) for the first MAX_BOARDS games that do not conform and the first
  MAX_CONFORMING_BOARDS that do. The other games show their findings
  without a board, with the `mb-oracle show` command that draws it.

The page is the same bytes for the same input: nothing in it depends on
the time, the machine or the worker count.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import msgspec
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..games import DEFAULT, GAMES, entry
from ..safefile import spool
from ..term import json_encode_visible, visible
from .boards import board, drawn, game_of_raw
from .steps import finding_step

MAX_LISTED = 20_000
MAX_BOARDS = 300
MAX_CONFORMING_BOARDS = 50
MAX_LOG_CHARS = 4000   # a log line longer than this is shown cut

TEMPLATES = Path(__file__).parent / "templates"
# The verdicts a page's entries have: a game (verify, show) conforms,
# violates, is malformed or was not verified; a scenario run fails, or a
# scenario document cannot be read (malformed).
GAME_VERDICTS = ("conforms", "violates", "malformed", "error")
SCENARIO_VERDICTS = ("fails", "malformed")
_enc = msgspec.json.Encoder()


def _shown(value):
    """A value the page shows as text (a title, a file name, a note): text
    from the input as visible escapes, as on a terminal, where the page
    may be written (`show` without -o)."""
    # Markup (text the page's own code made safe) says so by `__html__`, the protocol Jinja reads.
    return visible(value, lines=True) if isinstance(value, str) and not hasattr(value, "__html__") else value


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, finalize=_shown)
    return env


def script_json(obj) -> str:
    """JSON for inside a <script> element: every '<' escaped, so no log text can close the element,
    and every character a terminal would act on or hide written as a JSON escape (the values are whole)."""
    return json_encode_visible(_enc.encode, obj).decode("utf-8").replace("<", "\\u003c")


@lru_cache(maxsize=None)
def card_names() -> tuple[tuple[str, ...], dict[str, int]]:
    """The names of the cards of every game with a board (their boards'
    card_names), sorted, and each one's index: a row of the game list names
    its cards by index, the card filter offers the names."""
    names = sorted({n for g in GAMES if board(g) is not None for n in board(g).card_names()})
    return tuple(names), {n: k for k, n in enumerate(names)}


@lru_cache(maxsize=None)
def board_scripts() -> tuple[str, ...]:
    """The script of every game's board (its board's SCRIPT), in the
    registry's order: the page's script draws a board with them."""
    return tuple(board(g).SCRIPT.read_text(encoding="utf-8") for g in GAMES if board(g) is not None)


def page_data(games=()) -> dict:
    """What every page carries once: the card names, the default game's
    board data (its page_data: the findings of its games without a board
    draw their cards with it) and clause catalogue; and for each other game
    of `games` (those a board of the page draws), its board data and clauses."""
    carried = [DEFAULT] + [g for g in GAMES if g in games and g != DEFAULT]
    clauses = {}
    for g in carried:
        clauses.update({cid: {"title": c.title, "text": c.text} for cid, c in entry(g).load_catalogue().items()})
    first, *others = (board(g).page_data() for g in carried)
    data = {"design_names": list(card_names()[0]), "default_game": DEFAULT, **first, "clauses": clauses}
    for part in others:
        data.update(part)
    return data


def log_lines(raw) -> list:
    """The game's log lines as [number, text], each cut at MAX_LOG_CHARS."""
    out = []
    for n, b in raw.lines:
        text = bytes(b).decode("utf-8", errors="replace")
        if len(text) > MAX_LOG_CHARS:
            text = text[:MAX_LOG_CHARS] + " …"
        out.append([n, text])
    return out


class HtmlReport:
    """The page of a run. `game(rep, ...)` for each game in order, then `finish(stream)`.

    `source` (oracle.report.source.LogSource) gives a game's log lines to
    draw its board (those the run still holds, or its file read again);
    `options` (oracle.replay.jobs.Options) are the switches it was verified
    with. `game` may also be given the steps and the log lines directly
    (`show`, the scenarios)."""

    def __init__(self, *, title: str, command: str = "", inputs=(), options=None, source=None,
                 kind: str = "verify", max_boards: int = MAX_BOARDS,
                 max_conforming_boards: int = MAX_CONFORMING_BOARDS, max_listed: int = MAX_LISTED):
        self.title = title
        self.command = command
        self.inputs = list(inputs)
        self.options = options
        self.source = source
        self.kind = kind
        self.limits = (max_boards, max_conforming_boards, max_listed)
        self.rows: list[list] = []
        self._files: dict[str, int] = {}
        self._clause_ids: set[str] = set()
        self.spool = spool()
        self.unlisted = 0
        self.boards = Counter()        # games with a board: conforming / not
        self.without_board = 0          # listed games that do not conform, shown without a board
        self.verdicts: Counter = Counter()
        self.by_code: Counter = Counter()
        self.by_clause: Counter = Counter()
        self.editions: Counter = Counter()
        self.readings: Counter = Counter()
        self.decisions = 0
        self.drawn: set[str] = set()    # the games with a board here: the page carries their data and clauses

    # -- the games ---------------------------------------------------------
    def _listed(self, rep) -> bool:
        max_listed = self.limits[2]
        n = len(self.rows)
        return n < max_listed or (rep.verdict != "conforms" and n < 2 * max_listed)

    def _wants_board(self, rep) -> bool:
        max_boards, max_conf, _ = self.limits
        if rep.verdict == "conforms":
            return self.boards["conforms"] < max_conf
        return self.boards["other"] < max_boards

    def game(self, rep, steps: dict | None = None, log: list | None = None, no_board: str | None = None) -> None:
        self.verdicts[rep.verdict] += 1
        self.decisions += rep.decisions
        for f in rep.findings:
            self.by_code[f.code] += 1
            if f.clauses:
                self.by_clause[f.clauses[0]] += 1
        if rep.edition:
            self.editions[rep.edition] += 1
        for c, v in (rep.readings or {}).items():
            self.readings[f"{c}={v}"] += 1
        if not self._listed(rep):
            self.unlisted += 1
            return
        if steps is None and no_board is None and isinstance(rep.game, str) and board(rep.game) is None:
            no_board = f"the HTML board draws {drawn()} games; this is a game of {rep.game}"
        if steps is None and no_board is None:
            if rep.verdict == "error":
                # The game that failed its verifier (or killed its worker) is not replayed here.
                no_board = "the game was not verified"
            elif not self._wants_board(rep):
                no_board = "board_limit"
            elif self.source is not None:
                no_board = self.source.why_not(rep.file)
                raw = self.source.raw(rep) if no_board is None else None
                if raw is not None:
                    o = self.options
                    try:
                        # A game line naming a game without a board: the default game's reads what it can.
                        game_board = board(game_of_raw(raw)) or board(DEFAULT)
                        _, steps = game_board.game_steps(raw, o.edition, o.keep_going, dict(o.readings), o.strict) \
                            if o else game_board.game_steps(raw)
                    except Exception as e:  # noqa: BLE001 - one game's board must not end the report
                        no_board = f"replaying it failed: {type(e).__name__}: {e}"
                    log = log_lines(raw)
                elif no_board is None:
                    no_board = "the log could not be read again"
            else:
                no_board = "no log to replay"
        if steps is not None and not steps.get("steps"):
            no_board = no_board or "the log holds no deal the rules could draw"
        has_board = steps is not None and bool(steps.get("steps"))
        if has_board:
            self.boards["conforms" if rep.verdict == "conforms" else "other"] += 1
            self.drawn.add(steps.get("game", DEFAULT))
        elif rep.verdict != "conforms":
            self.without_board += 1
        i = len(self.rows)
        cards = set()
        for f in rep.findings:
            cards.update(f.cards.values())
        if has_board:
            cards.update(steps["cards"].values())
        file = self._files.setdefault(rep.file, len(self._files))
        index = card_names()[1]
        # One row of the game list: [id, verdict, codes, clauses, cards (indices
        # into the sorted design names), board?, file (index), line, outcome,
        # edition, decisions, data? (a game-N script holds the game's data)].
        plain = rep.verdict == "conforms" and not has_board and not rep.notes and not rep.findings
        self.rows.append([
            rep.id, rep.verdict, sorted({f.code for f in rep.findings}),
            sorted({c for f in rep.findings for c in f.clauses}),
            sorted(index[c] for c in cards if c in index), int(has_board), file, rep.line,
            rep.outcome or "", rep.edition or "", rep.decisions, int(not plain),
        ])
        self._clause_ids.update(c for f in rep.findings for c in f.clauses)
        if plain:
            return      # the row says all there is: no script for it
        data = {"report": msgspec.to_builtins(rep, str_keys=True), "kind": self.kind}
        if has_board:
            data["game"] = steps.get("game", DEFAULT)      # whose board draws its steps (the script's BOARDS)
            data["cards"] = {str(k): v for k, v in steps["cards"].items()}
            data["steps"] = steps["steps"]
            data["cut"] = steps.get("cut", False)
            data["at"] = [finding_step(steps["steps"], f.line) for f in rep.findings]
            if steps.get("at") is not None:
                data["at"] = steps["at"]
        else:
            data["no_board"] = no_board or "no board"
        if log is not None:
            data["log"] = log
        self.spool.write(f'<script type="application/json" id="game-{i}">'.encode()
                         + script_json(data).encode() + b"</script>\n")

    # -- the page ------------------------------------------------------------
    def _scripts(self):
        self.spool.seek(0)
        for line in self.spool:
            yield line.decode("utf-8")

    def finish(self, stream, summary=None, notes=()) -> None:
        """Write the page to `stream` (text). `summary` (oracle.replay.outcome.Summary), if given,
        adds the outcomes and the exit status."""
        env = environment()
        tpl = env.get_template("report.html.j2")
        max_boards, max_conf, max_listed = self.limits
        verdicts = SCENARIO_VERDICTS if self.kind == "scenario" else GAME_VERDICTS
        ctx = {
            "title": self.title, "kind": self.kind, "command": self.command, "inputs": self.inputs,
            "files": list(self._files)[:100], "more_files": max(0, len(self._files) - 100),
            "index": script_json({"rows": self.rows, "files": list(self._files)}), "listed": len(self.rows),
            "unlisted": self.unlisted, "games": sum(self.verdicts.values()),
            "verdicts": [(v, self.verdicts[v]) for v in verdicts if self.verdicts[v] or v in verdicts[:2]],
            "verdict_names": verdicts,
            "by_code": _ranked(self.by_code), "by_clause": _ranked(self.by_clause),
            "editions": _ranked(self.editions), "readings": _ranked(self.readings),
            "decisions": self.decisions, "summary": summary, "notes": list(notes),
            "codes": sorted(self.by_code), "clause_ids": sorted(self._clause_ids),
            "card_names": list(card_names()[0]),
            "without_board": self.without_board, "max_boards": max_boards, "max_conforming_boards": max_conf,
            "max_listed": max_listed,
            "data": script_json(page_data(self.drawn)), "scripts": self._scripts(), "board_scripts": board_scripts(),
            "catalogue": entry(DEFAULT).load_catalogue(),
        }
        for chunk in tpl.generate(**ctx):
            stream.write(chunk)
        stream.flush()
        self.close()

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
        if not self.spool.closed:
            self.spool.close()


def _ranked(counter: Counter) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
