"""``soluna serve names``: the owner lists the names players gave up (reserved to their key for 30 days) and
releases one at once (issue 39)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from soluna_tui.cli import main
from soluna_tui.server.storage import DEFAULT_FILE, NameTaken, open_storage

GIVEN_UP_AT = 1_800_000_000.0


async def a_server_s_database(folder: Path) -> None:
    """A server's database in ``folder``: bob renamed robert (giving "bob" up), and ann."""
    store = await open_storage(folder / DEFAULT_FILE, folder)
    try:
        store.clock = lambda: GIVEN_UP_AT
        await store.players.see("SHA256:bob", "bob")
        await store.players.see("SHA256:ann", "ann")
        await store.players.rename("SHA256:bob", "robert")
    finally:
        await store.close()


async def claimed(folder: Path, name: str) -> str:
    """What a new key gets when it claims ``name`` now: the name, or the refusal's holder."""
    store = await open_storage(folder / DEFAULT_FILE, folder)
    try:
        return (await store.players.see("SHA256:mallory", name)).name
    except NameTaken as taken:
        return f"refused: {taken.holder}"
    finally:
        await store.close()


def test_the_owner_lists_the_names_given_up_and_releases_one_for_anyone_to_take(tmp_path, capsys) -> None:
    asyncio.run(a_server_s_database(tmp_path))
    assert main(["serve", "names", "list", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "bob  until 2027-02-14 08:00 UTC  SHA256:bob (now robert)\n"
    assert asyncio.run(claimed(tmp_path, "Bob")) == "refused: bob"
    assert main(["serve", "names", "release", "b o b", "--database", str(tmp_path / DEFAULT_FILE)]) == 0
    assert capsys.readouterr().out == ("Released bob (reserved to robert [SHA256:bob] until 2027-02-14 08:00 UTC): "
                                       "anyone may take it now.\n")
    assert main(["serve", "names", "list", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "No name is reserved.\n"
    assert asyncio.run(claimed(tmp_path, "Bob")) == "Bob"


def test_a_name_held_or_free_is_not_released_and_a_missing_database_is_one_line(tmp_path, capsys) -> None:
    asyncio.run(a_server_s_database(tmp_path))
    assert main(["serve", "names", "release", "ANN", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == "ann is the name SHA256:ann holds now, not a name given up: nothing released.\n"
    assert main(["serve", "names", "release", "zed", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == "No key has zed reserved: anyone may take it.\n"
    assert main(["serve", "names", "list", "--data-dir", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err == f"soluna serve names list: error: no server database at " \
                                      f"{tmp_path / 'none' / DEFAULT_FILE}\n"
    assert not (tmp_path / "none").exists()
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "names", "release", " ", "--data-dir", str(tmp_path)])
    assert stopped.value.code == 2 and "give the name to release" in capsys.readouterr().err
