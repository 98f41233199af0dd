"""The lobby's settings beside its menu: a match's terms, the player's place in the lists, a match code, a secret.

The settings are told (``ChoicesChanged``) once they stay as they are a moment, and set again from what the server
kept for this player (``show_choices``); the clock setting offers the clocks the server offers (``show_clocks``).
The secret field shows only while the server asks who is coming back (``ask_secret``). Two settings kept with a key
have no row here (the tallest lobby has no line to spare at 80x24), and are set from the palette (``keep_aside``):
the terminal's cursor on the focus (for a braille display, shown at once), and the game in lines from the next visit
on (as ``remember`` keeps it in the line lobby).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.timer import Timer
from textual.widgets import Input, Label

from ...app.soluna_view import app_view
from ...link.messages import LobbyChoices, MatchTerms
from ...local.match_setup import MatchSetup
from ...rules import MAX_DISCS, MIN_DISCS, MatchOptions
from ...rules.clock import ClockSetting
from ...rules.match import DEFAULT_STARS, MAX_STARS, MIN_STARS
from ...rules.strengths import CALIBRATED_DISCS, FIRST_MATCHED, STRENGTHS
from ...widgets.cached_lines import Column, Row
from ...widgets.choice import Choice
from ..screens.lobby_wish import ChoicesChanged

CODE_PATTERN = re.compile(r"[A-Z]{4}")
RULES = [("box (loser chooses)", "box"), ("online (loser opens)", "online")]
NO_CLOCK: tuple[str, ClockSetting | None] = ("none", None)
#: The settings, as their widgets' ids and ``LobbyChoices``' fields both say them.
SETTINGS = ("level", "rules", "stars", "discs", "opener", "hints", "clock", "hidden", "rated", "refuse_challenges",
            "bell")
#: Settings kept with a key that the palette sets, not a row of the pane (``keep_aside``), with their defaults.
ASIDE = {"cursor_follows_focus": False, "screen_reader": False}
#: Seconds the settings stay as they are before they are told (holding a key down sends nothing).
CHOICES_SETTLE_SECONDS = 1.0


def clock_values(clocks: Sequence[ClockSetting]) -> list[tuple[str, ClockSetting | None]]:
    """The clock choice: none, then each clock the server offers (``3 min + 2 s a move``)."""
    return [NO_CLOCK, *((clock.brief, clock) for clock in clocks)]


class LobbySettings(Column):
    """The settings, the match code and the secret (``#lobby-settings``)."""

    def __init__(self, *, ascii_mode: bool = False) -> None:
        super().__init__(id="lobby-settings")
        self.ascii_mode = ascii_mode
        #: The clocks the server offers for a two-player match.
        self.clocks: tuple[ClockSetting, ...] = ()
        #: What the secret field is for (as the screen says it: a match's code, or the computer match); ``None``
        #: while it is hidden.
        self.secret_for: str | None = None
        #: The settings as last told (``ChoicesChanged``) or set from the server, and those waiting to be set.
        self._choices_told: LobbyChoices | None = None
        self._choices_to_show: LobbyChoices | None = None
        #: Whether ``on_mount`` has run: every setting is there.
        self._ready = False
        self._settle: Timer | None = None
        #: When a setting last changed (``time.monotonic()``).
        self._changed_at = 0.0
        #: Who the settings are for: a rated player's (``Rated``), a server's that pairs players or passes
        #: challenges on (``Rated``, ``Challenges``).
        self._services = (False, False, False)
        #: The settings kept with a key that have no row here (``ASIDE``), as kept or as set from the palette.
        self._aside: dict[str, bool] = dict(ASIDE)

    def _choice(self, label: str, values: Sequence[tuple[str, Any]], value: Any, id: str) -> Choice:
        return Choice(label, values, value, ascii_mode=self.ascii_mode, label_width=16, id=id)

    def compose(self) -> ComposeResult:
        yield self._choice("Computer level", [(strength.rated, strength.level) for strength in STRENGTHS],
                           FIRST_MATCHED.level, "level")
        yield self._choice("Rules", RULES, "box", "rules")
        yield self._choice("Stars to win", [(str(n), n) for n in range(MIN_STARS, MAX_STARS + 1)], DEFAULT_STARS,
                           "stars")
        yield self._choice("Discs", [(str(n), n) for n in range(MIN_DISCS, MAX_DISCS + 1)], 12, "discs")
        yield self._choice("Opens round 1", [("me", 0), ("the other player", 1)], 0, "opener")
        yield self._choice("Hints", [("off (both must allow)", False), ("allowed", True)], False, "hints")
        yield self._choice("Clock", clock_values(self.clocks), None, "clock")
        yield self._choice("Online list", [("show me", False), ("hide me", True)], False, "hidden")
        yield self._choice("Rated", [("yes (players with keys)", True), ("no", False)], True, "rated")
        yield self._choice("Challenges", [("welcome", False), ("refuse all", True)], False, "refuse_challenges")
        yield self._choice("Bell", [("on: moves, challenges", True), ("off", False)], True, "bell")
        # Beside the menu, not under it: the tallest menu still leaves the matches in view at 80x24.
        with Row(classes="form-row", id="lobby-code-row"):
            yield Label("Match code", classes="form-label")
            yield Input(placeholder="four letters, then Enter", max_length=4, restrict=r"[A-Za-z]*", compact=True,
                        id="code")
        with Row(classes="form-row", id="lobby-secret-row"):
            yield Label("Your secret", classes="form-label")
            yield Input(placeholder="six letters, then Enter", max_length=9, restrict=r"[A-Za-z -]*", compact=True,
                        id="secret")

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#lobby-secret-row").display = False
        self._offer_clocks()
        self.show_services(*self._services)
        if self._choices_to_show is not None:
            self.show_choices(self._choices_to_show)

    # ---- attributes down -----------------------------------------------------------------

    def show_clocks(self, clocks: tuple[ClockSetting, ...]) -> None:
        """The clocks this server offers a two-player match (none: the setting offers no clock only)."""
        self.clocks = clocks
        self._offer_clocks()

    def _offer_clocks(self) -> None:
        """The clock setting offers ``clocks`` (once it is mounted: the server's word may come first)."""
        for choice in self.query("#clock").results(Choice):
            if choice.values != clock_values(self.clocks):
                choice.relabel(clock_values(self.clocks))

    def show_services(self, rated: bool | None, quick_match: bool, challenges: bool) -> None:
        """``Rated`` for a rated player where the server pairs players or passes challenges on; ``Challenges``
        where it passes them on."""
        self._services = (bool(rated), quick_match, challenges)
        if self._ready:
            self.query_one("#rated").display = bool(rated) and (quick_match or challenges)
            self.query_one("#refuse_challenges").display = challenges

    def show_choices(self, choices: LobbyChoices) -> None:
        """The settings as this player last left them (the server keeps them with a key): each one this
        lobby still offers (a clock this server no longer offers stays as it is); the cursor on the focus at once,
        as kept."""
        self._aside = {setting: getattr(choices, setting) for setting in ASIDE}
        app_view(self).follow_focus(choices.cursor_follows_focus)
        if not self._ready:  # the settings may still be on their way
            self._choices_to_show = choices
            return
        self._choices_to_show = None
        for setting in SETTINGS:
            choice = self.query_one(f"#{setting}", Choice)
            value = getattr(choices, setting)
            if any(offered == value for _, offered in choice.values):
                choice.value = value
        self._choices_told = self.choices()

    # ---- what the player chose -----------------------------------------------------------

    def value(self, setting: str) -> Any:
        """One setting's value (by its id)."""
        return self.query_one(f"#{setting}", Choice).value

    def choices(self) -> LobbyChoices:
        """The settings as they stand."""
        return LobbyChoices(**{setting: self.value(setting) for setting in SETTINGS},
                            cursor_follows_focus=self._aside["cursor_follows_focus"],
                            screen_reader=self._aside["screen_reader"])

    def keep_aside(self, **settings: bool) -> None:
        """Settings with no row here (``ASIDE``: the cursor on the focus, the lines next visit), set from the palette,
        told at once to be kept with the key."""
        self._aside.update({setting: value for setting, value in settings.items() if setting in ASIDE})
        self.tell_choices()

    def options(self) -> MatchOptions:
        return MatchOptions.preset(self.value("rules"), stars_to_win=self.value("stars"), discs=self.value("discs"),
                                   first_opener=self.value("opener"))

    def computer_setup(self, name: str, rated: bool | None) -> MatchSetup:
        """A match against the computer as the settings say. A guest's has hints (as on this terminal); a keyed
        player's follows the Hints setting, and with hints off on 12 discs it is rated against the level's rating
        (no hints, no take-backs)."""
        options = self.options()
        hints = not rated or self.value("hints")
        ranked = not hints and options.discs == CALIBRATED_DISCS
        return MatchSetup.against_computer(self.value("level"), options, name=name, hints=hints, review=hints,
                                           rated=ranked)

    def terms(self, rated: bool | None) -> MatchTerms:
        """A quick match's or a challenge's terms, as the settings say (a guest's are never rated)."""
        return MatchTerms(self.options().to_dict(), self.value("clock"), bool(rated and self.value("rated")),
                          self.value("hints"))

    def code(self) -> str | None:
        """The code typed, upper-cased, when it is four letters."""
        code = self.query_one("#code", Input).value.strip().upper()
        return code if CODE_PATTERN.fullmatch(code) else None

    @on(Choice.Changed)
    def _choice_changed(self) -> None:
        """Told once they stay as they are a moment: a key held down sends nothing meanwhile. A key notes
        the time only (a timer made and stopped on every key cost a setting key 3 ms); the one timer waits on."""
        self._changed_at = time.monotonic()
        if self._settle is None:
            self._settle = self.set_timer(CHOICES_SETTLE_SECONDS, self._settled)

    def _settled(self) -> None:
        """The timer is up: tell the settings, unless a key came since it started (then wait the rest)."""
        self._settle = None
        waited = time.monotonic() - self._changed_at
        if waited < CHOICES_SETTLE_SECONDS:
            self._settle = self.set_timer(CHOICES_SETTLE_SECONDS - waited, self._settled)
            return
        self.tell_choices()

    def tell_choices(self) -> None:
        """The settings told now if they changed since last told (a menu item chosen with them)."""
        if self._settle is not None:
            self._settle.stop()
            self._settle = None
        choices = self.choices()
        if choices != self._choices_told:
            self._choices_told = choices
            self.app.post_message(ChoicesChanged(choices))  # to the app, whichever widget this was called from

    # ---- the code and the secret -----------------------------------------------------------

    def ask_code(self, select: bool = False) -> None:
        """The code field focused (``select``: its code selected, so that typing replaces it)."""
        field = self.query_one("#code", Input)
        field.focus()
        if select:
            field.select_all()

    def ask_secret(self, secret_for: str) -> None:
        """The secret field shown and focused, for what the screen says it is for."""
        self.secret_for = secret_for
        self.query_one("#lobby-secret-row").display = True
        field = self.query_one("#secret", Input)
        field.value = ""
        field.focus()

    def secret(self) -> str:
        return self.query_one("#secret", Input).value.strip()

    def forget(self) -> None:
        """The code and the secret used up: the player is back in a match (or has moved on)."""
        self.forget_secret()
        # By the fields found, not by one asked for: a keyed player seated straight back at their match as they
        # connect is seated while the lobby is still being made, some of its fields not there yet.
        for field in self.query("#code").results(Input):
            field.value = ""

    def forget_secret(self) -> None:
        """The secret field goes once the player is back in a match (or has moved on)."""
        self.secret_for = None
        for field in self.query("#secret").results(Input):
            field.value = ""
        for row in self.query("#lobby-secret-row"):
            row.display = False
