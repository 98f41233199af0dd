"""``soluna serve``: the game as an SSH service (and to web browsers). This package is its server process.

The service runs in three kinds of process. One asyncssh process, the server (this package),
holds the lobby and every two-player match (kept in a database). Each session gets a child
process running the Textual app on a pseudo-terminal, forked by the zygote (a warm process with
the app imported) or started afresh. The child and the zygote are ``soluna_tui/online``'s: the
server starts them by module name (``link/child_config.py``) and never imports them. The child
talks to the server over a socketpair in newline-delimited JSON, each message a typed value
declared once in ``soluna_tui/link/messages.py`` (the package both sides share, below this one
and the screens). The first line of each module's docstring says where it runs:

===================  ================  =========================================================================
Package or module    Runs in           What it holds
===================  ================  =========================================================================
admin/               server process    the owner's commands (``soluna serve`` itself, ``ban``, ``chat-reports``),
                                       who it runs as, the ban list (its lines, its file watched)
ssh/                 server process    the SSH door: the asyncssh listener, its host key, channel requests
web/                 server process    the web door (``--web``): a page, and each websocket a session
sessions/            server process    a session through either door: its channel, its child, clocks, ending
lobby/               server process    the authority on matches: codes, seats, moves, forfeits, records, talk
storage/             server process    players, matches and ratings in SQLite or PostgreSQL
tournaments/         server process    Swiss and arena tournaments: pairing, standings, run against the store
config.py            server process    where to listen, where the files go, the limits
gate.py              server process    connections and sessions admitted, token buckets, throttled log
open_files.py        server process    the process's open files kept below its limit: both doors refuse past it
rating_model.py      server process    player ratings over rated matches (openskill's Plackett-Luce model)
===================  ================  =========================================================================

Nothing here imports Textual, the app or a screen (``tests/test_layers.py`` says so): the server
pays for asyncssh only, the child for Textual only.
"""
