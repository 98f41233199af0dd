"""The game's screens, one a module (the screens only a session of ``soluna serve`` shows are in
``soluna_tui/online/screens``), and the game screen's parts.

The game screen (``game.py``) owns its parts, one job each, which see it through the typed ``GameHost``
protocol (``game_host.py``), never by importing ``game.py``; the app imports a screen when it first shows
it. Nothing is imported here, so importing one module imports only what it needs.

=====================  ===========================================================================
Module                 What it holds
=====================  ===========================================================================
game.py                ``GameScreen``: a match in play, its widgets drawn, its flow run, its keys
game_host.py           the game screen as its parts see it (``GameHost``), and one another
picking.py             picking towers up and the prompt to type a move (``Picking``), and
                       ``BoardScreen``, the base of the game, puzzle and guided round screens
teaching.py            hints and analysis mode, asked of the solver in the screen's worker
match_dialogs.py       a decided round's review, the round-over and match-over dialogs, resigning
history_browsing.py    browsing the history, an earlier position shown, playing on from it
computer_turns.py      the computer's turns: its questions in the screen's worker, its move landed
clock_watch.py         a clock kept at this table: woken at zero, its time saved now and then
side_line.py           a side line: a game screen playing on from an earlier position
play_on.py             asked before a side line: against the computer, or by hand
round_over.py          the end of a round: who won, the stars, who opens the next
review.py              a finished round judged move by move, its first blunder, accuracy
match_over.py          the end of a match: the winner, the score, every round, what next
new_match.py           setting up a match: who plays, the rules, stars, discs, the seed
resume.py              the unfinished match offered at start-up
confirm.py             a yes/no question before what cannot be taken back
choice_dialog.py       a dialog that says something, then offers choices in a list
puzzle.py              puzzles: the only move that wins, a wrong answer refuted
difficulty.py          the puzzles' difficulty, chosen from a list
guided_round.py        the guided round a newcomer plays first
stats.py               matches, rounds, accuracy over time, puzzle streaks
finished.py            the finished matches kept, newest first
replay.py              a finished match replayed, each move judged
annotated_text.py      a finished match as the export writes it, to select and copy
help.py                the rules in brief and every key
command_palette.py     Textual's command palette, taking keys that arrive together in order
too_small.py           shown while the terminal is below the minimum size
quiet_focus.py         screens whose change of focus repaints only the widgets it concerns
solver_work.py         the solver or a computer player off the event loop, in one pattern
=====================  ===========================================================================
"""
