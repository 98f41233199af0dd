"""Helpers for pilot tests: an app wired to a temporary data directory, and the screen as text."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from soluna_tui.app import SolunaApp
from soluna_tui.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, Position, Round
from soluna_tui.screens.game import GameScreen


def make_app(data_dir: Path, setup: MatchSetup | None = None, **kwargs) -> SolunaApp:
    """An app that saves under ``data_dir`` and whose computer moves without pauses."""
    kwargs.setdefault("computer_pause", 0)
    kwargs.setdefault("reveal_pause", 0)
    return SolunaApp(setup=setup, data_dir=data_dir, **kwargs)


def hot_seat(seed: int = 1, **options) -> MatchSetup:
    return MatchSetup(MatchOptions(**options), ("Ann", "Bob"), None, seed)


def screen_text(app: SolunaApp) -> str:
    """What the terminal shows now, as plain text (the same render as a screenshot)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text(styles=False)


def set_position(screen: GameScreen, position: Position | str) -> None:
    """Replace the current round by one starting from ``position`` (same opener), and redraw."""
    if isinstance(position, str):
        position = Position.parse(position)
    screen.match.rounds[-1] = Round(position, screen.match.round.opener)
    screen.refresh_view(focus_slot=0)


def game(app: SolunaApp) -> GameScreen:
    screen = app.game
    assert screen is not None
    return screen


async def settle(pilot, app: SolunaApp) -> None:
    """Let workers finish and messages drain (the computer moves without pauses in tests)."""
    for _ in range(50):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not (app.game and app.game.thinking):
            return
    raise AssertionError("the computer never finished thinking")


async def play_by_keys(pilot, app: SolunaApp, move) -> None:
    """Play ``move`` as a player would: jump to the mover, Enter, jump to the target, Enter."""
    from soluna_tui.widgets.board import JUMP_KEYS

    position = game(app).match.position
    mover = position.towers.index(move.mover)
    target = next(slot for slot, tower in enumerate(position.towers) if tower == move.target and slot != mover)
    await pilot.press(JUMP_KEYS[mover], "enter", JUMP_KEYS[target], "enter")


async def skip_review(pilot, app: SolunaApp) -> bool:
    """If the round review is showing, wait for its verdicts and go on (Enter); True if it was."""
    from soluna_tui.screens.review import ReviewScreen

    if not isinstance(app.screen, ReviewScreen):
        return False
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    return True


async def play_randomly_until(pilot, app: SolunaApp, rng, *screens: type) -> None:
    """Play random legal moves by keys (skipping reviews) until one of ``screens`` shows."""
    import random as _random

    from soluna_tui.rules import choose_move

    assert isinstance(rng, _random.Random)
    for _ in range(100):
        if isinstance(app.screen, screens):
            return
        if not await skip_review(pilot, app):
            await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
            await app.workers.wait_for_complete()
            await pilot.pause()
    raise AssertionError(f"never reached {screens}")
