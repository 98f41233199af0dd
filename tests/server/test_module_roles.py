"""Every module of the server's and the session's packages says where it runs, and each package's table agrees."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import soluna_tui

SOLUNA = Path(soluna_tui.__file__).parent
#: How a module's docstring starts, for each place it may run.
ROLES = {"Runs in the server process": "server process", "Runs in the zygote": "zygote",
         "Runs in the child": "child", "Runs in a house": "house",
         "Shared by the server process and the child": "shared"}
#: The server's packages run in the server process only; the session's (``online``) in the zygote, the child and
#: the house (several sessions' apps in one process).
PACKAGES = {"server": {"server process"}, "server/admin": {"server process"}, "server/ssh": {"server process"},
            "server/sessions": {"server process"}, "server/tournaments": {"server process"},
            "online": {"zygote", "child", "house"}}


def docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text()), clean=False) or ""


def declared_roles(package: Path) -> dict[str, str]:
    """Each module (a subpackage counts as one, by its ``__init__``) and the role its docstring starts with."""
    modules = {path.name: path for path in package.glob("*.py") if path.name != "__init__.py"}
    modules |= {f"{path.parent.name}/": path for path in package.glob("*/__init__.py")}
    roles = {}
    for name, path in sorted(modules.items()):
        first = docstring(path).splitlines()[0] if docstring(path) else ""
        roles[name] = next((role for start, role in ROLES.items() if first.startswith(start)), f"none: {first!r}")
    return roles


def table_roles(package: Path) -> dict[str, str]:
    rows = re.findall(r"^(\S+\.py|\S+/)\s{2,}(server process|zygote|child|house|shared)\s{2,}\S",
                      docstring(package / "__init__.py"), re.MULTILINE)
    return dict(rows)


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_module_starts_its_docstring_with_where_it_runs(package: str) -> None:
    roles = declared_roles(SOLUNA / package)
    assert {name: role for name, role in roles.items() if role.startswith("none")} == {}
    assert set(roles.values()) == PACKAGES[package]


def test_the_packages_hold_their_parts() -> None:
    assert {"sessions/", "ssh/", "admin/", "lobby/", "storage/"} <= declared_roles(SOLUNA / "server").keys()
    assert {"game_session.py", "pty_pump.py", "spawn.py"} <= declared_roles(SOLUNA / "server" / "sessions").keys()
    assert {"zygote.py", "child.py", "child_app.py", "remote_table.py", "screens/"} <= declared_roles(
        SOLUNA / "online").keys()


def test_the_modules_of_a_subpackage_run_where_it_runs_and_the_link_is_shared() -> None:
    """``lobby/`` is the server's own; ``soluna_tui/link`` (the messages, the protocol) serves both sides."""
    lobby = sorted((SOLUNA / "server" / "lobby").glob("*.py"))
    link = sorted((SOLUNA / "link").glob("*.py"))
    assert len(lobby) > 5 and len(link) >= 4
    assert [path.name for path in lobby if not docstring(path).startswith("Runs in the server process")] == []
    assert [path.name for path in link
            if not docstring(path).startswith("Shared by the server process and the child")] == []


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_packages_table_lists_every_module_where_it_runs(package: str) -> None:
    assert table_roles(SOLUNA / package) == declared_roles(SOLUNA / package)
