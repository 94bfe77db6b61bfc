"""The ASGI app (Starlette): the websocket at ``/ws``, ``/healthz``, records and the lobby."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..explain import form_catalog, rules_catalog
from ..i18n import client_catalog, lang_of, text
from ..rules import PRESETS
from ..web import STATIC_DIR
from .clock import Clock, SystemClock
from .config import ServerConfig
from .conn import Bucket, Conn
from .hub import Hub
from .progress import WallClock
from .protocol import ProtocolError, error, parse
from .storage import open_storage
from .table import record_key
from .wsfast import direct_receiver, direct_sender

__all__ = ["SECURITY_HEADERS", "allowed_origins", "create_app", "origin_allowed"]

log = logging.getLogger("batak.server")


class RevalidatedStatic(StaticFiles):
    """The web client's files, which a browser must check again on each visit (a cheap 304 when
    unchanged), so that an upgraded server never runs next to yesterday's cached script."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def _origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower-cased, the default port left out (as browsers
    write an ``Origin``)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    netloc = parts.netloc.lower()
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return f"{scheme}://{netloc}" if scheme and netloc else ""


def allowed_origins(config: ServerConfig) -> frozenset[str]:
    """The origins a browser's websocket may come from: the server's public address
    (``--public-url``; without one, the loopback address printed at start, under any of the
    loopback names), and those given with ``--allow-origin``. Never the request's own ``Host``
    header, which a DNS-rebinding page controls."""
    out = {_origin_of(o) for o in config.allowed_origins if o != "*"}
    out.add(_origin_of(config.base_url))
    if not config.public_url:
        out.update(f"http://{name}:{config.port}" for name in LOOPBACK_NAMES)
    out.discard("")
    return frozenset(out)


def origin_allowed(origin: str | None, config: ServerConfig) -> bool:
    """Browsers send an Origin: it must be one of :func:`allowed_origins` (or the operator
    allowed every origin with ``--allow-origin '*'``)."""
    if origin is None:
        return True  # not a browser (the Python client, a bot): nothing to protect
    if "*" in config.allowed_origins:
        return True
    got = _origin_of(origin)
    return bool(got) and got in allowed_origins(config)


