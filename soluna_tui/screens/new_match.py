"""Setting up a match: who plays, which rules, how many stars and discs, the seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ..app.soluna_view import app_view
from ..local.match_setup import NAME_LIMIT, MatchSetup
from ..local.preferences import pause_choices
from ..rules import MAX_DISCS, MIN_DISCS, MatchOptions, OptionError
from ..rules.clock import PRESETS, ClockSetting
from ..rules.match import MAX_STARS, MIN_STARS
from ..rules.strengths import STRENGTHS
from ..widgets.cached_lines import Panel, Row, Words
from ..widgets.choice import Choice
from ..widgets.key_footer import KeyFooter
from .help import SHOWN_HELP_BINDING
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted

if TYPE_CHECKING:
    from ..local.player_stats import LevelChoice

MODES = [("Two players on this terminal", "two"), ("Against the computer", "computer")]
ON_OFF = [("on", True), ("off", False)]
RULES = [("Box rules (same layout, loser chooses)", "box"), ("Online rules (new layout, loser opens)", "online")]
#: How the form is filled in, said under it (the footer has room for Escape and Enter only).
FORM_KEYS = "Left/Right change a value, Up/Down move between fields, Enter starts."
#: The level choice's first entry: the level your recent accuracy matches (``stats.match_my_strength``).
MATCH_LEVEL = "match"


def starting_level(previous: MatchSetup) -> str:
    """The level the form offers first: the one chosen last time, else (a new player, or one who last
    played a friend) "Match my strength", level 3 until there is a match to go by."""
    if previous.vs_computer and not previous.matched and previous.computer_level is not None:
        return previous.computer_level
    return MATCH_LEVEL


def clock_choices(current: ClockSetting | None) -> list[tuple[str, ClockSetting | None]]:
    """No clock, the presets, and the match's own clock if it is none of them (``soluna play --clock``)."""
    clocks = [*PRESETS, *([current] if current is not None and current not in PRESETS else [])]
    return [("none", None), *((clock.brief, clock) for clock in clocks)]


