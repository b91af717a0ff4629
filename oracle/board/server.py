"""The board's web application (Starlette): the page, and the JSON API the
page calls (spec/board.md).

Safe by construction: the server answers only requests whose Host is
127.0.0.1 or localhost at its own port (a page of another site that a DNS
name points here gets 400), every /api/ request carries the token printed
with the URL (403 without it), a body is at most 1 MiB (413) and read as
the struct of its route (an unknown field refused and named), a client
making more than RATE requests a second gets 429, and files are read and
written only under the folders named on the command line (oracle.board.files).
Every error is `{"ok": false, "error": {code, message, field?}}`; a failure
of the server itself is 500 `INTERNAL` naming the request, never a traceback.
"""

from __future__ import annotations

import hmac
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ..term import json_encode_visible
from . import bodies, files, logs, play

PAGE = Path(__file__).parent / "page"
RATE = 50                       # requests a second a client may make
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8"}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass
class Settings:
    """What the command line gave the server: its token, the port it
    answers at (set once bound: port 0 binds any free one), the card
    files, the scenario folders and the replay log it may read (and the
    game of it the page opens first)."""

    token: str
    port: int = 0
    card_files: tuple[str, ...] = ()
    scenario_dirs: tuple[str, ...] = ()
    log_file: str | None = None
    log_start: dict | None = None                    # {game, step}: the log's game the page opens first
    page_dir: Path = PAGE
    rate: int = RATE
    clock: object = time.monotonic
    recent: dict = field(default_factory=dict)       # client -> times of its requests in the last second


