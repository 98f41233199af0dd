"""Help: the rules in brief and every key."""

from __future__ import annotations

import textwrap

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..play.where import Keys, Where, help_keys
from ..rules import Symbol
from ..rules.clock import ClockSetting
from ..rules.strengths import CALIBRATED_DISCS, LEVEL_BELOW
from ..rules.wording import minutes, plural
from ..terminal.glyphs import Glyphs
from ..widgets.key_footer import KeyFooter
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted

#: Width of the key table, so its descriptions wrap inside their column, never twice.
TEXT_WIDTH = 66
KEY_WIDTH = 20

RULES = (
    "Discs lie on the table, each its own tower, each showing a symbol. On your turn, put one whole tower "
    "on another tower that has the same height or the same symbol on top (or both). The new tower keeps "
    "the symbol of the tower you moved. Towers are never split. The player who cannot move loses the "
    "round, and the winner gets a star; the first to the match's stars (4 unless chosen otherwise) wins "
    "the match.\n\n"
    "Box rules: every round starts from the same layout, and the loser of a round chooses to open the "
    "next one or to move second. Online rules: every round gets a new layout, and the loser opens.\n\n"
    "Notation: a tower is its height and symbol (3M); a move is A>B, tower A put on tower B (2*>2M).\n\n"
    "Perfect play: a position is won or lost for the player to move. \"Win in 5 plies\" means 5 moves, "
    "both players' together, to leave the opponent without a move; a lost position is held out as long "
    "as possible."
)

GUIDED_ROUND = "New to Soluna? Press g for the guided round: four steps on a small round against the computer."


def symbols_line(glyphs: Glyphs) -> str:
    return "Symbols: " + ", ".join(f"{symbol.word} {glyphs.symbol(symbol)} ({symbol.letter})" for symbol in Symbol)


def keys_text(keys_listed: Keys) -> str:
    """The keys as two columns, each description wrapped inside its own column."""
    lines = []
    indent = " " * (KEY_WIDTH + 2)
    for keys, description in keys_listed:
        wrapped = textwrap.wrap(description, TEXT_WIDTH - KEY_WIDTH - 2)
        if len(keys) < KEY_WIDTH:
            lines.append(f"  {keys:<{KEY_WIDTH}}{wrapped[0]}")
        else:  # keys too long for their column: on a line of their own
            lines.extend([f"  {keys}", indent + wrapped[0]])
        lines.extend(indent + more for more in wrapped[1:])
    return "\n".join(lines)


def server_rules_text(hold_seconds: float, clocks: tuple[ClockSetting, ...], ranked_after: int,
                      ranked_opponents: int = 0, pair_rated_per_day: int = 0) -> str:
    """This server's rules for matches between players, as its lobby's help says them."""
    if clocks:
        offered = "; ".join(f"{clock.label}: {clock.words}" for clock in clocks)
        clock = (f"A match may be created with a clock ({offered}). The clock of the player to move runs (between "
                 "rounds, the loser's) even while they are away; whoever runs out of time loses on time.")
    else:
        clock = "This server offers no clocks."
    return (f"Time away: a player who leaves a match (or loses the connection) may come back with the same key or "
            f"the secret shown beside the board. Time away adds up over a match: {minutes(hold_seconds)} in all, "
            "then the opponent wins by forfeit.\n\n"
            f"{clock}\n\n"
            f"{rated_text(ranked_after, ranked_opponents, pair_rated_per_day)}")


def rated_text(ranked_after: int, ranked_opponents: int, pair_rated_per_day: int) -> str:
    """What is rated on this server, and whom its leaderboard lists."""
    matches = plural(ranked_after, "rated match", "rated matches")
    listed = f"The leaderboard lists a player after {matches}"
    if ranked_opponents > 0:
        opponents = plural(ranked_opponents, "established opponent", "different established opponents")
        listed += (f", against at least {opponents} (players the server trusts: named by its owner, or who have "
                   "played established opponents themselves)")
    pair = (f" The same two players' matches move their ratings at most {plural(pair_rated_per_day, 'time', 'times')}"
            " in 24 hours." if pair_rated_per_day > 0 else "")
    return ("Rated: matches between two players who came with SSH keys, from different addresses, once a round has "
            "been decided on the board. A match that ends before that (a player leaves, resigns or runs out of time) "
            "is not rated for either player; before both players have moved it is aborted."
            f"{pair} {listed}.\n\n{computer_rated_text(pair_rated_per_day)}")


def computer_rated_text(per_day: int) -> str:
    """What is rated against the computer (``server/rating_model.py``)."""
    day = f", at most {plural(per_day, 'time', 'times')} a level in 24 hours" if per_day > 0 else ""
    return (f"Against the computer: with an SSH key, Hints off and {CALIBRATED_DISCS} discs, a match is rated against "
            "the level's rating, which never moves: no hints, no take-backs. Leaving it does not undo it: starting "
            "another rated match gives it up, lost. A level counts while its rating is at most "
            f"{LEVEL_BELOW} below yours{day}, once a round has been decided on the board; these matches count toward "
            "no leaderboard threshold.")


#: ``?`` on a dialog: a modal screen keeps the app's own keys from reaching it.
HELP_BINDING = Binding("question_mark", "app.help", "Help", show=False)
#: The same, shown in the footer: on the first screen a newcomer sees, where to learn the rest.
SHOWN_HELP_BINDING = Binding("question_mark", "app.help", "Help")


class HelpScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
        Binding("g", "guided_round", "Guided round"),
    ]

    def __init__(self, glyphs: Glyphs, server_rules: str = "", where: Where = Where.TERMINAL,
                 hints: bool = True, *, side_line: bool = False) -> None:
        """``server_rules``: over SSH, the server's rules for matches between players (``server_rules_text``);
        ``where``, ``hints`` (the match allows them) and ``side_line`` (one is played): which keys work
        where the player is."""
        super().__init__()
        self.glyphs = glyphs
        self.server_rules = server_rules
        self.where = where
        self.keys = help_keys(where, hints, side_line=side_line)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            if self.where is Where.TERMINAL:  # first, where a newcomer looks
                yield Static(f"{GUIDED_ROUND}\n", id="help-guided", markup=False)
            yield Static("THE RULES IN BRIEF", classes="help-heading", markup=False)
            yield Static(f"{RULES}\n\n{symbols_line(self.glyphs)}", markup=False)
            if self.server_rules:
                yield Static("ON THIS SERVER", classes="help-heading", markup=False)
                yield Static(self.server_rules, markup=False)
            yield Static("KEYS", classes="help-heading", markup=False)
            yield Static(keys_text(self.keys), id="help-keys", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        help_text = self.query_one("#help")
        help_text.border_title = "Soluna help"
        help_text.border_subtitle = "arrows/PgDn scroll, Esc closes"
        help_text.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "guided_round":
            return self.where is Where.TERMINAL  # the guided round is this terminal's, not a session's
        return True

    def action_guided_round(self) -> None:
        """``g``: the help gives way to the guided round."""
        self.dismiss(None)
        self.app.call_later(self.app.run_action, "guided_round")
