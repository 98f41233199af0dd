"""``soluna serve``: the game as an SSH service, in three kinds of process.

One asyncssh process, the server, holds the lobby and every two-player match (kept in
a database). Each SSH session gets a child process running the Textual app on a
pseudo-terminal, forked by the zygote (a warm process with the app imported) or started
afresh; the child talks to the server over a socketpair in newline-delimited JSON, each message
a typed value declared once in ``soluna_tui/link/messages.py`` (the package both sides share,
below this one and the screens).
The first line of each module's docstring says where it runs:

===================  ================  ===============================================================
Module               Runs in           What it does there
===================  ================  ===============================================================
command.py           server process    ``soluna serve``'s options; runs the server until stopped
config.py            server process    where to listen, where the files go, the limits
privileges.py        server process    started as root: the host key read, then ``--user`` for good
server.py            server process    the asyncssh listener; one ``SolunaConnection`` per client
gate.py              server process    connections and sessions admitted, token buckets, throttled log
proxy_protocol.py    server process    the real client's address from a trusted load balancer
host_key.py          server process    the server's ed25519 host key
session.py           server process    ``GameSession``: asyncssh's callbacks wiring the parts below
session_channel.py   server process    the session's channel: the game's bytes, its last line
session_child.py     server process    the session's child: on a PTY, its link to the lobby, retired
channel_guard.py     server process    the channel requests a session acts on, and their budget
pty_pump.py          server process    bytes between channel and PTY, back-pressure, resizes
session_clock.py     server process    input budget, idle warning and timeout, longest session
ending.py            server process    how a session ends; the child asked to leave, ended, reaped
spawn.py             server process    starting, signalling and reaping children (zygote or exec)
client_env.py        server process    what a client may pass to its child (TERM, colour hints, size)
lobby/               server process    the authority on matches: codes, seats, moves, forfeits, records
ratings.py           server process    player ratings over rated matches
storage/             server process    players, matches and ratings in SQLite or PostgreSQL
zygote.py            zygote            imports the app once, forks a child per session, reaps them
child.py             child             the child's set-up: session leader, limits, no tracebacks
child_app.py         child             the app a session runs: the lobby, then matches
remote_table.py      child             a seat at a match the server holds
activity.py          child             what counts as the player there (a key that acts), told the server
keeping.py           shared            how long a match against the computer is kept for a player gone
===================  ================  ===============================================================

This package imports nothing heavy on its own: the child imports the app from it,
the server imports asyncssh, and neither should pay for the other.
"""
