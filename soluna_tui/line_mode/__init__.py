"""The game in lines, for a screen reader or a braille display (``soluna play --screen-reader``).

No full screen: the table, every move and every answer are short sentences written in order, and the
player types a line (a move, ``3>7`` or ``1M>1M``, or a command). Nothing here imports Textual, the app, a
screen or a widget (``tests/test_layers.py``): the core takes lines in and gives lines out, and plays at any
``Table``, so another door (SSH) can drive it.

=====================  ==========================================================================================
``speech.py``          the words: a tower, the table, a move in words and notation, the legal moves, the clock
``typed_lines.py``     what a typed line asks for: a command, or a move by the towers' numbers or in notation
``runner.py``          slow work (the solver) and timers in threads, with the game screen's budgets
``line_game.py``       ``LineGame``: a match at a ``Table`` in lines (the core every door drives)
``line_puzzle.py``     ``LinePuzzle``: puzzles in lines
``terminal_door.py``   standard input and output: each answer, then the prompt that says whose turn it is
``local_start.py``     this computer's side: the unfinished match offered, saves, stats, a rematch
``choice.py``          whether to play in lines: ``--screen-reader``, ``SOLUNA_SCREEN_READER``, the preferences
=====================  ==========================================================================================
"""