class OriginRefusals:
    """The operator's warning for a browser's websocket refused because of its ``Origin``
    (uvicorn logs only a bare 403, at ``info``, which the server leaves out since it names
    the client's address). A page of any site can open sockets without end, so: one line a
    minute for each origin, ten lines a minute in all; the next line says how many were
    refused without one."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.last: dict[str, float] = {}  # origin -> when its last line was written
        self.window = float("-inf")
        self.lines = 0  # lines written in the current minute
        self.unsaid = 0  # refusals with no line of their own since the last line

    def refused(self, origin: str) -> None:
        now = time.monotonic()
        if now - self.window >= 60:
            self.window, self.lines = now, 0
            self.last = {o: t for o, t in self.last.items() if now - t < 60}
        origin = origin[:200]
        if self.lines >= 10 or now - self.last.get(origin, float("-inf")) < 60:
            self.unsaid += 1
            return
        self.last[origin] = now
        self.lines += 1
        more = f" ({self.unsaid} more refused since the last such line)" if self.unsaid else ""
        self.unsaid = 0
        log.warning(
            "websocket refused (403): its Origin %r is not one this server allows (%s). If "
            "players reach the server at that address (a proxy, a load balancer, another name), "
            "start batak serve with --public-url set to it, or allow it with --allow-origin%s",
            origin,
            ", ".join(sorted(allowed_origins(self.config))) or "none",
            more,
        )


#: Headers on every HTTP answer. The web client keeps to the policy (a browser test checks that
#: it plays with no violation reported): its own files only, no inline script, no event handler
#: or style attribute, no framing by other pages, and only its own server to talk to.
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (websockets pass)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.raw = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.raw if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    config: ServerConfig, *, clock: Clock | None = None, wall: WallClock | None = None
) -> Starlette:
    """The server as an ASGI app; ``app.state.hub`` is the :class:`Hub` once started
    (``clock``: its monotonic time; ``wall``: the date the weekly league reads)."""
    storage = open_storage(
        config.database_url, sqlite_sync=config.sqlite_sync, commit_gap=config.commit_gap
    )
    hub = Hub(config, storage, clock or SystemClock(), wall)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    async def healthz(request: Request) -> Response:
        if not hub.ready:
            return JSONResponse({"ok": False, "ready": False}, status_code=503)
        body: dict[str, Any] = {
            "ok": True,
            # the tables in memory that are offered and played, and those kept aside to be
            # closed (Hub.unclosed: their close was refused, the reaper tries it again); a new
            # table is refused (busy) once the two together reach max_tables
            "tables": len(hub.tables),
            "closing": len(hub.unclosed),
            "connections": hub.connections,
            # the storage's jobs, the commits they took and how many of those waited for the
            # least time between commits (group commit: see storage.py)
            "storage": {
                "jobs": hub.storage.jobs,
                "commits": hub.storage.commits,
                "gap_waits": hub.storage.gap_waits,
            },
        }
        if hub.cluster is not None:  # which process of the cluster answered
            body["node"] = hub.cluster.node
            body["nodes"] = len(hub.cluster.alive)  # live nodes it knows of
            if hub.cluster.bus is not None:  # client messages sent to / taken from others
                body["forwarded"] = hub.cluster.bus.forwarded
                body["handled"] = hub.cluster.bus.handled
                body["bus"] = "up" if hub.cluster.bus.up else "down"  # Redis reached or not
        # the database can store moves, or not (PostgreSQL: it answers; SQLite: the storage's
        # worker reads it in time, and its last write did not fail for a full disk or a broken
        # file): without it no move can be stored, so the answer is then 503 and a monitor
        # says so, or a load balancer sends the players to another process
        database = await hub.storage.reachable()
        body["database"] = "up" if database else "down"
        if not database:
            body["ok"] = False
            return JSONResponse(body, status_code=503)
        return JSONResponse(body)

    async def index(request: Request) -> Response:
        """The web client: one page for the lobby, tables (``/table/ID``), invite links
        (``/join/CODE``) and the rules pages (``/rules/PRESET``); the script reads the path."""
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def service_worker(request: Request) -> Response:
        """The web client's service worker (static/sw.js), served at the root so that it may
        look after every page; revalidated on each visit like the client's other files."""
        return FileResponse(
            STATIC_DIR / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    # the rules catalog (every preset and option in every language), worked out when the
    # server starts: a few milliseconds, so that the first visitor's lobby has its tables'
    # titles at once; revalidated like the texts
    rules_body = json.dumps(rules_catalog(), ensure_ascii=False).encode("utf-8")
    rules_etag = '"' + hashlib.sha256(rules_body).hexdigest()[:32] + '"'

    async def rules_api(request: Request) -> Response:
        headers = {"Cache-Control": "no-cache", "ETag": rules_etag}
        if request.headers.get("if-none-match") == rules_etag:
            return Response(status_code=304, headers=headers)
        return Response(rules_body, media_type="application/json", headers=headers)

    # what the private-room form offers at a preset (?preset=NAME; without it, at every
    # preset), worked out on its first request in a thread (the engine tries every option:
    # a seventh to half a second a preset, seconds for all), which the web client makes only
    # when a player uses the form, so that a server nobody creates a room on never pays that,
    # and one that is asked goes on serving. Requests that come while it is worked out wait
    # for that one build; a build that fails is a 500 to those (the log has its error) and is
    # tried again on the next request
    forms: dict[str, asyncio.Task[dict[str, Any]]] = {}

    async def form_api(request: Request) -> Response:
        preset = request.query_params.get("preset")
        if preset is not None and preset not in PRESETS:
            return JSONResponse({"error": "no such preset"}, status_code=404)
        key = preset or ""
        if key not in forms:
            names = None if preset is None else [preset]
            forms[key] = asyncio.create_task(asyncio.to_thread(form_catalog, names))
        build = forms[key]
        try:
            return JSONResponse(await asyncio.shield(build))
        except Exception:
            if build.done() and forms.get(key) is build:
                del forms[key]
            raise

    texts_body = json.dumps(client_catalog("web."), ensure_ascii=False).encode("utf-8")
    texts_etag = '"' + hashlib.sha256(texts_body).hexdigest()[:32] + '"'

    async def texts_api(request: Request) -> Response:
        """The web client's texts in every language of the catalog; revalidated like the
        client's files (an ETag, so a browser's later visits cost a 304)."""
        headers = {"Cache-Control": "no-cache", "ETag": texts_etag}
        if request.headers.get("if-none-match") == texts_etag:
            return Response(status_code=304, headers=headers)
        return Response(texts_body, media_type="application/json", headers=headers)

    async def lobby(request: Request) -> Response:
        return JSONResponse(hub.lobby())

    async def record(request: Request) -> Response:
        table_id = str(request.path_params["table_id"])[:32]
        stored = await hub.storage.record_text(table_id)
        if stored is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        key = request.query_params.get("key", "")
        if stored.kind == "private" and not hmac.compare_digest(
            key, record_key(table_id, stored.seed)
        ):
            # kept to its players: the key comes in their sync (``record``)
            return JSONResponse({"error": "a private table's record"}, status_code=403)
        if stored.status != "over" or stored.record is None:
            return JSONResponse({"error": "the match is not over yet"}, status_code=409)
        # saved under its day and table, then its id: batak-2026-12-06-standard-t4e637e7942f9.json
        parts = [
            time.strftime("%Y-%m-%d", time.gmtime(stored.finished)) if stored.finished else "",
            re.sub(r"[^\w-]", "_", stored.preset, flags=re.ASCII),
            table_id,
        ]
        name = "-".join(["batak", *(p for p in parts if p)])
        return Response(  # the stored JSON text as it is: nothing to decode and encode again
            stored.record,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
        )

    async def leaderboard(request: Request) -> Response:
        return JSONResponse({"players": await hub.storage.leaderboard()})

    async def ratings(request: Request) -> Response:
        return JSONResponse({"players": await hub.progress.ratings()})

    async def known_player(request: Request) -> str | None:
        """The path's player id, or None when no player has it (the answer is then a 404)."""
        pid = str(request.path_params["player_id"])[:64]
        return pid if await hub.storage.player_by("id", pid) is not None else None

    async def progress(request: Request) -> Response:
        pid = await known_player(request)
        if pid is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        return JSONResponse(await hub.progress.of(pid))

    async def stats(request: Request) -> Response:
        pid = await known_player(request)
        if pid is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        return JSONResponse(await hub.storage.stats(pid))

    def reader_lang(request: Request) -> str:
        """``?lang=tr``: the language a tournament without a name is named in (English else)."""
        return lang_of(request.query_params.get("lang") or "en")

    async def tournaments(request: Request) -> Response:
        docs = await hub.storage.tournaments()
        lang = reader_lang(request)
        items = [
            hub.tournaments.public(hub.tournaments.docs.get(d["id"], d), lang, full=False)
            for d in docs
        ]
        return JSONResponse({"tournaments": items})

    async def tournament(request: Request) -> Response:
        tid = str(request.path_params["tid"])[:32]
        doc = hub.tournaments.docs.get(tid) or await hub.storage.tournament(tid)
        if doc is None:
            return JSONResponse({"error": "no such tournament"}, status_code=404)
        return JSONResponse(hub.tournaments.public(doc, reader_lang(request)))

    refusals = OriginRefusals(config)

    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, config):
            refusals.refused(str(origin))
            await websocket.close(code=1008, reason="origin not allowed")
            return
        await websocket.accept()
        await serve_socket(hub, config, websocket)

    async def not_found(request: Request, exc: Exception) -> Response:
        """A path the server has no page for: the web client, which says so in the reader's
        language with the way back to the lobby, still answered 404 (a bare English "Not
        Found" gave a player no way back). The API and the client's files answer in plain."""
        path = request.url.path
        if request.method in ("GET", "HEAD") and not path.startswith(("/api/", "/static/")):
            return FileResponse(
                STATIC_DIR / "index.html", status_code=404, headers={"Cache-Control": "no-cache"}
            )
        return PlainTextResponse("Not Found", status_code=404)

    app = Starlette(
        exception_handlers={404: not_found},
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            Route("/sw.js", service_worker),
            Route("/join/{code}", index),
            Route("/table/{table_id}", index),
            Route("/rules", index),
            Route("/rules/{preset}", index),
            Route("/api/rules", rules_api),
            Route("/api/rules/form", form_api),
            Route("/api/texts", texts_api),
            Mount("/static", RevalidatedStatic(directory=STATIC_DIR), name="static"),
            Route("/api/lobby", lobby),
            Route("/api/leaderboard", leaderboard),
            Route("/api/ratings", ratings),
            Route("/api/players/{player_id}/progress", progress),
            Route("/api/players/{player_id}/stats", stats),
            Route("/api/tables/{table_id}/record", record),
            Route("/api/tournaments", tournaments),
            Route("/api/tournaments/{tid}", tournament),
            Route("/tournaments", index),
            Route("/tournaments/{tid}", index),
            Route("/story", index),
            WebSocketRoute("/ws", ws_endpoint),
        ],
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.hub = hub
    return app


