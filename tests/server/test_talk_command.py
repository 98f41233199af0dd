"""The owner's side of table talk as commands: the flags read, and ``soluna serve chat-reports`` printing the lines
players reported (and a match's talk kept by ``--keep-chat``) from the database, read only."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from soluna_tui.cli import main
from soluna_tui.server.admin.serve_command import add_serve_command, config_from
from soluna_tui.server.storage import DEFAULT_FILE, ChatRecord, open_storage


def parsed(*argv: str):
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    return config_from(parser.parse_args(["serve", *argv]))


def test_chat_is_on_for_everyone_and_written_nowhere_unless_the_owner_says() -> None:
    config = parsed()
    assert (config.chat, config.guest_chat, config.keep_chat) == (True, True, False)
    config = parsed("--no-chat", "--no-guest-chat", "--keep-chat")
    assert (config.chat, config.guest_chat, config.keep_chat) == (False, False, True)


RUDE = ChatRecord("ABCD", 1_799_999_000.0, "players", "bob", None, "you are bad", 1_799_999_500.0)
SPAM = ChatRecord(None, None, "lobby", "zed", "SHA256:zed", "spam spam", 1_799_999_600.0)
RUDE_AGAIN = ChatRecord(None, None, "lobby", "bob", None, "still bad", 1_799_999_700.0)


async def a_server_s_database(folder: Path, reports: bool) -> None:
    """A server's database in ``folder``, with two reported lines (one of a match whose talk was kept)."""
    store = await open_storage(folder / DEFAULT_FILE, folder)
    try:
        if reports:
            store.clock = lambda: 1_800_000_000.0
            await store.chat.report(RUDE, "ann", "SHA256:ann")
            store.clock = lambda: 1_800_000_100.0
            await store.chat.report(SPAM, "cyd (guest)", None)
            await store.chat.keep(RUDE)
            for reporter, key in (("dan", "key:SHA256:dan"), ("eve (guest)", "site:10.0.0.5"),
                                  ("eve (guest)", "site:10.0.0.5"), ("fay", "key:SHA256:fay")):
                store.clock = lambda: 1_800_000_200.0
                await store.chat.report(RUDE_AGAIN, reporter, key.removeprefix("key:") if key.startswith("key:")
                                        else None, "line-3", key)
    finally:
        await store.close()


def test_the_owner_reads_the_lines_reported_newest_first_each_once_with_its_count(tmp_path, capsys) -> None:
    asyncio.run(a_server_s_database(tmp_path, reports=True))
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("#6 2027-01-15 08:03:20 UTC  reported 3 times, last by fay [SHA256:fay], in the lobby")
    assert out[1] == "  2027-01-15 07:55:00 UTC  bob [guest]: still bad"
    assert out[2].startswith("#2 2027-01-15 08:01:40 UTC  reported by cyd (guest), in the lobby (lobby):")
    assert out[3] == "  2027-01-15 07:53:20 UTC  zed [SHA256:zed]: spam spam"
    assert out[4].startswith("#1 ")
    assert "reported by ann [SHA256:ann], in match ABCD (begun 2027-01-15 07:43:20 UTC) (players):" in out[4]
    assert out[5].endswith("bob [guest]: you are bad") and len(out) == 6
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path), "--last", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_a_match_s_talk_kept_with_it_is_shown_by_its_code(tmp_path, capsys) -> None:
    asyncio.run(a_server_s_database(tmp_path, reports=True))
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path), "--match", "abcd"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Match ABCD, begun 2027-01-15 07:43:20 UTC:",
                                                    "  2027-01-15 07:51:40 UTC  bob [guest]: you are bad"]


def test_without_a_database_or_reports_the_owner_is_told_in_one_line(tmp_path, capsys) -> None:
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path)]) == 1
    said = capsys.readouterr().err.strip()
    assert said == f"soluna serve chat-reports: no server database at {tmp_path / DEFAULT_FILE}"
    assert not (tmp_path / DEFAULT_FILE).exists()  # reading never creates one
    asyncio.run(a_server_s_database(tmp_path, reports=False))
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No chat line reported."
    assert main(["serve", "chat-reports", "--data-dir", str(tmp_path), "--match", "WXYZ"]) == 0
    assert capsys.readouterr().out.strip() == ("No talk kept under match WXYZ (a match's talk is kept only with "
                                               "--keep-chat).")
    with pytest.raises(SystemExit):
        main(["serve", "chat-reports", "--last", "0"])
