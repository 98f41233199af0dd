"""The layers stay layers: what a session's screens show comes from below the server, never from it.

``soluna_tui/link`` (the link's messages, its protocol, names and talk shown safely, how a child is
started) sits below both the server and the session's side (``soluna_tui/online``, the app a session
runs, with the screens only it shows); ``screens/``, ``widgets/``, ``play/`` and ``rules/`` import
nothing from ``soluna_tui/server``, the link imports neither side nor Textual nor the game's decisions,
``rules/`` imports only the standard library, what this terminal keeps (``local/``) never imports the
app, a screen or a widget, and the server imports no Textual, no app, no screen and nothing of the
session's side: it starts that by module name. No arrow runs back up (the pieces both floors use sit
below both), and no soluna_tui modules import each other in a circle: not at run time, not for types
only (``TYPE_CHECKING``), not from inside a function.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import soluna_tui

from .fresh import modules_after

PACKAGE = Path(soluna_tui.__file__).parent
#: The packages a terminal draws with, which must not know the server.
DRAWN = ("screens", "widgets", "play", "rules")
#: The app and the parts it owns (``app/start_up.py``, ``app/matches_begun.py``...): above the screens, which
#: reach the app only through ``app/soluna_view.py``.
APP = tuple(sorted(f"soluna_tui.app.{path.stem}" for path in (PACKAGE / "app").glob("*.py")
                   if path.stem not in ("__init__", "soluna_view")))
#: What the server's process must not import: the terminal's side, which it starts by module name.
NOT_FOR_THE_SERVER = ("textual", "soluna_tui.app", "soluna_tui.screens", "soluna_tui.widgets", "soluna_tui.online",
                      "soluna_tui.terminal.driver", "soluna_tui.terminal.key_order")
#: Modules and what they must not import: each an arrow that once ran back up (a module importing one
#: that stands above it), put right by moving the piece both use below both.
NO_ARROW_BACK_UP = {
    "screens/replay.py": ("soluna_tui.export", "soluna_tui.cli"),  # a match as text is play/match_text.py
    "app/soluna_view.py": (*APP, "soluna_tui.screens", "soluna_tui.widgets"),  # the view names what is below
    "local/player_stats.py": ("soluna_tui.local.table",),  # match_record reads a PlayedAt
    "export.py": ("soluna_tui.cli",),
}


def modules_of(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


def module_name(path: Path) -> str:
    """``soluna_tui.server.sessions.spawn`` for ``server/sessions/spawn.py``; a package by its own name
    (``soluna_tui.link``)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute (``from ..server import x`` included)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def inside(name: str, packages: tuple[str, ...]) -> bool:
    """Whether the module ``name`` is one of ``packages`` or inside one."""
    return any(name == each or name.startswith(f"{each}.") for each in packages)


