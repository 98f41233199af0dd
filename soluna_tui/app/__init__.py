"""The app: ``SolunaApp`` and the parts it owns, one job each.

The parts see the app through the typed ``AppHost`` protocol (``host.py``), never by importing
``soluna_app.py``; screens and widgets see it through ``SolunaView`` (``soluna_view.py``), the one module
here they may import. Nothing is imported here, so importing one module imports only what it needs.

=====================  ===========================================================================
Module                 What it holds
=====================  ===========================================================================
soluna_app.py          ``SolunaApp``: its stores and settings, its global keys, the parts wired
soluna_view.py         the app as screens and widgets see it (``SolunaView``, reached with ``app_view``)
host.py                the app as its parts see it (``AppHost``)
start_up.py            start-up, the Welcome back offer, a damaged save set aside
matches_begun.py       matches begun and shown, asking before one in play is abandoned
palette_commands.py    the command palette's commands
other_screens.py       the other screens the app opens (stats, help, replays, puzzles)
stylesheets.py         the stylesheets (the narrow one read when first needed) and ASCII mode
too_small_notice.py    the too-small notice kept on top (mixed in)
focus_cursor.py        the terminal's real cursor on the focus, for a braille display (mixed in)
hangup.py              a terminal gone without a hangup signal: the app quits, its match saved
=====================  ===========================================================================
"""
