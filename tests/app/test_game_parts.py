"""The game screen is a screen that owns its parts (picking, teaching, the match's dialogs, the history, the
computer's turns, the clock kept), not a stack of mixins: each part sees it through ``GameHost`` only, and every
key of the screen is found on the screen itself."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import soluna_tui.screens as screens_package
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.table import LocalTable
from soluna_tui.screens.clock_watch import ClockWatch
from soluna_tui.screens.computer_turns import ComputerTurns
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.history_browsing import HistoryBrowsing
from soluna_tui.screens.match_dialogs import MatchDialogs
from soluna_tui.screens.picking import BoardScreen, Picking
from soluna_tui.screens.teaching import Teaching

PARTS = (Picking, Teaching, MatchDialogs, HistoryBrowsing, ComputerTurns, ClockWatch)
#: The guide is ~40 methods a class; the game screen's 47 include 14 one-line hand-overs (docs/development.md).
MOST_METHODS = 50


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, type-checking imports included, relative ones as written (``.game``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_parts_see_the_screen_and_one_another_only_through_its_host() -> None:
    folder = Path(next(iter(screens_package.__path__)))
    modules = {part.__module__.rsplit(".", 1)[-1] for part in PARTS}
    for name in modules:
        imported = imported_modules(folder / f"{name}.py")
        assert ".game" not in imported and "soluna_tui.screens.game" not in imported, name
        assert ".game_host" in imported, f"{name} names its screen through game_host"
        others = {f".{other}" for other in modules - {name}} | {f"soluna_tui.screens.{other}" for other in modules}
        assert not imported & others, f"{name} imports another part: {imported & others}"


def test_every_key_of_the_game_screen_is_the_screen_s_own_and_each_part_is_owned() -> None:
    """Textual finds an action on the screen: each one is defined by the game screen or its board screen base,
    none by a class mixed in; and the screen holds one of each part, each holding it."""
    for binding in GameScreen.BINDINGS:
        action = binding.action
        if "." in action:
            continue  # the app's (app.new_match)
        owner = next(cls for cls in GameScreen.__mro__ if f"action_{action}" in vars(cls))
        assert owner in (GameScreen, BoardScreen), f"{action} comes from {owner.__name__}"
    screen = GameScreen(LocalTable(MatchSetup(seed=1)))
    owned = [screen.picking, screen.teaching, screen.dialogs, screen.browsing, screen.computer, screen.clock_watch]
    assert [type(part) for part in owned] == list(PARTS)
    assert all(vars(part).get("_game", vars(part).get("_screen")) is screen for part in owned)


def test_no_class_of_the_game_screen_has_more_methods_than_the_guide_allows() -> None:
    for cls in (GameScreen, BoardScreen, *PARTS):
        own = [name for name, value in vars(cls).items() if inspect.isfunction(value) or isinstance(value, property)]
        assert len(own) <= MOST_METHODS, f"{cls.__name__} has {len(own)} methods"
