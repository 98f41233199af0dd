"""Runs in the child.

The lobby's panes: the widgets the lobby screen (``online/screens/lobby.py``) is laid out in, by the features
the server's lobby has (``server/lobby/``), each served by its half of the link (``online/*_half.py``).

The screen hands each pane what the halves tell it (attributes down); a pane posts what the player wishes or
chose (messages up): a ``LobbyWish`` the app grants, or a message the screen answers.

=====================  ==================================================================  =======================
Module                 What it draws, and what it posts                                    Its half of the link
=====================  ==================================================================  =======================
menu_and_settings.py   the menu and the settings: a choice made a wish, a status said      lobby_half.py
lobby_menu.py          the menu's entries, a match to come back to first                   lobby_half.py
lobby_settings.py      the settings, a match code, a secret; the settings told, settled    lobby_half.py
lobby_lists.py         not a container: the lists' place (matches, who is online, talk)    (the screen's)
matches_in_play.py     the matches in play: Enter watches one, or takes a held seat back   lobby_half.py
people_online.py       who is online: Enter challenges one                                 people_half.py, pairing
lobby_pace.py          not a widget: when the lobby draws (now, shown again, news)         (the screen's)
=====================  ==================================================================  =======================

The lobby's talk draws into ``widgets/chat_panel.py`` in the lists' place (``talk_half.py``); quick matches and
challenges (``pairing_half.py``) and play in a browser (``browsers_half.py``) open dialogs of their own
(``online/screens/``) from the menu's entries and the screen's keys (``c``, ``b``).
"""
