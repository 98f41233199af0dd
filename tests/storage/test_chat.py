"""Table talk the store keeps, on SQLite and PostgreSQL: a line reported once per reporter and listed once with
its count, and the mutes kept with a key."""

from __future__ import annotations

from soluna_tui.server.storage import ChatMute, ChatRecord

LINE = ChatRecord(None, None, "lobby", "bob", None, "an innocent line", 1_800_000_000.0)
OTHER = ChatRecord("ABCD", 1_799_999_000.0, "players", "zed", "SHA256:zed", "rude", 1_800_000_050.0)


async def test_a_line_is_kept_once_per_reporter_and_listed_once_with_how_many_reported_it(store) -> None:
    reporters = [("ann", "SHA256:ann", "key:SHA256:ann"), ("cyd (guest)", None, "site:10.0.0.3"),
                 ("cyd (guest)", None, "site:10.0.0.3"), ("dan (guest)", None, "site:10.0.0.4")]
    added = []
    for seconds, (name, fingerprint, key) in enumerate(reporters):
        store.clock = lambda seconds=seconds: 1_800_000_100.0 + seconds
        added.append(await store.chat.report(LINE, name, fingerprint, "line-1", key))
    assert added == [True, True, False, True]
    store.clock = lambda: 1_800_000_090.0
    assert await store.chat.report(OTHER, "ann", "SHA256:ann", "line-2", "key:SHA256:ann")
    for _ in range(2):  # reports made before lines had a key: each apart, as they were
        assert await store.chat.report(OTHER, "eve", None)
    listed = await store.chat.reports()
    assert [(report.line.text, report.count, report.reporter) for report in listed] == [
        ("an innocent line", 3, "dan (guest)"), ("rude", 1, "eve"), ("rude", 1, "eve"), ("rude", 1, "ann")]
    assert listed[0].reported_at == 1_800_000_103.0
    assert [report.line.text for report in await store.chat.reports(1)] == ["an innocent line"]


async def test_a_key_s_mutes_are_kept_the_newest_within_the_most_and_let_go(store) -> None:
    for number in range(5):
        await store.chat.mute("SHA256:ann", ChatMute(f"key:SHA256:{number}", f"p{number}", 100.0 + number), 3)
    await store.chat.mute("SHA256:ann", ChatMute("key:SHA256:4", "renamed", 200.0), 3)  # again: the newest
    await store.chat.mute("SHA256:bob", ChatMute("site:10.0.0.3", "zed (guest)", 150.0), 3)
    assert await store.chat.mutes("SHA256:ann") == [ChatMute("key:SHA256:4", "renamed", 200.0),
                                                     ChatMute("key:SHA256:3", "p3", 103.0),
                                                     ChatMute("key:SHA256:2", "p2", 102.0)]
    await store.chat.unmute("SHA256:ann", "key:SHA256:3")
    assert [mute.speaker for mute in await store.chat.mutes("SHA256:ann")] == ["key:SHA256:4", "key:SHA256:2"]
    assert await store.chat.mutes("SHA256:bob") == [ChatMute("site:10.0.0.3", "zed (guest)", 150.0)]
    assert await store.chat.mutes("SHA256:cyd") == []
