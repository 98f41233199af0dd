"""Over SSH, a player's card (``i`` on a name): their rating and its graph over their last rated matches, their
record against everyone and against this player, their recent matches (Enter replays one) and since when the
server knows them; a guest's card is their name and this visit's matches. ``t`` tells them something."""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...link.messages import PlayerCard, RecentMatch
from ...rules.wording import plural
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish
from .record import describe_recent

#: The graph's heights, lowest first: blocks, or 7-bit characters in ASCII mode.
GRAPH_LEVELS = "▁▂▃▄▅▆▇█"
ASCII_GRAPH_LEVELS = "_.-=+*#"


def rating_graph(points: tuple[int, ...], ascii_mode: bool = False) -> str:
    """The ratings as one line of heights (``▁▃▅█``), each scaled between the lowest and the highest."""
    levels = ASCII_GRAPH_LEVELS if ascii_mode else GRAPH_LEVELS
    if not points:
        return ""
    low, high = min(points), max(points)
    if high == low:
        return levels[len(levels) // 2] * len(points)
    return "".join(levels[round((point - low) * (len(levels) - 1) / (high - low))] for point in points)


def card_text(card: PlayerCard, ascii_mode: bool = False, drawn: bool = True) -> str:
    """The card's lines above its recent matches: who, their rating and its graph (``drawn`` False: in words, for
    the lines a screen reader reads), their record (and against the player looking), since when they are known."""
    if not card.keyed:
        decided = plural(card.played, "match", "matches")
        return (f"{card.name}: a guest, unrated.\n"
                f"This visit: {decided} finished, {card.won} won, {card.lost} lost.")
    if card.rating is None:
        lines = [f"{card.name}: no rating yet."]
    else:
        rank = f"rank {card.rank}" if card.rank is not None else "not ranked yet"
        lines = [f"{card.name}: rating {card.rating}, {rank}."]
    if len(card.graph) > 1:
        over = f"{card.graph[0]} to {card.graph[-1]} over {plural(len(card.graph) - 1, 'rated match', 'rated matches')}"
        lines.append(f"{rating_graph(card.graph, ascii_mode)}  {over}" if drawn else
                     f"Rating {over}, between {min(card.graph)} and {max(card.graph)}.")
    lines.append(f"{plural(card.played, 'rated match', 'rated matches')}: {card.won} won, {card.lost} lost.")
    if card.against_you is not None:
        won, lost = card.against_you
        lines.append(f"Against you: {won} won, {lost} lost." if won or lost else "Never played against you.")
    if card.member_since is not None:
        lines.append(f"Known here since {time.strftime('%Y-%m-%d', time.gmtime(card.member_since))}.")
    return "\n".join(lines)


class CardWanted(LobbyWish):
    """The card of the person the server tells as ``person`` (``OnlinePerson.id``...), shown as ``name`` meanwhile;
    ``others``: the other people at the same table (``i`` on the card shows the next)."""

    def __init__(self, person: int, name: str, others: tuple[tuple[int, str], ...] = ()) -> None:
        super().__init__()
        self.person, self.player_name, self.others = person, name, others


class PlayerCardScreen(QuietFocus, StyledAsMounted, ModalScreen[str | None]):
    """Attributes down: the app gives the server's answer (``show_card``), or a refusal (``refused``), whenever it
    comes. ``ReplayWanted`` and ``CardWanted`` (the next at the table) go up; ``t`` dismisses the card with the
    start of a tell to its player (``/tell NAME ``), for the talk's line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("t", "tell", "Tell"),
        Binding("i", "next_player", "Other player", show=False),
        HELP_BINDING,
    ]

    class ReplayWanted(LobbyWish):
        def __init__(self, screen: PlayerCardScreen, match_id: int) -> None:
            super().__init__()
            self.screen = screen
            self.match_id = match_id

        @property
        def control(self) -> PlayerCardScreen:
            return self.screen

    def __init__(self, name: str, people: tuple[tuple[int, str], ...] = (), ascii_mode: bool = False) -> None:
        """``name``: whose card is asked; ``people``: the players at the table (``i`` goes from one to the other)."""
        super().__init__()
        self.player_name = name
        self.people = people
        self.ascii_mode = ascii_mode
        self.card: PlayerCard | None = None
        self._status = ("", False)
        self._ready = False

    @property
    def recent(self) -> tuple[RecentMatch, ...]:
        return self.card.recent if self.card is not None else ()

    def compose(self) -> ComposeResult:
        with Vertical(id="player-card", classes="dialog"):
            yield Static("Asking the server...", id="player-card-summary", markup=False)
            yield Static("Recent matches (Enter replays one)", id="player-card-recent-title")
            yield OptionList(id="player-card-recent")
            yield Static("", id="player-card-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#player-card").border_title = f"Card: {self.player_name}"
        self.query_one("#player-card-recent").focus()
        self._ready = True
        self._draw()

    def show_card(self, card: PlayerCard) -> None:
        self.card, self.player_name = card, card.name
        self._status = ("" if card.recent else "No finished match yet.", False)
        self._draw()

    def say(self, text: str, error: bool = False) -> None:
        self._status = (text, error)
        self._draw()

    def refused(self, text: str) -> None:
        """The server could not answer (a guest gone, a match not on record): why, in one line."""
        self.say(text, error=True)

    def _draw(self) -> None:
        if not self._ready:
            return
        card = self.card
        self.query_one("#player-card").border_title = f"Card: {self.player_name}"
        listing = self.query_one("#player-card-recent", OptionList)
        summary = self.query_one("#player-card-summary", Static)
        summary.update(card_text(card, self.ascii_mode) if card is not None else "Asking the server...")
        listing.clear_options()
        if card is not None:
            listing.add_options([Option(describe_recent(entry)) for entry in card.recent])
            if card.recent:
                listing.highlighted = 0
        listing.display = bool(self.recent)
        self.query_one("#player-card-recent-title").display = bool(self.recent)
        text, error = self._status
        status = self.query_one("#player-card-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @on(OptionList.OptionSelected, "#player-card-recent")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.recent):
            self.say("Fetching the match...")
            self.post_message(self.ReplayWanted(self, self.recent[event.option_index].id))

    def action_tell(self) -> None:
        self.dismiss(f"/tell {self.player_name} ")

    def action_next_player(self) -> None:
        """At a table: the card of the other player there."""
        shown = self.card.person if self.card is not None else None
        others = [each for each in self.people if each[0] != shown]
        if others:
            self.card = None
            self.player_name = others[0][1]
            self._status = ("Asking the server...", False)
            self.post_message(CardWanted(others[0][0], others[0][1], self.people))

    def action_close(self) -> None:
        self.dismiss(None)
