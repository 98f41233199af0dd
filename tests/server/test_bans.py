"""The ban list without a server: its lines read, who it bans (keys, IPv4 and IPv6 networks), the file noticed when it
changes, and ``soluna serve ban`` editing it."""

from __future__ import annotations

import logging
import os
import re
import time

import asyncssh
import pytest

from soluna_tui.cli import main
from soluna_tui.server.admin.ban_watch import BanWatch
from soluna_tui.server.admin.bans import (
    HEADER,
    BanEntryError,
    BanList,
    Banned,
    check_reason,
    parse_banned,
    with_entry,
    without_entry,
)

KEY = asyncssh.generate_private_key("ssh-ed25519", comment="bob@laptop")
FINGERPRINT = KEY.get_fingerprint("sha256")
OTHER = asyncssh.generate_private_key("ssh-ed25519").get_fingerprint("sha256")


def public_line(key: asyncssh.SSHKey = KEY) -> str:
    return key.export_public_key().decode().strip()


def bans(*lines: str) -> BanList:
    return BanList.parse("\n".join(lines).encode())


def test_an_entry_is_a_fingerprint_a_public_key_an_address_or_a_network() -> None:
    assert parse_banned(FINGERPRINT) == Banned(fingerprint=FINGERPRINT)
    assert parse_banned(" sha256:" + FINGERPRINT[7:] + "= ") == Banned(fingerprint=FINGERPRINT)
    assert parse_banned(public_line()) == Banned(fingerprint=FINGERPRINT)  # banned by its fingerprint
    assert str(parse_banned("203.0.113.7")) == "203.0.113.7"
    assert str(parse_banned("203.0.113.7/24")) == "203.0.113.0/24"  # the network that holds it
    assert str(parse_banned("2001:DB8::1")) == "2001:db8::1"
    assert str(parse_banned("2001:db8:1:2::/64")) == "2001:db8:1:2::/64"


@pytest.mark.parametrize(("text", "said"), [
    ("", "nothing to ban"),
    ("SHA256:abc", "not a SHA256 fingerprint"),
    ("SHA256:" + "!" * 43, "not a SHA256 fingerprint"),
    ("MD5:12:34:56", "MD5 fingerprint"),
    ("ssh-ed25519 AAAAnotbase64", "not an OpenSSH public key"),
    ("example.com", "not a key fingerprint"),
    ("10.0.0.0/33", "not a key fingerprint"),
    ("300.1.2.3", "not a key fingerprint"),
])
def test_what_is_no_entry_is_said_in_one_line(text: str, said: str) -> None:
    with pytest.raises(BanEntryError, match=said) as caught:
        parse_banned(text)
    assert "\n" not in str(caught.value)


def test_a_damaged_line_is_reported_by_number_and_the_rest_applies() -> None:
    listed = BanList.parse(b"# the owner's notes\n\n10.0.0.0/8  # spam\nnonsense here # note\n"
                           + b"\xff\xfe bad bytes\n" + FINGERPRINT.encode() + b"\n")
    assert [(entry.line, str(entry.banned), entry.note) for entry in listed.entries] == [
        (3, "10.0.0.0/8", "spam"), (6, FINGERPRINT, "")]
    assert [(damaged.line, damaged.problem) for damaged in listed.damaged] == [
        (4, "'nonsense here' is not a key fingerprint (SHA256:...), an OpenSSH public key, an address or a network"),
        (5, "not UTF-8 text")]
    assert listed.summary() == "1 key, 1 address; 2 damaged lines ignored"
    assert listed.ban_for("10.1.2.3") is listed.entries[0]


