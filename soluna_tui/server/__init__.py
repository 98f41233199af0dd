"""``soluna serve``: the game as an SSH service (and to web browsers). This package is its server process.

The service runs in three kinds of process. One asyncssh process, the server (this package),
holds the lobby and every two-player match (kept in a database). Each SSH session gets a child
process running the Textual app on a pseudo-terminal, forked by the zygote (a warm process with
the app imported) or started afresh. The child and the zygote are ``soluna_tui/remote``'s: the
server starts them by module name (``link/child_config.py``) and never imports them. The child
talks to the server over a socketpair in newline-delimited JSON, each message a typed value
declared once in ``soluna_tui/link/messages.py`` (the package both sides share, below this one
and the screens). The first line of each module's docstring says where it runs:

===================  ================  ===============================================================
Module               Runs in           What it does there
===================  ================  ===============================================================
command.py           server process    ``soluna serve``'s options; runs the server until stopped
config.py            server process    where to listen, where the files go, the limits
chat_command.py      server process    ``soluna serve chat-reports``: the chat lines players reported
privileges.py        server process    started as root: the host key read, then ``--user`` for good
server.py            server process    the asyncssh listener; one ``SolunaConnection`` per client
gate.py              server process    connections and sessions admitted, token buckets, throttled log
open_files.py        server process    the process's open files kept below its limit: both doors refuse past it
proxy_protocol.py    server process    the real client's address from a trusted load balancer
host_key.py          server process    the server's ed25519 host key
quiet_asyncssh.py    server process    asyncssh imported without cryptography's warnings about its code
bans.py              server process    the owner's ban list: its lines read, who it bans, lines edited
ban_watch.py         server process    the ban list's file read again when it changes, each list handed on
ban_command.py       server process    ``soluna serve ban add|remove|list``: the file edited atomically
session.py           server process    ``GameSession``: asyncssh's callbacks wiring the parts below
session_channel.py   server process    the session's channel: the game's bytes, its last line
session_child.py     server process    the session's child: on a PTY, its link to the lobby, retired
channel_guard.py     server process    the channel requests a session acts on, and their budget
pty_pump.py          server process    bytes between channel and PTY, back-pressure, resizes
session_clock.py     server process    input budget, idle warning and timeout, longest session
ending.py            server process    how a session ends; the child asked to leave, ended, reaped
spawn.py             server process    starting, signalling and reaping children (zygote or exec)
client_env.py        server process    what a client may pass to its child (TERM, colour hints, size)
web/                 server process    the web door (``--web``): a page, and each websocket a session
lobby/               server process    the authority on matches: codes, seats, moves, forfeits, records
ratings.py           server process    player ratings over rated matches
storage/             server process    players, matches and ratings in SQLite or PostgreSQL
===================  ================  ===============================================================

Nothing here imports Textual, the app or a screen (``tests/test_layers.py`` says so): the server
pays for asyncssh only, the child for Textual only.
"""
