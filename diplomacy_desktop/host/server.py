"""The table host's HTTP and WebSocket server: the phone page, a JSON API, live updates.

Built on aiohttp: an asyncio server with WebSockets built in and a test client, maintained
(aio-libs), pure Python wheels for every platform we ship; it needs no Qt, so ``serve`` runs
without a display and the window can run the very same server.  ``HostServer`` runs it on its
own thread with its own event loop, so a Qt window never waits for a phone.

What a phone does (every API request carries its power's token in the ``X-Token`` header):

    GET  /t/TOKEN            the phone page (404 for an unknown token)
    GET  /                   the table page: join with a power's PIN
    GET  /static/NAME        the page's own files (a fixed list: nothing else is served)
    GET  /map.svg            the map art
    GET  /api/state          the public board and my powers' orders, seals, notes
    GET  /api/options        the engine's legal options for my units
    GET  /api/results?index=N  an adjudicated phase as the phone draws it (public; none: the latest)
    GET  /api/board          the spaces' and powers' full names (public)
    POST /api/order          {"power", "phase", "text", "replace"?} typed, or {"power", "phase", "order"} tapped
    POST /api/clear          {"power", "phase", "key"}
    POST /api/seal           {"power", "phase", "pin"?}      /api/unseal the same
    POST /api/declare        {"power", "phase", "declarations": {other: relation}}
    POST /api/note           {"power", "to": [power, ...], "text"}
    POST /api/join           {"power", "pin"} -> {"token"}    (no token needed; rate-limited)
    GET  /ws                 WebSocket: send {"token": TOKEN} (or {"spectator": true}); the server
                             answers with the state and sends it again whenever it changes

Mutations carry the phase they were written for: a replay from an earlier phase is refused
(409) and changes nothing.  Bodies over ``MAX_BODY`` bytes get 413, malformed JSON 400.

A hostile device on the table's Wi-Fi (issue 20) is shrugged off:

* ``Host`` must name the laptop: the address the connection came in on, or one of the
  laptop's own names and addresses (421 otherwise: a DNS-rebinding page gets nothing);
* ``Origin``, when a browser sends one (it always does for a POST and a WebSocket), must be
  the host's own (403): a page on another site cannot join, guess PINs or open a socket;
* a POST body must be ``application/json`` (415): no "simple" cross-site form post;
* JSON nested deeper than ``MAX_DEPTH`` is refused (400) before it is parsed;
* a connection whose request headers are not complete within ``HEADER_TIMEOUT`` seconds is
  closed, one client (one address) holds at most ``MAX_CONNECTIONS_PER_CLIENT`` connections at
  once and the server ``MAX_CONNECTIONS``, and the open-files limit is raised at start;
* a phone's token always gets through (issue 31): when every connection slot is taken, a new
  connection takes the place of the oldest one that has not shown a valid token (one still
  sending its headers, a socket that has not said who it is);
* token-less spectators have a budget of their own, outside the seats' slots:
  ``MAX_SPECTATORS`` in all, ``MAX_SPECTATORS_PER_CLIENT`` per address, and one that says nothing
  for ``SPECTATOR_IDLE`` seconds is let go (a spectator keeps its place by sending any message);
* every call into the game runs off the event loop (a busy window never holds the phones).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import ipaddress
import json
import logging
import socket
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from ..resources import map_file
from ..table.changes import TableChange
from ..table.pins import HASHES_IN_FLIGHT
from .table import (ComputerSeatError, HostError, NotYoursError, SaveFailedError, TableHost, TooManyAttemptsError,
                    UnknownTokenError)

PAGE_DIR = Path(__file__).resolve().parent / "page"
#: the page's files, by the name the URL uses; nothing else is ever read from disk
PAGE_FILES = {"phone.js": "text/javascript", "phone.css": "text/css", "index.html": "text/html"}
MAX_BODY = 16 * 1024
#: JSON deeper than this is refused before it is parsed (the API's deepest object is 3 levels)
MAX_DEPTH = 16
#: seconds a connection has to finish its request headers
HEADER_TIMEOUT = 10.0
MAX_CONNECTIONS_PER_CLIENT = 24
MAX_CONNECTIONS = 512
#: token-less spectators' own budget: never taken from the seats' connections
MAX_SPECTATORS = 32
MAX_SPECTATORS_PER_CLIENT = 4
#: seconds a spectator may say nothing before it is let go
SPECTATOR_IDLE = 300.0
TOKEN_HEADER = "X-Token"
#: the requests that succeed only with a valid token (or, the join, a right PIN): a connection
#: that made one is a seat's, never cut to make room (the phone page, ``/t/TOKEN``, too)
SEAT_PATHS = frozenset({"/api/state", "/api/options", "/api/order", "/api/clear", "/api/seal", "/api/unseal",
                        "/api/declare", "/api/note", "/api/join"})
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "connect-src 'self'; frame-ancestors 'none'",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
T = TypeVar("T")


def _error(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays or objects deeper than ``limit`` (strings skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def parse_json_text(text: str) -> Any:
    """JSON from a phone: ValueError for anything malformed or nested too deep."""
    if too_deep(text):
        raise ValueError(f"the request nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError("the request is not JSON") from None


def unsavable_text(data: Any) -> str | None:
    """Why ``data`` holds text the save cannot hold (a lone UTF-16 surrogate: half of an emoji),
    or None: such text is refused at the door, never saved (it would make the saved game
    unreadable)."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return ("the text cannot be saved: it holds half of a character (half of an emoji, cut in two); "
                "write it again")
    return None


