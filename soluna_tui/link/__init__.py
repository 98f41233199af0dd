"""Shared by the server process and the child: what both ends of a session's link agree on.

Below both the server (``soluna_tui/server``) and the session's side (``soluna_tui/online``, with the screens
it shows), so that neither imports the other's package:

===============  ===============================================================
Module           What it holds
===============  ===============================================================
protocol.py      the link between server and child, both ends: one JSON line a message
messages.py      every message on the link, each a typed value declared once
wire.py          a message as the JSON object that travels, and read back by one check
safe_names.py    names shown safely: what draws nothing removed, look-alike letters seen through
safe_talk.py     a line of table talk made safe to show, and the rooms it is said in
child_config.py  how a session's child is started (its module, its settings) and what its exit says
keeping.py       how long a match against the computer is kept for a player gone
===============  ===============================================================

A match's clock and how a match ended are the rules' (``rules/clock.py``, ``rules/end_reason.py``): local
play and saves use them too. Like ``soluna_tui/rules``, nothing here imports Textual or asyncssh.
"""