class NewMatchScreen(QuietFocus, StyledAsMounted, ModalScreen[MatchSetup | None]):
    """Returns the chosen ``MatchSetup``, or ``None`` when cancelled; a new pause for the computer
    (given ``pause``, the one now) goes up as ``PauseChosen`` as the match starts."""

    class PauseChosen(Message):
        """The computer's pause before its move lands, chosen here (a preference, not the match's)."""

        def __init__(self, pause: float) -> None:
            super().__init__()
            self.pause = pause

    BINDINGS = [
        Binding("escape", "cancel", "Back to the game"),
        Binding("escape", "quit_setup", "Quit"),
        Binding("down", "app.focus_next", "Next field", show=False),
        Binding("up", "app.focus_previous", "Previous field", show=False),
        Binding("enter", "start", "Start"),
        Binding("ctrl+s", "start", "Start", show=False),
        SHOWN_HELP_BINDING,
        # A modal screen keeps the app's keys from it: q quits here too, as everywhere (in a name, it is a q).
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, previous: MatchSetup | None = None, *, ascii_mode: bool = False, in_game: bool = False,
                 notice: str = "", pause: float | None = None) -> None:
        super().__init__()
        self.pause = pause
        self.notice = notice
        self.in_game = in_game
        self.cancel_label = "Back to the game" if in_game else "Quit"
        self.previous = previous or MatchSetup()
        self.ascii_mode = ascii_mode
        self._level_choice: LevelChoice | None = None

    def _choice(self, label: str, values: Sequence[tuple[str, Any]], value: Any, id: str) -> Choice:
        return Choice(label, values, value, ascii_mode=self.ascii_mode, id=id)

    def compose(self) -> ComposeResult:
        previous = self.previous
        options = previous.options
        human_name = previous.names[0]
        with Panel(id="new-match", classes="dialog"):
            if self.notice:
                yield Words(self.notice, id="new-match-notice", markup=False)
            yield self._choice("Mode", MODES, "computer" if previous.vs_computer else "two", "mode")
            levels = [("Match my strength (from your recent accuracy)", MATCH_LEVEL),
                      *((strength.summary, strength.level) for strength in STRENGTHS)]
            yield self._choice("Computer level", levels, starting_level(previous), "level")
            yield Words("", id="level-reason", markup=False)
            if self.pause is not None:
                yield self._choice("Computer's pause", pause_choices(self.pause), self.pause, "pause")
            with Row(classes="form-row"):
                yield Label("Player 1 name", classes="form-label", id="name-1-label")
                yield Input(human_name, max_length=NAME_LIMIT, compact=True, id="name-1")
            with Row(classes="form-row", id="name-2-row"):
                yield Label("Player 2 name", classes="form-label")
                yield Input(previous.names[1] if not previous.vs_computer else "Player 2",
                            max_length=NAME_LIMIT, compact=True, id="name-2")
            yield self._choice("Rules", RULES, options.preset_name if options.preset_name != "custom" else "box",
                               "rules")
            yield self._choice("Stars to win", [(str(n), n) for n in range(MIN_STARS, MAX_STARS + 1)],
                               options.stars_to_win, "stars")
            yield self._choice("Discs", [(str(n), n) for n in range(MIN_DISCS, MAX_DISCS + 1)], options.discs,
                               "discs")
            yield self._choice("Opens round 1", [("Player 1", 0), ("Player 2", 1)], options.first_opener, "opener")
            yield self._choice("Clock", clock_choices(previous.clock), previous.clock, "clock")
            yield self._choice("Hints", ON_OFF, previous.hints, "hints")
            yield self._choice("Round review", ON_OFF, previous.review, "review")
            with Row(classes="form-row"):
                yield Label("Seed (optional)", classes="form-label")
                yield Input("" if previous.seed is None else str(previous.seed), placeholder="random",
                            restrict=r"[0-9]*", max_length=9, compact=True, id="seed")
            yield Words("", id="new-match-error", markup=False)
            yield Words(FORM_KEYS, id="new-match-keys", markup=False)
            with Row(id="new-match-buttons"):
                yield Button("Start match", id="start", variant="primary", compact=True)
                yield Button(self.cancel_label, id="cancel", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#new-match").border_title = "New match"
        self._sync_mode()
        self.query_one("#mode").focus()

    @on(Choice.Changed, "#mode")
    @on(Choice.Changed, "#level")
    def _mode_changed(self) -> None:
        if self.is_mounted:
            self._sync_mode()

    def _matched_level(self) -> LevelChoice:
        """The level "Match my strength" chooses now, from the stats (read when first asked for)."""
        if self._level_choice is None:
            from ..local.player_stats import match_my_strength

            store = app_view(self).stats_store
            self._level_choice = match_my_strength(store.load())
            if store.problem:  # a damaged file was set aside: counting starts afresh
                self.notify(store.problem, title="Stats file unreadable", severity="warning", timeout=10)
        return self._level_choice

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.in_game
        if action == "quit_setup":
            return not self.in_game
        return True

    def action_quit_setup(self) -> None:
        """Escape before any match has started: nothing to go back to, so the app ends."""
        self.dismiss(None)

    def _sync_mode(self) -> None:
        """Against the computer there is one name (yours) and the computer's seat."""
        vs_computer = self.query_one("#mode", Choice).value == "computer"
        self.query_one("#level").display = vs_computer
        matching = vs_computer and self.query_one("#level", Choice).value == MATCH_LEVEL
        reason = self.query_one("#level-reason", Words)
        reason.display = matching
        if matching:
            reason.update(self._matched_level().reason + ".")
        for pause in self.query("#pause"):
            pause.display = vs_computer
        self.query_one("#name-2-row").display = not vs_computer
        self.query_one("#name-1-label", Label).update("Your name" if vs_computer else "Player 1 name")
        name = self.query_one("#name-1", Input)
        swaps = {"Player 1": "You", "You": "Player 1"}
        if name.value in swaps and (name.value == "You") != vs_computer:
            name.value = swaps[name.value]
        self._name_openers()

    @on(Input.Changed, "#name-1")
    @on(Input.Changed, "#name-2")
    def _name_openers(self) -> None:
        """"Opens round 1" offers the names typed (the computer by its name against the computer)."""
        if not self.is_mounted:
            return
        vs_computer = self.query_one("#mode", Choice).value == "computer"
        first = self.query_one("#name-1", Input).value.strip() or ("You" if vs_computer else "Player 1")
        second = "The computer" if vs_computer else self.query_one("#name-2", Input).value.strip() or "Player 2"
        opener = self.query_one("#opener", Choice)
        labels = [(first, 0), (second, 1)]
        if opener.values != labels:
            opener.relabel(labels)

    def build_setup(self) -> MatchSetup:
        """The setup the form describes; ``OptionError`` when a value is out of range."""
        def value(widget_id: str) -> Any:
            return self.query_one(f"#{widget_id}", Choice).value

        options = MatchOptions.preset(value("rules"), stars_to_win=value("stars"), discs=value("discs"),
                                      first_opener=value("opener"))
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        name = self.query_one("#name-1", Input).value
        teaching = {"hints": value("hints"), "review": value("review")}
        clock = value("clock")
        if value("mode") == "computer":
            matched = value("level") == MATCH_LEVEL
            level = self._matched_level().strength.level if matched else value("level")
            return MatchSetup.against_computer(level, options, name=name or "You", seed=seed, clock=clock,
                                               matched=matched, **teaching)
        return MatchSetup(options, (name, self.query_one("#name-2", Input).value), None, seed, **teaching,
                          clock=clock)

    def action_start(self) -> None:
        try:
            setup = self.build_setup()
        except (OptionError, ValueError) as error:
            self.query_one("#new-match-error", Static).update(str(error))
            return
        pauses = self.query("#pause").results(Choice)
        for pause in pauses:
            if setup.vs_computer and pause.value != self.pause:
                self.post_message(self.PauseChosen(pause.value))
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()
