"""The store: one database (``database.Database``: connections, transactions, schema, news of changes)
and what it keeps, a part for each kind, all sharing that database's transactions.

``store.matches`` (matches in play), ``store.finished`` (finished matches, filed and rated),
``store.players`` (players by key, their names and records), ``store.ratings`` (the leaderboard),
``store.servers`` (servers sharing the database), ``store.computer_games`` (matches against the
computer kept for their players), ``store.secret_tries`` (how often secrets were guessed), ``store.chat``
(table talk the owner keeps: lines reported, and a match's talk with ``--keep-chat``), ``store.talk_rooms`` (how many
lines each room of talk may take now) and ``store.pairing``
(players waiting for a quick match, and challenges), ``store.cards`` (a player's card, read in one go) and
``store.browsers`` (browsers signed in as keyed
players, and the codes that sign them in); ``store.tournaments`` (tournaments, their entrants and pairings).
A backend (``sqlite.py``, ``postgres.py``) is a ``Storage``.
"""

from __future__ import annotations

from abc import ABC

from .browsers import Browsers
from .cards import PlayerCards
from .chat import ChatKept
from .computer_games import ComputerGames
from .database import Database
from .finished import FinishedMatches
from .matches import MatchesInPlay
from .pairing import Pairing
from .players import Players
from .ratings import Ratings
from .secret_tries import SecretTries
from .servers import Servers
from .talk_rooms import TalkRooms
from .tournaments import Tournaments


class Storage(Database, ABC):
    """Players, matches in play, finished matches and ratings, shared by every server using one database.

    Open with ``await open_storage(...)`` (migrated and ready), close with ``await store.close()``.
    Every method of every part is a coroutine that never blocks the event loop; failures are ``StorageError``s.
    """

    def __init__(self, read_only: bool = False) -> None:
        super().__init__(read_only)
        self.ratings = Ratings(self)
        self.finished = FinishedMatches(self, self.ratings)
        self.matches = MatchesInPlay(self, self.finished)
        self.players = Players(self, self.ratings, self.finished)
        self.cards = PlayerCards(self, self.players, self.ratings, self.finished)
        self.servers = Servers(self)
        self.computer_games = ComputerGames(self)
        self.secret_tries = SecretTries(self)
        self.chat = ChatKept(self)
        self.talk_rooms = TalkRooms(self)
        self.pairing = Pairing(self)
        self.browsers = Browsers(self)
        self.tournaments = Tournaments(self)
