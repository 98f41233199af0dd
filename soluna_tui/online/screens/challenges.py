"""The challenges of a player over SSH: those to answer (accept or decline) and those they sent (withdraw).
The lobby's menu opens it ("Challenges"); the app hands it each new list the server tells."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from ...link.messages import ChallengeLine
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from ...widgets.menu import Menu
from .lobby_wish import LobbyWish
from .seeking import terms_words


def challenge_words(line: ChallengeLine) -> str:
    """One challenge as its line says it, from this player's side."""
    if line.incoming:
        rating = f" ({line.rating})" if line.rating is not None else ""
        return f"{line.name}{rating} challenges you: {terms_words(line.terms)}"
    waits = f" ({line.name} is at a match: told once back)" if line.waiting else ""
    return f"You challenged {line.name}: {terms_words(line.terms)}{waits}"


class ChallengesScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Enter or ``a`` accepts the challenge highlighted, ``d`` declines it, ``w`` withdraws one of this player's."""

    AUTO_FOCUS = "#challenges-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept"),
        Binding("d", "decline", "Decline"),
        Binding("w", "withdraw", "Withdraw"),
        Binding("escape", "close", "Back"),
        HELP_BINDING,
    ]

    class Answer(LobbyWish):
        def __init__(self, challenge: int, accept: bool) -> None:
            super().__init__()
            self.challenge = challenge
            self.accept = accept

    class Withdraw(LobbyWish):
        def __init__(self, challenge: int) -> None:
            super().__init__()
            self.challenge = challenge

    def __init__(self, lines: tuple[ChallengeLine, ...]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="challenges", classes="dialog"):
            yield Menu(id="challenges-list", markup=False)
            yield Static("", id="challenges-none", markup=False)
            yield Static("", id="challenges-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#challenges").border_title = "Challenges"
        self.show(self.lines)

    def show(self, lines: tuple[ChallengeLine, ...]) -> None:
        """The challenges as the server last said (the highlight stays on the one it was on)."""
        menu = self.query_one("#challenges-list", Menu)
        was = self._highlighted()
        self.lines = lines
        menu.set_options([challenge_words(line) for line in lines])
        ids = [line.id for line in lines]
        if lines:
            menu.highlighted = ids.index(was.id) if was is not None and was.id in ids else 0
        menu.display = bool(lines)
        none = self.query_one("#challenges-none", Static)
        none.update("No challenges right now. Challenge someone: o lists who is online, Enter on a name.")
        none.display = not lines
        self.refresh_bindings()

    def say(self, text: str) -> None:
        self.query_one("#challenges-status", Static).update(text)

    def _highlighted(self) -> ChallengeLine | None:
        if not self.is_mounted:
            return None
        index = self.query_one("#challenges-list", Menu).highlighted
        return self.lines[index] if index is not None and index < len(self.lines) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Accept and Decline for a challenge to this player, Withdraw for one of theirs: only what the highlighted
        one allows is offered (none with no challenge)."""
        if action in ("accept", "decline", "withdraw"):
            line = self._highlighted()
            return line is not None and line.incoming == (action != "withdraw")
        return True

    @on(OptionList.OptionHighlighted, "#challenges-list")
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.refresh_bindings()

    @on(OptionList.OptionSelected, "#challenges-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_accept()

    def action_accept(self) -> None:
        line = self._highlighted()
        if line is None or not line.incoming:
            self.say("That is your own challenge: w withdraws it." if line is not None else "")
            return
        self.post_message(self.Answer(line.id, accept=True))
        self.dismiss(None)

    def action_decline(self) -> None:
        line = self._highlighted()
        if line is not None and line.incoming:
            self.post_message(self.Answer(line.id, accept=False))
            self.say(f"Declined: {line.name} is told.")

    def action_withdraw(self) -> None:
        line = self._highlighted()
        if line is not None and not line.incoming:
            self.post_message(self.Withdraw(line.id))
            self.say(f"Withdrawn: {line.name} no longer sees it.")

    def action_close(self) -> None:
        self.dismiss(None)
