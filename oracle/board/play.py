"""A position of the board played through the service of `mb-oracle serve`.

The page holds a position as an mb-scenario/1 document (its `given`, with
the game, edition, sets and readings) and the decisions taken from it, as
the service's decision lines. Every request starts again from the document:
the document is read by the scenario loader, as a scenario file is (every
problem of the position, with its field), the game starts through the
service's scenario start (each game's SERVE: open_document, the path a
`scenario` start of `serve` takes), and each decision is an `apply` request
of a Service made for the request and thrown away after it. What the page
shows of the game (the board by card name, the options in words, the
expectations it may tick) and how a ruling writes the decisions are the
game's part, its registry entry's BOARD_EDIT.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from .. import games
from ..harness.serve import RequestError, Service

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder()
RULING_NAME = "board-ruling.yaml"     # the name a ruling built in memory is read under


class Refused(Exception):
    """A document or decision the board cannot play: code, message, field."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


def checked_game(name) -> str:
    """A game of the registry; ValueError naming the known ones for another name."""
    return games.check(name if isinstance(name, str) else repr(name))


def edit_part(game: str):
    """The game's board part (its registry entry's BOARD_EDIT module)."""
    return importlib.import_module(games.entry(game).BOARD_EDIT)


def script(game: str) -> Path:
    """The game's part of the page's script."""
    return Path(edit_part(game).SCRIPT)


def hello(card_files) -> dict:
    """What the page may set up, game by game."""
    return {name: edit_part(name).hello(card_files) for name in games.names()}


def cards(game: str, sets, card_files) -> list[dict]:
    try:
        return edit_part(game).cards(sets, card_files)
    except ValueError as e:
        raise Refused("BAD_REQUEST", str(e), "?sets") from None


def clauses(game: str) -> dict:
    """The game's clause catalogue: id -> {title, text, source}."""
    out = {}
    for cid, c in games.entry(game).load_catalogue().items():
        out[cid] = {"title": c.title, "text": c.text,
                    "source": "; ".join(f"{edition}: {section}" for edition, section in c.source)}
    return out


# -- a document read as a scenario --------------------------------------------------------------------


def game_of(document: dict) -> str:
    name = document.get("game", games.DEFAULT)
    try:
        return checked_game(name)
    except ValueError as e:
        raise Refused("BAD_REQUEST", str(e), "$.document.game") from None


def _name(settings) -> str:
    """The file name a document is read under: in the first scenario folder
    (a `card_file` is named relative to it), else the working directory."""
    return os.path.join(settings.scenario_dirs[0], RULING_NAME) if settings.scenario_dirs else RULING_NAME


def _problem(e) -> dict:
    message = re.sub(r" \(line \d+\)", "", re.sub(r"^scenario [^:]*: ", "", e.message))
    return {"field": "$." + e.field if e.field else "$", "message": message}


def load_text(settings, text: str, name: str | None = None):
    """(scenario file, problems) of a document's YAML text, read as the file
    `name` (default: a file of the first scenario folder; a `card_file` only
    under the folders or among the --cards files)."""
    from ..scenarios.loader import load_text as load

    sf = load(text, name or _name(settings), folders=settings.scenario_dirs, card_files=settings.card_files)
    return sf, [_problem(e) for e in sf.errors]


def load(settings, document: dict):
    """(the scenario of the document's position, or None; problems): every
    problem the scenario loader finds in it."""
    edit = edit_part(game_of(document))
    too_big = edit.size_problem(document)
    if too_big:
        raise Refused("TOO_LARGE", too_big, "$.document.given")
    sf, problems = load_text(settings, dump(edit.complete(document)))
    return (None if problems else sf.scenarios[0]), problems


def dump(document: dict) -> str:
    """A document as the YAML a scenario file holds (lists of plain values on one line)."""
    import yaml

    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


def check(settings, document: dict) -> list[dict]:
    """Every problem of a position: the loader's, then the rules' refusal of its setup."""
    return start(settings, document, None)[1]