def test_ipv4_and_ipv6_networks_ban_what_they_hold_and_nothing_else() -> None:
    listed = bans("203.0.113.0/24", "198.51.100.7", "2001:db8:1::/48", "2001:db8:2::5")
    assert listed.ban_for("203.0.113.200").line == 1
    assert listed.ban_for("203.0.114.1") is None
    assert listed.ban_for("198.51.100.7").line == 2
    assert listed.ban_for("198.51.100.8") is None
    assert listed.ban_for("2001:db8:1:ffff::9").line == 3
    assert listed.ban_for("2001:db8:2::5").line == 4
    assert listed.ban_for("2001:db8:2::6") is None
    assert listed.ban_for("::ffff:203.0.113.9").line == 1  # an IPv4 client on an IPv6 socket
    assert listed.ban_for("fe80::1%eth0") is None
    assert listed.ban_for("?") is None and listed.ban_for(None) is None
    assert bans("::/0").ban_for("203.0.113.9") is None  # every IPv6 address, no IPv4 one
    assert bans("0.0.0.0/0").ban_for("2001:db8::1") is None


def test_an_ipv4_address_written_as_ipv6_bans_the_ipv4_client() -> None:
    listed = bans("::ffff:203.0.113.9", "::FFFF:198.51.100.0/120", "::ffff:0:0/95")
    assert [str(entry.banned) for entry in listed.entries] == ["203.0.113.9", "198.51.100.0/24", "::fffe:0:0/95"]
    assert listed.ban_for("203.0.113.9").line == 1  # an IPv4 client on an IPv4 socket
    assert listed.ban_for("::ffff:203.0.113.9").line == 1  # and on an IPv6 one
    assert listed.ban_for("198.51.100.77").line == 2
    assert parse_banned("::ffff:203.0.113.9") == parse_banned("203.0.113.9")  # one entry, however written
    assert not listed.useless


@pytest.mark.parametrize(("text", "why"), [
    ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("0.0.0.0", "no client's address"),
    ("::", "no client's address"), ("255.255.255.255", "reserved"), ("240.0.0.0/4", "reserved"),
    ("::203.0.113.9", "IPv4-compatible address .* write 203.0.113.9"),
])
def test_an_entry_no_client_can_match_is_kept_and_said_to_be_useless(text: str, why: str) -> None:
    listed = bans("# notes", text)
    assert [entry.line for entry in listed.entries] == [2]
    ((entry, said),) = listed.useless
    assert entry.line == 2 and re.search(why, said)
    assert re.fullmatch(rf"1 entry can never match \(line 2: .*{why}.*\)", listed.warnings()[0])


@pytest.mark.parametrize("text", ["0.0.0.0/0", "::/0", "::1", "127.0.0.1", "10.0.0.0/8", "fe80::/10", "2001:db8::1"])
def test_an_entry_some_client_can_match_is_not_said_to_be_useless(text: str) -> None:
    assert parse_banned(text).never_matches is None


def test_a_hundred_thousand_damaged_lines_are_summed_up_in_one_line() -> None:
    listed = BanList.parse(b"10.0.0.1\n" + b"127.0.0.300\n" * 100_000 + b"224.0.0.1\n224.0.0.2\n")
    assert len(listed.damaged) == 100_000 and listed.ban_for("10.0.0.1").line == 1
    assert listed.warnings() == [
        "100000 damaged lines ignored (first: line 2: '127.0.0.300' is not a key fingerprint (SHA256:...), an "
        "OpenSSH public key, an address or a network)",
        "2 entries can never match (first: line 100002: 224.0.0.1: a multicast address is never a client's)"]
    assert bans("10.0.0.1").warnings() == []


def test_the_first_line_that_holds_an_address_bans_it_and_a_long_list_costs_a_lookup_per_prefix_length() -> None:
    blocklist = [f"10.{high}.{low}.0/24" for high in range(100, 180) for low in range(256)]  # 20,480 networks
    listed = bans("10.7.0.0/16", "10.0.0.0/8", *blocklist, "2001:db8::/32")
    assert listed.ban_for("10.7.1.1").line == 1 and listed.ban_for("10.8.1.1").line == 2
    assert listed.ban_for("10.150.3.9").line == 2  # the /8 comes before its /24
    assert bans(*blocklist).ban_for("10.150.3.9").banned == parse_banned("10.150.3.0/24")
    assert bans(*blocklist).ban_for("10.180.0.1") is None
    started = time.perf_counter()
    for number in range(2000):
        bans_for_one = listed.ban_for(f"192.0.{number // 256}.{number % 256}")
        assert bans_for_one is None
    took = time.perf_counter() - started
    print(f"\n2000 addresses against {len(listed.entries)} networks: {took * 1e6 / 2000:.1f} µs each")
    assert took < 2.0  # a scan of every network took 26 s here