def reaching(paths: list[Path], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules among ``paths`` that import one of ``forbidden`` (or a module inside it), and what."""
    found = {}
    for path in paths:
        bad = sorted(name for name in imported(path) if inside(name, forbidden))
        if bad:
            found[str(path.relative_to(PACKAGE))] = bad
    return found


def import_graph() -> dict[str, set[str]]:
    """Each soluna_tui module and the soluna_tui modules it imports (for types and inside functions too)."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}

    def module_of(name: str) -> str | None:
        """The module an imported name is, or is in (``soluna_tui.rules.Match``: ``soluna_tui.rules``)."""
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    return {module: {target for name in imported(path) if (target := module_of(name)) not in (None, module)}
            for module, path in paths.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a circle, each circle sorted (Tarjan's strongly connected
    components of more than one module)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def test_the_app_s_parts_are_found() -> None:
    """The checks that name ``APP`` would pass vacuously if it missed the app's parts."""
    assert {"soluna_tui.app.soluna_app", "soluna_tui.app.matches_begun", "soluna_tui.app.host"} <= set(APP)
    assert "soluna_tui.app.soluna_view" not in APP


def test_the_import_reader_sees_relative_imports() -> None:
    """The check below would pass vacuously if it misread ``from ..x import y``."""
    assert "soluna_tui.link.messages.ListedMatch" in imported(PACKAGE / "online" / "screens" / "lobby.py")
    assert "soluna_tui.link.messages" in imported(PACKAGE / "online" / "child_app.py")
    assert "soluna_tui.server.storage" in imported(PACKAGE / "server" / "lobby" / "dispatch.py")


def test_the_import_graph_has_imports_for_types_and_inside_functions() -> None:
    """The circle check would miss circles if it read only the imports at the top of a module."""
    graph = import_graph()
    assert "soluna_tui.app.soluna_view" in graph["soluna_tui.app.soluna_app"]  # under ``TYPE_CHECKING``
    assert "soluna_tui.online.child_app" in graph["soluna_tui.online.child"]  # inside ``_run_app``
    assert "soluna_tui.rules" in graph["soluna_tui.screens.game"]  # ``from ..rules import Match``: the package


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}, "f": {"g"}, "g": {"f"}}
    assert circles(graph) == [["a", "b", "c"], ["f", "g"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_soluna_tui_modules_import_each_other_in_a_circle() -> None:
    assert circles(import_graph()) == []


@pytest.mark.parametrize("package", DRAWN)
def test_what_draws_the_screens_imports_nothing_from_the_server(package: str) -> None:
    assert modules_of(package)
    assert reaching(modules_of(package), ("soluna_tui.server",)) == {}


def test_the_link_stands_below_the_server_and_the_screens() -> None:
    forbidden = ("soluna_tui.server", "soluna_tui.online", "soluna_tui.screens", "soluna_tui.widgets",
                 "soluna_tui.app", "soluna_tui.play", "textual", "asyncssh")
    assert reaching(modules_of("link"), forbidden) == {}


def test_the_rules_import_only_the_standard_library() -> None:
    outside = {str(path.relative_to(PACKAGE)): sorted(bad) for path in modules_of("rules")
               if (bad := {name for name in imported(path) if not name.startswith("soluna_tui.rules")
                           and name.partition(".")[0] not in sys.stdlib_module_names})}
    assert len(modules_of("rules")) > 10
    assert outside == {}


def test_what_this_terminal_keeps_never_imports_the_app_or_what_draws() -> None:
    forbidden = ("soluna_tui.app", "soluna_tui.screens", "soluna_tui.widgets", "soluna_tui.online",
                 "soluna_tui.server")
    assert len(modules_of("local")) > 5
    assert reaching(modules_of("local"), forbidden) == {}


def test_the_server_imports_no_textual_no_app_no_screen_and_not_the_sessions_side() -> None:
    assert len(modules_of("server")) > 20
    assert reaching(modules_of("server"), NOT_FOR_THE_SERVER) == {}


def test_the_sessions_side_imports_nothing_of_the_server() -> None:
    assert len(modules_of("online")) > 5
    assert reaching(modules_of("online"), ("soluna_tui.server", "asyncssh")) == {}


#: What the line mode (``soluna play --screen-reader``) must not import: it takes lines in and gives lines out, and
#: another door (SSH) drives the same core.
NOT_FOR_THE_LINE_MODE = ("textual", "soluna_tui.app", "soluna_tui.screens", "soluna_tui.widgets", "soluna_tui.online",
                         "soluna_tui.server", "soluna_tui.terminal.driver", "soluna_tui.terminal.key_order")


def test_the_line_mode_imports_no_textual_no_app_no_screen_and_no_widget() -> None:
    assert len(modules_of("line_mode")) > 5
    assert reaching(modules_of("line_mode"), NOT_FOR_THE_LINE_MODE) == {}


def test_importing_every_line_mode_module_loads_no_textual() -> None:
    """Not even through another module: a match in lines starts without Textual."""
    loaded = modules_after("""
import importlib, pkgutil
import soluna_tui.line_mode as root
for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
    importlib.import_module(info.name)
""")
    assert "soluna_tui.line_mode.line_game" in loaded and "soluna_tui.play.match_flow" in loaded
    assert [name for name in loaded if inside(name, NOT_FOR_THE_LINE_MODE)] == []


#: The line game's parts (``line_mode/line_host.py`` lists them): they reach one another through the game.
LINE_GAME_PARTS = ("announcements", "match_steps", "between_rounds", "hints_and_reviews", "match_questions",
                   "match_changes", "line_reading")


def test_no_part_of_the_line_game_imports_another() -> None:
    """Not even for types: each names the others by the faces ``line_host.py`` declares."""
    paths = [PACKAGE / "line_mode" / f"{part}.py" for part in LINE_GAME_PARTS]
    assert all(path.exists() for path in paths)
    assert reaching(paths, tuple(f"soluna_tui.line_mode.{part}" for part in LINE_GAME_PARTS)) == {}


@pytest.mark.parametrize("module", sorted(NO_ARROW_BACK_UP))
def test_no_arrow_runs_back_up(module: str) -> None:
    assert reaching([PACKAGE / module], NO_ARROW_BACK_UP[module]) == {}


def test_what_draws_imports_nothing_above_it() -> None:
    """The screens, widgets, the game's decisions and the rules never reach up to the app, the commands
    or the session's side (they reach the app through ``app/soluna_view.py``)."""
    above = (*APP, "soluna_tui.cli", "soluna_tui.export", "soluna_tui.launch", "soluna_tui.online")
    assert reaching([path for package in DRAWN for path in modules_of(package)], above) == {}


def test_importing_every_drawn_module_loads_nothing_of_the_server() -> None:
    """Not even through another module: each imported in a fresh interpreter, then ``sys.modules`` read."""
    loaded = modules_after(f"""
import importlib, pkgutil
for package in {DRAWN!r}:
    root = importlib.import_module("soluna_tui." + package)
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
        importlib.import_module(info.name)
""")
    assert "soluna_tui.screens.game" in loaded and "soluna_tui.link.messages" in loaded
    assert [name for name in loaded if name.startswith("soluna_tui.server")] == []


def test_importing_every_server_module_loads_no_textual_and_nothing_of_the_sessions_side() -> None:
    """Not even through another module (``compat`` names Textual for types only)."""
    loaded = modules_after("""
import importlib, pkgutil
import soluna_tui.server as root
for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
    importlib.import_module(info.name)
""")
    assert "soluna_tui.server.sessions.spawn" in loaded and "soluna_tui.server.lobby.dispatch" in loaded
    assert [name for name in loaded if inside(name, NOT_FOR_THE_SERVER)] == []
