"""Runs in the server process.

The web door's aiohttp server: the name page, the play page, the files it loads, and a websocket
per tab that is a game session exactly as an SSH channel is. A guest's tab is named by the name typed
(``/ws/NAME``); a browser signed in with a code from the SSH lobby (``POST /sign-in``, ``sign_in.py``)
opens ``/ws``, and is the key's player by its cookie alone, checked in the store (``POST /sign-out``
forgets it on both sides); an address that has its cookie checked faster than a browser does is answered 429
(a tab: one line), with no work in the store.

A page with the screen-reader choice (its box ticked, or ``?screen-reader=1``, or a key that keeps the game in lines)
opens its websocket under ``/screen-reader`` (``/screen-reader/ws/NAME``, ``/screen-reader/ws``): that tab's session
asks for the command ``screen-reader`` instead of a shell, exactly as ``ssh -t HOST screen-reader`` does, and gets the
game in lines.

A websocket, a sign-in and a sign-out are accepted only from the page's own origin (the
``--public-url``'s, else the address the door listens on and the names its owner gives, never the
Host a request says: ``origins.py``), and a page is served only at those: another site's page
cannot open one in a visitor's name, nor sign a visitor in or out. Before its game
starts, a tab holds an unstarted place at the gate, as an SSH connection logging in does; it must
send its terminal's size within the login timeout. Its messages are read at most
``MESSAGE_RATE`` a second (past a burst, the server stops reading, and the browser waits), each
at most ``MAX_MESSAGE`` bytes; the bytes typed pay the session's input budget and resizes its
request budget, as over SSH; a message ``textual.js`` never sends ends the session with one line.
Every TCP connection, a page's or a websocket's, holds a place at the gate from its first byte and has
deadlines for its headers, its body and its idle time (``connections.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import Awaitable, Callable

from aiohttp import WSMsgType, web

from ...link.child_config import SCREEN_READER_COMMAND
from ...rules.wording import minutes
from ..admin.ban_watch import BanWatch
from ..admin.bans import REFUSED_LINE
from ..config import WebDoor
from ..gate import TokenBucket, Unstarted
from ..open_files import OpenFiles
from ..sessions.game_session import GameSession, SessionServices
from ..storage import StorageError
from .browser_messages import MAX_MESSAGE, Focus, Ping, Resize, Stdin, WebMessageError, pong, read_message
from .channel import WebChannel
from .connections import KEEPALIVE_TIMEOUT, LINGERING_TIME, WebConnections
from .origins import EVERY_ADDRESS, PageOrigins
from .page import (
    CODE_INPUT_LIMIT,
    LINES_PAGE,
    LINES_SOCKET_PREFIX,
    NAME_INPUT_LIMIT,
    StaticFile,
    load_static_files,
    name_page,
    play_page,
    public_origin,
    screen_reader_asked,
    security_headers,
    signed_in_page,
)
from .sign_in import CHECK_WINDOW, SignedIn, SignedInTabs, SignInDesk, TooManyChecks
from .visitor import WebVisitor

log = logging.getLogger("soluna.server")

#: Messages a second one tab's are read at, and how many at once.
MESSAGE_RATE, MESSAGE_BURST = 200, 400
#: The terminal a browser's xterm.js is.
BROWSER_TERM = "xterm-256color"
#: The one line for a tab that sent what the page never sends.
GARBAGE = "Closed: this page sent the server something it does not understand; reload the page to play again."
#: What a channel request costs the session's budget: a resize, as an SSH window change.
RESIZE_REQUEST = "window-change"
#: The one line for a tab opened as signed in by a browser that is not (any more).
NOT_SIGNED_IN = "This browser is not signed in (any more): reload the page to play as a guest, or sign in with a code."
NO_STORE = "The server cannot reach its database right now: try again in a moment."
#: The answer to a request for a host the page is not at (a DNS-rebinding page's name, say).
NOT_HERE = "Soluna is not served under this name here (its owner may add names with --web-host-name)."


class WebDoorServer:
    """``start()`` listens; ``close()`` stops listening (the sessions are the server's to end)."""

    def __init__(self, settings: WebDoor, services: SessionServices, bans: BanWatch,
                 next_number: Callable[[], int], open_files: OpenFiles | None = None) -> None:
        self.settings = settings
        #: The process's bound on open files, shared with the SSH door.
        self.open_files = open_files or OpenFiles(log)
        self.services = services
        self.bans = bans
        self.next_number = next_number
        self.public = public_origin(settings.public_url) if settings.public_url else None
        store = services.lobby.store
        self.desk = SignInDesk(store, secure=(self.public or "").startswith("https://"))
        self.signed_in_tabs = SignedInTabs(store, lambda: list(self.visitors), self.desk.forget_verdicts)
        self.files: dict[str, StaticFile] = {}
        #: Where the page is its own (known once the door listens, its port picked).
        self.origins: PageOrigins | None = None
        self.visitors: set[WebVisitor] = set()
        self._closing: set[asyncio.Task[bool]] = set()
        self._runner: web.AppRunner | None = None
        #: Every TCP connection, counted at the gate from its first byte (``connections.py``).
        self._connections: WebConnections | None = None

    @property
    def sessions(self) -> list[GameSession]:
        return [visitor.session for visitor in self.visitors if visitor.session is not None]

    @property
    def port(self) -> int:
        """The port listened on (the one asked for, or the one picked for 0)."""
        if self._connections is None:
            raise RuntimeError("the web door is not open")
        return self._connections.port

    async def start(self) -> None:
        self.files = load_static_files()
        connections = WebConnections(self.services.gate, self.open_files, self._make_handler, self._trusted)
        app = web.Application(middlewares=[connections.deadline, self._headers], client_max_size=4096)
        app.on_response_prepare.append(_unnamed)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{file}", self._static)
        app.router.add_post("/sign-in", self._sign_in)
        app.router.add_post("/sign-out", self._sign_out)
        app.router.add_get("/ws", self._signed_in_websocket)
        app.router.add_get("/ws/{name}", self._guest_websocket)
        app.router.add_get(f"{LINES_SOCKET_PREFIX}/ws", self._signed_in_websocket)
        app.router.add_get(f"{LINES_SOCKET_PREFIX}/ws/{{name}}", self._guest_websocket)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, keepalive_timeout=KEEPALIVE_TIMEOUT,
                                     lingering_time=LINGERING_TIME)
        await self._runner.setup()
        try:
            await connections.listen(self.settings.host, self.settings.port)
        except BaseException:
            await self._runner.cleanup()
            raise
        self._connections = connections
        self.origins = PageOrigins.of(self.public, self.settings.host, self.settings.host_names)
        self.signed_in_tabs.start()
        log.info("web door open on http://%s:%d%s", self.settings.host, self.port,
                 f" (public URL {self.public})" if self.public else "")

    def page_address(self, reached: str) -> str:
        """The page's address as a code's link names it: the public URL, else the address and port the web door
        listens on (the one the player's SSH connection ``reached``, where it listens on every address)."""
        if self.public is not None:
            return self.public
        host = reached if self.settings.host in EVERY_ADDRESS else self.settings.host
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}"

    def _make_handler(self) -> asyncio.Protocol:
        """aiohttp's protocol for a connection the gate has let in."""
        assert self._runner is not None and self._runner.server is not None
        return self._runner.server()

    async def stop_listening(self) -> None:
        """No new tab is let in (the tabs open play on until the server ends them)."""
        if self._connections is not None:
            self._connections.stop()

    async def close(self) -> None:
        await self.signed_in_tabs.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._connections is not None:
            self._connections.close()

    def shut_out(self, banned: Callable[[str, str | None], str | None]) -> None:
        """Every tab whose address or key the new ban list bans (``banned`` says why, or ``None``) is closed with one
        line."""
        for visitor in list(self.visitors):
            why = banned(visitor.address, visitor.fingerprint)
            if why is not None:
                visitor.shut_out(why)

    def _close_soon(self, socket: web.WebSocketResponse) -> None:
        """Close a websocket from a callback (the task is kept until it is done)."""
        if not socket.closed:
            task = asyncio.get_running_loop().create_task(socket.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    # ---- the page and its files ----------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        origin = self._own_origin(request)
        try:
            response = await handler(request)
        except web.HTTPException as error:
            error.headers.update(security_headers(origin))
            raise
        if not response.prepared:
            response.headers.update(security_headers(origin))
        return response

    def _own_origin(self, request: web.Request) -> str | None:
        """The page's origin at the host this request asked for; ``None``: the page is not at that host."""
        return self.origins.origin(request.host) if self.origins is not None else None

    def _origin(self, request: web.Request, same: bool = False) -> str:
        """The page's origin (``same``: the request must come from a page of it, as its Origin header says)."""
        origin = self._own_origin(request)
        if origin is None:
            raise web.HTTPMisdirectedRequest(text=NOT_HERE)
        if same and request.headers.get("Origin") != origin:
            raise web.HTTPForbidden(text="Sign in and out from this game's own page.")
        return origin

    async def _page(self, request: web.Request) -> web.Response:
        """A signed-in browser's game; else the page asking a name or a code (``?code=``: filled in, not used); in
        lines for a screen reader where the address asks (``?screen-reader=1``)."""
        origin = self._origin(request)
        lines = screen_reader_asked(request.query)
        try:
            signed_in = await self.desk.signed_in(request, self._client(request)[0])
            if signed_in is not None:
                known = await self.services.lobby.store.players.get(signed_in.fingerprint)
                kept = await self._lines_kept(signed_in.fingerprint)
                response = _html(signed_in_page(origin, known.name if known is not None else signed_in.name,
                                                lines or kept, kept))
                token = self.desk.token(request)
                assert token is not None
                self.desk.keep(response, token)  # its whole life again from now
                return response
        except StorageError:
            return _html(name_page(error=NO_STORE, lines=lines))
        except TooManyChecks as error:
            raise _too_many(error) from None
        stale = self.desk.token(request) is not None
        code = request.query.get("code", "")[:CODE_INPUT_LIMIT]
        name = " ".join(request.query.get("name", "").split())
        if not name or code:
            response = _html(name_page(code=code, notice="This browser was signed out." if stale else "",
                                       lines=lines))
        elif len(name) > NAME_INPUT_LIMIT:
            response = _html(name_page(name[:NAME_INPUT_LIMIT], f"A name is at most {NAME_INPUT_LIMIT} letters.",
                                       lines=lines))
        else:
            response = _html(play_page(origin, name, lines))
        if stale:
            self.desk.forget(response)
        return response

    async def _lines_kept(self, fingerprint: str) -> bool:
        """Whether the key keeps the game in lines for every visit (its session will start in lines, asked or not:
        ``GameSession``), so its page is in lines too."""
        choices = await self.services.lobby.choices.of_key(fingerprint)
        return choices is not None and choices.screen_reader

    async def _sign_in(self, request: web.Request) -> web.Response:
        """A code typed on the page: the browser signed in (its cookie, and back to the page), or why not."""
        self._origin(request, same=True)
        form = await request.post()
        typed = str(form.get("code", ""))[:CODE_INPUT_LIMIT]
        lines = screen_reader_asked({key: str(value) for key, value in form.items()})
        address, _ = self._client(request)
        if self.bans.bans.ban_for(address) is not None:
            return _html(name_page(code=typed, code_error=REFUSED_LINE, lines=lines), status=403)
        try:
            result = await self.desk.redeem(typed, address, request.headers.get("User-Agent", ""))
            if isinstance(result, SignedIn):
                await self.desk.sign_out(request)  # the browser's sign-in before this one, if any, is gone
        except StorageError:
            return _html(name_page(code=typed, code_error=NO_STORE, lines=lines))
        if not isinstance(result, SignedIn):
            return _html(name_page(code=typed, code_error=result, lines=lines), status=403)
        response = web.Response(status=303, headers={"Location": LINES_PAGE if lines else "/",
                                                     "Cache-Control": "no-store"})
        self.desk.keep(response, result.token)
        return response

    async def _sign_out(self, request: web.Request) -> web.Response:
        """The browser signs out: its sign-in gone from the store (its tabs closed everywhere), its cookie forgotten."""
        self._origin(request, same=True)
        try:
            self.desk.allow_check(self._client(request)[0])
            await self.desk.sign_out(request)
        except TooManyChecks as error:
            raise _too_many(error) from None
        except StorageError:
            return _html(name_page(error=NO_STORE))
        response = web.Response(status=303, headers={"Location": "/", "Cache-Control": "no-store"})
        self.desk.forget(response)
        return response

    async def _static(self, request: web.Request) -> web.Response:
        found = self.files.get(request.match_info["file"])
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(body=found.body, content_type=found.content_type.split(";")[0],
                            charset="utf-8" if "charset" in found.content_type else None,
                            headers={"Cache-Control": "public, max-age=86400"})

    # ---- the websocket: a game session ---------------------------------------------------------

    def _client(self, request: web.Request) -> tuple[str, int]:
        """The player's address: the peer's, or the one a trusted reverse proxy forwards (its last hop)."""
        peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        address, port = (str(peer[0]), int(peer[1])) if peer else ("?", 0)
        forwarded = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip()
        if forwarded and self._trusted(address):
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(forwarded)), 0
        return address, port

    def _trusted(self, address: str) -> bool:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(parsed in network for network in self.settings.proxy_from)

    async def _guest_websocket(self, request: web.Request) -> web.StreamResponse:
        """A guest's tab, named by the name typed."""
        name = " ".join(request.match_info["name"].split())
        return await self._websocket(request, name)

    async def _signed_in_websocket(self, request: web.Request) -> web.StreamResponse:
        """A signed-in browser's tab: who it is comes from its cookie alone, checked in the store."""
        return await self._websocket(request, None)

    async def _websocket(self, request: web.Request, name: str | None) -> web.StreamResponse:
        """A tab's game: a guest's under ``name``, or (``None``) the player its browser is signed in as; in lines
        where its address starts with ``LINES_SOCKET_PREFIX`` (the page's screen-reader choice)."""
        address, port = self._client(request)
        origin = self._own_origin(request)
        if origin is None or request.headers.get("Origin") != origin:
            self.services.refusals.info("web connection from %s:%d refused: Origin %r is not this server's (%s)",
                                        address, port, request.headers.get("Origin", "")[:80], origin)
            raise web.HTTPForbidden(text="This game is played from its own page.")
        if name is not None and (not name or len(name) > NAME_INPUT_LIMIT):
            raise web.HTTPBadRequest(text=f"A name is 1 to {NAME_INPUT_LIMIT} letters.")
        socket = web.WebSocketResponse(heartbeat=self.services.config.limits.keepalive_interval,
                                       max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        visitor = WebVisitor(address, port, name or "guest", request.headers.get("User-Agent", ""),
                             self.services.gate, self.services.refusals, lambda: self._close_soon(socket))
        if not await self._let_in(socket, visitor):
            return socket
        try:
            if name is not None or await self._signed_in(socket, visitor, request):
                await self._play(socket, visitor, request.path.startswith(f"{LINES_SOCKET_PREFIX}/"))
        finally:
            visitor.release()
            self.visitors.discard(visitor)
        return socket

    async def _let_in(self, socket: web.WebSocketResponse, visitor: WebVisitor) -> bool:
        """The tab has a place at the gate (else it is told why not, and closed)."""
        address, port = visitor.address, visitor.port
        ban = self.bans.bans.ban_for(address)
        if ban is not None:
            self.services.refusals.info("web connection from %s:%d refused: banned by line %d of the ban list (%s)",
                                        address, port, ban.line, ban)
            await _last_line(socket, REFUSED_LINE)
            return False
        admission = self.services.gate.admit_connection(address, visitor)
        if admission.refusal is not None:
            self.services.refusals.info("web connection from %s:%d refused: %s", address, port, admission.refusal)
            await _last_line(socket, admission.refusal)
            return False
        visitor.admitted = True
        self.visitors.add(visitor)
        if isinstance(admission.evicted, Unstarted):  # an SSH connection or a browser tab
            admission.evicted.make_room()
        self.services.gate.logged_in(address, visitor)
        return True

    async def _signed_in(self, socket: web.WebSocketResponse, visitor: WebVisitor, request: web.Request) -> bool:
        """The tab is the player its browser's cookie signs it in as (seen now, from its address); else it is told
        why not, and closed. Asked once the tab has its place at the gate: a flood pays the gate, not the store."""
        try:
            signed_in = await self.desk.signed_in(request, visitor.address)
            if signed_in is not None and not await self.desk.store.browsers.seen([signed_in.id], visitor.address):
                signed_in = None
        except TooManyChecks as error:
            visitor.closing_reason = "its address asks too often whether it is signed in"
            await _last_line(socket, str(error))
            return False
        except StorageError:
            visitor.closing_reason = "the store was unreachable to check its sign-in"
            await _last_line(socket, NO_STORE)
            return False
        if signed_in is None:
            visitor.closing_reason = "not signed in"
            await _last_line(socket, NOT_SIGNED_IN)
            return False
        visitor.sign_in_as(signed_in)
        ban = self.bans.bans.ban_for(visitor.address, signed_in.fingerprint)
        if ban is not None:
            visitor.closing_reason = f"its key is banned by line {ban.line} of the ban list ({ban})"
            await _last_line(socket, REFUSED_LINE)
            return False
        return True

    async def _play(self, socket: web.WebSocketResponse, visitor: WebVisitor, lines: bool) -> None:
        """The tab's game: started once the page says its terminal's size, played until either side ends it; in
        ``lines``, asked for as an SSH client asks: the command ``screen-reader`` instead of a shell."""
        timeout = self.services.config.limits.login_timeout
        size = await _first_size(socket, timeout)
        if isinstance(size, WebMessageError):
            visitor.closing_reason = f"a bad websocket message ({size})"
            await _last_line(socket, GARBAGE)
            return
        if size is None:
            visitor.closing_reason = visitor.closing_reason or f"no terminal size within {timeout:.0f} s, or not a " \
                                                                 "resize first"
            await _last_line(socket, f"Closed: the page did not start a game within {minutes(timeout)}; "
                                     "reload it to play.")
            return
        session = GameSession(visitor, self.services, self.next_number())
        channel = WebChannel(socket, session)
        visitor.session, visitor.channel = session, channel
        sender = asyncio.get_running_loop().create_task(channel.run())
        session.connection_made(channel)
        session.pty_requested(BROWSER_TERM, (size.columns, size.lines, 0, 0), None)
        if lines:
            session.exec_requested(SCREEN_READER_COMMAND)
        else:
            session.shell_requested()
        session.session_started()
        try:
            await self._read(socket, session, channel)
        finally:
            session.connection_lost(None)
            if session.task is not None:
                await asyncio.shield(session.task)
            channel.exit(0)
            await sender

    async def _read(self, socket: web.WebSocketResponse, session: GameSession, channel: WebChannel) -> None:
        """The tab's messages to its session, paced, until the websocket closes."""
        budget = TokenBucket(MESSAGE_RATE, MESSAGE_BURST)
        while True:
            await channel.reading.wait()
            message = await socket.receive()
            if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                return  # closed, closing, or broken
            if not budget.take():
                await asyncio.sleep(-budget.tokens / budget.rate)  # read no faster than the rate
            if session.ending.requested:
                continue  # the last line is on its way; the close follows
            try:
                if message.type is not WSMsgType.TEXT:
                    raise WebMessageError("a binary message")
                parsed = read_message(message.data)
            except WebMessageError as error:
                session.request_end(f"a bad websocket message ({error})", GARBAGE)
                continue
            if isinstance(parsed, Stdin):
                session.data_received(parsed.data, None)
            elif isinstance(parsed, Resize):
                if session.request_allowed(RESIZE_REQUEST, 16):
                    session.terminal_size_changed(parsed.columns, parsed.lines, 0, 0)
            elif isinstance(parsed, Ping):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await socket.send_str(pong(parsed))
            elif isinstance(parsed, Focus):
                pass  # the app is told nothing: a terminal's focus reports are the child's to ask for


async def _first_size(socket: web.WebSocketResponse, timeout: float) -> Resize | WebMessageError | None:
    """The page's first message, its terminal's size, within ``timeout`` seconds (else ``None``; a message the page
    never sends: why it is none)."""
    try:
        message = await socket.receive(timeout)
    except TimeoutError:
        return None
    if message.type is not WSMsgType.TEXT:
        return None
    try:
        parsed = read_message(message.data)
    except WebMessageError as error:
        return error
    return parsed if isinstance(parsed, Resize) else None


async def _last_line(socket: web.WebSocketResponse, line: str) -> None:
    """One line on the page's terminal, and the websocket closed."""
    with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
        async with asyncio.timeout(5):
            await socket.send_bytes(f"\r\n{line}\r\n".encode())
            await socket.close()


async def _unnamed(request: web.Request, response: web.StreamResponse) -> None:
    """No answer names the server's software and its versions."""
    response.headers.pop("Server", None)


def _too_many(error: TooManyChecks) -> web.HTTPTooManyRequests:
    """429 and the one line: the address asks about its cookie too often (no work was done in the store)."""
    return web.HTTPTooManyRequests(text=str(error), headers={"Retry-After": str(int(CHECK_WINDOW))})


def _html(page: str, status: int = 200) -> web.Response:
    return web.Response(text=page, status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-store"})
