"""The lobby's menu: what the player can do from the lobby, a match to come back to first.

Its entries follow what the server offers (quick matches, a name to choose, a browser to sign in) and what it
keeps for this player (a held seat, a match against the computer); the screen hands them down (``offer``), and
hears the choice as the menu's ``OptionSelected``.
"""

from __future__ import annotations

from textual.widgets.option_list import Option

from ...widgets.menu import Menu

RESUME = ("resume", "Resume computer match")
RETURN = ("return", "Return to your match")
#: Offered to a player with a key (rated), whose name is kept with it.
NAME = ("name", "Choose your name")
#: Offered where the server pairs players (``Welcome.quick_match``).
QUICK = ("quick", "Find me an opponent")
#: Offered to a player with a key over SSH where the server has a web door (``Welcome.browser_link``).
BROWSER = ("browser", "Play in a browser")
#: The tournaments: the list, each one's page, joining (``t`` too).
TOURNAMENTS = ("tournaments", "Tournaments")
MENU = (
    ("computer", "Play the computer"),
    ("create", "Create a match"),
    ("join", "Join a match by code"),
    ("watch", "Watch a match"),
    ("leaderboard", "Leaderboard"),
    ("record", "Your record"),
    ("quit", "Quit"),
)


def menu_entries(*, held_seat: bool, computer_match: bool, rated: bool | None, browser_link: bool,
                 quick_match: bool) -> tuple[tuple[str, str], ...]:
    """The menu's entries, a match to come back to (a held seat, a computer match) first, Quit last."""
    return (((RETURN,) if held_seat else ()) + ((RESUME,) if computer_match else ()) + MENU[:-1]
            + ((NAME,) if rated else ()) + ((BROWSER,) if browser_link else ()) + (TOURNAMENTS,)
            + ((QUICK,) if quick_match else ()) + MENU[-1:])


class LobbyMenu(Menu):
    """The lobby's menu (``#lobby-menu``)."""

    def __init__(self) -> None:
        super().__init__(*(Option(text, id=key) for key, text in MENU), id="lobby-menu")

    def offer(self, entries: tuple[tuple[str, str], ...]) -> None:
        """These entries, drawn again only if they changed."""
        keys = [key for key, _ in entries]
        shown = [self.get_option_at_index(index).id for index in range(self.option_count)]
        if shown == keys:
            return
        highlighted = shown[self.highlighted] if self.highlighted is not None else None
        self.clear_options()
        self.add_options([Option(text, id=key) for key, text in entries])
        # A match to come back to, new in the menu, is most likely what the player came for: it is highlighted. Any
        # other entry coming (the server's word on quick matches, a name to choose) leaves the highlight where it was:
        # a key pressed meanwhile still chooses what the player saw.
        comeback = bool({RETURN[0], RESUME[0]} & (set(keys) - set(shown)))
        self.highlighted = 0 if comeback or highlighted not in keys else keys.index(highlighted)
