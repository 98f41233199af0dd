"""Runs in the child.

What the lobby in lines says and takes (``line_lobby.py``): its numbered menu, the words and their short forms, the
terms offered when the server kept none, and the lines that say someone online, a match in play, the server's news
worded for the full screen's keys.
"""

from __future__ import annotations

import re

from ..link.messages import (
    Doing,
    ListedMatch,
    LobbyChoices,
    OnlinePerson,
)
from ..rules.match import DEFAULT_STARS
from ..rules.strengths import FIRST_MATCHED

#: The lobby's menu: each entry's number, the word that asks for it, and what it does.
MENU = (
    ("1", "computer", "computer: play the computer (computer 5: at level 5, of 1 to 10)."),
    ("2", "quick", "quick: a quick match, paired with the next player who asks on the same terms. seeks: the "
                   "players looking for one, by number; accept 2 plays the second on their terms."),
    ("3", "challenge", "challenge NAME: challenge someone online to a match; create makes one to share by its "
                       "code, join ABCD joins one."),
    ("4", "challenges", "challenges: the challenges to and from you; accept, decline or withdraw them."),
    ("5", "who", "who: who is online, and what they are doing; leaderboard and record tell the rankings and "
                 "yours; finger NAME tells someone's card."),
    ("6", "matches", "matches: the matches in play, by number; watch 2 watches the second. tournaments: the "
                     "tournaments, by number; join 2 enters the second."),
    ("7", "talk", "talk: the lobby's last lines of talk; say TEXT says a line to the lobby; tell NAME TEXT to one "
                  "person alone; mute NAME, unmute NAME, report NAME."),
    ("8", "terms", "terms: the terms you offer (stars 2, discs 8 and rules online change them)."),
    ("9", "help", "help: this menu; remember opens Soluna in lines on every visit with your key, forget undoes it."),
    ("0", "quit", "quit: leave Soluna."),
)
#: Every word the lobby takes, and their short and spoken forms.
LOBBY_WORDS = frozenset({"quick", "challenge", "challenges", "who", "matches", "talk", "help", "quit", "watch",
                         "accept", "decline", "withdraw", "cancel", "say", "return", "menu", "terms", "stars", "discs",
                         "rules", "computer", "resume", "remember", "forget", "create", "join", "leaderboard",
                         "record", "name", "mute", "unmute", "report", "tournaments", "tournament", "finger", "card",
                         "tell", "replay", "seeks"})
LOBBY_ALIASES = {**{number: word for number, word, _ in MENU}, "?": "help", "q": "quit", "exit": "quit",
                 "bye": "quit", "online": "who", "w": "watch", "stop": "cancel", "chat": "talk", "m": "menu",
                 "c": "computer"}
#: Words that, in a match, go back to the lobby (``quit`` too: the session ends from the lobby).
BACK_TO_LOBBY = frozenset({"lobby", "leave", "quit", "q", "exit", "bye"})
#: A match's code, as ``join`` takes it.
CODE = re.compile(r"[A-Z]{4}")
#: The most of a name typed that is sent (the server says what is wrong with a name; a page pasted is not sent).
LONGEST_NAME_TYPED = 80
#: The recent matches ``record`` tells.
RECENT_TOLD = 5
#: The lines of talk ``talk`` reads back.
TALK_READ_BACK = 5
#: A quick match's or a challenge's terms when the server kept no settings for this player: the lobby's own.
DEFAULT_CHOICES = LobbyChoices(level=FIRST_MATCHED.level, rules="box", stars=DEFAULT_STARS, discs=12, opener=0,
                               hints=False)
#: News from the server worded for the full screen's keys, and the line mode's words for it.
FULL_SCREEN_WORDS = {"You are watching: n returns to the lobby.": "",
                     "press r to play again": "type rematch to play again"}
DOING_WORDS = {Doing.LOBBY: "in the lobby", Doing.WAITING: "waiting for an opponent", Doing.PLAYING: "playing",
               Doing.WATCHING: "watching", Doing.COMPUTER: "playing the computer"}


def in_lines(notice: str) -> str | None:
    """The server's news as the line mode says it: the full screen's keys in the line mode's words (``None``: news
    only the full screen needs)."""
    for keys, words in FULL_SCREEN_WORDS.items():
        notice = notice.replace(keys, words)
    return notice.strip() or None


def person_words(person: OnlinePerson, you: int | None) -> str:
    """``bob (1021), playing ann``, ``ann (you, guest), in the lobby``: someone online as the list says them."""
    standing = str(person.rating) if person.rating is not None else "" if person.keyed else "guest"
    facts = [fact for fact in ("you" if person.id == you else "", standing) if fact]
    about = f" ({', '.join(facts)})" if facts else ""
    whom = " and ".join(person.others)
    if whom:
        whom = f" at level {whom}" if person.doing is Doing.COMPUTER else f" {whom}"
    return f"{person.name}{about}, {DOING_WORDS.get(person.doing, str(person.doing))}{whom}"


def listed_words(number: int, listed: ListedMatch) -> str:
    """``2: ann against bob, round 1, stars 0 to 0, 1 watching``: a match in play as ``matches`` says it."""
    watchers = f", {listed.watchers} watching" if listed.watchers else ""
    yours = ", your seat: type return to go back to it" if listed.yours else ""
    return (f"{number}: {listed.players[0]} against {listed.players[1]}, round {listed.round}, "
            f"stars {listed.stars[0]} to {listed.stars[1]}{watchers}{yours}.")
