"""Runs in the server process.

A session of ``soluna serve``, through either door (an SSH channel, or a browser's websocket).

===================  ================  ===========================================================================
Module               Runs in           What it does
===================  ================  ===========================================================================
game_session.py      server process    ``GameSession``: the door's callbacks wiring the parts below
session_channel.py   server process    the session's channel: the game's bytes, its last line
session_child.py     server process    the session's child: on a PTY, its link to the lobby, retired
session_clock.py     server process    input budget, idle warning and timeout, longest session
pty_pump.py          server process    bytes between channel and PTY, back-pressure, resizes
ending.py            server process    how a session ends; the child asked to leave, ended, reaped
spawn.py             server process    starting, signalling and reaping children (zygote or exec)
houses.py            server process    sessions seated several to a process (a house): ended, resized, told
client_env.py        server process    what a client may pass to its child (TERM, colour hints, size)
===================  ================  ===========================================================================
"""
