"""Runs in the server process.

The owner's side of ``soluna serve``: its commands, who it runs as, and the ban list.

=========================  ================  ======================================================================
Module                     Runs in           What it does
=========================  ================  ======================================================================
serve_command.py           server process    ``soluna serve``'s options; runs the server until stopped
privileges.py              server process    started as root: the host key read, then ``--user`` for good
bans.py                    server process    the ban list: its lines read, whom it bans, lines edited (pure)
ban_watch.py               server process    the ban list's file read again when it changes, each list handed on
ban_command.py             server process    ``soluna serve ban add|remove|list``: the file edited atomically, no links
chat_reports_command.py    server process    ``soluna serve chat-reports``: the chat lines players reported
names_command.py           server process    ``soluna serve names list|release``: the names given up, reserved a while
tournament_command.py      server process    ``soluna serve tournament create|list|cancel``: tournaments announced
=========================  ================  ======================================================================
"""
