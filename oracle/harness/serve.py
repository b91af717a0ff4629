"""`mb-oracle serve`: the reference engines as a JSON Lines service
(mb-oracle-rpc/1, see spec/rpc.md).

One request per line on standard input, one response per line on standard
output, in order. A request the service cannot carry out gets an error
response naming the field at fault; no request stops the service, which
ends at the end of its input.

The service reads each line, checks its size and text, finds the game it is
about (a `new` naming one in `game`, a request on a game of it; else the
registry's default game), keeps the open games and their handles, and words
every error; each game reads and answers its requests through its registry
entry's SERVE.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import BinaryIO

import msgspec

from .. import games
from ..replay.limits import json_error, text_problem
from ..term import did_you_mean
from . import protocol as pr

_enc = msgspec.json.Encoder()
_generic = msgspec.json.Decoder()


class RequestError(Exception):
    def __init__(self, code: str, message: str, field: str | None = None, clause: str | None = None):
        super().__init__(message)
        self.view = pr.ErrorView(code, message, field, clause)
        self.rid = None


class Service:
    """The games of one session and the answer to each request."""

    def __init__(self, scenario_folders=(), card_files=()):
        self.games: dict = {}       # handle -> an open game (the entry of its game, with its `rules`)
        self.serial = 0
        self.others = 0             # open games of other games than the default one
        # The folders whose scenario files a `scenario` start may read (none: no such start),
        # and the card files (--cards) a scenario's `card_file` may name besides those under them.
        self.scenario_folders = tuple(str(f) for f in scenario_folders)
        self.card_files = tuple(str(f) for f in card_files)

    def handle(self, raw: bytes) -> bytes:
        """The response line (without newline) to one request line."""
        rid = None
        try:
            if len(raw) > pr.MAX_REQUEST_BYTES:
                raise RequestError("TOO_LARGE", f"the request is longer than {pr.MAX_REQUEST_BYTES} bytes")
            _check_text(raw)
            game, data = self._game_of(raw)
            part = _serving(game)
            req = part.read(self, raw, data)
            rid = req.id
            return part.answer(self, req)
        except RequestError as e:
            return _enc.encode(pr.ErrorReply(id=rid if rid is not None else e.rid, ok=False, error=e.view))
        except Exception as e:  # noqa: BLE001  (a bug must not stop the service)
            return _enc.encode(pr.ErrorReply(id=rid, ok=False, error=pr.ErrorView(
                "INTERNAL", f"the service failed on this request ({type(e).__name__}: {e}); please report it")))

    # -- games -----------------------------------------------------------------
    def add_game(self, entry) -> str:
        """A new handle for an open game (of any game of the registry)."""
        if len(self.games) >= pr.MAX_GAMES:
            raise RequestError("TOO_MANY_GAMES", f"{pr.MAX_GAMES} games are open; close some first")
        self.serial += 1
        gid = f"g{self.serial}"
        self.games[gid] = entry
        self.others += entry.rules != games.DEFAULT
        return gid

    def open_game(self, gid: str):
        entry = self.games.get(gid)
        if entry is None:
            raise RequestError("UNKNOWN_GAME", f"no open game {gid!r} (closed, or never opened)", "$.game")
        return entry

    def close_game(self, gid: str) -> None:
        entry = self.games.pop(gid)
        self.others -= entry.rules != games.DEFAULT

    def _game_of(self, raw: bytes) -> tuple[str, dict | None]:
        """The game of the registry a request is about (a `new` naming it in
        `game`, or a request on a game of it), with the request as plain
        JSON; the default game, without it, for any other request."""
        if b'"game"' not in raw or (not self.others and b'"new"' not in raw):
            return games.DEFAULT, None
        data = _lenient(raw)        # a number out of range too (`"seed": 1e400`), which is the game's to word
        if not isinstance(data, dict):
            return games.DEFAULT, None
        name = data.get("game")
        if data.get("op") == "new":
            if "game" not in data:
                return games.DEFAULT, None
            try:
                games.check(name if isinstance(name, str) else repr(name))
            except games.UnknownGame as e:
                err = RequestError("BAD_REQUEST", str(e), "$.game")
                err.rid = _request_id(raw)
                raise err from None
            return (games.DEFAULT, None) if name == games.DEFAULT else (name, data)
        entry = self.games.get(name) if isinstance(name, str) else None
        if entry is not None and entry.rules != games.DEFAULT:
            return entry.rules, data
        return games.DEFAULT, None


@lru_cache(maxsize=None)
def _serving(game: str):
    """The module that reads and answers a game's requests (its registry
    entry's SERVE): read(service, raw, data) -> request, answer(service,
    request) -> response line."""
    return importlib.import_module(games.entry(game).SERVE)


def card_file_problems(path: str) -> list[str]:
    """What keeps a card file of `serve --cards` from being read (the cards
    the default game declares): every problem, one a line, the last one the
    summary; none when it reads."""
    return _serving(games.DEFAULT).card_file_problems(path)


def _check_text(raw: bytes) -> None:
    """A request must be UTF-8 text whose arrays and objects nest at most
    MAX_DEPTH levels, as a replay line (oracle.replay.limits), checked
    before any decoding."""
    problem = text_problem(raw)
    if problem is not None:
        code, detail = problem
        raise RequestError(code, f"the request is not valid JSON: {detail}" if code == "BAD_JSON"
                           else f"the request is too deep: {detail}")


def _lenient(raw: bytes):
    """The request as plain data, a number out of range included (as a float,
    perhaps infinite); None when it is not JSON, or holds a lone surrogate
    escape (`"\\ud800"`: no text, and no response could write it)."""
    try:
        return _generic.decode(raw)
    except msgspec.DecodeError:
        pass
    import json

    try:
        data = json.loads(raw)   # numbers msgspec refuses, such as 1e400
        json.dumps(data, ensure_ascii=False).encode()    # UnicodeEncodeError (a ValueError) for a lone surrogate
    except (ValueError, RecursionError):
        return None
    return data


def _request_id(raw: bytes):
    """The request's `id`, read leniently so that even a bad request's error names it."""
    data = _lenient(raw)
    if isinstance(data, dict):
        rid = data.get("id")
        if rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
            return rid
    return None


def bad_request(message: str, raw: bytes, values: dict, structs, refine=None) -> RequestError:
    """A validation error as the service words it: the field, and the ops
    when the op is unknown; its `rid`, the request's id read leniently. A
    game gives its `values` (field -> what, the values it takes), its
    `structs` (the struct of the object at a path, as _field_names) and may
    `refine` the message and field (refine(message, field, data) -> both)."""
    field = None
    if " - at `" in message:
        message, _, at = message.rpartition(" - at `")
        field = at.rstrip("`")
        if field.startswith("key` in `"):       # a bad key of an object keyed by card id
            field = field[len("key` in `"):]
            message = f"{message} as a key (a card id)"
    data = _lenient(raw)
    if message.startswith("Number out of range"):
        message = "a number out of range" + (": the seed is a whole number (an integer such as 7)"
                                             if field == "$.seed" else "")
    if refine is not None:
        message, field = refine(message, field, data)
    err = _bad_request(message, field, data, values, structs, raw)
    err.rid = _request_id(raw)
    return err


def _bad_request(message: str, field: str | None, data, values: dict, structs, raw: bytes) -> RequestError:
    if data is None:
        return RequestError("BAD_JSON", f"the request is not a JSON object: {_not_json(raw)}")
    if not isinstance(data, dict):
        return RequestError("BAD_REQUEST", "a request is a JSON object with an `op`", "$")
    if "op" not in data:
        return RequestError("BAD_REQUEST", f"the request has no `op` (one of {', '.join(pr.OPS)})", "$.op")
    if data.get("op") not in pr.OPS:
        return RequestError("UNKNOWN_OP", f"unknown op {data.get('op')!r}; ops: {', '.join(pr.OPS)}", "$.op")
    if data.get("rpc", pr.RPC) != pr.RPC:
        return RequestError("BAD_VERSION", f"this service speaks {pr.RPC}, not {data.get('rpc')!r}", "$.rpc")
    return RequestError("BAD_REQUEST", *_in_words(message, field, data, values, structs))


def _not_json(raw: bytes) -> str:
    """What keeps `raw` from being JSON, where msgspec refused a value of it
    before reading it all: its words, Python's past a number out of range, or
    the lone surrogate escape Python's reader lets through."""
    try:
        _generic.decode(raw)
    except msgspec.DecodeError as e:
        if not str(e).startswith("Number out of range"):
            return json_error(raw, e)
    import json

    try:
        json.loads(raw)
    except ValueError as e:
        return str(e)
    return "a \\u escape is half of a UTF-16 surrogate pair, not a character"


