"""``soluna serve``: the game as an SSH service, in three kinds of process.

One asyncssh process, the server, holds the lobby and every two-player match (kept in
a database). Each SSH session gets a child process running the Textual app on a
pseudo-terminal, forked by the zygote (a warm process with the app imported) or started
afresh; the child talks to the server over a socketpair in newline-delimited JSON, each message
a typed value declared once in ``messages.py``.
The first line of each module's docstring says where it runs:

===================  ================  ========================================================
This package imports nothing heavy on its own: the child imports the app from it,
the server imports asyncssh, and neither should pay for the other.
"""
