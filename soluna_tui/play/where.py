"""Where the player is (this terminal, a match over SSH, watching one, the SSH lobby), and the keys
that work there: the help lists those and nothing else, and the palette offers what works there."""

from __future__ import annotations

from enum import StrEnum

from .looks import JUMP_KEYS


class Where(StrEnum):
    """Where the player is, as the help and the command palette see it."""

    TERMINAL = "terminal"  # a match on this terminal: two players at one keyboard, or the computer
    COMPUTER_OVER_SSH = "computer over SSH"  # against the computer over SSH (the server keeps the match)
    MATCH_OVER_SSH = "match over SSH"  # a seat in a match between two players over SSH
    WATCHING = "watching"  # a spectator of a match over SSH
    LOBBY = "lobby"  # the SSH lobby, and its dialogs

    @property
    def takes_back(self) -> bool:
        """Whether moves may be taken back (undo, redo): only where the match is this terminal's own."""
        return self in (Where.TERMINAL, Where.COMPUTER_OVER_SSH)

    @property
    def plays_alone(self) -> bool:
        """Whether nobody is waiting on the player: puzzles, statistics and the computer's pause are offered."""
        return self in (Where.TERMINAL, Where.COMPUTER_OVER_SSH, Where.LOBBY)


Keys = tuple[tuple[str, str], ...]

PICKING: Keys = (
    ("Arrows, hjkl, wasd", "move between towers (up and down move a row)"),
    (f"{JUMP_KEYS[:10]}, {JUMP_KEYS[10:]}", "jump to tower 1, 2, 3... (its key is on its top)"),
    ("Enter or Space", "pick the tower up: the towers it may go on are lit; Enter or Space on a lit "
                       "tower plays the move"),
    ("Escape", "put the tower back"),
    (":", "type a move instead: 2S>1S in notation, or 3>6 by the keys on the towers; Enter plays "
          "it, Escape closes"),
    ("Mouse", "click a tower to pick it up, click a lit tower to place it"),
)
LOOKING: Keys = (
    ("Arrows, hjkl, wasd", "move between towers (only the players move them)"),
    (f"{JUMP_KEYS[:10]}, {JUMP_KEYS[10:]}", "jump to tower 1, 2, 3... (its key is on its top)"),
)
TAKING_BACK = ("u / r", "undo / redo (against the computer: your move and its reply together); once the "
                        "match is over, r is a rematch")
REMATCH_OVER_SSH = ("r", "once the match is over: a rematch (it begins when your opponent asks too)")
TAKEBACK_OVER_SSH = ("u", "ask your opponent to take your last move back (their y accepts, n declines)")
HINTS: Keys = (
    ("H (shift+h)", "a hint, one step more per press: won or lost and in how many plies, then the "
                    "tower to move, then the whole move"),
    ("A (shift+a)", "analysis mode: under each tower its best move's outcome, W (win) or L (loss) "
                    "and the plies; pick a tower up to see each target's. Each hint step counts as a "
                    "hint used, and turning analysis on counts as one"),
)
HISTORY = ("Tab", "the move history; arrows there show earlier positions (read-only); Escape returns")
COPY_POSITION = ("Y (shift+y)", "copy the position shown in notation, as soluna analyze reads it (to the "
                                "clipboard, and on the status line)")
PLAY_ON = ("p", "in the history, a replay or a round's review: play on from the position shown, against the "
                "computer or by hand; the match is untouched (a side line)")
PLAY_ON_ONCE_OVER = ("p", "once the match is over, in its history or a round's review: play on from the "
                          "position shown, against the computer or by hand (a side line)")
PLAY_ON_REPLAYED = ("p", "in the replay of a finished match (your record): play on from the position shown, "
                         "against the computer or by hand (a side line)")
#: In a side line, instead of the match's take-backs, leaving and resigning.
SIDE_LINE_TAKING_BACK = ("u / r", "undo / redo (against the computer: your move and its reply together)")
SIDE_LINE_LEAVING: Keys = (
    ("p", "in the history: a new side line from the position shown, in place of this one"),
    ("Escape", "with no tower in hand: back to where the side line started from; it is not kept"),
)
LEAVING = {
    Where.TERMINAL: ("n", "new match"),
    Where.COMPUTER_OVER_SSH: ("n", "back to the lobby (the server keeps this match for you to resume)"),
    Where.MATCH_OVER_SSH: ("n", "back to the lobby (asked first while the match is in play: your seat is held)"),
    Where.WATCHING: ("n", "back to the lobby"),
}
#: Table talk's keys, over SSH (in a match, c picks tower 12: the chat key is C, its canned lines are in the line).
TALK: Keys = (
    ("C (shift+c)", "talk: the chat line opens (Enter says a line, Escape closes it); the lobby talks together, "
                    "a match's players between themselves, its spectators among themselves (the players read "
                    "them once the match is over)"),
    ("1 to 4", "in the empty chat line: say good luck, good game, thanks, or one moment"),
    ("/mute, /unmute", "in the chat line: mute all talk, or /mute NAME one person (they never reach you); "
                       "/unmute [NAME] hears them again; /report NAME reports their last line to the server's "
                       "owner"),
    ("/tell NAME TEXT", "in the chat line: a line to one person online alone, wherever they are"),
)
#: A player's card, over SSH: from a name in the lobby's lists, or from the players at a match.
CARD_IN_THE_LOBBY = ("i", "on a name in who is online or the leaderboard: their card (rating and its graph, records, "
                          "recent matches; t tells them something)")
