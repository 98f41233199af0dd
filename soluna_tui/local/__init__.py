"""What this terminal keeps on its own disk, and the match it holds: no Textual, never the app.

=====================  ===========================================================================
Module                 What it holds
=====================  ===========================================================================
files.py               the data directory, atomic writes, the careful reader, files set aside
saves.py               the unfinished match, the finished ones kept
judgements.py          the verdicts kept with a finished match
player_stats.py        the player's statistics, and "Match my strength"
preferences.py         the stores handed to the app (settings, the last match's setup)
match_setup.py         a new match's settings, as chosen and kept
table.py               who sits where: ``Table``, and ``LocalTable``, which owns and saves a match here
=====================  ===========================================================================
"""