#: the close code of a websocket the server closes as it shuts down (uvicorn's)
SERVICE_RESTART = 1012


async def serve_socket(hub: Hub, config: ServerConfig, websocket: WebSocket) -> None:
    """Read one client's messages until it goes; refuse what is malformed, too big or too fast."""

    async def close(code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason)

    address = websocket.client.host if websocket.client else ""
    conn = Conn(
        websocket.send_text,
        close,
        queue_size=config.send_queue,
        address=address,
        direct=direct_sender(websocket.scope),
    )
    conn.start()
    hub.connections += 1
    bucket = Bucket(config.rate_per_second, config.rate_burst, time.monotonic())
    strikes = 0
    direct = direct_receiver(websocket.scope)
    # closed by the server's own shutdown (uvicorn's 1012, "service restart"): not a player's
    # connection dropping, and nothing of it is stored (Hub.disconnect)
    restart = False
    try:
        while True:
            message: Any
            if direct is not None:  # batak serve's protocol: no coroutine a message
                take, wait = direct
                message = take()
                while message is None:
                    await wait()
                    message = take()
            else:
                message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                websocket.client_state = WebSocketState.DISCONNECTED  # as receive() would
                restart = message.get("code") == SERVICE_RESTART
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not bucket.take(time.monotonic()):
                strikes += 1
                if strikes >= config.rate_strikes:
                    conn.send(error("rate_limited", text("server.rate_limited_bye", conn.lang)))
                    await conn.flush_and_close(1008, "rate limit")
                    break
                conn.send(error("rate_limited", text("server.rate_limited", conn.lang)))
                continue
            strikes = 0
            try:
                msg = parse(raw, config.max_message_bytes)
            except ProtocolError as e:
                conn.send(error(e.code, e.text(conn.lang), e.ref))
                continue
            try:
                await hub.handle(conn, msg)
            except Exception as e:
                hub.refused(conn, e, msg.get("ref"), msg.get("type"))
    except WebSocketDisconnect as e:
        restart = e.code == SERVICE_RESTART
    finally:
        hub.connections -= 1
        try:
            await hub.disconnect(conn, restart=restart)
        finally:
            await conn.finish()