def own_names(bound: str = "") -> set[str]:
    """The laptop's own names and addresses (lower case), as a ``Host`` header may give them."""
    names = {"localhost", "127.0.0.1", "::1"}
    if bound and bound not in ("", "0.0.0.0", "::"):
        names.add(bound.lower())
    try:
        host = socket.gethostname()
        names |= {host.lower(), f"{host.lower()}.local", socket.getfqdn().lower()}
        for info in socket.getaddrinfo(host, None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, nothing is sent
            names.add(str(s.getsockname()[0]))
        except OSError:
            pass
    return names


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def own_networks(bound: str, adapters: Any = None) -> list[Network] | None:
    """The networks a device may join from when the table listens on ``bound``: the network of
    the interface that has that address (and the laptop itself); None when it listens on every
    interface (chosen, and said so: anyone who reaches the laptop may try).  An operating system
    takes a packet for any of its addresses on any interface (Linux does), so listening on the
    Wi-Fi's address alone still let a device on another network (a second card, a VPN, a
    hotspot) reach the table (red team, issue 31).  ``adapters``: ``ifaddr.get_adapters()``."""
    if bound in ("", "0.0.0.0", "::"):
        return None
    try:
        address = ipaddress.ip_address(bound)
    except ValueError:
        return None  # a name: what it resolves to is the operating system's (serve --host NAME)
    if address.is_loopback:
        return [ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128")]
    nets: list[Network] = [ipaddress.ip_network(address)]
    if adapters is None:
        try:
            import ifaddr

            adapters = ifaddr.get_adapters()
        except (ImportError, OSError):
            adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            raw = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                if ipaddress.ip_address(raw) == address:
                    nets.append(ipaddress.ip_network(f"{raw}/{ip.network_prefix}", strict=False))
            except ValueError:
                continue
    return nets


def _peer_refused(request: web.Request, networks: list[Network] | None) -> web.Response | None:
    if networks is None:
        return None
    try:
        peer = ipaddress.ip_address((request.remote or "").split("%", 1)[0])
    except ValueError:
        peer = None
    if peer is not None and any(peer in net for net in networks if net.version == peer.version):
        return None
    shown = ", ".join(str(n) for n in networks if n.prefixlen < n.max_prefixlen) or str(networks[0])
    return _error(403, f"this table is hosted on {shown}: a device on another network may not use it")


def host_part(host: str) -> str:
    """``"192.168.1.5:8642"`` -> ``"192.168.1.5"``; ``"[fe80::1]:80"`` -> ``"fe80::1"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def _same_address(a: str, b: str) -> bool:
    try:
        return ipaddress.ip_address(a) == ipaddress.ip_address(b)
    except ValueError:
        return a == b


def _refusal(request: web.Request, names: set[str]) -> web.Response | None:
    """The door: a foreign ``Host``, a foreign ``Origin``, a POST that is not JSON."""
    # no Host header at all is refused too (aiohttp would stand the socket's own address in)
    host = host_part(request.headers.get("Host", ""))
    sock = request.transport.get_extra_info("sockname") if request.transport is not None else None
    local = str(sock[0]).lower() if sock else ""
    if not host or not (host in names or (local and _same_address(host, local))):
        return _error(421, "this host serves the table's own address only")
    origin = request.headers.get("Origin")
    upgrading = request.headers.get("Upgrade", "").lower() == "websocket"
    if origin is not None and (request.method not in ("GET", "HEAD") or upgrading):
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or (parts.netloc or "").lower() != (request.host or "").lower():
            return _error(403, "a page from another site may not use the table")
    if request.method == "POST" and request.content_type != "application/json":
        return _error(415, "send JSON (Content-Type: application/json)")
    return None


def _guard_for(names: set[str], app: HostApp | None = None) -> Any:
    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = _peer_refused(request, app.networks if app is not None else None) or _refusal(request, names)
        if refused is not None:
            for k, v in SECURITY_HEADERS.items():
                refused.headers.setdefault(k, v)
            return refused
        return await _guard(request, handler)

    return guard


async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Host errors become JSON with their status; every answer gets the security headers."""
    try:
        response = await handler(request)
    except TooManyAttemptsError as exc:
        response = _error(exc.status, str(exc), retry_after=round(exc.retry_after, 1))
        response.headers["Retry-After"] = str(int(exc.retry_after) + 1)
    except HostError as exc:
        response = _error(exc.status, str(exc))
    except web.HTTPRequestEntityTooLarge:
        response = _error(413, f"the request is too large (at most {MAX_BODY} bytes)")
    except web.HTTPException as exc:
        if exc.status >= 400:
            response = _error(exc.status, exc.reason)
        else:
            raise
    if not isinstance(response, web.WebSocketResponse) and not response.prepared:
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
    if response.status < 400 and (request.path in SEAT_PATHS or request.path.startswith("/t/")):
        conn = _connection(request)
        if conn is not None:
            conn.seat()
    return response


#: the page's files gzipped once, by their hash (a few files, read again only when they change)
_GZIPPED: dict[str, bytes] = {}


def _cached(request: web.Request, body: bytes, kind: str) -> web.Response:
    """A page file as a phone should get it: named by its hash (ETag), answered 304 when the
    phone already holds it, gzipped when the phone takes gzip (the map is 245 KB, 75 KB gzipped).
    ``no-cache`` keeps a copy on the phone but asks the host each time, so a changed file is
    never stale."""
    tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    asked = {t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")}
    if tag in asked:
        return web.Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        packed = _GZIPPED.get(tag)
        if packed is None:
            packed = _GZIPPED[tag] = gzip.compress(body, compresslevel=9, mtime=0)
        headers["Content-Encoding"] = "gzip"
        body = packed
    return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)


class _Client:
    """One WebSocket: a phone (a token) or a spectator (no token).  A change marks it dirty;
    its sender sends the latest state, so a burst of changes sends one state, in order."""

    def __init__(self, ws: web.WebSocketResponse, token: str | None) -> None:
        self.ws = ws
        self.token = token
        self.powers: frozenset[str] = frozenset()
        self.dirty = asyncio.Event()


class HostApp:
    """The aiohttp application over one ``TableHost`` (runs on one event loop)."""

    def __init__(self, host: TableHost, address: str = "") -> None:
        self.host = host
        self.clients: set[_Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._writer: asyncio.Future[None] | None = None
        #: each request's own change version (see ``_run`` and ``_saved``)
        self._change_versions: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
        self.names = own_names(address)
        #: where a device may join from (``own_networks``): the chosen interface's network
        self.networks = own_networks(address)
        #: seconds a token-less spectator may say nothing before it is let go
        self.spectator_idle = SPECTATOR_IDLE
        self._join_pool = ThreadPoolExecutor(max_workers=HASHES_IN_FLIGHT, thread_name_prefix="table-join")
        self.app = web.Application(client_max_size=MAX_BODY, middlewares=[_guard_for(self.names, self)])
        r = self.app.router
        r.add_get("/", self.table_page)
        r.add_get("/t/{token}", self.phone_page)
        r.add_get("/static/{name}", self.static)
        r.add_get("/map.svg", self.map_svg)
        r.add_get("/api/state", self.state)
        r.add_get("/api/public", self.public)
        r.add_get("/api/options", self.options)
        r.add_get("/api/results", self.results)
        r.add_get("/api/board", self.board_names)
        r.add_post("/api/order", self.order)
        r.add_post("/api/clear", self.clear)
        r.add_post("/api/seal", self.seal)
        r.add_post("/api/unseal", self.unseal)
        r.add_post("/api/declare", self.declare)
        r.add_post("/api/note", self.note)
        r.add_post("/api/join", self.join)
        r.add_get("/ws", self.websocket)
        self.app.on_startup.append(self._started)
        self.app.on_shutdown.append(self._closing)

    # -- life ------------------------------------------------------------------------------------

    async def _started(self, _app: web.Application) -> None:
        self.loop = asyncio.get_running_loop()
        self.host.deferred_saves = True
        self.host.add_listener(self._on_change, on_disk=True)  # the phones hear only what is on disk
        self.host.add_listener(self._on_any_change)

    async def _saved(self, out: dict[str, Any], *, durable: bool = True) -> web.Response:
        """Answer only once the change is saved (written off the event loop: the other phones'
        requests go on meanwhile, and one write may cover several of them); ``durable``: synced
        to the disk too (seals and declarations; order drafts and notes are not)."""
        assert self.loop is not None
        # the version right after this request's own change (taken on the thread that made it: a
        # write that failed meanwhile, taking other changes back, must not hide this one's fate)
        task = asyncio.current_task()
        version = self._change_versions.pop(task, None) if task is not None else None
        if version is None:
            version = self.host.version
        await self.loop.run_in_executor(None, partial(self.host.flush, durable=durable, version=version))
        return web.json_response(out)

    def _on_any_change(self, _change: TableChange) -> None:
        """A change not made through a request (the console, a test): written soon all the same."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._write_soon)

    def _write_soon(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())

    async def _write(self) -> None:
        assert self.loop is not None
        while True:
            try:
                await self.loop.run_in_executor(None, partial(self.host.flush, durable=False))
            except SaveFailedError:
                return  # taken back; whoever asked for the change hears it from its own flush
            # a change made while that write ran (its text was taken before) found this writer
            # busy and asked for no write of its own: written now, or the phones never hear it
            if not getattr(self.host, "unsaved", False):
                return

    async def _closing(self, _app: web.Application) -> None:
        self.host.remove_listener(self._on_change)
        self.host.remove_listener(self._on_any_change)
        with contextlib.suppress(SaveFailedError):  # taken back; ``serve`` says so when it stops (save_failures)
            self.host.flush()
        self.host.deferred_saves = False
        for client in list(self.clients):
            await client.ws.close(code=1001, message=b"the host stopped")

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """A call into the game, off the event loop: a slow one (the window busy, a PIN's KDF)
        never holds the other phones."""
        loop = asyncio.get_running_loop()

        take = getattr(self.host, "take_change_version", None)

        def call() -> tuple[T, int | None]:
            if take is not None:
                take()
            out = fn(*args)
            return out, (take() if take is not None else None)

        out, version = await loop.run_in_executor(None, call)
        task = asyncio.current_task()
        if version is not None and task is not None:
            self._change_versions[task] = version  # read by _saved in the same request
        return out

    def _on_change(self, change: TableChange) -> None:
        """Called by the host (on whatever thread changed it): mark the clients to refresh."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._mark, change)

    def _mark(self, change: TableChange) -> None:
        for client in self.clients:
            if change.powers is None or client.powers & change.powers:
                client.dirty.set()

    # -- pages -----------------------------------------------------------------------------------

    def _file(self, name: str, request: web.Request) -> web.Response:
        kind = PAGE_FILES.get(name)
        if kind is None:
            raise web.HTTPNotFound(reason="no such file")
        return _cached(request, (PAGE_DIR / name).read_bytes(), kind)

    async def table_page(self, request: web.Request) -> web.Response:
        return self._file("index.html", request)

    async def phone_page(self, request: web.Request) -> web.Response:
        await self._run(self.host.powers_of, request.match_info["token"])  # UnknownTokenError: 404
        return self._file("index.html", request)

    async def static(self, request: web.Request) -> web.Response:
        return self._file(request.match_info["name"], request)

    async def map_svg(self, request: web.Request) -> web.Response:
        board = self.host.game.board
        path = map_file(board.name, f"{board.name}.svg")
        return _cached(request, path.read_bytes(), "image/svg+xml")

    # -- the API ---------------------------------------------------------------------------------

    @staticmethod
    def _token(request: web.Request) -> str:
        token = request.headers.get(TOKEN_HEADER, "")
        if not token:
            raise NotYoursError("no token: open your join link again")
        return token

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        raw = await request.read()
        try:
            data = parse_json_text(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise HostError("the request is not JSON") from None
        except ValueError as exc:
            raise HostError(str(exc)) from None
        if not isinstance(data, dict):
            raise HostError("the request is not a JSON object")
        problem = unsavable_text(data)
        if problem:
            raise HostError(problem)
        return data

    @staticmethod
    def _text(data: dict[str, Any], key: str, *, required: bool = True) -> str:
        value = data.get(key)
        if value is None and not required:
            return ""
        if not isinstance(value, str):
            raise HostError(f"{key!r} must be text")
        return value

    async def _on_disk(self) -> None:
        """Before a phone reads the game: changes not yet written (the console's ``reveal``, a
        write still running) are written first, so that no phone sees what a kill would take back."""
        assert self.loop is not None
        if getattr(self.host, "unsaved", False):
            with contextlib.suppress(SaveFailedError):  # taken back: the phone reads what the disk holds
                await self.loop.run_in_executor(None, partial(self.host.flush, durable=False))

    async def state(self, request: web.Request) -> web.Response:
        token = self._token(request)
        await self._on_disk()
        return web.json_response(await self._run(self.host.state_for, token))

    async def public(self, _request: web.Request) -> web.Response:
        await self._on_disk()
        return web.json_response(await self._run(self.host.public_state))

    async def options(self, request: web.Request) -> web.Response:
        token = self._token(request)
        await self._on_disk()
        return web.json_response(await self._run(self.host.options_for, token))

    async def results(self, request: web.Request) -> web.Response:
        raw = request.query.get("index", "")
        if raw and not (raw.isdigit() and len(raw) < 6):
            raise HostError("'index' is the number of an adjudicated phase")
        return web.json_response({"results": self.host.results_at(int(raw) if raw else None)})

    async def board_names(self, _request: web.Request) -> web.Response:
        return web.json_response(self.host.board_names())

    async def order(self, request: web.Request) -> web.Response:
        token = self._token(request)
        data = await self._body(request)
        power, phase = self._text(data, "power"), self._text(data, "phase")
        if "text" in data:
            out = await self._run(partial(self.host.set_order_text, replace=data.get("replace") is True),
                                  token, power, phase, self._text(data, "text"))
        elif isinstance(data.get("order"), dict):
            out = await self._run(self.host.set_order, token, power, phase, data["order"])
        else:
            raise HostError("send an order: 'text' or 'order'")
        return await self._saved(out, durable=False)

    async def clear(self, request: web.Request) -> web.Response:
        token = self._token(request)
        data = await self._body(request)
        return await self._saved(await self._run(self.host.clear_order, token, self._text(data, "power"),
                                                 self._text(data, "phase"), self._text(data, "key")), durable=False)

    async def seal(self, request: web.Request) -> web.Response:
        return await self._sealing(request, self.host.seal)

    async def unseal(self, request: web.Request) -> web.Response:
        return await self._sealing(request, self.host.unseal)

    async def _sealing(self, request: web.Request, op: Callable[..., Any]) -> web.Response:
        """Seal or unseal (``op``): the power, the phase and, where the table asks for it, the PIN."""
        token = self._token(request)
        data = await self._body(request)
        pin = self._text(data, "pin", required=False) or None
        return await self._saved(await self._run(op, token, self._text(data, "power"), self._text(data, "phase"), pin))

    async def declare(self, request: web.Request) -> web.Response:
        token = self._token(request)
        data = await self._body(request)
        said = data.get("declarations")
        if not isinstance(said, dict):
            raise HostError("'declarations' must be an object of power: relation")
        return await self._saved(await self._run(self.host.declare, token, self._text(data, "power"),
                                                 self._text(data, "phase"), said))

    async def note(self, request: web.Request) -> web.Response:
        token = self._token(request)
        data = await self._body(request)
        to = data.get("to")
        if not isinstance(to, list) or not all(isinstance(p, str) for p in to) or len(to) > 50:
            raise HostError("'to' must be a list of powers")
        return await self._saved(await self._run(self.host.send_note, token, self._text(data, "power"), to,
                                                 self._text(data, "text")), durable=False)

    async def join(self, request: web.Request) -> web.Response:
        data = await self._body(request)
        client = request.remote or ""
        # on threads of their own (issue 31): guesses waiting for the table's hash budget never
        # hold the threads every phone's state and orders go through
        assert self.loop is not None
        token = await self.loop.run_in_executor(self._join_pool, self.host.join, self._text(data, "power"),
                                                self._text(data, "pin"), client)
        await self._run(self.host.flush)
        return web.json_response({"token": token, "url": f"/t/{token}"})

    # -- live updates ------------------------------------------------------------------------------

    def _message(self, client: _Client) -> dict[str, Any]:
        if client.token is None:
            return {"type": "state", "state": self.host.public_state()}
        return {"type": "state", "state": self.host.state_for(client.token)}

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=4096)
        await ws.prepare(request)
        try:
            hello = await ws.receive(timeout=10.0)
        except TimeoutError:
            await ws.close(code=4000, message=b"say who you are")
            return ws
        if hello.type == WSMsgType.TEXT and too_deep(str(hello.data)):
            await ws.send_json({"type": "error", "error": f"the hello nests deeper than {MAX_DEPTH} levels"})
            await ws.close(code=4000, message=b"malformed hello")
            return ws
        client = await self._run(self._hello, ws, hello)
        if client is not None and client.token is not None:
            await self._run(self.host.phone_seen, client.token, request.remote or "")
        if client is None:
            await ws.send_json({"type": "error", "error": "this link is not (or no longer) valid: ask the host"})
            await ws.close(code=4004, message=b"unknown token")
            return ws
        conn = _connection(request)
        if conn is not None and client.token is not None:
            conn.seat()
        elif conn is not None and not conn.spectate():
            await ws.send_json({"type": "error", "error": "too many spectators: try again later"})
            await ws.close(code=4029, message=b"too many spectators")
            return ws
        self.clients.add(client)
        client.dirty.set()  # catch up at once
        sender = asyncio.create_task(self._send_loop(client))
        try:
            await self._listen(ws, None if client.token is not None else self.spectator_idle)
        finally:
            self.clients.discard(client)
            sender.cancel()
        return ws

    @staticmethod
    async def _listen(ws: web.WebSocketResponse, idle: float | None) -> None:
        """Wait for the socket to go: a phone says nothing more; a spectator that says nothing
        for ``idle`` seconds is let go (its place in the spectators' budget freed)."""
        while True:
            try:
                msg = await ws.receive(timeout=idle)
            except TimeoutError:
                await ws.close(code=4008, message=b"idle spectator")
                return
            if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return

    def _hello(self, ws: web.WebSocketResponse, msg: Any) -> _Client | None:
        if msg.type != WSMsgType.TEXT:
            return None
        try:
            data = parse_json_text(str(msg.data))
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        if data.get("spectator") is True:
            return _Client(ws, None)
        token = data.get("token")
        if not isinstance(token, str):
            return None
        try:
            powers = self.host.powers_of(token)
        except UnknownTokenError:
            return None
        client = _Client(ws, token)
        client.powers = frozenset(powers)
        return client

    async def _send_loop(self, client: _Client) -> None:
        while not client.ws.closed:
            await client.dirty.wait()
            client.dirty.clear()
            try:
                message = await self._run(self._message, client)
            except UnknownTokenError as exc:  # kicked, or the seat handed to the computer
                error = str(exc) if isinstance(exc, ComputerSeatError) else "the host has cut this phone off"
                await client.ws.send_json({"type": "kicked", "error": error})
                await client.ws.close(code=4003, message=b"kicked")
                return
            try:
                await client.ws.send_json(message)
            except (ConnectionError, RuntimeError):
                return


class _Gate:
    """How many connections each client (address) holds, and the server in all; the spectators'
    own budget beside them.  A connection is a seat once it has shown a valid token; when every
    slot is taken, a newcomer takes the place of the oldest connection that is not (yet) one."""

    def __init__(self, per_client: int = MAX_CONNECTIONS_PER_CLIENT, total: int = MAX_CONNECTIONS,
                 spectators: int = MAX_SPECTATORS, spectators_per_client: int = MAX_SPECTATORS_PER_CLIENT) -> None:
        self.per_client, self.total = per_client, total
        self.spectators, self.spectators_per_client = spectators, spectators_per_client
        #: the seats' slots (every connection but a spectator's), by address
        self.open: dict[str, int] = {}
        #: the spectators' sockets, by address
        self.watching: dict[str, int] = {}
        #: the connections in the seats' slots that have shown no token, oldest first
        self.unproven: dict[_GuardedProtocol, None] = {}

    def admit(self, conn: _GuardedProtocol) -> bool:
        client = conn.client
        if self.open.get(client, 0) >= self.per_client:
            return False
        if sum(self.open.values()) >= self.total:
            if not self.unproven:
                return False
            next(iter(self.unproven)).cut()  # the oldest unproven connection makes room
        self.open[client] = self.open.get(client, 0) + 1
        self.unproven[conn] = None
        conn.pool = "seats"
        return True

    def seat(self, conn: _GuardedProtocol) -> None:
        """``conn`` has shown a valid token: it is never cut to make room."""
        if conn.pool == "seats":
            self.unproven.pop(conn, None)

    def spectate(self, conn: _GuardedProtocol) -> bool:
        """Move ``conn`` from the seats' slots to the spectators' budget; False when that is spent."""
        if conn.pool != "seats":
            return conn.pool == "spectators"
        client = conn.client
        if (self.watching.get(client, 0) >= self.spectators_per_client
                or sum(self.watching.values()) >= self.spectators):
            return False
        _drop(self.open, client)
        self.unproven.pop(conn, None)
        self.watching[client] = self.watching.get(client, 0) + 1
        conn.pool = "spectators"
        return True

    def release(self, conn: _GuardedProtocol) -> None:
        if conn.pool == "seats":
            _drop(self.open, conn.client)
            self.unproven.pop(conn, None)
        elif conn.pool == "spectators":
            _drop(self.watching, conn.client)
        conn.pool = None


def _drop(counts: dict[str, int], client: str) -> None:
    n = counts.get(client, 0) - 1
    if n > 0:
        counts[client] = n
    else:
        counts.pop(client, None)


class _GuardedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the gate and the header clock: a client
    over its share is cut at once, and a connection whose first request headers have not ended
    within ``HEADER_TIMEOUT`` seconds is closed (later requests on it are aiohttp's keep-alive's)."""

    def __init__(self, inner: asyncio.Protocol, gate: _Gate, timeout: float) -> None:
        self.inner: asyncio.Protocol | None = inner
        self.gate = gate
        self.timeout = timeout
        self.client = "?"
        #: which of the gate's budgets this connection counts in ("seats", "spectators"), None: none
        self.pool: str | None = None
        self.transport: asyncio.BaseTransport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.client = str(peer[0]) if peer else "?"
        if not self.gate.admit(self):
            self.inner = None
            transport.abort()  # type: ignore[attr-defined]
            return
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(self.timeout, self._too_slow)
        assert self.inner is not None
        self.inner.connection_made(transport)

    def seat(self) -> None:
        self.gate.seat(self)

    def spectate(self) -> bool:
        return self.gate.spectate(self)

    def cut(self) -> None:
        """Closed to make room: its place is free at once."""
        self.gate.release(self)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()  # type: ignore[attr-defined]

    def _too_slow(self) -> None:
        self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.timer is not None:
            self.tail = (self.tail + data)[-(len(data) + 3):]
            if b"\r\n\r\n" in self.tail:
                self.timer.cancel()
                self.timer, self.tail = None, b""
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.gate.release(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)


def _connection(request: web.Request) -> _GuardedProtocol | None:
    """The gate's record of the connection ``request`` came on (None outside ``HostServer``)."""
    transport = request.transport
    protocol = transport.get_protocol() if transport is not None else None
    return protocol if isinstance(protocol, _GuardedProtocol) else None


class _OneLine(logging.Filter):
    """aiohttp's log of a request it could not handle, in one line without a traceback when the
    client is at fault (malformed HTTP: a bad Content-Length, too many headers) or went away
    mid-request; anything else is logged as aiohttp logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        from aiohttp.http_exceptions import HttpProcessingError

        peer = record.getMessage().rpartition(" from ")[2] if " from " in record.getMessage() else "?"
        if isinstance(exc, HttpProcessingError):
            what = " ".join(str(exc.message).split()).split(" b'")[0].rstrip(":")
            record.msg, record.args = "Refused a malformed request from %s: %s (%s)", (peer, what, exc.code)
        elif isinstance(exc, (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError)):
            record.msg, record.args = "A phone hung up mid-request (%s)", (peer,)
        else:
            return True
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


_ONE_LINE = _OneLine()


def quiet_client_errors() -> None:
    """Install the one-line log of clients' faults on aiohttp's server logger (once)."""
    log = logging.getLogger("aiohttp.server")
    if _ONE_LINE not in log.filters:
        log.addFilter(_ONE_LINE)


def raise_open_files_limit(want: int = 8192) -> None:
    """Raise this process's open-files limit towards ``want`` (as far as the hard limit lets):
    many phones, and a few hostile connections, must not run the host out of files."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass


class HostServer:
    """The server on its own thread and event loop: ``start`` binds (and raises if it cannot),
    ``stop`` closes every connection and unbinds."""

    def __init__(self, host: TableHost, address: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.address = address
        self.port = port
        self.app = HostApp(host, address)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.base_events.Server | None = None
        self.gate = _Gate()
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 30.0) -> None:
        if self.running:
            return
        raise_open_files_limit()
        quiet_client_errors()
        self._ready.clear()
        self._error = None
        # the store's sqlite3 is loaded at its first use (io.gamestore); load it here, before a
        # second thread may use it at the same time (Python 3.11's lazy modules take no lock)
        from ..io.gamestore import sqlite3

        sqlite3.connect  # noqa: B018  (an attribute read loads the module)
        self._thread = threading.Thread(target=self._run, name="table-host", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError("the table host did not start")
        if self._error is not None:
            self._thread.join(5.0)
            self._thread = None
            raise self._error

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._bind())
        except BaseException as exc:  # noqa: BLE001 - handed to start(), which raises it
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _bind(self) -> None:
        runner = web.AppRunner(self.app.app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                               keepalive_timeout=HEADER_TIMEOUT)
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        gate = self.gate

        def protocol() -> asyncio.Protocol:
            return _GuardedProtocol(handlers(), gate, HEADER_TIMEOUT)

        loop = asyncio.get_running_loop()
        try:
            listener = await loop.create_server(protocol, self.address or None, self.port, reuse_address=True,
                                                backlog=128)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner, self._listener = runner, listener
        sockets: tuple[socket.socket, ...] = tuple(listener.sockets or ())
        if sockets:  # the bound port when 0 was asked for
            self.port = int(sockets[0].getsockname()[1])

    def stop(self, timeout: float = 10.0) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return

        async def shutdown() -> None:
            if self._listener is not None:
                self._listener.close()
            if self._runner is not None:
                await self._runner.cleanup()
            loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), loop)
        thread.join(timeout)
        self._thread = None

    @property
    def base_url(self) -> str:
        return f"http://{self.address}:{self.port}"