def test_a_key_is_banned_wherever_it_comes_from_and_an_address_whatever_key_it_brings() -> None:
    listed = bans(f"{public_line()}  # bob's key", "192.0.2.0/24")
    assert listed.ban_for("203.0.113.1", FINGERPRINT).note == "bob's key"
    assert listed.ban_for("203.0.113.1", OTHER) is None
    assert listed.ban_for("192.0.2.9", OTHER).line == 2
    assert listed.ban_for("192.0.2.9").line == 2


def test_an_entry_added_and_removed_leaves_every_other_line_as_it_was() -> None:
    text = with_entry("", parse_banned("192.0.2.1"), "2026-11-26 spam")
    assert text == HEADER + "192.0.2.1  # 2026-11-26 spam\n"
    text = with_entry(text + "damaged line\n# a note", parse_banned(FINGERPRINT), "")
    assert text.endswith("damaged line\n# a note\n" + FINGERPRINT + "\n")
    kept, removed = without_entry(text + "192.0.2.1/32 # again\n", parse_banned("192.0.2.1"))
    assert removed == 2 and kept == HEADER + "damaged line\n# a note\n" + FINGERPRINT + "\n"
    assert without_entry(kept, parse_banned("192.0.2.0/24")) == (kept, 0)
    assert parse_banned("192.0.2.0/24").covers(parse_banned("192.0.2.1"))
    assert not parse_banned("192.0.2.1").covers(parse_banned("192.0.2.0/24"))
    assert not parse_banned("::/0").covers(parse_banned("192.0.2.1"))


def test_a_reason_is_one_printable_line() -> None:
    assert check_reason("  abusive in chat ") == "abusive in chat"
    for bad in ("two\nlines", "a\x1b[31m colour", "x" * 201):
        with pytest.raises(BanEntryError):
            check_reason(bad)


def test_the_file_is_read_again_when_it_changes_and_only_then(tmp_path, caplog) -> None:
    path = tmp_path / "bans.txt"
    watch = BanWatch(path, lambda _: None)
    caplog.set_level(logging.INFO, "soluna.server")
    assert watch.read_if_changed() == BanList()  # no file: nobody banned, said once at start by ``start``
    assert watch.read_if_changed() is None
    path.write_text("192.0.2.1\nbad\n")
    assert [str(entry.banned) for entry in watch.read_if_changed().entries] == ["192.0.2.1"]
    assert watch.read_if_changed() is None  # unchanged: not read again
    assert f"ban list {path}: 1 damaged line ignored (line 2: 'bad' is not a key fingerprint" in caplog.text
    assert f"ban list {path} read: 0 keys, 1 address; 1 damaged line ignored" in caplog.text
    os.chmod(path, 0o600)  # the same text, another mode (a rename by 'soluna serve ban' keeps it): read again
    assert watch.read_if_changed() is not None
    path.unlink()
    assert watch.read_if_changed() == BanList()
    assert f"ban list {path} removed: nobody is banned" in caplog.text
    path.mkdir()  # not a file: the list as last read still applies
    assert watch.read_if_changed() is None
    assert "is a directory, not a file; the list as last read still applies" in caplog.text


def test_each_reading_says_what_is_wrong_with_the_file_in_at_most_two_lines(tmp_path, caplog) -> None:
    path = tmp_path / "bans.txt"
    path.write_text("192.0.2.1\n" + "bad\n" * 100_000 + "224.0.0.1\n::ffff:192.0.2.2\n")
    watch = BanWatch(path, lambda _: None)
    caplog.set_level(logging.INFO, "soluna.server")
    for rereading in range(2):
        caplog.clear()
        os.utime(path, ns=(rereading, rereading))  # changed: read again
        listed = watch.read_if_changed()
        assert listed is not None and listed.ban_for("192.0.2.2").line == 100_003
        assert [record.getMessage() for record in caplog.records] == [
            f"ban list {path}: 100000 damaged lines ignored (first: line 2: 'bad' is not a key fingerprint "
            "(SHA256:...), an OpenSSH public key, an address or a network)",
            f"ban list {path}: 1 entry can never match (line 100002: 224.0.0.1: a multicast address is never a "
            "client's)",
            f"ban list {path} read: 0 keys, 3 addresses or networks; 100000 damaged lines ignored"]


