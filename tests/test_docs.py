"""The README and the pages under docs/: the README stays short and starts with the two commands
``.ci/run`` reads, every relative link and anchor leads somewhere, and nothing points to a rules file
or a folder the project does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The pages whose links are checked: the README, the changelog and every page under docs/.
PAGES = sorted([README, ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])
#: The README's first code block, exactly: ``.ci/run`` runs its second line.
FIRST_BLOCK = [
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/soluna",
    "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest -n auto",
]
MOST_README_LINES = 200
#: Names the project must never point to: it has no such file or folder.
NEVER_NAMED = ("RULES.md", "../shared")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
#: An HTML image's file (the README's two pictures of the web door side by side, each at a width of its own).
IMAGE_SOURCE = re.compile(r"<img\s[^>]*\bsrc=[\"']([^\"']+)[\"']")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def code_blocks(text: str) -> list[list[str]]:
    """Each fenced code block's lines, in order."""
    blocks: list[list[str]] = []
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            if fenced:
                blocks.append([])
            continue
        if fenced:
            blocks[-1].append(line)
    return blocks


def links(text: str) -> list[str]:
    """The targets of the Markdown links and images, and the HTML images' files, in the prose (code spans and
    blocks left out)."""
    return [found for line in prose_lines(text) for pattern in (LINK, IMAGE_SOURCE)
            for found in pattern.findall(INLINE_CODE.sub("", line))]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the text without its markup, lower case, punctuation
    dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor; a heading seen again gets -1, -2... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose_lines(text):
        heading = HEADING.match(line)
        if heading is None:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of ``page`` that lead to no file under ``root``, or to no heading of it."""
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if EXTERNAL.match(target):
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.is_file() or root.resolve() not in destination.parents:
            broken.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(destination.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading #{anchor} in {destination.name}")
    return broken


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MOST_README_LINES, f"README.md has {len(lines)} lines, at most {MOST_README_LINES}"


def test_the_readme_starts_with_the_install_and_the_test_command() -> None:
    text = README.read_text(encoding="utf-8")
    assert code_blocks(text)[0] == FIRST_BLOCK
    before_it = text.split("```", 1)[0].strip().splitlines()
    assert before_it == ["# Soluna TUI"], "the first code block comes straight after the title"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    assert broken_links(page) == []


def test_the_readme_links_to_every_page_under_docs() -> None:
    named = {(README.parent / target.partition("#")[0]).resolve() for target in links(README.read_text("utf-8"))}
    pages = set((ROOT / "docs").glob("*.md")) | {ROOT / "CHANGELOG.md"}
    assert sorted(str(page.relative_to(ROOT)) for page in pages - named) == []


def test_the_docs_the_code_names_exist() -> None:
    named = {match for source in (ROOT / "soluna_tui").rglob("*.py")
             for match in re.findall(r"\bdocs/[\w.-]+\.\w+", source.read_text(encoding="utf-8"))}
    assert "docs/rules.md" in named
    assert sorted(name for name in named if not (ROOT / name).is_file()) == []


@pytest.mark.parametrize("argv", [["--help"], ["analyze", "--help"]])
def test_the_help_points_to_the_rules(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    from soluna_tui.cli import main

    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    assert "docs/rules.md" in " ".join(capsys.readouterr().out.split())


def test_nothing_points_to_a_rules_file_or_folder_the_project_lacks() -> None:
    files = [*PAGES, *(ROOT / "docs").rglob("*"), *(ROOT / "soluna_tui").rglob("*")]
    found = [f"{file.relative_to(ROOT)}: {name}" for file in sorted(set(files)) if file.is_file()
             and file.suffix in (".md", ".py", ".tcss", ".service", ".txt")
             for name in NEVER_NAMED if name in file.read_text(encoding="utf-8")]
    assert found == []


# The checks above, each shown to fail on a page that breaks its rule.

def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "serving.md").write_text("# Serving\n\n## Flags\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("# Outside\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.write_text("# A match\n\n[ok](serving.md#flags) [gone](nowhere.md) [bad](serving.md#no-such-heading)\n"
                    "`[in code](nowhere.md)` [web](https://example.org/x.md) [here](#a-match) [there](#gone)\n"
                    "![picture](missing.svg) <img src='gone.png' width=\"24%\">\n```\n[in a block](nowhere.md)\n```\n",
                    encoding="utf-8")
    assert broken_links(page, root=tmp_path / "docs") == [
        "nowhere.md: no such file", "serving.md#no-such-heading: no heading #no-such-heading in serving.md",
        "#gone: no heading #gone in page.md", "missing.svg: no such file", "gone.png: no such file"]
    (page.parent / "out.md").write_text("[up](../outside.md)\n", encoding="utf-8")
    assert broken_links(page.parent / "out.md", root=tmp_path / "docs") == ["../outside.md: no such file"]
    assert broken_links(page.parent / "out.md", root=tmp_path) == []


def test_headings_make_github_s_anchors() -> None:
    text = "# Play over SSH: `soluna serve`\n```\n# a comment\n```\n## `ssh_load.py`\n## Keys\n## Keys\n"
    assert anchors(text) == {"play-over-ssh-soluna-serve", "ssh_loadpy", "keys", "keys-1"}
