"""docs/development.md's map of the code matches the tree: every module and folder it names exists where it
says, and every package of ``soluna_tui`` is on the map."""

from __future__ import annotations

import re
from pathlib import Path

import soluna_tui

ROOT = Path(soluna_tui.__file__).parent.parent
PACKAGE = ROOT / "soluna_tui"
#: A module or folder named in backquotes: ``rules/``, ``position.py``, ``app/soluna_view.py``.
NAMED = re.compile(r"`((?:[\w.]+/)*[\w]+(?:\.py|/))`")


def layout_section() -> str:
    text = (ROOT / "docs" / "development.md").read_text()
    start = text.index("## The layout of the code")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def bullets() -> list[str]:
    """Each item of the section's lists, its lines joined."""
    items: list[str] = []
    for line in layout_section().splitlines():
        if line.startswith("- "):
            items.append(line)
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
    return items


def where(item: str) -> list[Path]:
    """The folders an item speaks of: the ``soluna_tui/...`` folders it names, or the folder it starts with
    (``tests/``), else the package."""
    folders = [ROOT / found for found in re.findall(r"`(soluna_tui/[\w/]*)`", item)]
    first = re.match(r"- `([\w/]+/)`", item)
    return folders or [ROOT / first.group(1) if first else PACKAGE]


def exists_under(bases: list[Path], name: str) -> bool:
    """Whether ``name`` (``x.py``, ``a/x.py``, ``a/``) is a file or folder at or below one of ``bases``, or at the
    top of the repository or the package."""
    wanted = name.rstrip("/")
    if (ROOT / wanted).exists() or (PACKAGE / wanted).exists():
        return True
    return any(str(path).endswith("/" + wanted) for base in bases for path in base.rglob(Path(wanted).name))


def test_the_section_names_modules_in_every_item() -> None:
    """The checks below would pass vacuously if the section or its names were not found."""
    named = [name for item in bullets() for name in NAMED.findall(item)]
    assert len(bullets()) > 10
    assert {"position.py", "soluna_tui/online/", "game_session.py", "app/soluna_view.py"} <= set(named)


def test_every_module_the_map_names_exists_where_it_says() -> None:
    missing = [f"{name} (in {', '.join(str(base.relative_to(ROOT)) for base in where(item))})"
               for item in bullets() for name in NAMED.findall(item) if not exists_under(where(item), name)]
    assert missing == []


def test_every_package_is_on_the_map() -> None:
    section = layout_section()
    packages = sorted({str(path.parent.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")} - {"."})
    assert "server/sessions" in packages
    unnamed = [package for package in packages
               if f"soluna_tui/{package}/" not in section and f"`{package}/`" not in section
               and f"`{package.rpartition('/')[2]}/`" not in section]
    assert unnamed == []