def ban(tmp_path, *words: str) -> int:
    return main(["serve", "ban", *words, "--data-dir", str(tmp_path)])


def test_the_subcommand_adds_lists_and_removes_entries_in_the_data_directory(tmp_path, capsys) -> None:
    assert ban(tmp_path, "list") == 0
    assert capsys.readouterr().out == f"Nobody is banned: {tmp_path / 'bans.txt'} does not exist yet.\n"
    assert ban(tmp_path, "add", "192.0.2.0/24", "--reason", "bot farm") == 0
    assert ban(tmp_path, "add", *public_line().split()) == 0  # a key line as the shell splits it
    out = capsys.readouterr().out
    assert f"Banned 192.0.2.0/24 (line 5 of {tmp_path / 'bans.txt'})" in out and f"Banned {FINGERPRINT}" in out
    assert ban(tmp_path, "add", "192.0.2.9") == 0  # already banned: nothing written twice
    assert "192.0.2.9 is banned already, by line 5" in capsys.readouterr().out
    assert ban(tmp_path, "list") == 0
    listing = rf"    5  192\.0\.2\.0/24  # \d{{4}}-\d\d-\d\d bot farm\n    6  {re.escape(FINGERPRINT)}  # \S+\n"
    assert re.fullmatch(listing, capsys.readouterr().out)
    listed = BanList.parse((tmp_path / "bans.txt").read_bytes())
    assert [str(entry.banned) for entry in listed.entries] == ["192.0.2.0/24", FINGERPRINT]
    assert listed.entries[0].note.endswith(" bot farm") and not listed.damaged
    assert oct((tmp_path / "bans.txt").stat().st_mode & 0o777) == "0o644"  # readable by a server run as another
    assert ban(tmp_path, "remove", FINGERPRINT) == 0
    assert [str(entry.banned) for entry in BanList.parse((tmp_path / "bans.txt").read_bytes()).entries] == [
        "192.0.2.0/24"]


def test_the_subcommand_says_what_is_wrong_in_one_line(tmp_path, capsys) -> None:
    for words, status, said in (
            (("add", "example.com"), 2, "soluna serve ban add: error: 'example.com' is not a key fingerprint"),
            (("add", "192.0.2.1", "--reason", "two\nlines"), 2,
             "soluna serve ban add: error: the reason must be one line"),
            (("remove", "192.0.2.1"), 1, "soluna serve ban remove: error: 192.0.2.1 is not on the ban list"),
            (("add", "224.0.0.1"), 2, "soluna serve ban add: error: 224.0.0.1 can never match a client: a "
                                       "multicast address is never a client's"),
            (("frobnicate",), 2, "soluna serve ban: error: argument ACTION: invalid choice: 'frobnicate'")):
        if status == 2:
            with pytest.raises(SystemExit) as exited:
                ban(tmp_path, *words)
            assert exited.value.code == 2
        else:
            assert ban(tmp_path, *words) == status
        error = capsys.readouterr().err
        assert error.startswith(said) and error.count("\n") == 1, error
    (tmp_path / "bans.txt").write_text("192.0.2.0/24\n")
    assert ban(tmp_path, "remove", "192.0.2.1") == 1
    assert "192.0.2.1 is not on the ban list" in (error := capsys.readouterr().err)
    assert "; line 1 (192.0.2.0/24) bans it still" in error
    (tmp_path / "bans.txt").unlink()
    (tmp_path / "bans.txt").mkdir()
    assert ban(tmp_path, "add", "192.0.2.1") == 1
    assert "bans.txt is a directory, not a file" in capsys.readouterr().err


