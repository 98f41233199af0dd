"""The game in lines, for a screen reader or a braille display (``soluna play --screen-reader``).

No full screen: the table, every move and every answer are short sentences written in order, and the
player types a line (a move, ``3>7`` or ``1M>1M``, or a command). Nothing here imports Textual, the app, a
screen or a widget (``tests/test_layers.py``): the core takes lines in and gives lines out, and plays at any
``Table``, so another door (SSH) can drive it.

========================  ==============================================================================================
``speech.py``             the words: a tower, the table, a move in words and notation, the legal moves, the clock
``typed_lines.py``        what a typed line asks for: a command, or a move by the towers' numbers or in notation
``runner.py``             slow work (the solver) and timers in threads, with the game screen's budgets
``line_game.py``          ``LineGame``: a match at a ``Table`` in lines, the core every door drives; it owns the parts
``line_host.py``          ``LineHost``: the core as its parts see it, and the faces they use of one another
``announcements.py``      told unasked: the match introduced, every move, a new round, the end, where the match stands
``match_steps.py``        what follows every change: the computer's turns, a decided round or match, a clock run out
``between_rounds.py``     who opens the next round: ``next``, ``open``, ``second``, and the advice on the choice
``hints_and_reviews.py``  the solver's help: ``hint``, ``analysis``, ``review``
``match_questions.py``    the commands that only tell: ``board``, ``tower``, ``moves``, ``last``, ``stars``, ...
``match_changes.py``      the commands that change the match or leave it: ``undo``, ``resign``, ``rematch``, ``quit``
``reply.py``              what a core says, put together: an answer's lines shown at its end, or where things stand
``line_reading.py``       where a typed line goes: an answer, a command, a move, or what was not understood
``command_words.py``      the commands' words, their short forms and ``help``'s lines (a catalogue)
``line_puzzle.py``        ``LinePuzzle``: puzzles in lines
``line_replay.py``        ``LineReplay``: a finished match replayed move by move, ``next`` and ``back``
``terminal_door.py``      standard input and output: each answer, then the prompt that says whose turn it is
``local_start.py``        this computer's side: the unfinished match offered, saves, stats, a rematch, replays
``lines_wanted.py``       whether to play in lines: ``--screen-reader``, ``SOLUNA_SCREEN_READER``, the preferences
========================  ==============================================================================================
"""
