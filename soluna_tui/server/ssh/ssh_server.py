"""Runs in the server process.

The SSH server: one asyncssh listener, one ``SolunaConnection`` per client, the lobby, the children.

Only interactive game sessions are offered: no shell, no command but ``screen-reader`` (the game
in lines, for a screen reader), no subsystem (so no SFTP), no SCP, no port, agent or X11 forwarding. Anyone may log in
without a prompt (keyboard-interactive with zero prompts); a client that offers
a public key is recognised by its fingerprint when it comes back.

Over a limit a client gets one line ("Server full", "Slow down", "Server busy") and a clean
disconnect. A connection refused by the gate is kept until it tries to log in: then it is sent
the line as a banner (OpenSSH prints it) and as the disconnect's reason, and closed while it
waits for an answer, so the close cannot reset the connection before the line is read. Only a
few are kept so at once; a flood past them, or past twice its rate, is dropped without a word.

A connection that has not started a game holds an unstarted place, never a game's (``gate``);
it must start a game within the login timeout or it is closed, and it may hold only a few
session channels at once. Every connection refused or closed without a game gets one log line,
at most a few a second under a flood.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from typing import TYPE_CHECKING, Any

from ... import __version__
from ...link.safe_names import skeleton
from ...rules.wording import minutes
from ..admin.ban_watch import BanWatch
from ..admin.bans import CLOSED_LINE, REFUSED_LINE, BanEntry, BanList
from ..config import ServerConfig
from ..gate import Gate, ThrottledLog, Unstarted
from ..lobby import Guest, Lobby, player_name
from ..lobby.decisions import Referee
from ..lobby.talk import TalkPolicy
from ..open_files import OpenFiles, QuietFailedAccepts
from ..sessions.game_session import GameSession, SessionServices
from ..sessions.houses import make_spawner
from ..storage import DEFAULT_FILE, Storage, describe_location, import_json_archive, open_storage
from .channel_guard import GuardedChannel
from .host_key import load_or_create_host_key
from .proxy_protocol import ProxyListener
from .quiet_asyncssh import asyncssh

if TYPE_CHECKING:
    from ..web.door import WebDoorServer

log = logging.getLogger("soluna.server")

SHUTDOWN_GRACE = 8.0
CLIENT_VERSION_LIMIT = 60
#: Seconds past the login timeout before asyncssh's own timer closes a connection that has not logged in.
LOGIN_BACKSTOP = 5.0
#: Seconds a refused connection is kept to be told why: it must get as far as logging in.
EXPLAIN_TIMEOUT = 10.0
#: What a connection hears when it gives up its unstarted place to a newer one.
MADE_ROOM = "Server busy: too many connections are logging in at once; try again in a moment."


class SolunaConnection(asyncssh.SSHServer):
    """One client connection: who it is (name, key fingerprint, version) and its sessions."""

    def __init__(self, server: SolunaServer) -> None:
        self.server = server
        #: asyncssh's connection, set before any other callback (``ssh`` once it must be there).
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address, self.port = "?", 0
        #: The server's address this connection reached (a code's link names it, where the web door listens on all).
        self.reached = "127.0.0.1"
        self.player_name = "guest"
        self.fingerprint: str | None = None
        self.client_version = ""
        self.sessions: set[GameSession] = set()
        self.admitted = False
        self.authenticated = False
        self.played = False
        self.opened = time.monotonic()
        self.closing_reason: str | None = None
        #: The line a refused connection is told as it tries to log in (``None``: not refused, or dropped).
        self.refusal: str | None = None
        self._channels_refused = False
        self._offered_key: asyncssh.SSHKey | None = None
        self._no_game: asyncio.TimerHandle | None = None

    @property
    def ssh(self) -> asyncssh.SSHServerConnection:
        """asyncssh's connection: there from ``connection_made`` on, before every other callback."""
        if self.conn is None:
            raise RuntimeError("the SSH connection is not made yet")
        return self.conn

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address, self.port = str(peer[0]), int(peer[1])
        here = conn.get_extra_info("sockname")
        if here:
            self.reached = str(here[0])
        banned = self.server.bans.bans.ban_for(self.address)
        if banned is not None:  # before the gate: a banned address costs no place and no rate
            self._refuse(REFUSED_LINE, True, why=banned_by(banned))
            return
        admission = self.server.gate.admit_connection(self.address, self)
        if admission.refusal is not None:
            self._refuse(admission.refusal, admission.explain)
            return
        self.admitted = True
        self.server.connections.add(self)
        if isinstance(admission.evicted, Unstarted):  # an SSH connection or a browser tab
            admission.evicted.make_room()
        timeout = self.server.config.limits.login_timeout
        self._no_game = asyncio.get_running_loop().call_later(timeout, self._close_unless_playing, timeout)

    def _refuse(self, line: str, explain: bool, why: str | None = None) -> None:
        """Refused (by the gate, or banned): told why as it tries to log in (``begin_auth``), or dropped now under a
        flood; ``why`` is what the log says, if not the line."""
        self.server.refusals.info("connection from %s:%d refused: %s", self.address, self.port, why or line)
        loop = asyncio.get_running_loop()
        if explain and self.server.gate.hold_to_explain(self.address):
            self.refusal = line
            self._no_game = loop.call_later(EXPLAIN_TIMEOUT, self._gone_quiet)
            return
        # After asyncssh has sent its version line, so the client may read a proper disconnect message.
        loop.call_soon(self.ssh.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, line)

    def _gone_quiet(self) -> None:
        """A refused connection that never tried to log in: nobody is there to read the line."""
        if self.conn is not None:
            self.conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted:
            self.admitted = False
            self.server.gate.release_connection(self.address, self)
            if not self.played:
                self.server.refusals.info("%s", self.unstarted_line(exc))
        if self.refusal is not None:
            self.refusal = None
            self.server.gate.explained(self.address)
        self.server.connections.discard(self)
        if self._no_game is not None:
            self._no_game.cancel()

    def close(self, reason: str, line: str | None = None, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Close the connection now, with ``line`` (the disconnect's reason, ``code``) as the player's last word;
        ``reason`` is what its log line will say if no game was played."""
        if self.closing_reason is None:
            self.closing_reason = reason
        if self.conn is not None:
            if line is None:
                self.conn.close()
            else:
                self.conn.disconnect(code, line)

    def make_room(self) -> None:
        """Every unstarted place is taken and this connection has waited longest: it makes room for a newer one."""
        self.close("made room for a newer connection (every unstarted place taken)", MADE_ROOM,
                   asyncssh.DISC_TOO_MANY_CONNECTIONS)

    def game_admitted(self) -> None:
        """A game of this connection has its place: the connection no longer holds an unstarted one."""
        self.server.gate.started(self.address, self)

    def _close_unless_playing(self, timeout: float) -> None:
        if not any(session.running for session in self.sessions):
            what = "no game started" if self.authenticated else "no login"
            told = "no game was started" if self.authenticated else "not logged in"
            self.close(f"{what} within {timeout:.0f} s",
                       f"Closed: {told} within {minutes(timeout)}; connect again to play.")

    def unstarted_line(self, exc: Exception | None) -> str:
        """The one log line of a connection that never started a game."""
        reason = self.closing_reason or (str(exc) if exc else "client disconnected")
        if not self.authenticated and self.closing_reason is None:
            reason = f"{reason}, before logging in"
        return (f"connection from {self.address}:{self.port} user={self.player_name!r} "
                f"key={self.fingerprint or 'none'} client={self.client_version!r} "
                f"lasted {time.monotonic() - self.opened:.0f}s without a game: {reason}")

    # ---- authentication: anyone, with a key remembered when one is offered ------------------

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None:
            # The client has sent all it will until it is answered: nothing unread to reset the connection.
            self.ssh.send_auth_banner(f"{self.refusal}\r\n")
            self.ssh.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
            return True
        self.player_name = player_name(username)
        version = str(self.ssh.get_extra_info("client_version") or "")
        self.client_version = "".join(char for char in version if char.isprintable())[:CLIENT_VERSION_LIMIT]
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh checks the signature after this; the last key seen when auth completes is the one proven.
        banned = self.server.bans.bans.ban_for(self.address, key.get_fingerprint("sha256"))
        if banned is not None:  # offering a banned key is enough: told as it logs in, like a refused connection
            self.ssh.send_auth_banner(f"{REFUSED_LINE}\r\n")
            self.close(f"offered a key {banned_by(banned)}", REFUSED_LINE, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return False
        self._offered_key = key
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._offered_key = None  # anonymous: no prompt at all
        return True

    def auth_completed(self) -> None:
        self.authenticated = True
        self.server.gate.logged_in(self.address, self)
        if self._offered_key is not None:
            self.fingerprint = self._offered_key.get_fingerprint("sha256")

    # ---- sessions ------------------------------------------------------------------------

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], GameSession]:
        limits = self.server.config.limits
        if len(self.sessions) >= limits.channels_per_connection:
            if not self._channels_refused:  # one line per connection, however many it tries
                self._channels_refused = True
                self.server.refusals.info("connection from %s:%d: session channels refused past %d at once",
                                          self.address, self.port, limits.channels_per_connection)
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_RESOURCE_SHORTAGE,
                                            f"Slow down: at most {limits.channels_per_connection} "
                                            "sessions open at once on one connection.")
        refusal = None
        if len(self.sessions) >= limits.sessions_per_connection:
            refusal = f"Slow down: at most {limits.sessions_per_connection} game(s) on one connection."
        session = GameSession(self, self.server.services, self.server.next_session_number(), refusal)
        self.sessions.add(session)
        return GuardedChannel.guarding(self.ssh.create_server_channel(), session), session

    def session_began(self) -> None:
        self.played = True

    def shut_out(self, ban: BanEntry) -> None:
        """The ban list now bans this connection: each game ends with the one line, or it is closed with it."""
        running = [session for session in self.sessions if session.running]
        for session in running:
            session.close_for_good(banned_by(ban), CLOSED_LINE)
        if not running:
            self.close(banned_by(ban), CLOSED_LINE)

    def session_gone(self, session: GameSession) -> None:
        """A session's channel has closed; the connection goes with its last game (or its last channel)."""
        self.sessions.discard(session)
        playing = any(other.running for other in self.sessions)
        if self.conn is not None and not playing and (session.running or not self.sessions):
            self.conn.close()


def _banned_why(bans: BanList, address: str, fingerprint: str | None) -> str | None:
    """What the log says of a web visitor the ban list keeps out (by its address, or the key it signed in as), or
    ``None`` if it does not."""
    ban = bans.ban_for(address, fingerprint)
    return banned_by(ban) if ban is not None else None


def banned_by(ban: BanEntry) -> str:
    """What the log says of a connection the ban list keeps out."""
    return f"banned by line {ban.line} of the ban list ({ban})"


class SolunaServer:
    """``start()`` listens; ``close()`` ends every session politely and keeps every match."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.gate = Gate(config.limits)
        self.store: Storage | None = None
        self.lobby: Lobby | None = None
        self.spawner = make_spawner(config.spawn, config.limits.sessions_per_process)
        #: The owner's ban list, read again when its file changes; each change shuts out whom it bans.
        self.bans = BanWatch(config.resolved_ban_file, self.shut_out)
        #: What every session is handed (once the lobby exists, before the server listens).
        self.session_services: SessionServices | None = None
        self.connections: set[SolunaConnection] = set()
        #: The web door (``--web``): browser tabs, each a session like an SSH channel's, in the same lobby.
        self.web: WebDoorServer | None = None
        #: The log of refused connections and sessions, and of connections that never played: floods are summed up.
        self.refusals = ThrottledLog(log)
        #: Open files kept well below the process's limit: past the bound, both doors close new connections at once.
        self.open_files = OpenFiles(log)
        self._failed_accepts = QuietFailedAccepts(log)
        self._listener: Any = None
        self._numbers = itertools.count(1)

    def shut_out(self, bans: BanList) -> None:
        """Every connection the new ban list bans (by its address or its key) is closed with one line."""
        for connection in list(self.connections):
            ban = bans.ban_for(connection.address, connection.fingerprint)
            if ban is not None:
                connection.shut_out(ban)
        if self.web is not None:
            self.web.shut_out(lambda address, fingerprint: _banned_why(bans, address, fingerprint))

    def browser_page(self, guest: Guest) -> str | None:
        """The web door's address a player on SSH with a key is shown with a code that signs a browser in as them
        (``None``: no web door, or not such a player)."""
        if self.web is None or guest.fingerprint is None or not isinstance(guest, GameSession):
            return None
        connection = guest.connection
        return self.web.page_address(connection.reached) if isinstance(connection, SolunaConnection) else None

    def next_session_number(self) -> int:
        return next(self._numbers)

    @property
    def services(self) -> SessionServices:
        """What every session is handed: there once the server has started, before it listens."""
        if self.session_services is None:
            raise RuntimeError("the server has not started")
        return self.session_services

    @property
    def sessions(self) -> list[GameSession]:
        """Every session, from both doors."""
        web = self.web.sessions if self.web is not None else []
        return [session for connection in self.connections for session in connection.sessions] + web

    @property
    def port(self) -> int:
        return int(self._listener.get_port())

    async def start(self) -> None:
        config = self.config
        key = config.host_key or load_or_create_host_key(config.resolved_host_key_path)
        # SQLite serves one server: a second one on the same file is refused here, before it touches it.
        self.store = await open_storage(config.database, config.data_dir, sole_server=True)
        try:
            if config.established:
                await self.store.ratings.establish(config.established)
            if config.ranked_opponents and not await self.store.ratings.anyone_established():
                log.warning("no key is established yet: the leaderboard lists no one until players have played "
                            "keys the owner names (soluna serve --established KEY)")
            report = await import_json_archive(self.store, config.matches_dir)
            if report.skipped:
                log.warning("old match files not imported: %s", "; ".join(report.skipped))
            await asyncio.to_thread(skeleton, "")  # reads Unicode's confusables once, off the event loop
            # Ready for players before the lobby starts: a match given back after a restart is held from then.
            await self.spawner.start()
            self.lobby = Lobby(self.store, config.limits.hold_time,
                               referee=Referee(config.limits.hold_time, config.clocks, config.adjourn_after),
                               ranked_after=config.ranked_after, ranked_opponents=config.ranked_opponents,
                               talk=TalkPolicy(config.chat, config.guest_chat, config.keep_chat),
                               quick_match=config.quick_match, challenges=config.challenges,
                               browser_page=self.browser_page, player_tournaments=config.player_tournaments)
            in_play = await self.lobby.start()
            self.session_services = SessionServices(config, self.gate, self.lobby, self.spawner, self.refusals)
            self.bans.start()
        except BaseException:
            if self.lobby is not None:
                await self.lobby.close()
            await self.spawner.close()
            await self.store.close()
            raise
        try:
            self._failed_accepts.install(asyncio.get_running_loop())
            self._listener = await self._listen(key)
            if config.web is not None:
                from ..web.door import WebDoorServer  # aiohttp's memory is paid only by a server with a web door

                self.web = WebDoorServer(config.web, self.session_services, self.bans, self.next_session_number,
                                         self.open_files)
                await self.web.start()
        except BaseException:
            self._failed_accepts.remove()
            if self._listener is not None:
                self._listener.close()
            await self.bans.close()
            await self.spawner.close()
            await self.lobby.close()
            await self.store.close()
            raise
        log.info("soluna serve %s listening on %s port %d (database %s, %d matches in play)",
                 __version__, config.host or "all addresses", self.port,
                 describe_location(str(config.database or config.data_dir / DEFAULT_FILE)), in_play)

    async def _listen(self, key: asyncssh.SSHKey) -> Any:
        config, limits = self.config, self.config.limits
        return await asyncssh.listen(
            config.host, config.port,
            # Accepts the TCP connections itself, to read PROXY headers from --proxy-from addresses.
            tunnel=ProxyListener(config.proxy_from, self.refusals.info, open_files=self.open_files),
            server_factory=lambda: SolunaConnection(self),
            server_host_keys=[key],
            server_version=f"Soluna_{__version__}",
            reuse_address=True,
            allow_pty=True, line_editor=False, encoding=None,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            public_key_auth=True, kbdint_auth=True, password_auth=False, host_based_auth=False,
            gss_kex=False, gss_auth=False,
            # Ours closes with a line first (``_close_unless_playing``); asyncssh's would close without one.
            login_timeout=limits.login_timeout + LOGIN_BACKSTOP,
            keepalive_interval=limits.keepalive_interval, keepalive_count_max=3,
        )

    async def close(self) -> None:
        """Stop listening, end every session with a word to its player, and keep every match in the store."""
        if self._listener is not None:
            self._listener.close()
        if self.web is not None:
            await self.web.stop_listening()
        await self.bans.close()
        sessions = self.sessions
        for session in sessions:
            session.request_end("server shutdown", "The server is shutting down.")  # and the way back, if any
        tasks = [session.task for session in sessions if session.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=SHUTDOWN_GRACE)
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        if self._listener is not None:
            await self._listener.wait_closed()
        if self.web is not None:
            await self.web.close()
        if self.lobby is not None:
            await self.lobby.close()
        if self.store is not None:
            await self.store.close()
        await self.spawner.close()
        self.refusals.close()
        self._failed_accepts.remove()


async def serve(config: ServerConfig, stop: asyncio.Event) -> None:
    """Run a server until ``stop`` is set."""
    server = SolunaServer(config)
    await server.start()
    try:
        await stop.wait()
    finally:
        log.info("shutting down")
        await server.close()
