"""Runs in the child.

Pairing in the lobby in lines: a quick match asked for and cancelled, a challenge sent by name, the challenges
listed and answered by number, a match created to share by its code, joined by its code; and the server's answers.
"""

from __future__ import annotations

import time

from ..link.messages import (
    AcceptSeek,
    AnswerChallenge,
    CancelMatch,
    CancelSeek,
    ChallengeLine,
    ChallengePerson,
    Challenges,
    ChallengeSent,
    CreateMatch,
    JoinMatch,
    OnlinePerson,
    OpenSeeks,
    Paired,
    SecretNeeded,
    Seek,
    Seeking,
    Waiting,
    WatchSeeks,
    WithdrawChallenge,
)
from .line_state import LobbyState
from .line_words import CODE
from .screens.challenges import challenge_words
from .screens.seeking import terms_words
from .screens.seeks_board import seek_words


class PairingPart(LobbyState):
    """Quick matches, challenges, a match by its code."""

    def _challenges(self, message: Challenges) -> None:
        self.challenges = message.challenges
        new = [line for line in message.challenges if line.id in message.new and line.incoming]
        if new and self.game is None:
            self._say(*(f"{self._bell}{challenge_words(line)}. Type accept to play, or decline." for line in new))
        elif new:
            self._say(*(f"{self._bell}{challenge_words(line)}. Back in the lobby, accept plays it." for line in new))

    def _challenge_sent(self, message: ChallengeSent) -> None:
        self._say(f"Challenge sent: {message.name} is told now. Type challenges to see it, or withdraw it.")

    def _seeking(self, message: Seeking) -> None:
        self._say(f"Looking for an opponent on these terms: {terms_words(self._terms())}. "
                  "Type cancel to stop looking.")

    def _paired(self, message: Paired) -> None:
        self.seeking = False
        self.following = message.code
        self._say(f"{self._bell}Paired with {message.opponent}: the match begins.")

    def _waiting(self, message: Waiting) -> None:
        """A match made here: created to share its code, or a pair's (a quick match found, a challenge accepted),
        whose opponent sits down by themselves."""
        self.seeking = False
        self.following = message.code
        if self.creating:
            self.waiting_code = message.code
            self._say(f"Match {message.code} created. Tell your opponent its code: they type join {message.code} "
                      "(on the full screen, Join a match by code). Type cancel to cancel it.")
        else:
            self._say(f"An opponent is found: match {message.code} begins as they sit down.")
        self.creating = False

    def _secret_needed(self, message: SecretNeeded) -> None:
        self.following = None
        code = message.code or "CODE"
        self._say(f"That seat is held for the player who left it: type join {code} and its secret, like join {code} "
                  "KQXPMR, to come back to it.")

    def _cmd_quick(self, argument: str) -> None:
        if self.seeking:
            self._say("You are looking for an opponent already: type cancel to stop.")
            return
        self.seeking = True
        self._say("Looking for an opponent...")
        self._send(Seek(self._terms()))

    def _cmd_create(self, argument: str) -> None:
        terms = self._terms()
        self.creating, self.seeking = True, False
        self._send(CreateMatch(terms.options, terms.hints, terms.clock))

    def _cmd_join(self, argument: str) -> None:
        code, _, secret = argument.upper().partition(" ")
        if not CODE.fullmatch(code):
            self._say("Which match? Type join and its four-letter code, like join ABCD.")
            return
        self.following = code
        self._send(JoinMatch(code, self.choices.hints, secret.replace(" ", "").replace("-", "") or None))

    def _cmd_cancel(self, argument: str) -> None:
        if self.waiting_code is not None:
            self.waiting_code = self.following = None
            self._send(CancelMatch())
            self._say("Match cancelled.")
            return
        if not self.seeking:
            self._say("You are not looking for an opponent, nor waiting for one.")
            return
        self.seeking = False
        self._send(CancelSeek())
        self._say("You stopped looking for an opponent.")

    def _others(self) -> list[OnlinePerson]:
        return [person for person in self.online.people if person.id != self.online.you]

    def _cmd_challenge(self, argument: str) -> None:
        names = ", ".join(person.name for person in self._others())
        if not argument:
            self._say("Whom? Type challenge and a name, like challenge bob. "
                      + (f"Online: {names}." if names else "Nobody else is online."))
            return
        wanted = argument.casefold()
        found = [person for person in self._others() if person.name.casefold() == wanted]
        if not found:
            self._say(f"Nobody called {argument[:40]} is online. " + (f"Online: {names}." if names else ""))
            return
        if len(found) > 1:
            self._say(f"{len(found)} people online are called {found[0].name}: the first is challenged.")
        self._send(ChallengePerson(found[0].id, self._terms()))

    def _cmd_seeks(self, argument: str) -> None:
        """The open seeks, asked of the server once (told when they come: ``_open_seeks``)."""
        self.seeks_asked = True
        self._send(WatchSeeks(True))

    def _open_seeks(self, message: OpenSeeks) -> None:
        """The open seeks asked for, numbered for ``accept N``; the server tells no more changes (lines stay quiet)."""
        if not self.seeks_asked:
            return
        self.seeks_asked = False
        self._send(WatchSeeks(False))
        self.seeks_listed = tuple(line for line in message.seeks if not line.yours)
        if not self.seeks_listed:
            self._say("Nobody else is looking for an opponent right now. Type quick to be paired with the next.")
            return
        now = time.time()
        self._say(*(f"{number}. {seek_words(line, now)}." for number, line in enumerate(self.seeks_listed, 1)),
                  "Type accept 1 to play the first on their terms.")

    def _cmd_challenges(self, argument: str) -> None:
        self.seeks_listed = ()  # accept N is a challenge's number again
        if not self.challenges:
            self._say("No challenges to or from you. Type challenge NAME to send one.")
            return
        self._say(*(f"{number}. {challenge_words(line)}." for number, line in enumerate(self.challenges, 1)),
                  "Type accept 1 or decline 1 for a challenge to you, withdraw 1 for one of yours.")

    def _challenge(self, argument: str, incoming: bool) -> ChallengeLine | None:
        """The challenge numbered ``argument`` (or the only one, or the newest to this player)."""
        if argument:
            if argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.challenges):
                line = self.challenges[int(argument) - 1]
                if line.incoming == incoming:
                    return line
            self._say(f"No challenge {'to' if incoming else 'from'} you numbered {argument[:8]}. "
                      "Type challenges for the list.")
            return None
        lines = [line for line in self.challenges if line.incoming == incoming]
        if not lines:
            self._say(f"No challenge {'to' if incoming else 'from'} you.")
            return None
        return lines[-1]

    def _cmd_accept(self, argument: str) -> None:
        if self.seeks_listed and argument.isascii() and argument.isdigit():
            self._accept_seek(int(argument))
            return
        line = self._challenge(argument, incoming=True)
        if line is not None:
            self._say(f"Accepting {line.name}'s challenge...")
            self._send(AnswerChallenge(line.id, True))

    def _accept_seek(self, number: int) -> None:
        if not 1 <= number <= len(self.seeks_listed):
            self._say(f"No seek numbered {number}. Type seeks for the list.")
            return
        line = self.seeks_listed[number - 1]
        self._say(f"Accepting {line.name}'s seek...")
        self._send(AcceptSeek(line.key, self.choices.hints))

    def _cmd_decline(self, argument: str) -> None:
        line = self._challenge(argument, incoming=True)
        if line is not None:
            self._send(AnswerChallenge(line.id, False))

    def _cmd_withdraw(self, argument: str) -> None:
        line = self._challenge(argument, incoming=False)
        if line is not None:
            self._send(WithdrawChallenge(line.id))
            self._say(f"Challenge to {line.name} withdrawn.")
