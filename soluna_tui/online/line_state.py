"""Runs in the child.

What the lobby in lines knows (``LobbyState``), shared by its parts (``line_talk.py``, ``line_pairing.py``,
``line_tables.py``) and the lobby itself (``line_lobby.py``): who this player is, who is online, the matches in play,
the challenges, the terms offered, the match followed; and saying, telling the server, the terms kept.
"""

from __future__ import annotations

from collections.abc import Callable

from ..line_mode.line_game import LineGame
from ..line_mode.runner import Runner
from ..link.messages import (
    ChallengeLine,
    ComputerOffer,
    KeepChoices,
    ListedMatch,
    LobbyChoices,
    MatchTerms,
    Request,
    SeekLine,
)
from ..play.chat_book import ChatBook
from ..rules import MatchOptions
from .line_words import DEFAULT_CHOICES
from .remote_table import RemoteTable
from .who_is_online import OnlineBook


class LobbyState:
    """The lobby's state: ``send`` tells the server, ``say`` shows lines, ``runner`` does a match's slow work,
    ``active`` tells the server the player is there."""

    def __init__(self, name: str, send: Callable[[Request], None], say: Callable[[list[str]], None],
                 runner: Runner, active: Callable[[], None] = lambda: None) -> None:
        self.name = name
        self._send = send
        self._say_lines = say
        self._runner = runner
        self._active = active
        self.online = OnlineBook()
        self.talk = ChatBook()
        self.matches: tuple[ListedMatch, ...] = ()
        self.challenges: tuple[ChallengeLine, ...] = ()
        #: The open seeks last listed (``seeks``: ``accept N`` takes the Nth, until ``challenges`` is typed), and
        #: whether a list was asked for and not told yet.
        self.seeks_listed: tuple[SeekLine, ...] = ()
        self.seeks_asked = False
        self.choices = DEFAULT_CHOICES
        self.rated = False
        self.hold_seconds = 300.0
        #: Whether a quick match is asked for and not yet paired; a match asked to be created, and the code of one
        #: created and waiting for its opponent.
        self.seeking = False
        self.creating = False
        self.waiting_code: str | None = None
        #: The code of the match this terminal follows or is about to follow; news of others is stale.
        self.following: str | None = None
        self.remote: RemoteTable | None = None
        self.game: LineGame | None = None
        #: A match against the computer the server keeps for this player, to resume; this session's secret.
        self.computer: ComputerOffer | None = None
        self.secret = ""
        self._welcomed = False
        #: The number of the last name asked for (the server's welcome that answers it carries it back).
        self._name_asked = 0
        #: The player has left (``quit``): the door closes.
        self.finished = False

    def _say(self, *lines: str) -> None:
        shown = [line for line in lines if line]
        if shown:
            self._say_lines(shown)

    @property
    def _bell(self) -> str:
        """BEL before a line that rings the terminal's bell (the opponent moved, a challenge came, a pairing was
        made), unless the player turned it off (``bell off``)."""
        return "\a" if self.choices.bell else ""

    def _terms(self) -> MatchTerms:
        """A quick match's or a challenge's terms, as this player's kept settings say (a guest's never rated)."""
        choices = self.choices
        options = MatchOptions.preset(choices.rules, stars_to_win=choices.stars, discs=choices.discs,
                                      first_opener=choices.opener)
        return MatchTerms(options.to_dict(), choices.clock, self.rated and choices.rated, choices.hints)

    def _keep(self, choices: LobbyChoices) -> None:
        """The settings as they are now, kept with a key (the server hears a guest's too, and keeps nothing)."""
        self.choices = choices
        self._send(KeepChoices(choices))