class ApiError(Exception):
    """A request the API refuses: its HTTP status, code, message and field."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


def _json(data, status: int = 200) -> Response:
    # A file name that is not UTF-8 (a lone surrogate, as os.fsdecode gives it)
    # is sent as the text `visible` writes for it: UTF-8 cannot encode it.
    return Response(json_encode_visible(msgspec.json.encode, data), status, media_type="application/json",
                    headers=HEADERS)


def _error(status: int, code: str, message: str, field: str | None = None) -> Response:
    err = {"code": code, "message": message}
    if field is not None:
        err["field"] = field
    return _json({"ok": False, "error": err}, status)


def _host_ok(settings: Settings, host: str | None) -> bool:
    return host in (f"127.0.0.1:{settings.port}", f"localhost:{settings.port}")


def _too_often(settings: Settings, client: str) -> bool:
    """Whether `client` has made more than `rate` requests in the last second."""
    now = settings.clock()
    times = settings.recent.setdefault(client, deque())
    while times and now - times[0] >= 1.0:
        times.popleft()
    if len(times) >= settings.rate:
        return True
    times.append(now)
    return False


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) beyond MAX_BODY_BYTES without reading more."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > bodies.MAX_BODY_BYTES:
        raise ApiError(413, "TOO_LARGE", f"the body is longer than {bodies.MAX_BODY_BYTES} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > bodies.MAX_BODY_BYTES:
            raise ApiError(413, "TOO_LARGE", f"the body is longer than {bodies.MAX_BODY_BYTES} bytes")
    return bytes(raw)


def _query(request: Request, name: str, required: bool = True) -> str | None:
    value = request.query_params.get(name)
    if value is None and required:
        raise ApiError(400, "BAD_REQUEST", f"the query needs `{name}`", f"?{name}")
    return value


def _game(request: Request) -> str:
    try:
        return play.checked_game(_query(request, "game"))
    except ValueError as e:
        raise ApiError(400, "BAD_REQUEST", str(e), "?game") from None


def build_app(settings: Settings) -> Starlette:
    """The application for `settings`."""

    def guarded(handler, api: bool = True, body=None):
        """`handler` behind the checks, in order: the Host, the rate, the
        token (`api`), the body read as the struct `body`; its refusals
        answered as errors."""
        async def endpoint(request: Request) -> Response:
            if not _host_ok(settings, request.headers.get("host")):
                return _error(400, "BAD_HOST", "this server answers only at 127.0.0.1 or localhost, at its own port")
            client = request.client.host if request.client else "?"
            if _too_often(settings, client):
                return _error(429, "TOO_MANY_REQUESTS", f"more than {settings.rate} requests a second; wait a moment")
            token = request.headers.get("x-board-token") or request.query_params.get("token") or ""
            if api and not hmac.compare_digest(token.encode(), settings.token.encode()):
                return _error(403, "BAD_TOKEN", "a wrong or missing token: open the URL `mb-oracle board` printed")
            try:
                if body is not None:
                    try:
                        parsed = bodies.read(await _body(request), body)
                    except bodies.BodyError as e:
                        raise ApiError(400, "BAD_REQUEST", e.message, e.field) from None
                    return await handler(request, parsed)
                return await handler(request)
            except ApiError as e:
                return _error(e.status, e.code, e.message, e.field)
            except play.Refused as e:
                return _error(400, e.code, e.message, e.field)
            except files.FileRefused as e:
                return _error(e.status, e.code, e.message, e.field)
            except Exception as e:  # noqa: BLE001  (a bug answers this request, the server goes on)
                return _error(500, "INTERNAL", f"the server failed on {request.method} {request.url.path} "
                                               f"({type(e).__name__}); please report it")
        return endpoint

    async def page(request: Request) -> Response:
        return _static(settings.page_dir, "board.html")

    async def asset(request: Request) -> Response:
        return _static(settings.page_dir, request.path_params["name"])

    async def game_script(request: Request) -> Response:
        game = request.path_params["game"].removesuffix(".js")
        try:
            path = play.script(play.checked_game(game))
        except ValueError as e:
            raise ApiError(404, "NOT_FOUND", str(e)) from None
        return _file(path)

    async def hello(request: Request) -> Response:
        return _json({"games": play.hello(settings.card_files), "scenarios": bool(settings.scenario_dirs),
                      "log": logs.summary(settings.log_file, settings.log_start)})

    async def cards(request: Request) -> Response:
        game = _game(request)
        sets = _query(request, "sets", required=False)
        names = [s for s in sets.split(",") if s] if sets else None
        return _json({"cards": play.cards(game, names, settings.card_files)})

    async def clauses(request: Request) -> Response:
        return _json({"clauses": play.clauses(_game(request))})

    async def check(request: Request, body: bodies.Check) -> Response:
        problems = play.check(settings, body.document)
        return _json({"ok": not problems, "problems": problems})

    async def run(request: Request, body: bodies.Play) -> Response:
        return _json(play.play(settings, body.document, body.decisions, body.edition))

    async def expectations(request: Request, body: bodies.Play) -> Response:
        return _json(play.expectations(settings, body.document, body.decisions, body.edition))

    async def ruling(request: Request, body: bodies.Ruling) -> Response:
        return _json(play.ruling(settings, body))

    async def save(request: Request, body: bodies.Save) -> Response:
        return _json(files.save(settings, body, play.ruling(settings, body)))

    async def scenarios(request: Request) -> Response:
        return _json({"files": files.listing(settings)})

    async def scenario(request: Request) -> Response:
        return _json(files.scenario(settings, _query(request, "file"), _query(request, "id")))

    async def log(request: Request) -> Response:
        step = _query(request, "step", required=False) or "0"
        if not step.isdigit():
            raise ApiError(400, "BAD_REQUEST", "`step` is a whole number", "?step")
        return _json(logs.position(settings.log_file, _query(request, "game"), int(step)))

    routes = [
        Route("/", guarded(page, api=False)),
        Route("/page/{name:str}", guarded(asset, api=False)),
        Route("/games/{game:str}", guarded(game_script, api=False)),
        Route("/api/hello", guarded(hello)),
        Route("/api/cards", guarded(cards)),
        Route("/api/clauses", guarded(clauses)),
        Route("/api/check", guarded(check, body=bodies.Check), methods=["POST"]),
        Route("/api/play", guarded(run, body=bodies.Play), methods=["POST"]),
        Route("/api/expectations", guarded(expectations, body=bodies.Play), methods=["POST"]),
        Route("/api/ruling", guarded(ruling, body=bodies.Ruling), methods=["POST"]),
        Route("/api/save", guarded(save, body=bodies.Save), methods=["POST"]),
        Route("/api/scenarios", guarded(scenarios)),
        Route("/api/scenario", guarded(scenario)),
        Route("/api/log", guarded(log)),
    ]

    async def unknown(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        what = "no such page or request" if status == 404 else f"{request.method} is not taken here"
        return _error(status, "NOT_FOUND" if status == 404 else "BAD_METHOD", f"{what}: {request.url.path}")

    return Starlette(routes=routes, exception_handlers={404: unknown, 405: unknown})


def _static(folder: Path, name: str) -> Response:
    """A file of the page's folder, by its plain name (no folder, no dot first)."""
    if "/" in name or "\\" in name or name.startswith(".") or Path(name).suffix not in TYPES:
        return _error(404, "NOT_FOUND", f"no page file {name!r}")
    return _file(folder / name)


def _file(path: Path) -> Response:
    if not path.is_file():
        return _error(404, "NOT_FOUND", f"no page file {path.name!r}")
    return FileResponse(path, media_type=TYPES.get(path.suffix, "text/plain; charset=utf-8"), headers=HEADERS)
