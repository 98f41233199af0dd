"""``soluna serve``: the game as an SSH service.

One asyncssh process (``server.py``) holds the lobby and every two-player match
(``lobby.py``, kept in a database by ``storage/``). Each SSH session (``session.py``)
gets a child process (``spawn.py``, ``zygote.py``, ``child.py``) running the
Textual app (``child_app.py``) on a pseudo-terminal; the child talks to the
server over a socketpair in newline-delimited JSON (``protocol.py``), each message a
typed value declared once in ``messages.py``.

This package imports nothing heavy on its own: the child imports the app from it,
the server imports asyncssh, and neither should pay for the other.
"""
