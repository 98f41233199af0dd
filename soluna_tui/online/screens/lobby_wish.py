"""What the lobby's screens (the lobby, the leaderboard, a record, the name chooser) send up: wishes.

A screen shown over SSH only gathers what the player wants and posts it as a ``LobbyWish``; the
session's app grants each (most by asking the server), all through one handler. The lobby's own wishes are here
(its panes post them); a dialog's are its own (``ChallengesScreen.Answer``, ``RecordScreen.ReplayWanted``...).
"""

from __future__ import annotations

from textual.message import Message

from ...link.messages import LobbyChoices, MatchTerms
from ...local.match_setup import MatchSetup
from ...rules import MatchOptions
from ...rules.clock import ClockSetting


class LobbyWish(Message):
    """Something the player wants that the screen cannot do itself; the app that shows it grants it."""


class PlayComputer(LobbyWish):
    def __init__(self, setup: MatchSetup) -> None:
        super().__init__()
        self.setup = setup


class CreateMatch(LobbyWish):
    def __init__(self, options: MatchOptions, hints: bool, clock: ClockSetting | None = None) -> None:
        super().__init__()
        self.options = options
        self.hints = hints
        self.clock = clock


class JoinMatch(LobbyWish):
    """Join by code; ``secret`` proves a returning player without their key."""

    def __init__(self, code: str, hints: bool, secret: str | None = None) -> None:
        super().__init__()
        self.code = code
        self.hints = hints
        self.secret = secret


class ResumeComputer(LobbyWish):
    def __init__(self, secret: str | None = None) -> None:
        super().__init__()
        self.secret = secret


class WatchMatch(LobbyWish):
    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code


class ShowLeaderboard(LobbyWish):
    """The player asked for the leaderboard."""


class ShowRecord(LobbyWish):
    """The player asked for their record."""


class ShowTournaments(LobbyWish):
    """The player asked for the tournaments (``t``, or the menu)."""


class ChooseName(LobbyWish):
    """A player with a key asked to choose the name kept with it."""


class QuickMatch(LobbyWish):
    """Find me an opponent on these terms."""

    def __init__(self, terms: MatchTerms) -> None:
        super().__init__()
        self.terms = terms


class Challenge(LobbyWish):
    """Challenge someone in the list of who is online (by the number the server tells them by)."""

    def __init__(self, person: int, name: str, terms: MatchTerms) -> None:
        super().__init__()
        self.person, self.name, self.terms = person, name, terms


class ShowChallenges(LobbyWish):
    """The player asked for their challenges."""


class ShowSeeks(LobbyWish):
    """The player asked for the open seeks board (``s``, or the palette)."""


class ChoicesChanged(LobbyWish):
    """The lobby's settings changed and then stayed so a moment (or a menu item was chosen with them)."""

    def __init__(self, choices: LobbyChoices) -> None:
        super().__init__()
        self.choices = choices