# -- a game through the service ------------------------------------------------------------------------


@dataclass
class Session:
    """A position started in a service of its own, and what has been played."""

    game: str
    edit: object
    scenario: object
    edition: str
    service: Service
    handle: str
    start: dict                                     # the service's reply to the start
    reply: dict = field(default_factory=dict)       # its last reply
    taken: list = field(default_factory=list)       # per decision applied: (decision, the game's note of it, its words)
    events: list = field(default_factory=list)      # every event, as the service gives them

    def now(self):
        """The game as it stands (the service's open game)."""
        return self.service.games[self.handle].game


def start(settings, document: dict, edition: str | None):
    """(Session, []) for a document whose position the rules accept, else (None, problems)."""
    sc, problems = load(settings, document)
    if problems:
        return None, problems
    return opened(settings, sc, edition)


def opened(settings, sc, edition: str | None):
    """(Session, []) for a scenario already read whose position the rules accept, else (None, problems)."""
    game = sc.game
    edit = edit_part(game)
    allowed = sc.editions()
    if edition is None:
        edition = edit.DEFAULT_EDITION if edit.DEFAULT_EDITION in allowed else allowed[0]
    elif edition not in allowed:
        raise Refused("BAD_REQUEST", f"edition {edition!r} is not one the document plays in "
                                     f"({', '.join(allowed)})", "$.edition")
    service = Service(settings.scenario_dirs, settings.card_files)
    serving = importlib.import_module(games.entry(game).SERVE)
    try:
        reply = _dec.decode(serving.open_document(service, sc, edition))
    except RequestError as e:
        v = e.view
        return None, [{"field": "$.given", "message": f"{v.code}: {v.message}",
                       **({"clause": v.clause} if v.clause else {})}]
    session = Session(game, edit, sc, edition, service, reply["game"], reply, reply)
    session.events = list(reply.get("events", []))
    return session, []


def scenario_decisions(settings, sc) -> dict:
    """A scenario of a file as decisions the page replays: its steps (or
    turns and round starts) as the service's decision lines, the forced
    decisions the runner takes written in, up to the first the rules refuse
    ({decisions, edition} or {problems})."""
    session, problems = opened(settings, sc, None)
    if session is None:
        return {"problems": problems}
    return {"decisions": session.edit.decisions(session, lambda k, d: apply(session, k, d)),
            "edition": session.edition}


def _described(session: Session, decision: dict) -> tuple[str, object] | None:
    """The decision in words and as a scenario step, read by the game's
    part from the game before it is applied; None for a decision it cannot
    read (a field missing or of the wrong type), which the service refuses
    in its own words."""
    g = session.now()
    try:
        return session.edit.words(g, decision), session.edit.note(g, decision)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def apply(session: Session, k: int, decision: dict) -> dict:
    """The service's reply to decision `k` (an `apply` request); Refused for
    a decision the service cannot read (not a refusal of the rules)."""
    described = _described(session, decision)
    raw = _enc.encode({"op": "apply", "game": session.handle, "decision": decision})
    reply = _dec.decode(session.service.handle(raw))
    if not reply.get("ok"):
        err = reply["error"]
        where = err.get("field") or "$.decision"
        raise Refused(err["code"], err["message"], where.replace("$.decision", f"$.decisions[{k}]", 1))
    session.reply = reply
    if reply.get("applied"):
        if described is None:
            raise RuntimeError(f"decision {k} was applied, yet the board could not read it")
        session.taken.append((decision, described[1], described[0]))
        session.events += reply.get("events", [])
    return reply


def played(settings, document: dict, decisions: list, edition: str | None):
    """(session, steps, refused, problems): the document started and its
    decisions applied up to the first the rules refuse (`refused`: (k,
    decision, refusal), or None)."""
    session, problems = start(settings, document, edition)
    if session is None:
        return None, [], None, problems
    steps = []
    for k, decision in enumerate(decisions):
        reply = apply(session, k, decision)
        if not reply.get("applied"):
            return session, steps, (k, decision, reply.get("refusal")), []
        steps.append({"decision": decision, "words": session.taken[-1][2],
                      "events": [session.edit.event(e) for e in reply.get("events", [])]})
    return session, steps, None, []


