"""The words a player of a match in lines may type: every command with what ``help`` says of it, their short and
spoken forms, and the answers that mean yes (a catalogue, read by ``line_reading.py`` and ``match_questions.py``).
"""

from __future__ import annotations

#: Every command, with the line ``help`` says of it.
COMMANDS = {
    "board": "board: every tower, by its number.",
    "tower": "tower 7: tower 7, where it can go and what can come onto it.",
    "moves": "moves: the legal moves, by the tower that moves.",
    "last": "last: the last move.",
    "stars": "stars: the stars each player has won.",
    "clock": "clock: the time each player has left.",
    "hint": "hint: a hint, one step more each time (the verdict, the tower, the move).",
    "analysis": "analysis: every move marked as a win or a loss (counts as a hint).",
    "undo": "undo: take your last move back.",
    "review": "review: the last round judged move by move (review 2: round 2).",
    "history": "history: every move of the match.",
    "stats": "stats: your statistics.",
    "resign": "resign: give the match up.",
    "help": "help: these lines.",
    "quit": "quit: leave; an unfinished match is saved and offered next time.",
    # Only between rounds and after the match; said when they apply.
    "next": "",
    "open": "",
    "second": "",
    "rematch": "",
}
#: Short and spoken forms of the commands.
ALIASES = {"b": "board", "t": "tower", "m": "moves", "l": "last", "s": "stars", "c": "clock", "h": "hint",
           "a": "analysis", "u": "undo", "?": "help", "q": "quit", "exit": "quit", "bye": "quit",
           "takeback": "undo", "time": "clock", "score": "stars", "where": "board", "n": "next", "legal": "moves"}
WORDS = frozenset(COMMANDS)
HELP_LINES = (
    "Type a move as two tower numbers: 3>7 puts tower 3 onto tower 7 (3 onto 7 works too), "
    "or in notation, 1M>1M. A tower goes onto one of the same height or with the same symbol on top; "
    "the player left without a move loses the round.",
    "Commands: " + " ".join(text for text in COMMANDS.values() if text),
)
#: Answers to "yes" to a question (resigning).
YES = frozenset({"yes", "y", "resign"})
