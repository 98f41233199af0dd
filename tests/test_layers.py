"""The layers stay layers: what a session's screens show comes from below the server, never from it.

``soluna_tui/link`` (the link's messages, its protocol, end reasons, names shown safely) sits below
both the server and the screens; ``screens/``, ``widgets/``, ``play/`` and ``rules/`` import nothing
from ``soluna_tui/server``, and the link imports neither side nor Textual.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import soluna_tui

from .fresh import modules_after

PACKAGE = Path(soluna_tui.__file__).parent
#: The packages a terminal draws with, which must not know the server.
DRAWN = ("screens", "widgets", "play", "rules")


def modules_of(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


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


def reaching(paths: list[Path], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules among ``paths`` that import one of ``forbidden`` (or a module inside it), and what."""
    found = {}
    for path in paths:
        bad = sorted(name for name in imported(path)
                     if any(name == each or name.startswith(f"{each}.") for each in forbidden))
        if bad:
            found[str(path.relative_to(PACKAGE))] = bad
    return found


def test_the_import_reader_sees_relative_imports() -> None:
    """The check below would pass vacuously if it misread ``from ..x import y``."""
    assert "soluna_tui.link.messages.ListedMatch" in imported(PACKAGE / "screens" / "lobby.py")
    assert "soluna_tui.link.messages" in imported(PACKAGE / "remote" / "app.py")
    assert "soluna_tui.server.storage" in imported(PACKAGE / "server" / "lobby" / "dispatch.py")


@pytest.mark.parametrize("package", DRAWN)
def test_what_draws_the_screens_imports_nothing_from_the_server(package: str) -> None:
    assert modules_of(package)
    assert reaching(modules_of(package), ("soluna_tui.server",)) == {}


def test_the_link_stands_below_the_server_and_the_screens() -> None:
    forbidden = ("soluna_tui.server", "soluna_tui.screens", "soluna_tui.widgets", "soluna_tui.app", "textual",
                 "asyncssh")
    assert reaching(modules_of("link"), forbidden) == {}


def test_importing_every_drawn_module_loads_nothing_of_the_server() -> None:
    """Not even through another module: each imported in a fresh interpreter, then ``sys.modules`` read."""
    loaded = modules_after(f"""
import importlib, pkgutil
for package in {DRAWN!r}:
    root = importlib.import_module("soluna_tui." + package)
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
        importlib.import_module(info.name)
""")
    assert "soluna_tui.screens.leaderboard" in loaded and "soluna_tui.link.messages" in loaded
    assert [name for name in loaded if name.startswith("soluna_tui.server")] == []