def test_the_subcommand_writes_an_ipv4_address_written_as_ipv6_as_ipv4_and_says_so(tmp_path, capsys) -> None:
    assert ban(tmp_path, "add", "::ffff:192.0.2.7") == 0
    out = capsys.readouterr().out
    assert out.startswith("::ffff:192.0.2.7 is an IPv4 address written as IPv6: banned as 192.0.2.7")
    assert BanList.parse((tmp_path / "bans.txt").read_bytes()).ban_for("192.0.2.7") is not None
    assert ban(tmp_path, "add", "192.0.2.7") == 0 and "banned already" in capsys.readouterr().out
    with (tmp_path / "bans.txt").open("a") as file:
        file.write("::ffff:192.0.2.8\n239.1.2.3  # by hand\n")
    assert ban(tmp_path, "list") == 0
    listed = capsys.readouterr()
    assert "192.0.2.8\n" in listed.out and "::ffff" not in listed.out
    assert listed.err == f"{tmp_path / 'bans.txt'} line 7 can never match: a multicast address is never a client's\n"
    assert ban(tmp_path, "remove", "192.0.2.8") == 0  # the line written as IPv6 is the same entry
    assert "192.0.2.8" not in (tmp_path / "bans.txt").read_text()


@pytest.mark.parametrize("planted", ["bans.txt", ".bans.txt.lock"])
def test_the_subcommand_refuses_a_planted_link_and_leaves_its_target_alone(tmp_path, capsys, planted) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    elsewhere.mkdir()
    (data / "bans.txt").write_text("192.0.2.0/24\n")
    target = elsewhere / "secret"  # a file the server's user could not write: it must stay as it is
    target.write_text("root's own\n")
    target.chmod(0o600)
    missing = elsewhere / "created-by-the-command"  # a dangling link: nothing may appear there
    for link_target in (target, missing):
        (data / planted).unlink(missing_ok=True)
        (data / planted).symlink_to(link_target)
        before = (data / "bans.txt").read_bytes() if planted != "bans.txt" else None
        for words in (("add", "198.51.100.7"), ("remove", "192.0.2.0/24")):
            assert ban(data, *words) == 1
            error = capsys.readouterr().err
            assert error == (f"soluna serve ban {words[0]}: error: {data / planted} is a symbolic link: not followed, "
                             "nothing changed (remove the link, or give the ban list's real file with --ban-file)\n")
        assert (data / planted).is_symlink() and not missing.exists()
        assert target.read_text() == "root's own\n" and oct(target.stat().st_mode & 0o777) == "0o600"
        if before is not None:
            assert (data / "bans.txt").read_bytes() == before
    assert sorted(path.name for path in elsewhere.iterdir()) == ["secret"]


def test_a_link_planted_after_the_check_is_not_followed_either(tmp_path) -> None:
    from soluna_tui.local.files import SaveError, file_lock, read_document_bytes, write_atomically

    target = tmp_path / "target"
    target.write_text("not the ban list\n")
    (tmp_path / "link").symlink_to(target)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for attempt in (lambda: read_document_bytes(tmp_path / "link", follow_links=False),
                    lambda: write_atomically(tmp_path / "link", "x", keep_access=True),
                    lambda: file_lock(tmp_path / "dangling", "the lock", follow_links=False).__enter__()):
        with pytest.raises(SaveError, match="is a symbolic link, not a file"):
            attempt()
    assert target.read_text() == "not the ban list\n" and not (tmp_path / "nowhere").exists()
    assert (tmp_path / "link").is_symlink()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_the_subcommand_run_as_root_keeps_the_files_owner_and_mode(tmp_path, capsys) -> None:
    path = tmp_path / "bans.txt"
    path.write_text("192.0.2.0/24\n")
    os.chown(path, 4321, 4322)  # the server's user, not root
    path.chmod(0o640)
    assert ban(tmp_path, "add", "198.51.100.7") == 0 and ban(tmp_path, "remove", "192.0.2.0/24") == 0
    status = path.stat()
    assert (status.st_uid, status.st_gid, oct(status.st_mode & 0o777)) == (4321, 4322, "0o640")
    assert "198.51.100.7" in path.read_text() and "192.0.2.0/24" not in path.read_text()
