"""The SSH server: one asyncssh listener, one ``SolunaConnection`` per client, the lobby, the children.

Only interactive game sessions are offered: no shell, no command, no subsystem
(so no SFTP), no SCP, no port, agent or X11 forwarding. Anyone may log in
without a prompt (keyboard-interactive with zero prompts); a client that offers
a public key is recognised by its fingerprint when it comes back. Over a limit a
client gets one line ("Server full", "Slow down") and a clean disconnect.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import asyncssh

from .. import __version__
from .archive import MatchArchive
from .config import ServerConfig
from .gate import Gate
from .host_key import load_or_create_host_key
from .lobby import Lobby, player_name
from .session import GameSession
from .spawn import make_spawner

log = logging.getLogger("soluna.server")

SHUTDOWN_GRACE = 8.0
CLIENT_VERSION_LIMIT = 60


class SolunaConnection(asyncssh.SSHServer):
    """One client connection: who it is (name, key fingerprint, version) and its sessions."""

    def __init__(self, server: SolunaServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address, self.port = "?", 0
        self.player_name = "guest"
        self.fingerprint: str | None = None
        self.client_version = ""
        self.sessions: set[GameSession] = set()
        self.admitted = False
        self._offered_key: asyncssh.SSHKey | None = None
        self._no_session: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address, self.port = str(peer[0]), int(peer[1])
        refusal = self.server.gate.admit_connection(self.address)
        if refusal is not None:
            log.info("connection from %s refused: %s", self.address, refusal)
            # After asyncssh has sent its version line, so the client reads a proper disconnect message.
            asyncio.get_running_loop().call_soon(conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, refusal)
            return
        self.admitted = True
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted:
            self.admitted = False
            self.server.gate.release_connection(self.address)
        self.server.connections.discard(self)
        if self._no_session is not None:
            self._no_session.cancel()

    # ---- authentication: anyone, with a key remembered when one is offered ------------------

    def begin_auth(self, username: str) -> bool:
        self.player_name = player_name(username)
        version = str(self.conn.get_extra_info("client_version") or "")
        self.client_version = "".join(char for char in version if char.isprintable())[:CLIENT_VERSION_LIMIT]
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh checks the signature after this; the last key seen when auth completes is the one proven.
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
        if self._offered_key is not None:
            self.fingerprint = self._offered_key.get_fingerprint("sha256")
        timeout = self.server.config.limits.login_timeout
        self._no_session = asyncio.get_running_loop().call_later(timeout, self._close_if_idle)

    def _close_if_idle(self) -> None:
        if not self.sessions and self.conn is not None:
            self.conn.close()

    # ---- sessions ------------------------------------------------------------------------

    def session_requested(self) -> GameSession:
        refusal = None
        allowed = self.server.config.limits.sessions_per_connection
        if len(self.sessions) >= allowed:
            refusal = f"Slow down: at most {allowed} game(s) on one connection."
        session = GameSession(self, self.server.next_session_number(), refusal)
        self.sessions.add(session)
        return session

    def session_gone(self, session: GameSession) -> None:
        """A session's channel has closed; the connection goes with its last session."""
        self.sessions.discard(session)
        if not self.sessions and self.conn is not None:
            self.conn.close()


class SolunaServer:
    """``start()`` listens; ``close()`` ends every session politely and keeps every match."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.gate = Gate(config.limits)
        self.archive = MatchArchive(config.matches_dir)
        self.lobby = Lobby(self.archive, config.limits.hold_time)
        self.spawner = make_spawner(config.spawn)
        self.connections: set[SolunaConnection] = set()
        self._listener: Any = None
        self._numbers = itertools.count(1)

    def next_session_number(self) -> int:
        return next(self._numbers)

    @property
    def sessions(self) -> list[GameSession]:
        return [session for connection in self.connections for session in connection.sessions]

    @property
    def port(self) -> int:
        return self._listener.get_port()

    async def start(self) -> None:
        config = self.config
        key = config.host_key or load_or_create_host_key(config.resolved_host_key_path)
        restored = self.lobby.restore()
        await self.spawner.start()
        try:
            self._listener = await self._listen(key)
        except BaseException:
            await self.spawner.close()
            raise
        log.info("soluna serve %s listening on %s port %d (%d held matches restored)",
                 __version__, config.host or "all addresses", self.port, restored)

    async def _listen(self, key: asyncssh.SSHKey) -> Any:
        config, limits = self.config, self.config.limits
        return await asyncssh.listen(
            config.host, config.port,
            server_factory=lambda: SolunaConnection(self),
            server_host_keys=[key],
            server_version=f"Soluna_{__version__}",
            reuse_address=True,
            allow_pty=True, line_editor=False, encoding=None,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            public_key_auth=True, kbdint_auth=True, password_auth=False, host_based_auth=False,
            gss_kex=False, gss_auth=False,
            login_timeout=limits.login_timeout,
            keepalive_interval=limits.keepalive_interval, keepalive_count_max=3,
        )

    async def close(self) -> None:
        """Stop listening, end every session with a word to its player, and keep every match on disk."""
        if self._listener is not None:
            self._listener.close()
        sessions = self.sessions
        for session in sessions:
            session.request_end("server shutdown", "The server is shutting down: your match is kept; "
                                                   "come back later with its code.")
        tasks = [session.task for session in sessions if session.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=SHUTDOWN_GRACE)
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        if self._listener is not None:
            await self._listener.wait_closed()
        self.lobby.close()
        await self.archive.flush()
        await self.spawner.close()


async def serve(config: ServerConfig, stop: asyncio.Event) -> None:
    """Run a server until ``stop`` is set."""
    server = SolunaServer(config)
    await server.start()
    try:
        await stop.wait()
    finally:
        log.info("shutting down")
        await server.close()