def _in_words(message: str, field: str | None, data: dict, values: dict, structs) -> tuple[str, str | None]:
    """msgspec's validation message in the service's words: an unknown value
    or field with the nearest valid one and the list of them; a missing
    field named with its op."""
    quoted = message.split("`")[1] if message.count("`") >= 2 else "?"
    if message.startswith("Object contains unknown field"):
        field = f"{field}.{quoted}" if field else f"$.{quoted}"
        names = _field_names(structs(field.rpartition(".")[0], data))
        return (f"unknown field {quoted!r} for op {data['op']!r}{did_you_mean(quoted, names)}"
                + (f"; fields: {', '.join(names)}" if names else "")), field
    if message.startswith("Object missing required field"):
        whose = f"op {data['op']!r}" if not field else f"the {field.rpartition('.')[2]}"
        field = f"{field}.{quoted}" if field else f"$.{quoted}"
        what, known = values.get(field, (None, ()))
        return (f"{whose} needs the field {quoted!r}"
                + (f" (the {what}: {', '.join(known)})" if known else "")), field
    if field not in values:
        return message, field
    what, known = values[field]
    if message.startswith(("Invalid enum value", "Invalid value")):
        value = message.partition(" value ")[2]
        word = value.strip("'") if value.startswith("'") else value
        return f"unknown {what} {value}{did_you_mean(word, known)}; {what}s: {', '.join(known)}", field
    return f"{message}; {what}s: {', '.join(known)}", field


def _field_names(struct) -> tuple[str, ...]:
    """The fields an object of `struct` may have (none without a struct)."""
    if struct is None:
        return ()
    tag = struct.__struct_config__.tag_field
    return tuple(f.encode_name for f in msgspec.structs.fields(struct) if f.encode_name not in (tag, "op"))


def serve(inp: BinaryIO, out: BinaryIO, scenario_folders=(), card_files=()) -> None:
    """Answer every request line of `inp` on `out` until the input ends;
    a `scenario` start reads only under `scenario_folders` (and `card_files`)."""
    svc = Service(scenario_folders, card_files)
    while True:
        raw = inp.readline(pr.MAX_REQUEST_BYTES + 1)
        if not raw:
            break
        if len(raw) > pr.MAX_REQUEST_BYTES and not raw.endswith(b"\n"):
            while True:     # skip the rest of an over-long line
                more = inp.readline(pr.MAX_REQUEST_BYTES)
                if not more or more.endswith(b"\n"):
                    break
        line = raw.strip()
        if not line:
            continue
        out.write(svc.handle(line) + b"\n")
        out.flush()