def play(settings, document: dict, decisions: list, edition: str | None) -> dict:
    """The reply of /api/play (spec/board.md): each step with its words and
    events, who must decide now with the options in words, the board."""
    session, steps, refused, problems = played(settings, document, decisions, edition)
    if session is None:
        return {"ok": False, "problems": problems}
    g = session.now()
    out = {"ok": refused is None, "game": session.game, "edition": session.edition,
           "start_events": [session.edit.event(e) for e in session.start.get("events", [])],
           "steps": steps, "pending": session.edit.pending(g), "over": session.reply.get("over"),
           "board": session.edit.board(g)}
    if refused is not None:
        out["step"] = refused[0]
        out["refusal"] = session.edit.refusal(g, refused[2])
    return out


def expectations(settings, document: dict, decisions: list, edition: str | None) -> dict:
    """The reply of /api/expectations: what the board, once the decisions
    are played, allows a ruling to expect."""
    session, _steps, _refused, problems = played(settings, document, decisions, edition)
    if session is None:
        return {"ok": False, "problems": problems}
    return {"ok": True, "items": session.edit.expectations(session)}


# -- a ruling ---------------------------------------------------------------------------------------------


def _put(expect: dict, key: str, value) -> None:
    """`value` at `key` of an expectation: `players[1].life`, `events[3]`
    (appended to the list of patterns), `columns.0` (a mapping by player),
    `power[Dr. Orange U. Tan]` (a mapping by card name)."""
    parts = re.findall(r"\[[^\]]*\]|[^.\[\]]+", key)
    here = expect
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part.startswith("[") and not part[1:-1].isdigit():
            part = part[1:-1]               # a card's name
        if part.startswith("["):
            index = int(part[1:-1])
            if parts[i - 1] in ("events", "no_events"):
                here.append(value)          # each pattern ticked, in the order ticked
                return
            while len(here) <= index:
                here.append({})
            if last:
                here[index] = value
            here = here[index]
            continue
        name = int(part) if part.isdigit() else part
        if last:
            here[name] = value
        elif name not in here:
            here[name] = [] if re.fullmatch(r"\[\d+\]", parts[i + 1]) else {}
        here = here[name]


def ruling(settings, body) -> dict:
    """The ruling of a body: the document's position, its decisions as
    steps, the ticked expectations; run through the scenario runner in
    memory. {"yaml", "passes", "report": [...]}."""
    from ..scenarios.runner import run

    session, steps, refused, problems = played(settings, body.document, body.decisions, body.edition)
    if session is None:
        return {"yaml": "", "passes": False, "report": problems}
    if refused is not None and refused[0] != len(body.decisions) - 1:
        raise Refused("ILLEGAL_DECISION", f"decision {refused[0]} is refused and is not the last: a ruling's "
                                          "refused decision ends it", f"$.decisions[{refused[0]}]")
    items = {i["key"]: i["value"] for i in session.edit.expectations(session)}
    expect: dict = {}
    for n, key in enumerate(body.ticks):
        if key not in items:
            raise Refused("BAD_REQUEST", f"no expectation {key!r} on this board (/api/expectations lists them)",
                          f"$.ticks[{n}]")
        _put(expect, key, items[key])
    top = {"id": body.id, "title": body.title, "clauses": list(body.clauses),
           "source": body.source or {"kind": "team ruling", "ref": "set up on the board (mb-oracle board)"}}
    doc = session.edit.ruling(body.document, top, session, refused, expect)
    text = dump(doc)
    sf, problems = load_text(settings, text)
    if problems:
        return {"yaml": text, "passes": False, "report": problems}
    results = [run(sc, e) for sc in sf.scenarios for e in sc.editions()]
    return {"yaml": text, "passes": all(r.passed for r in results),
            "report": [r.to_json() for r in results]}