CARD_AT_A_MATCH = ("I (shift+i)", "a player's card (the opponent's; i on it, the other's): rating and its graph, "
                                  "records, recent matches; t tells them something")
RESIGN = ("R (shift+r)", "resign: give the match to your opponent (asked first; it counts as a loss)")
HELP = ("?", "this help")
PALETTE = {
    Where.TERMINAL: "rematch, puzzles, statistics, finished matches replayed, the computer's pause, themes...",
    Where.COMPUTER_OVER_SSH: "rematch, puzzles, statistics, the computer's pause, themes...",
    Where.MATCH_OVER_SSH: "resign, rematch, themes...",
    Where.WATCHING: "themes, back to the lobby, quit",
    Where.LOBBY: "open seeks, tournaments, puzzles, statistics, the computer's pause, themes...",
}
QUIT = {
    Where.TERMINAL: "quit (the match is saved after every move)",
    Where.COMPUTER_OVER_SSH: "quit (asked first; the server keeps the match for you to resume)",
    Where.MATCH_OVER_SSH: "quit (asked first; your seat is held for your time away)",
    Where.WATCHING: "quit (asked first)",
    Where.LOBBY: "quit (asked first)",
}
LOBBY: Keys = (
    ("Up / Down", "the option above or below in the menu and the lists; elsewhere the setting or field "
                  "above or below"),
    ("Tab, Shift+Tab", "the next or previous part: the menu, each setting, the code field, the matches in play"),
    ("o", "who is online (each with their rating and what they are doing), in the matches' place; again, the "
          "matches; Enter on someone challenges them (with the settings shown, asked first)"),
    ("c", "your challenges, while there are any: a accepts one, d declines it, w withdraws one of yours"),
    ("t", "the tournaments: Enter opens one's standings and pairings; j joins it (with a key: you are seated at "
          "each pairing), w withdraws"),
    ("s", "the open seeks board: everyone looking for an opponent; Enter accepts one, on its terms"),
    ("b", "play in a browser (with a key, where the server has a web door): a code for its page, once, for 5 "
          "minutes; the browsers signed in as you (Enter signs one out, n makes a new code)"),
    ("Left / Right", "on a setting: its previous or next value (h / l and Space too)"),
    ("Enter", "choose the highlighted option; in the code field, join that match; in the matches in play, "
              "watch it (or take your own seat back)"),
    ("PgUp / PgDn", "a page up or down in the menu and the lists; the leaderboard's pages"),
    ("Escape", "back to the menu; in a dialog, close it"),
)


def help_keys(where: Where, hints: bool = True, *, side_line: bool = False) -> Keys:
    """The keys that work ``where`` the player is, as the help lists them; ``hints``: the match (or the side
    line) allows hints; ``side_line``: a side line is played (from a match there, or a replay)."""
    if side_line:
        rows = [*PICKING, SIDE_LINE_TAKING_BACK, *(HINTS if hints else ()), HISTORY, COPY_POSITION,
                *SIDE_LINE_LEAVING]
        palette = f"undo, redo{', hints' if hints else ''}{', puzzles' if where.plays_alone else ''}, themes..."
        return (*rows, HELP, ("Ctrl+P", f"command palette: {palette}"), ("q", QUIT[where]))
    if where is Where.LOBBY:
        rows = [*LOBBY, CARD_IN_THE_LOBBY, PLAY_ON_REPLAYED, *TALK]
    else:
        rows = list(LOOKING if where is Where.WATCHING else PICKING)
        if where.takes_back:
            rows.append(TAKING_BACK)
        elif where is Where.MATCH_OVER_SSH:
            rows += [TAKEBACK_OVER_SSH, REMATCH_OVER_SSH]
        if hints and where is not Where.WATCHING:
            rows.extend(HINTS)
        rows += [HISTORY, PLAY_ON if where.takes_back else PLAY_ON_ONCE_OVER, COPY_POSITION, LEAVING[where]]
        if where is not Where.WATCHING:
            rows.append(RESIGN)
        if where is not Where.TERMINAL:
            rows.extend(TALK)
        if where in (Where.MATCH_OVER_SSH, Where.WATCHING):
            rows.append(CARD_AT_A_MATCH)
    rows += [HELP, ("Ctrl+P", f"command palette: {PALETTE[where]}"), ("q", QUIT[where])]
    return tuple(rows)
